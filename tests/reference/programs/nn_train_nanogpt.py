# karpathy/nanoGPT: model.py as it is (LayerNorm with optional bias, CausalSelfAttention on
# F.scaled_dot_product_attention(is_causal=True), MLP with GELU, Block, GPT with weight tying,
# _init_weights and the scaled c_proj init, get_num_params, configure_optimizers' AdamW groups,
# estimate_mfu, crop_block_size, generate with temperature and top_k) and train.py's loop
# (np.uint16 data, get_batch with torch.randint, cosine get_lr, gradient accumulation,
# clip_grad_norm_, estimate_loss) on a tiny config over a character dataset from a fixed string.
# The manual masked-softmax attention with its `bias` buffer (the path nanoGPT takes without
# scaled_dot_product_attention) runs on the same weights, then through crop_block_size; a second
# model trains with dropout 0.1 (dropout inside scaled_dot_product_attention).
# train.py's GradScaler and autocast are left out: on the CPU in float32 nanoGPT disables both.
# Within float32 rounding of 2.15's MKL matrix products and flash-attention kernel, which the
# training steps carry into the losses; the sampled tokens come from multinomial's argmax of
# p / q (q ~ Exp(1)) and agree as long as no draw lands within rounding of a tie.
# reference tolerance: rtol=1e-5 atol=1e-4
import inspect
import math
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F


# ---- model.py ---------------------------------------------------------------------------------
class LayerNorm(nn.Module):
    """ LayerNorm but with an optional bias. PyTorch doesn't support simply bias=False """

    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):

    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        # key, query, value projections for all heads, but in a batch
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        # output projection
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        # regularization
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        # flash attention make GPU go brrrrr but support is only in PyTorch >= 2.0
        self.flash = hasattr(torch.nn.functional, 'scaled_dot_product_attention')
        if not self.flash:
            print("WARNING: using slow attention. Flash Attention requires PyTorch >= 2.0")
            # causal mask to ensure that attention is only applied to the left in the input sequence
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                        .view(1, 1, config.block_size, config.block_size))

    def forward(self, x):
        B, T, C = x.size() # batch size, sequence length, embedding dimensionality (n_embd)

        # calculate query, key, values for all heads in batch and move head forward to be the batch dim
        q, k, v  = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)

        # causal self-attention; Self-attend: (B, nh, T, hs) x (B, nh, hs, T) -> (B, nh, T, T)
        if self.flash:
            # efficient attention using Flash Attention CUDA kernels
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
        else:
            # manual implementation of attention
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C) # re-assemble all head outputs side by side

        # output projection
        y = self.resid_dropout(self.c_proj(y))
        return y


class MLP(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.c_fc    = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu    = nn.GELU()
        self.c_proj  = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        x = self.c_fc(x)
        x = self.gelu(x)
        x = self.c_proj(x)
        x = self.dropout(x)
        return x


class Block(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304 # GPT-2 vocab_size of 50257, padded up to nearest multiple of 64 for efficiency
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = True # True: bias in Linears and LayerNorms, like GPT-2. False: a bit better and faster


class GPT(nn.Module):

    def __init__(self, config):
        super().__init__()
        assert config.vocab_size is not None
        assert config.block_size is not None
        self.config = config

        self.transformer = nn.ModuleDict(dict(
            wte = nn.Embedding(config.vocab_size, config.n_embd),
            wpe = nn.Embedding(config.block_size, config.n_embd),
            drop = nn.Dropout(config.dropout),
            h = nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f = LayerNorm(config.n_embd, bias=config.bias),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight # https://paperswithcode.com/method/weight-tying

        # init all weights
        self.apply(self._init_weights)
        # apply special scaled init to the residual projections, per GPT-2 paper
        for pn, p in self.named_parameters():
            if pn.endswith('c_proj.weight'):
                torch.nn.init.normal_(p, mean=0.0, std=0.02/math.sqrt(2 * config.n_layer))

        # report number of parameters
        print("number of parameters: %.2fM" % (self.get_num_params()/1e6,))

    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        device = idx.device
        b, t = idx.size()
        assert t <= self.config.block_size, f"Cannot forward sequence of length {t}, block size is only {self.config.block_size}"
        pos = torch.arange(0, t, dtype=torch.long, device=device) # shape (t)

        # forward the GPT model itself
        tok_emb = self.transformer.wte(idx) # token embeddings of shape (b, t, n_embd)
        pos_emb = self.transformer.wpe(pos) # position embeddings of shape (t, n_embd)
        x = self.transformer.drop(tok_emb + pos_emb)
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)

        if targets is not None:
            # if we are given some desired targets also calculate the loss
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            # inference-time mini-optimization: only forward the lm_head on the very last position
            logits = self.lm_head(x[:, [-1], :]) # note: using list [-1] to preserve the time dim
            loss = None

        return logits, loss

    def crop_block_size(self, block_size):
        # model surgery to decrease the block size if necessary
        assert block_size <= self.config.block_size
        self.config.block_size = block_size
        self.transformer.wpe.weight = nn.Parameter(self.transformer.wpe.weight[:block_size])
        for block in self.transformer.h:
            if hasattr(block.attn, 'bias'):
                block.attn.bias = block.attn.bias[:,:,:block_size,:block_size]

    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
        # start with all of the candidate parameters
        param_dict = {pn: p for pn, p in self.named_parameters()}
        # filter out those that do not require grad
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        # create optim groups. Any parameters that is 2D will be weight decayed, otherwise no.
        # i.e. all weight tensors in matmuls + embeddings decay, all biases and layernorms don't.
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [
            {'params': decay_params, 'weight_decay': weight_decay},
            {'params': nodecay_params, 'weight_decay': 0.0}
        ]
        num_decay_params = sum(p.numel() for p in decay_params)
        num_nodecay_params = sum(p.numel() for p in nodecay_params)
        print(f"num decayed parameter tensors: {len(decay_params)}, with {num_decay_params:,} parameters")
        print(f"num non-decayed parameter tensors: {len(nodecay_params)}, with {num_nodecay_params:,} parameters")
        # Create AdamW optimizer and use the fused version if it is available
        fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
        use_fused = fused_available and device_type == 'cuda'
        extra_args = dict(fused=True) if use_fused else dict()
        optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)
        print(f"using fused AdamW: {use_fused}")

        return optimizer

    def estimate_mfu(self, fwdbwd_per_iter, dt):
        """ estimate model flops utilization (MFU) in units of A100 bfloat16 peak FLOPS """
        N = self.get_num_params()
        cfg = self.config
        L, H, Q, T = cfg.n_layer, cfg.n_head, cfg.n_embd//cfg.n_head, cfg.block_size
        flops_per_token = 6*N + 12*L*H*Q*T
        flops_per_fwdbwd = flops_per_token * T
        flops_per_iter = flops_per_fwdbwd * fwdbwd_per_iter
        # express our flops throughput as ratio of A100 bfloat16 peak flops
        flops_achieved = flops_per_iter * (1.0/dt) # per second
        flops_promised = 312e12 # A100 GPU bfloat16 peak flops is 312 TFLOPS
        mfu = flops_achieved / flops_promised
        return mfu

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            # if the sequence context is growing too long we must crop it at block_size
            idx_cond = idx if idx.size(1) <= self.config.block_size else idx[:, -self.config.block_size:]
            # forward the model to get the logits for the index in the sequence
            logits, _ = self(idx_cond)
            # pluck the logits at the final step and scale by desired temperature
            logits = logits[:, -1, :] / temperature
            # optionally crop the logits to top k options
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            # apply softmax to convert logits to (normalized) probabilities
            probs = F.softmax(logits, dim=-1)
            # sample from the distribution
            idx_next = torch.multinomial(probs, num_samples=1)
            # append sampled index to the sequence and continue
            idx = torch.cat((idx, idx_next), dim=1)

        return idx


# ---- data/shakespeare_char/prepare.py, on a fixed string ---------------------------------------
text = """First Citizen:
Before we proceed any further, hear me speak.

All:
Speak, speak.

First Citizen:
You are all resolved rather to die than to famish?

All:
Resolved. resolved.

First Citizen:
First, you know Caius Marcius is chief enemy to the people.

All:
We know't, we know't.

First Citizen:
Let us kill him, and we'll have corn at our own price.
Is't a verdict?

All:
No more talking on't; let it be done: away, away!
"""
# the 65 characters of tiny Shakespeare, so that vocab_size is its 65
chars = sorted(set(text + "\n !$&',-.3:;?" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "abcdefghijklmnopqrstuvwxyz"))
vocab_size = len(chars)
print(f"length of dataset in characters: {len(text):,}")
print(f"vocab size: {vocab_size:,}")
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: ''.join([itos[i] for i in l])
n = len(text)
train_ids = np.array(encode(text[:int(n * 0.9)]), dtype=np.uint16)
val_ids = np.array(encode(text[int(n * 0.9):]), dtype=np.uint16)
print(f"train has {len(train_ids):,} tokens")
print(f"val has {len(val_ids):,} tokens")

# ---- train.py --------------------------------------------------------------------------------
eval_iters = 2
log_interval = 1
gradient_accumulation_steps = 2
batch_size = 4
block_size = 16
n_layer = 2
n_head = 2
n_embd = 32
bias = True
learning_rate = 1e-2
max_iters = 10
weight_decay = 1e-1
beta1 = 0.9
beta2 = 0.99
grad_clip = 1.0
decay_lr = True
warmup_iters = 2
lr_decay_iters = 10
min_lr = 1e-3
eval_interval = 5
device = 'cpu'
device_type = 'cpu'
ctx = nullcontext()


def get_batch(split):
    data = train_ids if split == 'train' else val_ids
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ['train', 'val']:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


def get_lr(it):
    # 1) linear warmup for warmup_iters steps
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    # 2) if it > lr_decay_iters, return min learning rate
    if it > lr_decay_iters:
        return min_lr
    # 3) in between, use cosine decay down to min learning rate
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio)) # coeff ranges 0..1
    return min_lr + coeff * (learning_rate - min_lr)


def train(model, optimizer):
    X, Y = get_batch('train') # fetch the very first batch
    iter_num = 0
    while True:
        # determine and set the learning rate for this iteration
        lr = get_lr(iter_num) if decay_lr else learning_rate
        for param_group in optimizer.param_groups:
            param_group['lr'] = lr
        if iter_num % eval_interval == 0:
            losses = estimate_loss()
            print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                logits, loss = model(X, Y)
                loss = loss / gradient_accumulation_steps # scale the loss to account for gradient accumulation
            X, Y = get_batch('train')
            loss.backward()
        if grad_clip != 0.0:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if iter_num % log_interval == 0:
            lossf = loss.item() * gradient_accumulation_steps
            print(f"iter {iter_num}: loss {lossf:.4f}, lr {lr:.6f}, grad norm {norm.item():.4f}")
        iter_num += 1
        if iter_num > max_iters:
            break


torch.manual_seed(1337)
model_args = dict(n_layer=n_layer, n_head=n_head, n_embd=n_embd, block_size=block_size,
                  bias=bias, vocab_size=vocab_size, dropout=0.0)
gptconf = GPTConfig(**model_args)
model = GPT(gptconf)
print(model)
print("tied", model.transformer.wte.weight is model.lm_head.weight,
      [name for name, _ in model.named_parameters()][:3], len(list(model.parameters())))
print("params", model.get_num_params(), model.get_num_params(non_embedding=False))
print("init std", f"{model.lm_head.weight.std().item():.4f}",
      f"{model.transformer.h[0].attn.c_proj.weight.std().item():.4f}",
      f"{model.transformer.h[1].mlp.c_fc.weight.std().item():.4f}")
print("fused in AdamW signature:", 'fused' in inspect.signature(torch.optim.AdamW).parameters)
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), device_type)
print(optimizer)
print("param groups", [len(g['params']) for g in optimizer.param_groups],
      [sum(p.numel() for p in g['params']) for g in optimizer.param_groups],
      [g['weight_decay'] for g in optimizer.param_groups])
print("mfu", f"{model.estimate_mfu(batch_size * gradient_accumulation_steps, 0.5) * 100:.6f}%")
train(model, optimizer)
losses = estimate_loss()
print(f"final: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
print("AdamW state", sorted(optimizer.state[model.lm_head.weight].keys()),
      optimizer.state[model.lm_head.weight]['step'])

# sample: nanoGPT's sample.py (model.eval(), start "\n", temperature 0.8, top_k 200 and 5)
model.eval()
start_ids = encode("\n")
x = torch.tensor(start_ids, dtype=torch.long, device=device)[None, ...]
with torch.no_grad():
    with ctx:
        y = model.generate(x, 20, temperature=0.8, top_k=200)
        print(repr(decode(y[0].tolist())))
        y = model.generate(torch.tensor([encode("First ")]), 20, temperature=0.8, top_k=5)
        print(repr(decode(y[0].tolist())))
print("generate grad mode", y.requires_grad, torch.is_grad_enabled())

# the manual attention path with its registered `bias` buffer, on the same weights
torch.manual_seed(42)
X, Y = get_batch('val')
with torch.no_grad():
    flash_logits, flash_loss = model(X, Y)
for block in model.transformer.h:
    block.attn.flash = False
    block.attn.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                               .view(1, 1, block_size, block_size))
print([name for name, _ in model.named_buffers()])
print(sorted(k for k in model.state_dict() if k.endswith('attn.bias')))
with torch.no_grad():
    manual_logits, manual_loss = model(X, Y)
print(f"flash loss {flash_loss.item():.4f}, manual loss {manual_loss.item():.4f}, "
      f"close {torch.allclose(flash_logits, manual_logits, atol=1e-5)}")
model.train()
optimizer.zero_grad(set_to_none=True)
_, loss = model(X, Y)
loss.backward()
print(f"manual path grad norm {torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item():.4f}")

# crop_block_size: the position embedding and the buffers shrink to 8
model.crop_block_size(8)
print(model.config.block_size, tuple(model.transformer.wpe.weight.shape),
      tuple(model.transformer.h[0].attn.bias.shape), model.transformer.h[0].attn.bias[0, 0].sum().item())
print("params after crop", model.get_num_params(), model.get_num_params(False))
model.eval()
with torch.no_grad():
    try:
        model(X[:, :8], Y[:, :8])  # targets.view(-1) of a non-contiguous slice
    except RuntimeError as e:
        print("RuntimeError:", e)
    logits, loss = model(X[:, :8], Y[:, :8].contiguous())
print(f"cropped loss {loss.item():.4f}", tuple(logits.shape))
try:
    model(X)
except AssertionError as e:
    print("AssertionError:", e)
torch.manual_seed(7)
y = model.generate(torch.tensor([encode("All:\n")]), 12, temperature=1.0, top_k=10)
print(repr(decode(y[0].tolist())), y.shape)

# dropout 0.1: nn.Dropout and the dropout inside scaled_dot_product_attention
torch.manual_seed(1337)
model = GPT(GPTConfig(**dict(model_args, dropout=0.1)))
print(model.transformer.drop, model.transformer.h[0].attn.dropout, model.training)
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), device_type)
max_iters = 4
eval_interval = 4
train(model, optimizer)
model.eval()
torch.manual_seed(3)
X, Y = get_batch('train')
with torch.no_grad():
    a, la = model(X, Y)
    b, lb = model(X, Y)
print(f"eval loss {la.item():.4f}", torch.equal(a, b))
