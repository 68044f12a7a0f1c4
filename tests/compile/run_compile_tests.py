#!/usr/bin/env python3
"""Runs tests/compile/programs/<name>.py with inside-pytorch and compares what it prints
(stdout and the TORCH_LOGS lines on stderr, in order) with expected/<name>.txt.

The expected texts are what PyTorch 2.15 prints for the same program under the same CPython 3.11
(tests/compile/generate.sh writes them). Both sides run the same way and pass through the same
masks (masks.py: logging prefixes, absolute paths, compiled functions' uuids, object ids and
addresses, times); see README.md for the masks and for the differences that remain."""
import argparse
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import masks  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("name")
    a = ap.parse_args()
    rc, out = masks.run_program([os.path.abspath(a.exe), "run"], a.name, timeout=150)
    got = masks.mask(out)
    with open(os.path.join(masks.HERE, "expected", a.name + ".txt")) as f:
        want = f.read()
    if rc != 0 or got != want:
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "expected", "got"))
        print("exit status", rc)
        return 1
    print("ok:", a.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
