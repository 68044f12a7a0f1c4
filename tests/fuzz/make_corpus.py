#!/usr/bin/env python3
"""Builds the committed seed corpora of tests/fuzz from real inputs. Run from anywhere after a
normal build (the trace seeds are recorded by build/app/inside-pytorch):

    tests/fuzz/make_corpus.py [--exe build/app/inside-pytorch]

- schema: schema lines and whole entries of PyTorch 2.15's native_functions.yaml (embedded in
  the program as core/ops/pytorch/native_functions.yaml), and this project's own
  core/ops/native_functions.yaml.
- trace:  traces the program records for a few reference programs, and edge cases of the format.
- lesson: malformed index and lesson files (the written lessons in lessons/ are seeds too).
- program: runaway and hostile programs (the reference programs are seeds too).
"""
import argparse
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TORCH_YAML = os.path.join(ROOT, "core", "ops", "pytorch", "native_functions.yaml")


def fresh(name):
    d = os.path.join(HERE, "corpus", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def put(d, name, text):
    with open(os.path.join(d, name), "wb") as f:
        f.write(text.encode("utf-8") if isinstance(text, str) else text)


def schema_corpus():
    d = fresh("schema")
    with open(TORCH_YAML, encoding="utf-8") as f:
        text = f.read()
    entries = ["- func:" + e for e in text.split("\n- func:")[1:]]
    funcs = [e.splitlines()[0][len("- func: "):] for e in entries]
    for i, s in enumerate(funcs[::6]):
        put(d, "func-%03d" % i, s)
    for i in range(0, len(entries), len(entries) // 24):
        put(d, "entries-%04d.yaml" % i, "\n".join(entries[i:i + 5]) + "\n")
    shutil.copy(os.path.join(ROOT, "core", "ops", "native_functions.yaml"), os.path.join(d, "project.yaml"))
    put(d, "nested-default", "f(int[] x=" + "[" * 40 + "1" + "]" * 40 + ") -> Tensor")
    put(d, "non-utf8-default", b"f(str s='\xff\xfe') -> Tensor")


def trace_corpus(exe):
    d = fresh("trace")
    # Small programs: each records a few hundred events of one kind of payload.
    programs = {
        "views": "import torch\nx = torch.arange(6.).reshape(2, 3)\ny = x.t()\nprint(y.stride(), y.is_contiguous())\n",
        "dispatch": "import torch\na = torch.ones(2)\nb = a + a\nc = torch.ones(2, device='meta') * 2\n",
        "autograd": "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\nprint(x.grad)\n",
        "error": "import torch\ntorch.ones(2) + torch.ones(3)\n",
        "dtypes": "import torch\nprint(torch.tensor([250], dtype=torch.uint8) + 10, torch.ones(2).half())\n",
        "compile": "import torch\ndef f(x):\n    y = (x * 2).relu()\n    print(y.shape)\n    return y.sum()\n"
                   "c = torch.compile(f)\nc(torch.ones(3))\nc(torch.ones(4))\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in programs.items():
            src = os.path.join(tmp, name + ".py")
            put(tmp, name + ".py", code)
            out = os.path.join(tmp, name + ".json")
            subprocess.run([exe, "run", src, "--trace", out], capture_output=True, timeout=120)
            if os.path.exists(out) and os.path.getsize(out) < 160000:
                shutil.copy(out, os.path.join(d, name + ".json"))
    head = '{"displayTimeUnit":"ns","traceEvents":[%s],"insidePyTorch":{"format":"inside-pytorch-trace","version":1,' \
           '"meta":{"title":"t","source":"","fields":{}},"events":[%s]}}'
    ev = '{"category":"script","name":"statement","payload":{"col":1,"line":1,"type":"script_line"},' \
         '"phase":"instant","seq":0,"tid":%s,"ts_ns":%s}'
    chrome = '{"name":"statement","ph":"i","pid":%s,"tid":0,"ts":0,"s":"t"}'
    put(d, "huge-number.json", head % (chrome % "1", ev % ("0", "1e400")))
    put(d, "huge-tid.json", head % (chrome % "1", ev % ("18446744073709551615", "0")))
    put(d, "huge-pid.json", head % (chrome % "18446744073709551615", ev % ("0", "0")))
    put(d, "deep.json", "[" * 5000 + "]" * 5000)
    put(d, "truncated.json", (head % ("", ev % ("0", "1")))[:150])


def lesson_corpus():
    d = fresh("lesson")
    put(d, "index-scalar.yaml", "7\n")
    put(d, "index-file-list.yaml", "lessons:\n  - number: 2\n    title: {en: T, zh: T}\n    file: [a, b]\n")
    put(d, "wrong-types.yaml", "number: [1]\ntitle: T\nsummary: {en: [S], zh: S}\nsteps: {a: 1}\n")
    put(d, "anchors.yaml", "number: 1\ntitle: &t {en: T, zh: T}\nsummary: *t\nsteps:\n  - title: *t\n"
                           "    narration: *t\n    view: output\n    code: |\n      print(1)\n")
    put(d, "deep.yaml", "number: " + "[" * 3000 + "\n")


def program_corpus():
    d = fresh("program")
    put(d, "runaway.py", "while True:\n    pass\n")
    put(d, "runaway_ops.py", "import torch\nx = torch.ones(2)\nwhile True:\n    x = x + 1\n")
    put(d, "long_kernel.py", "import torch\nprint(torch.ones(3).expand(1 << 40, 3).sum())\n")
    put(d, "overflow_as_strided.py", "import torch\nx = torch.ones(3)\n"
        "y = x.as_strided((2, 2, 2), (2**62 + 100, 2**62 + 2**61, 2**62 + 2**61 - 100))\ny[1, 0, 0].fill_(7.)\n")
    put(d, "huge_alloc.py", "import torch\nprint(torch.zeros(1 << 40))\nprint(torch.zeros(1 << 32, 1 << 32))\n")
    put(d, "int_pow.py", "import torch\nprint(torch.tensor([3, -2]) ** (2**62 + 1))\n")
    put(d, "deep_graph.py", "import torch\nx = torch.ones(2, requires_grad=True)\ny = x\n"
        "for i in range(20000):\n    y = y * 1.0\ny.sum().backward()\nprint(x.grad)\ndel y\n")
    put(d, "deep_print.py", "import torch\nprint(torch.zeros([1] * 200))\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", default=os.path.join(ROOT, "build", "app", "inside-pytorch"))
    a = ap.parse_args()
    schema_corpus()
    trace_corpus(a.exe)
    lesson_corpus()
    program_corpus()
    for name in ("schema", "trace", "lesson", "program"):
        print(name, len(os.listdir(os.path.join(HERE, "corpus", name))), "seeds")


if __name__ == "__main__":
    main()
