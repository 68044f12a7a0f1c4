#!/usr/bin/env python3
"""`inside-pytorch run prog.py --dot out.dot` writes the run's autograd graph as Graphviz DOT.

Usage: dot_export_test.py EXE   (exit 0 = pass)
"""
import os
import re
import subprocess
import sys
import tempfile

PROG = """import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., 5., 6.], requires_grad=True)
loss = (a * b + a).sum()
loss.backward()
print(a.grad)
"""


def fail(msg, text=""):
    print("FAIL:", msg)
    if text:
        print(text[-4000:])
    sys.exit(1)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "prog.py")
        with open(prog, "w") as f:
            f.write(PROG)
        out = os.path.join(d, "out.dot")
        p = subprocess.run([exe, "run", prog, "--dot", out], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            fail("run --dot exits 0", p.stdout + p.stderr)
        if "tensor([5., 6., 7.])" not in p.stdout:
            fail("the program's own output is unchanged", p.stdout)
        if "autograd graph written to" not in p.stderr:
            fail("says where the graph went", p.stderr)
        dot = open(out).read()
        if not dot.startswith("//") or "digraph autograd {" not in dot or not dot.rstrip().endswith("}"):
            fail("a DOT digraph", dot)
        for name in ["SumBackward0", "AddBackward0", "MulBackward0"]:
            if len(re.findall(r'label="%s\\n' % name, dot)) != 1:
                fail("one box for " + name, dot)
        if dot.count('label="AccumulateGrad"') != 2 or dot.count("shape=octagon") != 2:
            fail("two AccumulateGrad nodes, drawn apart", dot)
        if dot.count("shape=ellipse") != 2 or "[1, 2, 3]" not in dot or "[4, 5, 6]" not in dot:
            fail("two leaves with their values", dot)
        edges = re.findall(r"^\s*n\d+ -> n\d+ \[label=\"(\d+)\"\];$", dot, re.M)
        if len(edges) != 5:
            fail("five edges labelled with input_nr", dot)
        if len(re.findall(r"-> t\d+ \[style=dashed", dot)) != 2:
            fail("a dashed .grad edge to each leaf", dot)

        # A program without autograd still gets a (empty) graph and says why.
        with open(prog, "w") as f:
            f.write("import torch\nx = torch.ones(2)\nprint(x)\n")
        p = subprocess.run([exe, "run", prog, "--dot", out], capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or "requires_grad=True" not in p.stderr or "->" in open(out).read():
            fail("empty graph", p.stdout + p.stderr)

        # An unwritable path is a clear error with exit code 2.
        p = subprocess.run([exe, "run", prog, "--dot", os.path.join(d, "missing", "x.dot")], capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 2 or "could not write" not in p.stderr:
            fail("unwritable path", p.stdout + p.stderr)
    print("ok")


if __name__ == "__main__":
    main()
