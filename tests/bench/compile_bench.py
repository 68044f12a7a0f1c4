#!/usr/bin/env python3
"""torch.compile's speed, side by side in one run of the program (inside-pytorch run):

  1. a chain of four pointwise ops on 16M float32 elements, eager vs compiled (inductor): the
     target is a speed-up of at least 3x;
  2. the same compiled chain's bandwidth against a plain `a + b` loop compiled the same way
     (bytes read and written per second): the target is at least 0.8x;
  3. a cache hit: the compiled function's call (guards checked in C++, compiled code called)
     minus a direct call of the compiled graph's callable: the target is at most 5 us;
  4. the chain's compile time on the first call with an empty kernel cache, and from the disk
     cache (a second program run with the same TORCHINDUCTOR_CACHE_DIR).

    python3 tests/bench/compile_bench.py --exe build/app/inside-pytorch [--repeat 10]

Times are reported, never asserted in a test.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PROGRAM = r'''
import json, time, torch
import torch._dynamo.convert_frame as cf
REPEAT = {repeat}
N = 16 * 1024 * 1024
def chain(x):
    return ((x * 2.0 + 1.0).relu() * 3.0)
def add(a, b):
    return a + b
def small(x):
    return x + 1.0
x, y = torch.randn(N), torch.randn(N)
t = time.perf_counter(); cchain = torch.compile(chain); cchain(x); first = time.perf_counter() - t
cadd = torch.compile(add); cadd(x, y)
def best(f, *a):
    ts = []
    for _ in range(REPEAT):
        s = time.perf_counter(); f(*a); ts.append(time.perf_counter() - s)
    return min(ts)
out = {{"first_call_s": first, "eager_s": best(chain, x), "compiled_s": best(cchain, x), "add_s": best(cadd, x, y)}}
out["same"] = bool(torch.allclose(cchain(x), chain(x)))
# A cache hit on a tiny input: the compiled function vs its compiled graph called directly.
s = torch.ones(4)
csmall = torch.compile(small)
csmall(s)
gm = [r for r in cf.compile_records if r["code"] is small.__code__][-1]["graph"]
import timeit
def hit(): csmall(s)
n = 20000
t1 = min(timeit.repeat(hit, number=n, repeat=5)) / n
direct_fn = torch._inductor.compile_fx(gm, [])  # the same compiled code (its kernel from the cache)
def call(): direct_fn(s)
t2 = min(timeit.repeat(call, number=n, repeat=5)) / n
out["hit_s"], out["direct_s"] = t1, t2
checks, total_ns, last_ns = torch._C._dynamo.guard_stats(small.__code__)
out["guard_ns"] = total_ns / max(checks, 1)
print(json.dumps(out))
'''


def run(exe, prog, cache):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache)
    env.pop("TORCH_LOGS", None)
    p = subprocess.run([exe, "run", prog], capture_output=True, text=True, timeout=900, env=env)
    if p.returncode != 0:
        sys.exit("benchmark failed:\n{}{}".format(p.stdout, p.stderr))
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True, help="build/app/inside-pytorch")
    ap.add_argument("--repeat", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "bench.py")
        with open(prog, "w") as f:
            f.write(PROGRAM.format(repeat=a.repeat))
        cache = os.path.join(d, "inductor-cache")
        cold = run(a.exe, prog, cache)
        warm = run(a.exe, prog, cache)
    n = 16 * 1024 * 1024
    speedup = cold["eager_s"] / cold["compiled_s"]
    bw_chain = 2 * 4 * n / cold["compiled_s"] / 1e9
    bw_add = 3 * 4 * n / cold["add_s"] / 1e9
    overhead_us = (cold["hit_s"] - cold["direct_s"]) * 1e6
    print("torch.compile, 16M float32 elements, best of {} (this machine)".format(a.repeat))
    print("  chain of 4 pointwise ops: eager {:.2f} ms, compiled {:.2f} ms: {:.1f}x (target >= 3x) {}".format(
        cold["eager_s"] * 1e3, cold["compiled_s"] * 1e3, speedup, "PASS" if speedup >= 3 else "MISS"))
    print("  bandwidth: fused chain {:.1f} GB/s, compiled a + b {:.1f} GB/s: {:.2f}x (target >= 0.8x) {}".format(
        bw_chain, bw_add, bw_chain / bw_add, "PASS" if bw_chain / bw_add >= 0.8 else "MISS"))
    print("  cache hit: {:.2f} us per call vs {:.2f} us calling the compiled graph directly: +{:.2f} us "
          "(target <= 5 us) {}; guard check alone {:.0f} ns".format(
              cold["hit_s"] * 1e6, cold["direct_s"] * 1e6, overhead_us, "PASS" if overhead_us <= 5 else "MISS",
              cold["guard_ns"]))
    print("  first call (capture, lowering, C++ compile): {:.3f} s with an empty kernel cache, {:.3f} s from the "
          "disk cache".format(cold["first_call_s"], warm["first_call_s"]))
    print("  results equal eager's:", cold["same"] and warm["same"])


if __name__ == "__main__":
    main()
