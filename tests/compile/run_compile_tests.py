#!/usr/bin/env python3
"""Runs tests/compile/programs/<name>.py with inside-pytorch and compares what it prints
(stdout and the TORCH_LOGS lines on stderr, in order) with expected/<name>.txt.

PyTorch 1.13, the reference elsewhere, has no torch.compile: the expected texts follow PyTorch
2.5's formats and were checked by hand; --update rewrites them from the current output.
Object ids and compile times change from run to run and are masked."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def mask(text):
    text = re.sub(r"(___check_(?:obj|type)_id\([^,]+, )\d+\)", r"\1<id>)", text)
    text = re.sub(r"(_compile\.compile_inner +)[\d., ]+\n", r"\1<times>\n", text)
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("name")
    a = ap.parse_args()
    env = dict(os.environ)
    env.pop("TORCH_LOGS", None)
    with tempfile.TemporaryDirectory(prefix="ipt_inductor_") as cache:  # a kernel cache of its own
        env["TORCHINDUCTOR_CACHE_DIR"] = cache
        r = subprocess.run([os.path.abspath(a.exe), "run", "programs/{}.py".format(a.name)], cwd=HERE, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=150)
    got = mask(r.stdout)
    path = os.path.join(HERE, "expected", a.name + ".txt")
    if a.update:
        with open(path, "w") as f:
            f.write(got)
        print("wrote", path)
        return 0
    with open(path) as f:
        want = f.read()
    if r.returncode != 0 or got != want:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "expected", "got"))
        print("exit status", r.returncode)
        return 1
    print("ok:", a.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
