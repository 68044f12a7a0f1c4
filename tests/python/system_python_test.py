#!/usr/bin/env python3
"""The torch package imported from a system python3 (Debian's, not the embedded one):
`python3 -m inside_pytorch run prog.py --trace out.json` prints what `inside-pytorch run`
prints and writes a trace that `inside-pytorch trace` reads back."""
import argparse
import os
import subprocess
import sys
import tempfile

PROGRAM = """import torch
x = torch.arange(6.).reshape(2, 3)
w = torch.ones(3, 2, requires_grad=True)
loss = (x @ w).relu().sum()
loss.backward()
print(torch.__version__, x.t().stride(), loss.item(), w.grad.sum().item())
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pythonpath", required=True)
    ap.add_argument("--exe", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "prog.py")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        out_json = os.path.join(d, "out.json")
        env = dict(os.environ, PYTHONPATH=a.pythonpath)
        p = subprocess.run([sys.executable, "-m", "inside_pytorch", "run", prog, "--trace", out_json],
                           capture_output=True, text=True, env=env, timeout=60)
        q = subprocess.run([a.exe, "run", prog], capture_output=True, text=True, timeout=60)
        ok = True
        if p.returncode != 0 or p.stdout != q.stdout:
            print("FAIL: python3 -m inside_pytorch printed\n%s%s\nexpected\n%s" % (p.stdout, p.stderr, q.stdout))
            ok = False
        if "2.15.0+insidepytorch" not in p.stdout:
            print("FAIL: the system python3 did not import Inside PyTorch's torch:\n" + p.stdout)
            ok = False
        t = subprocess.run([a.exe, "trace", out_json], capture_output=True, text=True, timeout=60)
        if t.returncode != 0:
            print("FAIL: the trace does not read back:\n" + t.stdout + t.stderr)
            ok = False
        bad = subprocess.run([sys.executable, "-m", "inside_pytorch", "run", os.path.join(d, "missing.py")],
                             capture_output=True, text=True, env=env, timeout=60)
        if bad.returncode != 2 or "cannot read" not in bad.stderr:
            print("FAIL: a missing program is a usage error (exit 2): rc=%d %s" % (bad.returncode, bad.stderr))
            ok = False
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
