# torch.nn's layers beyond Linear: Conv1d/2d/3d and ConvTranspose (padding strings and modes,
# groups, output_size), the pooling layers, BatchNorm (running statistics in training and eval,
# momentum=None, without tracking), LayerNorm, GroupNorm, Embedding (padding_idx,
# from_pretrained), Dropout, Flatten / Unflatten, Upsample, and torch.nn.utils (clip_grad_norm_,
# clip_grad_value_, parameters_to_vector, pad_sequence): printed forms, default initialisation
# after manual_seed (the same draws as PyTorch), state_dict keys, outputs and gradients, errors.
# Within float32 rounding: PyTorch 2.15 convolves with MKL-DNN and this project with OpenBLAS.
# reference tolerance: rtol=2e-5 atol=1e-6
import warnings

import torch
from torch import nn

warnings.simplefilter("ignore")  # padding="same" with an even kernel warns
torch.manual_seed(0)


def attempt(label, f, message=True):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e if message else "")  # some messages print a set, in no fixed order


def summary(t):
    return [round(v, 5) for v in t.flatten().tolist()[:6]], round(t.sum().item(), 4), tuple(t.shape)


def run(label, m, x):
    print(label, m)
    for name, p in m.named_parameters():
        print("  param", name, summary(p.detach()))
    x = x.clone().requires_grad_()
    y = m(x)
    y = y[0] if isinstance(y, tuple) else y
    (y * torch.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
    print("  out", summary(y.detach()), "grad", summary(x.grad))
    for name, p in m.named_parameters():
        if p.grad is not None:
            print("  grad", name, summary(p.grad))


run("conv1d", nn.Conv1d(2, 3, 3, stride=2, padding=1), torch.randn(2, 2, 9))
run("conv2d", nn.Conv2d(3, 4, (3, 2), padding=(1, 0), dilation=(1, 2), groups=1, bias=False), torch.randn(1, 3, 6, 7))
run("conv2d groups", nn.Conv2d(4, 6, 3, groups=2), torch.randn(1, 4, 5, 5))
run("conv2d same", nn.Conv2d(2, 2, 4, padding="same"), torch.randn(1, 2, 6, 6))
run("conv2d valid", nn.Conv2d(2, 2, 3, padding="valid"), torch.randn(1, 2, 5, 5))
for mode in ["reflect", "replicate", "circular"]:
    run("conv2d " + mode, nn.Conv2d(1, 2, 3, padding=1, padding_mode=mode), torch.randn(1, 1, 4, 5))
run("conv3d", nn.Conv3d(1, 2, 2), torch.randn(1, 1, 3, 3, 3))
run("conv_transpose1d", nn.ConvTranspose1d(2, 3, 3, stride=2), torch.randn(1, 2, 4))
run("conv_transpose2d", nn.ConvTranspose2d(2, 2, 3, stride=2, padding=1, output_padding=1), torch.randn(1, 2, 3, 3))
ct = nn.ConvTranspose2d(1, 1, 3, stride=2)
print("output_size", ct(torch.randn(1, 1, 3, 3), output_size=[8, 8]).shape)
attempt("output_size out of range", lambda: ct(torch.randn(1, 1, 3, 3), output_size=[12, 12]))
attempt("groups", lambda: nn.Conv2d(3, 4, 3, groups=2))
attempt("groups 0", lambda: nn.Conv2d(3, 4, 3, groups=0))
attempt("padding string", lambda: nn.Conv2d(3, 4, 3, padding="full"), False)
attempt("strided same", lambda: nn.Conv2d(3, 4, 3, padding="same", stride=2))
attempt("padding_mode", lambda: nn.Conv2d(3, 4, 3, padding_mode="mirror"), False)
attempt("transposed padding_mode", lambda: nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"))

run("max_pool1d", nn.MaxPool1d(3, stride=2, padding=1), torch.randn(1, 2, 9))
run("max_pool2d", nn.MaxPool2d(2), torch.randn(1, 2, 5, 5))
run("max_pool2d ceil", nn.MaxPool2d(3, 2, ceil_mode=True, return_indices=True), torch.randn(1, 1, 6, 6))
run("max_pool3d", nn.MaxPool3d(2), torch.randn(1, 1, 4, 4, 4))
run("avg_pool1d", nn.AvgPool1d(3, stride=1, padding=1, count_include_pad=False), torch.randn(1, 2, 5))
run("avg_pool2d", nn.AvgPool2d(2, divisor_override=3), torch.randn(1, 2, 4, 4))
run("avg_pool3d", nn.AvgPool3d(2, ceil_mode=True), torch.randn(1, 1, 3, 3, 3))
run("adaptive_avg_pool1d", nn.AdaptiveAvgPool1d(3), torch.randn(1, 2, 7))
run("adaptive_avg_pool2d", nn.AdaptiveAvgPool2d((2, 3)), torch.randn(1, 2, 5, 7))
run("adaptive_avg_pool3d", nn.AdaptiveAvgPool3d(1), torch.randn(1, 2, 3, 3, 3))

bn = nn.BatchNorm2d(3)
run("batch_norm2d", bn, torch.randn(4, 3, 2, 2) * 2 + 1)
print("  running", summary(bn.running_mean), summary(bn.running_var), bn.num_batches_tracked)
bn.eval()
run("batch_norm2d eval", bn, torch.randn(2, 3, 2, 2))
run("batch_norm1d 2-D", nn.BatchNorm1d(4, momentum=None), torch.randn(5, 4))
run("batch_norm1d 3-D no stats", nn.BatchNorm1d(2, track_running_stats=False, affine=False), torch.randn(3, 2, 4))
run("batch_norm3d no bias", nn.BatchNorm3d(2, bias=False), torch.randn(2, 2, 2, 2, 2))
attempt("batch_norm2d 3-D input", lambda: nn.BatchNorm2d(3)(torch.randn(3, 3, 3)))
attempt("batch_norm1d 4-D input", lambda: nn.BatchNorm1d(3)(torch.randn(1, 3, 3, 3)))
run("layer_norm", nn.LayerNorm(5), torch.randn(3, 5))
run("layer_norm 2 dims no bias", nn.LayerNorm([2, 3], bias=False), torch.randn(2, 2, 3))
run("layer_norm no affine", nn.LayerNorm(4, elementwise_affine=False, eps=1e-3), torch.randn(2, 4))
run("group_norm", nn.GroupNorm(2, 4), torch.randn(2, 4, 3))
run("group_norm no affine", nn.GroupNorm(1, 3, affine=False), torch.randn(2, 3, 2, 2))
attempt("group_norm channels", lambda: nn.GroupNorm(3, 4))

emb = nn.Embedding(6, 3, padding_idx=-2)
print("embedding", emb, emb.padding_idx, summary(emb.weight.detach()), emb.weight[4].tolist())
idx = torch.tensor([[0, 4, 5], [4, 1, 1]])
out = emb(idx)
(out * torch.arange(18.0).view(2, 3, 3)).sum().backward()
print("  out", summary(out.detach()), "grad", emb.weight.grad.tolist())
print("embedding max_norm", nn.Embedding(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True))
pre = nn.Embedding.from_pretrained(torch.arange(6.0).view(3, 2))
print("from_pretrained", pre, pre.weight.requires_grad, pre(torch.tensor([2, 0])).tolist())
print("from_pretrained trainable", nn.Embedding.from_pretrained(torch.ones(2, 2), freeze=False).weight.requires_grad)
attempt("from_pretrained 1-D", lambda: nn.Embedding.from_pretrained(torch.ones(3)))

drop = nn.Dropout(0.3)
print("dropout", drop, drop(torch.ones(2, 6)).tolist())
drop.eval()
print("dropout eval", drop(torch.ones(2, 3)).tolist())
print("dropout2d", nn.Dropout2d(0.5)(torch.ones(1, 4, 2, 2)).flatten().tolist())
attempt("dropout p", lambda: nn.Dropout(1.5))
print("flatten", nn.Flatten(), nn.Flatten()(torch.zeros(2, 3, 4)).shape, nn.Flatten(0, 1)(torch.zeros(2, 3, 4)).shape)
print("unflatten", nn.Unflatten(1, (2, 3)), nn.Unflatten(1, (2, -1))(torch.zeros(4, 6, 5)).shape)
up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print("upsample", up, nn.Upsample(size=(3, 5)), up(torch.arange(4.0).view(1, 1, 2, 2)).flatten().tolist())

torch.manual_seed(1)
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
                      nn.Flatten(), nn.Linear(4 * 4 * 4, 10))
print(model)
print("state_dict", [(k, tuple(v.shape)) for k, v in model.state_dict().items()])
loss = nn.CrossEntropyLoss()(model(torch.randn(2, 1, 8, 8)), torch.tensor([3, 7]))
loss.backward()
print("loss", round(loss.item(), 5))
total = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
print("clip_grad_norm_", round(total.item(), 4), round(nn.utils.get_total_norm([p.grad for p in model.parameters()]).item(), 4))
nn.utils.clip_grad_value_(model.parameters(), 0.01)
print("clip_grad_value_", max(p.grad.abs().max().item() for p in model.parameters()))
vec = nn.utils.parameters_to_vector(model.parameters())
print("parameters_to_vector", vec.shape, round(vec.sum().item(), 4))
nn.utils.vector_to_parameters(torch.zeros_like(vec), model.parameters())
print("vector_to_parameters", sum(p.abs().sum().item() for p in model.parameters()))
seqs = [torch.tensor([1.0, 2, 3]), torch.tensor([4.0]), torch.tensor([5.0, 6])]
print("pad_sequence", nn.utils.rnn.pad_sequence(seqs).tolist(), nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1).tolist())
print("pad_sequence left", nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_side="left").tolist())
