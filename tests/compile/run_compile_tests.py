#!/usr/bin/env python3
"""Runs tests/compile/programs/<name>.py with inside-pytorch and compares what it prints
(stdout and the TORCH_LOGS lines on stderr, in order) with expected/<name>.txt.

The expected texts are what PyTorch 2.15 prints for the same program under the same CPython 3.11
(tests/compile/generate.sh writes them). Both sides run the same way and pass through the same
masks (masks.py: logging prefixes, absolute paths, compiled functions' uuids, object ids and
addresses, times); see README.md for the masks and for the differences that remain.

Note [Recorded differences]
Where the project cannot print what 2.15 prints yet, the difference is recorded next to the
expected text, as expected/<name>.differences (the unified diff from 2.15's text to the
project's), and README.md gives the reason for each of its hunks. The test passes when the
project's output is 2.15's, or differs from it by exactly the recorded diff: any other change
fails, and so does a recorded difference that has gone away (delete the file then).
--record-differences writes the file from the current output (review it, and explain every
hunk in README.md)."""
import argparse
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import masks  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--record-differences", action="store_true")
    ap.add_argument("name")
    a = ap.parse_args()
    rc, out = masks.run_program([os.path.abspath(a.exe), "run"], a.name, timeout=150)
    got = masks.mask(out)
    with open(os.path.join(masks.HERE, "expected", a.name + ".txt")) as f:
        want = f.read()
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "2.15", "inside-pytorch", n=1))
    known_path = os.path.join(masks.HERE, "expected", a.name + ".differences")
    if a.record_differences:
        if rc != 0:
            print(diff, "exit status", rc)
            return 1
        if diff:
            with open(known_path, "w") as f:
                f.write(diff)
            print("wrote", known_path)
        elif os.path.exists(known_path):
            os.remove(known_path)
            print("removed", known_path, "(no difference left)")
        return 0
    known = None
    if os.path.exists(known_path):
        with open(known_path) as f:
            known = f.read()
    if rc == 0 and not diff and known is None:
        print("ok:", a.name)
        return 0
    if rc == 0 and diff and diff == known:
        print("ok: {} (differs from 2.15 by the recorded expected/{}.differences)".format(a.name, a.name))
        return 0
    if rc == 0 and not diff:
        print("{} now prints what 2.15 prints: delete expected/{}.differences".format(a.name, a.name))
        return 1
    if known is not None:
        print("the difference from 2.15 is not the recorded one; the recorded diff against the current one:")
        sys.stdout.writelines(difflib.unified_diff(known.splitlines(True), diff.splitlines(True), "recorded", "now"))
    else:
        sys.stdout.write(diff)
    print("exit status", rc)
    return 1


if __name__ == "__main__":
    sys.exit(main())
