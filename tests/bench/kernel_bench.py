#!/usr/bin/env python3
"""Kernel speed, side by side (issue 32, "kernels at PyTorch's speed"): the same timeit lines on
Inside PyTorch (`inside-pytorch run`, the project's torch over its own tensor runtime) and on the
reference PyTorch 2.15 (scripts/reference-python, made by scripts/reference-env), at several
sizes and two thread settings. Prints, per thread setting, each case's time per call on both and
the ratio (Inside / PyTorch), then the geometric mean of the ratios, how many cases are slower
than PyTorch (ratio > 1.0) and the worst ratios.

    python3 tests/bench/kernel_bench.py --exe build/app/inside-pytorch
        [--threads {default,1,both}] [--sizes 1,1K,1M,16M] [--filter REGEX]
        [--rounds 3] [--repeat 2] [--quick] [--json FILE]

    # a smoke run: two cases, one size, a tiny timing budget
    python3 tests/bench/kernel_bench.py --exe build/app/inside-pytorch --quick \\
        --filter '^(a \\+ b|a\\.sum\\(\\))$' --sizes 1K

    # before / after a kernel change: keep both JSON files and compare them
    python3 tests/bench/kernel_bench.py --exe build/app/inside-pytorch --json before.json

The cases: pointwise ops (binary, with a scalar, unary, torch.nn's activations, dtype
conversions, a permuted clone, maximum / fmod, comparisons, where), full reductions,
per-dim reductions on a 2-D view, the softmax family on (rows, 1000), indexing, random fills,
cat / stack, square float32 mm at 64, 256 and 1024, and one training step of a 784-256-10 MLP
(batch 64, SGD written by hand under torch.no_grad), of a LeNet-size CNN (torch.nn, SGD with
momentum) and of a nanoGPT-shaped GPT (2 layers of 128, AdamW, gradient clipping). Inputs are float32, made after
torch.manual_seed(0). Element-count sizes are 1, 1K (1024), 1M (1 << 20) and 16M (1 << 24); the
per-dim cases use 32x32, 1024x1024 and 4096x4096; 16M is timed for a subset of the cases only
(marked in CASES) to keep the full run short; a size that makes no sense for a case is skipped
(the variance of one element, the per-dim cases at one element). The softmax family, mm, the
MLP and the nn layers (conv2d, max_pool2d, layer_norm, embedding) have their own sizes, which
--sizes does not choose.

Threads. "1": OMP_NUM_THREADS=MKL_NUM_THREADS=1. "default": both set to the thread count the
reference's torch.get_num_threads() gives with OMP_NUM_THREADS and MKL_NUM_THREADS unset (found
by running the reference venv's python directly, since scripts/reference-python sets 1 when
OMP_NUM_THREADS is unset; --default-threads N overrides it). On the 2-core development machine
that count is 2 (PyTorch's default is the number of physical cores). Inside PyTorch gets the
same environment and, when its torch has set_num_threads, a torch.set_num_threads(n) call; the
table header shows what each side's torch.get_num_threads() reports ("?" where it has none).

A case that raises (an operator Inside PyTorch does not have yet, say) is printed as "missing",
with its error listed under the table; the same on the reference. A case that crashes the
process is marked the same way and the run goes on with the next case.

Timing: both sides run as long-lived processes that take one case at a time. Each case goes to
both in turn, --rounds times (the side that goes first alternates), so that a slow minute of a
shared machine falls on both sides and not on one. The first round finds the call count with
timeit's autorange (1, 2, 5, 10, 20, ... calls until one run takes --min-time seconds: 0.1 s for
sizes up to 1K, 0.05 s above; --quick makes it 0.005 s); each round times --repeat runs of that
many calls, and a case's time is the best run of all rounds. A full default run takes about ten
minutes on a 2-core machine; run it on an otherwise idle machine. Nothing here is asserted in a
test: times are reported, never checked in CTest.
"""
import argparse
import json
import math
import os
import re
import select
import subprocess
import sys
import tempfile
import time

SIZES = {"1": 1, "1K": 1 << 10, "1M": 1 << 20, "16M": 1 << 24}
SIZE_ORDER = ["1", "1K", "1M", "16M"]
# The 2-D shape the per-dim cases (and gather) use for an element count.
GRIDS = {"1K": (32, 32), "1M": (1024, 1024), "16M": (4096, 4096)}

# Setups shared by the element-count cases; `n` is the element count, `r`, `c` a 2-D shape.
AB = "torch.manual_seed(0); a = torch.randn(n); b = torch.randn(n)"
A = "torch.manual_seed(0); a = torch.randn(n)"
APOS = "torch.manual_seed(0); a = torch.rand(n) + 0.5"
AM = "torch.manual_seed(0); a = torch.randn(n); b = torch.randn(n); m = a > 0"
X2 = "torch.manual_seed(0); x = torch.randn(n).view(r, c)"

ALL = ("1", "1K", "1M", "16M")
NO16 = ("1", "1K", "1M")
BIG = ALL  # the subset timed at 16M too

# Element-count cases: (name, sizes, setup, statement).
ELEMENT_CASES = [
    # pointwise, binary
    ("a + b", BIG, AB, "a + b"),
    ("a - b", NO16, AB, "a - b"),
    ("a * b", BIG, AB, "a * b"),
    ("a / b", NO16, AB, "a / b"),
    ("a * 2.0", BIG, A, "a * 2.0"),
    ("a + 1.0", NO16, A, "a + 1.0"),
    ("torch.add(a, b, alpha=2)", NO16, AB, "torch.add(a, b, alpha=2)"),
    # pointwise, unary
    ("-a", NO16, A, "-a"),
    ("a.abs()", NO16, A, "a.abs()"),
    ("a.exp()", BIG, A, "a.exp()"),
    ("a.log()", NO16, APOS, "a.log()"),
    ("a.tanh()", NO16, A, "a.tanh()"),
    ("a.sigmoid()", BIG, A, "a.sigmoid()"),
    ("a.sqrt()", NO16, APOS, "a.sqrt()"),
    ("a.relu()", BIG, A, "a.relu()"),
    ("a.clamp(-0.5, 0.5)", NO16, A, "a.clamp(-0.5, 0.5)"),
    ("a.pow(2)", NO16, A, "a.pow(2)"),
    ("a.pow(3)", NO16, A, "a.pow(3)"),
    # the activations of torch.nn (a vector lambda over SLEEF in PyTorch's kernels)
    ("F.gelu(a)", ("1K", "1M"), A, "torch.nn.functional.gelu(a)"),
    ("F.silu(a)", ("1K", "1M"), A, "torch.nn.functional.silu(a)"),
    ("F.leaky_relu(a, 0.2)", ("1K", "1M"), A, "torch.nn.functional.leaky_relu(a, 0.2)"),
    ("F.elu(a)", ("1K", "1M"), A, "torch.nn.functional.elu(a)"),
    ("F.softplus(a)", ("1K", "1M"), A, "torch.nn.functional.softplus(a)"),
    ("F.logsigmoid(a)", ("1K", "1M"), A, "torch.nn.functional.logsigmoid(a)"),
    # conversions, layouts and the binary math beyond arithmetic
    ("a.to(torch.float16)", NO16, A, "a.to(torch.float16)"),
    ("x.permute(1, 0).clone()", ("1K", "1M"), X2, "x.permute(1, 0).clone()"),
    ("torch.maximum(a, b)", NO16, AB, "torch.maximum(a, b)"),
    ("torch.fmod(a, b)", ("1K", "1M"), AB, "torch.fmod(a, b)"),
    # comparisons, where
    ("a > 1.0", BIG, A, "a > 1.0"),
    ("a == b", NO16, AB, "a == b"),
    ("torch.where(m, a, b)", BIG, AM, "torch.where(m, a, b)"),
    # full reductions
    ("a.sum()", BIG, A, "a.sum()"),
    ("a.mean()", NO16, A, "a.mean()"),
    ("a.max()", BIG, A, "a.max()"),
    ("a.argmax()", NO16, A, "a.argmax()"),
    ("a.var()", ("1K", "1M", "16M"), A, "a.var()"),
    ("a.norm()", NO16, A, "a.norm()"),
    ("a.prod()", NO16, APOS, "a.prod()"),
    ("(a > 0).any()", NO16, A, "(a > 0).any()"),
    ("a.cumsum(0)", NO16, A, "a.cumsum(0)"),
    # per-dim reductions on a 2-D view (r x c = n)
    ("x.sum(dim=1)", ("1K", "1M", "16M"), X2, "x.sum(dim=1)"),
    ("x.sum(dim=0)", ("1K", "1M", "16M"), X2, "x.sum(dim=0)"),
    ("x.max(dim=1)", ("1K", "1M"), X2, "x.max(dim=1)"),
    ("x - m (m: rows x 1)", ("1K", "1M"), X2 + "; m = x.amax(1, keepdim=True)", "x - m"),
    ("x.prod(dim=1)", ("1K", "1M"), X2, "x.prod(dim=1)"),
    ("x.amax(dim=0)", ("1K", "1M"), X2, "x.amax(dim=0)"),
    ("x.amax(dim=1)", ("1K", "1M"), X2, "x.amax(dim=1)"),
    ("torch.logsumexp(x, 1)", ("1K", "1M"), X2, "torch.logsumexp(x, 1)"),
    ("x.cumsum(dim=0)", ("1K", "1M"), X2, "x.cumsum(dim=0)"),
    # indexing
    ("x[idx]", ("1K", "1M"),
     "torch.manual_seed(0); x = torch.randn(n); idx = torch.randint(0, n, (n,))", "x[idx]"),
    ("x.index_select(0, idx)", ("1K", "1M"),
     "torch.manual_seed(0); x = torch.randn(n // 64, 64); idx = torch.randint(0, n // 64, (n // 64,))",
     "x.index_select(0, idx)"),
    ("torch.gather(x, 1, idx)", ("1K", "1M"),
     "torch.manual_seed(0); x = torch.randn(r, c); idx = torch.randint(0, c, (r, c))",
     "torch.gather(x, 1, idx)"),
    ("x.masked_select(m)", ("1K", "1M"),
     "torch.manual_seed(0); x = torch.randn(n); m = x > 0", "x.masked_select(m)"),
    # random
    ("torch.rand(n)", BIG, "torch.manual_seed(0)", "torch.rand(n)"),
    ("torch.randn(n)", BIG, "torch.manual_seed(0)", "torch.randn(n)"),
    ("torch.empty(n).normal_()", NO16, "torch.manual_seed(0)", "torch.empty(n).normal_()"),
    ("torch.empty(n).bernoulli_(0.5)", NO16, "torch.manual_seed(0)", "torch.empty(n).bernoulli_(0.5)"),
    # joining
    ("torch.cat([a, b])", NO16, AB, "torch.cat([a, b])"),
    ("torch.stack([a, b])", NO16, AB, "torch.stack([a, b])"),
]

# Cases with their own sizes: (name, [(size label, {variables}), ...], setup, statement).
SOFTMAX_ROWS = [("64x1000", {"rows": 64}), ("1024x1000", {"rows": 1024})]
SX = "torch.manual_seed(0); x = torch.randn(rows, 1000); t = torch.randint(0, 1000, (rows,))"
MLP_SETUP = r'''
torch.manual_seed(0)
w1 = torch.randn(784, 256) * 0.05; w1.requires_grad = True
b1 = torch.zeros(256); b1.requires_grad = True
w2 = torch.randn(256, 10) * 0.05; w2.requires_grad = True
b2 = torch.zeros(10); b2.requires_grad = True
params = [w1, b1, w2, b2]
xb = torch.randn(64, 784)
yb = torch.randint(0, 10, (64,))
lr = 0.01
def step():
    h = (xb @ w1 + b1).relu()
    loss = torch.nn.functional.cross_entropy(h @ w2 + b2, yb)
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
'''
# Issue 34's training steps: a LeNet-size CNN and a nanoGPT-shaped GPT (2 layers, 4 heads, 128
# wide, 64 tokens of context, batch 8), forward, backward and the optimizer's step.
LENET_SETUP = r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                    nn.Linear(84, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
xb = torch.randn(64, 1, 28, 28)
yb = torch.randint(0, 10, (64,))
def step():
    opt.zero_grad()
    F.cross_entropy(net(xb), yb).backward()
    opt.step()
'''
GPT_SETUP = r'''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.c_attn, self.c_proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.c_proj(y)
        return x + self.mlp(self.ln_2(x))
class GPT(nn.Module):
    def __init__(self, vocab=256, d=128, h=4, layers=2, ctx=64):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(Block(d, h) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.wte.weight = self.lm_head.weight
    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for b in self.blocks:
            x = b(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
model = GPT()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
idx = torch.randint(0, 256, (8, 64))
targets = torch.randint(0, 256, (8, 64))
def step():
    opt.zero_grad(set_to_none=True)
    model(idx, targets).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
'''
FIXED_CASES = [
    ("torch.softmax(x, 1)", SOFTMAX_ROWS, SX, "torch.softmax(x, 1)"),
    ("torch.log_softmax(x, 1)", SOFTMAX_ROWS, SX, "torch.log_softmax(x, 1)"),
    ("F.cross_entropy(x, t)", SOFTMAX_ROWS, SX, "torch.nn.functional.cross_entropy(x, t)"),
    ("torch.mm(a, b)", [("{0}x{0}".format(d), {"d": d}) for d in (64, 256, 1024)],
     "torch.manual_seed(0); a = torch.randn(d, d); b = torch.randn(d, d)", "torch.mm(a, b)"),
    ("MLP 784-256-10 SGD step", [("batch 64", {})], MLP_SETUP, "step()"),
    ("LeNet CNN SGD step", [("batch 64", {})], LENET_SETUP, "step()"),
    ("GPT 2x128 AdamW step", [("batch 8x64", {})], GPT_SETUP, "step()"),
    # torch.nn's layers (issue 33's cases): a convolution as the MNIST example's first layer and
    # a ResNet stage's, a max pooling, a layer norm and an embedding lookup, forward only
    ("F.conv2d(x, w, b)", [("64x1x28x28 * 32x1x3x3", {"s": (64, 1, 28, 28), "k": (32, 1, 3, 3)}),
                           ("16x64x32x32 * 64x64x3x3", {"s": (16, 64, 32, 32), "k": (64, 64, 3, 3)})],
     "torch.manual_seed(0); x = torch.randn(*s); w = torch.randn(*k); b = torch.randn(k[0])",
     "torch.nn.functional.conv2d(x, w, b, padding=1)"),
    ("F.max_pool2d(x, 2)", [("64x32x28x28", {})], "torch.manual_seed(0); x = torch.randn(64, 32, 28, 28)",
     "torch.nn.functional.max_pool2d(x, 2)"),
    ("F.layer_norm(x, [768])", [("64x768", {"r": 64}), ("2048x768", {"r": 2048})],
     "torch.manual_seed(0); x = torch.randn(r, 768); w = torch.randn(768); b = torch.randn(768)",
     "torch.nn.functional.layer_norm(x, [768], w, b)"),
    ("F.embedding(idx, w)", [("4096 of 50257x768", {})],
     "torch.manual_seed(0); w = torch.randn(50257, 768); idx = torch.randint(0, 50257, (8, 512))",
     "torch.nn.functional.embedding(idx, w)"),
]

# The program both sides run: a loop that reads one job per line on stdin (JSON: key, setup,
# statement, variables, minimum time, and the call count once it is known), times it and answers
# one line on stdout, flushed. The parent sends each job to both sides in turn, so that a slow
# minute of a shared machine falls on both.
PROGRAM = r'''
import json, sys, timeit
import torch
THREADS = {threads!r}
if THREADS is not None and hasattr(torch, "set_num_threads"):
    try:
        torch.set_num_threads(THREADS)
    except Exception:
        pass
nt = None
if hasattr(torch, "get_num_threads"):
    try:
        nt = int(torch.get_num_threads())
    except Exception:
        nt = None
print("THREADS " + json.dumps(nt), flush=True)

def autorange(timer, min_time):
    # timeit.Timer.autorange with a chosen minimum time instead of its 0.2 s.
    i = 1
    while True:
        for j in 1, 2, 5:
            number = i * j
            if timer.timeit(number) >= min_time:
                return number
        i *= 10

for line in sys.stdin:
    job = json.loads(line)
    res = {{"key": job["key"]}}
    try:
        g = {{"torch": torch}}
        g.update(job["variables"])
        exec(job["setup"], g)
        exec(job["stmt"], g)  # one call first: a missing operator raises here
        timer = timeit.Timer(job["stmt"], globals=g)
        number = job.get("number") or autorange(timer, job["min_time"])
        res["s"] = min(timer.repeat(repeat=job["repeat"], number=number)) / number
        res["number"] = number
    except BaseException as e:  # noqa: BLE001 - a missing operator may raise anything
        if isinstance(e, KeyboardInterrupt):
            raise
        msg = "{{}}: {{}}".format(type(e).__name__, e).strip().splitlines()
        res["error"] = msg[0][:300] if msg else type(e).__name__
    g = None
    print("RESULT " + json.dumps(res), flush=True)
'''


def build_jobs(sizes, pattern, min_time):
    """The (case, size) jobs to run, in order: [(key, case, size, setup, stmt, variables, min_time)]."""
    jobs = []
    for name, case_sizes, setup, stmt in ELEMENT_CASES:
        if pattern and not pattern.search(name):
            continue
        for s in SIZE_ORDER:
            if s not in case_sizes or s not in sizes:
                continue
            n = SIZES[s]
            r, c = GRIDS.get(s, (1, n))
            mt = min_time if min_time is not None else (0.1 if n <= 1024 else 0.05)
            jobs.append((name + " | " + s, name, s, setup, stmt, {"n": n, "r": r, "c": c}, mt))
    for name, variants, setup, stmt in FIXED_CASES:
        if pattern and not pattern.search(name):
            continue
        for label, variables in variants:
            mt = min_time if min_time is not None else 0.05
            jobs.append((name + " | " + label, name, label, setup, stmt, variables, mt))
    return jobs


class Side:
    """One implementation's benchmark process, kept running across jobs. A process that dies or
    runs past the timeout fails the job it was in; the next job starts a fresh one."""

    def __init__(self, cmd, prog, env, timeout):
        self.cmd, self.env, self.timeout = cmd + [prog], env, timeout
        self.proc, self.buf, self.num_threads, self.timed_out = None, b"", None, False

    def _start(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=self.env)
        self.buf = b""
        line = self._line()
        if line is None or not line.startswith("THREADS "):
            err = self._stop()
            sys.exit("benchmark failed: {}\n{}".format(" ".join(self.cmd), err))
        self.num_threads = json.loads(line[8:])

    def _line(self):
        """The next line of the process's stdout, or None when it ended or timed out (then
        self.timed_out says which)."""
        self.timed_out = False
        deadline = time.time() + self.timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.timed_out = True
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def _stop(self):
        """Ends the process; returns the last line of its stderr."""
        if self.proc is None:
            return ""
        self.proc.kill()
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            err = b""
        rc = self.proc.returncode
        self.proc = None
        last = (err.decode(errors="replace").strip().splitlines() or ["exit status {}".format(rc)])[-1]
        return last[:300]

    def run(self, job):
        if self.proc is None:
            self._start()
        try:
            self.proc.stdin.write((json.dumps(job) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass
        while True:
            line = self._line()
            if line is None:
                timed_out = self.timed_out
                last = self._stop()
                return {"key": job["key"], "error": "process died ({}): {}".format(
                    "timeout" if timed_out else "exit", last)}
            if line.startswith("RESULT "):
                return json.loads(line[7:])

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
            self.proc = None


def run_sides(sides, jobs, rounds, repeat, label):
    """Runs every job on every side, `rounds` times, alternating which side goes first. Returns
    one {key: result} per side, each result's time the best over the rounds."""
    results = [{} for _ in sides]
    for i, (key, _, _, setup, stmt, variables, mt) in enumerate(jobs):
        print("[{}] {}/{} {}".format(label, i + 1, len(jobs), key), file=sys.stderr, flush=True)
        for r in range(rounds):
            order = list(range(len(sides)))
            if r % 2:
                order.reverse()
            for k in order:
                prev = results[k].get(key)
                if prev is not None and "error" in prev:
                    continue
                job = {"key": key, "setup": setup, "stmt": stmt, "variables": variables,
                       "min_time": mt, "repeat": repeat, "number": prev and prev.get("number")}
                res = sides[k].run(job)
                if prev is not None and "s" in res:
                    res["s"] = min(res["s"], prev["s"])
                results[k][key] = res
    return results


def reference_default_threads(python_cmd):
    """torch.get_num_threads() of the reference with OMP/MKL_NUM_THREADS unset, run through the
    venv's python itself (scripts/reference-python would set 1)."""
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    venv = os.environ.get("IPT_REFERENCE_VENV", os.path.join(root, ".reference-venv"))
    py = os.path.join(venv, "bin", "python")
    if os.access(py, os.X_OK):
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
        try:
            p = subprocess.run([py, "-c", "import torch; print(torch.get_num_threads())"],
                               capture_output=True, text=True, env=env, timeout=300)
            if p.returncode == 0:
                return int(p.stdout.strip().splitlines()[-1])
        except (subprocess.SubprocessError, ValueError, IndexError):
            pass
    return os.cpu_count() or 1


def fmt_time(s):
    if s is None:
        return "missing"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return "{:.3g} {}".format(s / scale, unit)
    return "{:.3g} ns".format(s / 1e-9)


def report(setting, rows, inside_nt, ref_nt, worst_n):
    print()
    print("== threads: {} (Inside torch.get_num_threads() = {}, PyTorch = {}) ==".format(
        setting, "?" if inside_nt is None else inside_nt, "?" if ref_nt is None else ref_nt))
    w = max([len("case")] + [len(r["case"]) for r in rows])
    print("{:{w}s} {:>10s} {:>12s} {:>12s} {:>7s}".format("case", "size", "Inside", "PyTorch", "ratio", w=w))
    ratios = []
    for r in rows:
        ratio = "" if r["ratio"] is None else "{:.2f}".format(r["ratio"])
        print("{:{w}s} {:>10s} {:>12s} {:>12s} {:>7s}".format(
            r["case"], r["size"], fmt_time(r["inside_s"]), fmt_time(r["pytorch_s"]), ratio, w=w))
        if r["ratio"] is not None:
            ratios.append((r["ratio"], r["case"], r["size"]))
    if ratios:
        geo = math.exp(sum(math.log(x) for x, _, _ in ratios) / len(ratios))
        slower = sum(1 for x, _, _ in ratios if x > 1.0)
        print("geometric mean of {} ratios: {:.2f}; slower than PyTorch (ratio > 1.0): {} of {}".format(
            len(ratios), geo, slower, len(ratios)))
        worst = sorted(ratios, reverse=True)[:worst_n]
        print("worst ratios: " + "; ".join("{} [{}] {:.2f}".format(c, s, x) for x, c, s in worst))
    else:
        print("no case ran on both")
    missing = [r for r in rows if r["inside_error"] or r["pytorch_error"]]
    if missing:
        print("missing:")
        for r in missing:
            for side in ("inside", "pytorch"):
                if r[side + "_error"]:
                    print("  {} [{}] on {}: {}".format(
                        r["case"], r["size"], "Inside" if side == "inside" else "PyTorch", r[side + "_error"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True, help="build/app/inside-pytorch")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--python", default=os.path.join(here, "..", "..", "scripts", "reference-python"),
                    help="a command that runs a Python with PyTorch 2.15")
    ap.add_argument("--rounds", type=int, default=3,
                    help="times each case is sent to both sides in turn (default 3)")
    ap.add_argument("--repeat", type=int, default=2,
                    help="timed runs per round; the best of all rounds' runs counts (default 2)")
    ap.add_argument("--threads", choices=("default", "1", "both"), default="both")
    ap.add_argument("--default-threads", type=int, default=None,
                    help="the thread count of the 'default' setting (default: the reference's own)")
    ap.add_argument("--sizes", default=",".join(SIZE_ORDER),
                    help="element-count sizes to run, from 1,1K,1M,16M (default: all; 16M only "
                         "for the cases marked for it)")
    ap.add_argument("--filter", default=None, help="run only the cases whose name matches this regex")
    ap.add_argument("--quick", action="store_true", help="a tiny autorange budget (a smoke run)")
    ap.add_argument("--min-time", type=float, default=None,
                    help="autorange's minimum time per run in seconds (default 0.1 up to 1K "
                         "elements, 0.05 above; 0.005 with --quick)")
    ap.add_argument("--worst", type=int, default=10, help="how many worst ratios to list")
    ap.add_argument("--timeout", type=int, default=600, help="seconds one case may take on one side")
    ap.add_argument("--json", default=None, help="write all results to this file")
    args = ap.parse_args()

    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    bad = [s for s in sizes if s not in SIZES]
    if bad:
        ap.error("unknown size(s) {}; choose from {}".format(", ".join(bad), ",".join(SIZE_ORDER)))
    pattern = re.compile(args.filter) if args.filter else None
    min_time = args.min_time if args.min_time is not None else (0.005 if args.quick else None)
    jobs = build_jobs(set(sizes), pattern, min_time)
    if not jobs:
        sys.exit("no case matches --filter {!r} and --sizes {}".format(args.filter, args.sizes))

    default_n = args.default_threads or reference_default_threads(args.python)
    settings = {"default": [("default", default_n)], "1": [("1", 1)],
                "both": [("default", default_n), ("1", 1)]}[args.threads]
    exe = [args.exe, "run"]
    ref = [args.python]

    out = {"meta": {"exe": args.exe, "python": args.python, "rounds": args.rounds, "repeat": args.repeat,
                    "min_time": min_time, "quick": args.quick, "sizes": sizes,
                    "filter": args.filter, "reference_default_threads": default_n,
                    "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
           "settings": {}}
    for setting, n in settings:
        env = dict(os.environ, OMP_NUM_THREADS=str(n), MKL_NUM_THREADS=str(n))
        label = "{} ({} thread{})".format(setting, n, "" if n == 1 else "s")
        t0 = time.time()
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(d, "kernel_bench_prog.py")
            with open(prog, "w") as f:
                f.write(PROGRAM.format(threads=n))
            sides = [Side(exe, prog, env, args.timeout), Side(ref, prog, env, args.timeout)]
            try:
                ours, theirs = run_sides(sides, jobs, args.rounds, args.repeat, label)
            finally:
                for side in sides:
                    side.close()
        ours_nt, ref_nt = sides[0].num_threads, sides[1].num_threads
        print("[{}] done in {:.0f} s".format(label, time.time() - t0), file=sys.stderr, flush=True)
        rows = []
        for key, case, size, _, stmt, _, _ in jobs:
            a, b = ours.get(key, {}), theirs.get(key, {})
            ia, ib = a.get("s"), b.get("s")
            rows.append({"case": case, "size": size, "statement": stmt,
                         "inside_s": ia, "pytorch_s": ib,
                         "ratio": ia / ib if ia is not None and ib else None,
                         "inside_error": None if ia is not None else a.get("error", "no result"),
                         "pytorch_error": None if ib is not None else b.get("error", "no result")})
        report(label, rows, ours_nt, ref_nt, args.worst)
        out["settings"][setting] = {"threads": n, "inside_num_threads": ours_nt,
                                    "pytorch_num_threads": ref_nt, "rows": rows}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
        print("\nwrote {}".format(args.json))


if __name__ == "__main__":
    main()
