#!/usr/bin/env python3
"""Dispatch overhead (tracing off and on) and memory of one or more builds of the program, side by side.

    python3 tests/bench/overhead_bench.py --exe build/app/inside-pytorch
    python3 tests/bench/overhead_bench.py --exe OLD/app/inside-pytorch --exe build/app/inside-pytorch

For each executable it runs, several times, alternating between executables:
  - small calls (a one-element a + b and relu, a 1K-element x + y and x.sum()) timed in a loop,
    with tracing off and with --trace (fewer calls, so the trace stays under its event limit);
  - a memory program (an MLP trained for 50 steps, 1M-element pointwise ops and reductions, a
    4096 x 4096 sum) under /usr/bin/time, for its peak resident set, and a program that only
    imports torch, for the resident set at rest.
It prints the best time per call and the smallest peak over the runs. The machine should be
otherwise idle; timings on a shared virtual machine vary by 10-30% from run to run, so compare
builds in one invocation.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

CALLS = r'''
import time
import torch
a = torch.randn(1); b = torch.randn(1)
x = torch.randn(1000); y = torch.randn(1000)
def per_call(f, n):
    for _ in range(n // 10): f()
    best = None
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n): f()
        d = (time.perf_counter() - t) / n * 1e9
        best = d if best is None or d < best else best
    return best
N = %d
print("a + b (1 element)", per_call(lambda: a + b, N))
print("a.relu() (1 element)", per_call(lambda: a.relu(), N))
print("x + y (1K)", per_call(lambda: x + y, N))
print("x.sum() (1K)", per_call(lambda: x.sum(), N))
'''

MEMORY = r'''
import torch
torch.manual_seed(0)
w1 = torch.randn(784, 256) * 0.05; w1.requires_grad = True
b1 = torch.zeros(256); b1.requires_grad = True
w2 = torch.randn(256, 10) * 0.05; w2.requires_grad = True
b2 = torch.zeros(10); b2.requires_grad = True
x = torch.randn(64, 784); t = torch.randint(0, 10, (64,))
for step in range(50):
    h = (x @ w1 + b1).relu()
    loss = torch.nn.functional.cross_entropy(h @ w2 + b2, t)
    loss.backward()
    with torch.no_grad():
        for p in (w1, b1, w2, b2):
            p -= 0.1 * p.grad
            p.grad = None
a = torch.randn(1 << 20); b = torch.randn(1 << 20)
for _ in range(20):
    c = (a + b).exp().sum() + a.sigmoid().mean() + (a * b).max()
big = torch.randn(4096, 4096)
s = big.sum(1) + big.sum(0)
print(round(loss.item(), 4))
'''

IDLE = "import torch\n"


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    return p


def calls(exe, prog, trace_dir, traced):
    cmd = [exe, "run"]
    if traced:
        cmd += ["--trace", os.path.join(trace_dir, "t.json")]
    out = run(cmd + [prog]).stdout
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(.*\)) ([0-9.e+]+)$", out, re.M)}


def peak_kb(exe, prog):
    p = run(["/usr/bin/time", "-f", "maxrss %M", exe, "run", prog])
    return int(re.search(r"maxrss (\d+)", p.stderr).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", action="append", required=True, help="an inside-pytorch executable (repeatable)")
    ap.add_argument("--rounds", type=int, default=5, help="runs per executable (default 5)")
    args = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("overhead_bench.py needs /usr/bin/time (Debian's 'time' package)")
    with tempfile.TemporaryDirectory() as d:
        progs = {}
        for name, text in (("calls_off", CALLS % 20000), ("calls_on", CALLS % 3000), ("memory", MEMORY),
                           ("idle", IDLE)):
            progs[name] = os.path.join(d, name + ".py")
            with open(progs[name], "w") as f:
                f.write(text)
        best = {exe: {} for exe in args.exe}
        for _ in range(args.rounds):
            for exe in args.exe:
                r = best[exe]
                for traced in (False, True):
                    for case, ns in calls(exe, progs["calls_on" if traced else "calls_off"], d, traced).items():
                        key = ("tracing on: " if traced else "tracing off: ") + case
                        r[key] = min(r.get(key, ns), ns)
                for name in ("memory", "idle"):
                    key = "peak RSS, %s program (KB)" % name
                    r[key] = min(r.get(key, 1 << 62), peak_kb(exe, progs[name]))
    keys = list(best[args.exe[0]])
    width = max(len(k) for k in keys)
    print("%-*s  %s" % (width, "", "  ".join("%14s" % ("build %d" % (i + 1)) for i in range(len(args.exe)))))
    for k in keys:
        unit = "" if "RSS" in k else " ns"
        print("%-*s  %s" % (width, k, "  ".join("%14s" % ("%.0f%s" % (best[e][k], unit)) for e in args.exe)))
    for i, e in enumerate(args.exe):
        print("build %d: %s" % (i + 1, e))


if __name__ == "__main__":
    main()
