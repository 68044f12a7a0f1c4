# nn.MultiheadAttention (masks, weights per head, kdim / vdim, bias_kv, zero_attn, batch_first,
# unbatched), F.multi_head_attention_forward and the Transformer family: printed forms,
# state_dict keys, PyTorch's initialisation after manual_seed, outputs and gradients in training
# (dropout's draws in PyTorch's order), causal masks, the nested-tensor path's zeros, errors.
# Within float32 rounding: the projections and attention are matrix products (MKL in 2.15).
# reference tolerance: rtol=2e-5 atol=3e-5
import warnings

import torch
import torch.nn.functional as F
from torch import nn


def s(t):  # a few values, a weighted sum (weights -3..3) and the shape
    w = (torch.arange(t.numel()) % 7 - 3).view(t.shape)
    return [round(v, 5) for v in t.flatten().tolist()[:4]], round((t * w).sum().item(), 4), tuple(t.shape)


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__, e)


torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
print(mha, list(mha.state_dict()), sum(p.numel() for p in mha.parameters()), s(mha.in_proj_weight.detach()))
q, kv = torch.randn(5, 2, 8, requires_grad=True), torch.randn(3, 2, 8)
kpm = torch.tensor([[False, False, True], [False, False, False]])
out, w = mha(q, kv, kv)
print("mha", s(out), s(w), "per head", s(mha(q, kv, kv, average_attn_weights=False)[1]))
print("kpm", s(mha(q, kv, kv, key_padding_mask=kpm)[0]), mha(q, kv, kv, need_weights=False)[1])
print("bool mask", s(mha(q, kv, kv, attn_mask=torch.rand(5, 3) > 0.7, key_padding_mask=kpm, need_weights=False)[0]))
print("float mask", s(mha(q, kv, kv, attn_mask=torch.randn(5, 3))[1]))
(out * torch.arange(80.0).view(5, 2, 8).cos()).sum().backward()
print("grads", s(q.grad), s(mha.in_proj_weight.grad), s(mha.out_proj.bias.grad))
mkv = nn.MultiheadAttention(8, 2, kdim=6, vdim=5, add_bias_kv=True, add_zero_attn=True, batch_first=True)
o_kv = mkv(q.transpose(0, 1), torch.randn(2, 3, 6), torch.randn(2, 3, 5))
print(list(mkv.state_dict()), s(mkv.bias_k.detach()), s(o_kv[0]), s(o_kv[1]))
print("unbatched", s(mha(q[:, 0], kv[:, 0], kv[:, 0], key_padding_mask=kpm[0])[0]))
fo = F.multi_head_attention_forward(q, kv, kv, 8, 2, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
                                    mha.out_proj.weight, mha.out_proj.bias, need_weights=False)
print("functional", s(fo[0]), torch.equal(fo[0], mha(q, kv, kv, need_weights=False)[0]))
for label, f in [("value", lambda: mha(q, kv, kv[:2])), ("mask", lambda: mha(q, kv, kv, attn_mask=torch.zeros(4, 3))),
                 ("4d", lambda: mha(q.view(5, 2, 2, 4), kv, kv)), ("ctor", lambda: nn.MultiheadAttention(8, 3)),
                 ("kpm", lambda: mha(q, kv, kv, key_padding_mask=kpm.long())),
                 ("causal", lambda: mha(q, kv, kv, is_causal=True))]:
    attempt("err " + label, f)
print(nn.Transformer.generate_square_subsequent_mask(4))
with warnings.catch_warnings(record=True) as ws:  # the nested-tensor path's warnings
    warnings.simplefilter("always")
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, "gelu", norm_first=True), 2, nn.LayerNorm(8))
    torch.manual_seed(1)
    t = nn.Transformer(8, 2, 2, 1, 16, dropout=0.0)
    eenc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2)
print([str(w.message) for w in ws])
print(enc, s(enc(q.detach(), mask=nn.Transformer.generate_square_subsequent_mask(5))))
print(t.decoder, sum(p.numel() for p in t.parameters()), s(t.encoder.layers[1].linear1.weight.detach()))
src, tgt = torch.randn(6, 2, 8), torch.randn(4, 2, 8)
src_kpm = torch.tensor([[False] * 5 + [True], [False] * 6])
y = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(4), src_key_padding_mask=src_kpm)
(y * torch.arange(64.0).view(4, 2, 8).sin()).sum().backward()
print("transformer", s(y), s(t.encoder.layers[0].self_attn.in_proj_weight.grad), s(t.decoder.norm.weight.grad))
dec = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
print(list(dec.state_dict())[:8], s(dec(q.detach().transpose(0, 1), kv.transpose(0, 1), memory_key_padding_mask=kpm)))
torch.manual_seed(2)
td = nn.Transformer(8, 2, 1, 1, 16, dropout=0.2, batch_first=True, activation=F.gelu)
print("dropout", s(td(src.transpose(0, 1), tgt.transpose(0, 1))), torch.rand(1).item())
attempt("err batch", lambda: t(src, tgt[:, :1])), attempt("err d_model", lambda: t(src[..., :4], tgt))
# nanoGPT's causal self-attention: the first positions do not see the later ones
blk = nn.TransformerEncoderLayer(8, 2, 32, 0.0, "gelu", batch_first=True, norm_first=True)
x, causal = torch.randn(2, 5, 8), nn.Transformer.generate_square_subsequent_mask(5)
x2 = torch.cat([x[:, :4], x[:, 4:] + 1.0], 1)
a, b = blk(x, src_mask=causal, is_causal=True), blk(x2, src_mask=causal, is_causal=True)
print("causal", s(a), torch.allclose(a[:, :4], b[:, :4]), bool((a[:, 4] - b[:, 4]).abs().max() > 0.01))
with torch.no_grad(), warnings.catch_warnings():
    warnings.simplefilter("ignore")  # PyTorch's nested tensors warn that they are a prototype
    e = eenc.eval()(x, src_key_padding_mask=torch.tensor([[False] * 3 + [True] * 2, [False] * 5]))
print("nested zeros", e[0, 3:].abs().sum().item(), s(e[:, :3]))
