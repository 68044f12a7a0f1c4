#!/usr/bin/env python3
"""Python-level speed, side by side in one run: the same timeit lines on Inside PyTorch
(`inside-pytorch run`, embedded CPython over the project's torch package) and on the reference
PyTorch 2.15 (scripts/reference-python, made by scripts/reference-env). Prints each line's time
per call and the ratio.

    python3 tests/bench/python_bench.py --exe build/app/inside-pytorch [--repeat 5]

The target is a ratio of at most 0.5 for each line.
Nothing here is asserted in a test: times are reported, never checked in CTest.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# Each case: (name, setup, statement). Run with timeit, best of --repeat.
CASES = [
    ("a + b (1 element)", "a = torch.ones(1); b = torch.ones(1)", "a + b"),
    ("t.t()", "t = torch.ones(3, 4)", "t.t()"),
    ("(w * b + w).sum() forward+backward",
     "w = torch.ones(1, requires_grad=True); b = torch.ones(1)", "(w * b + w).sum().backward()"),
    ("torch.add(a, b, alpha=2)", "a = torch.ones(1); b = torch.ones(1)", "torch.add(a, b, alpha=2)"),
    ("x.view(2, 6)", "x = torch.ones(3, 4)", "x.view(2, 6)"),
]

PROGRAM = r'''
import json, timeit, torch
cases = json.loads({cases!r})
out = {{}}
for name, setup, stmt in cases:
    g = {{"torch": torch}}
    exec(setup, g)
    t = timeit.Timer(stmt, globals=g)
    n, _ = t.autorange()
    best = min(t.repeat(repeat={repeat}, number=n)) / n
    out[name] = best
print(json.dumps(out))
'''


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("benchmark failed: {}\n{}".format(" ".join(cmd), p.stderr))
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True, help="build/app/inside-pytorch")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--python", default=os.path.join(here, "..", "..", "scripts", "reference-python"),
                    help="a command that runs a Python with PyTorch 2.15")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "bench.py")
        with open(prog, "w") as f:
            f.write(PROGRAM.format(cases=json.dumps(CASES), repeat=args.repeat))
        env = dict(os.environ, OMP_NUM_THREADS="1")
        ours = run([args.exe, "run", prog])
        ref = run([args.python, prog])
    print("{:40s} {:>12s} {:>12s} {:>7s}".format("line", "Inside (ns)", "PyTorch (ns)", "ratio"))
    worst = 0.0
    for name, _, _ in CASES:
        r = ours[name] / ref[name]
        worst = max(worst, r)
        print("{:40s} {:12.0f} {:12.0f} {:7.2f}".format(name, ours[name] * 1e9, ref[name] * 1e9, r))
    print("worst ratio {:.2f} (target <= 0.50)".format(worst))


if __name__ == "__main__":
    main()
