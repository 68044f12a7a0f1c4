"""Golden trace of a lesson that runs on the modeled clock (lesson 5, the simulated GPU).

Runs `inside-pytorch lesson N --trace` twice and checks that the two traces are the same byte
for byte (the modeled clock: Note [The modeled clock]); that the trace follows the Chrome
rules, both as `inside-pytorch trace` checks them and as a strict checker reads the times
(on each track, in microseconds as written, a slice lies inside the one it starts in or
starts at or after its ts + dur); then compares what the device did, as Perfetto would show
it (every runtime call, kernel, copy, event, wait and memory counter with its time and
track), and the printed output, with the committed golden text.
With --update, writes the golden text instead (review the diff before committing it).

usage: lesson_golden.py --exe inside-pytorch --lesson 5 --golden tests/lesson/golden/lesson-5.txt [--update]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

DEVICE_CATS = {"kernel", "gpu_memcpy", "cuda_sync", "cuda_runtime"}

# A matmul's rounding error depends on the order in which the CPU's BLAS sums (its kernel for
# this processor, its thread count), so the golden text holds "<error>" and each printed error
# is checked against the range its precision gives instead: FP32 (24-bit significand) stays
# under 1e-3 on these 1024-long dot products, TF32 (11-bit) lands between 1e-3 and 0.2.
ERROR = re.compile(r"(FP32|TF32)(.*largest error )([0-9.]+e[+-][0-9]+)")
ERROR_RANGE = {"FP32": (0.0, 1e-3), "TF32": (1e-3, 0.2)}


def mask_errors(text, errors):
    m = ERROR.search(text)
    if not m:
        return text
    errors.append((m.group(1), float(m.group(3)), text))
    return text[:m.start(3)] + "<error>" + text[m.end(3):]


def run(exe, lesson, path):
    r = subprocess.run([exe, "lesson", str(lesson), "--trace", path], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit("lesson %s failed (rc %d):\n%s\n%s" % (lesson, r.returncode, r.stdout[-4000:], r.stderr[-4000:]))
    with open(path, "rb") as f:
        return f.read()


def strict_overlaps(trace):
    """Slices on one (pid, tid) track that overlap without nesting, in microseconds as written."""
    tracks = {}
    for e in json.loads(trace)["traceEvents"]:
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    found = []
    for track, slices in sorted(tracks.items()):
        slices.sort(key=lambda s: (s[0], -s[1]))
        open_ = []
        for s in slices:
            while open_ and s[0] >= open_[-1][1]:
                open_.pop()
            if open_ and s[1] > open_[-1][1]:
                p = open_[-1]
                found.append("pid %s tid %s: %r [%r, %r] overlaps %r [%r, %r]" % (track + (s[2], s[0], s[1], p[2], p[0], p[1])))
                continue
            open_.append(s)
    return found


def check_rules(exe, path, trace):
    r = subprocess.run([exe, "trace", path], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit("the trace breaks the Chrome rules (inside-pytorch trace, rc %d):\n%s%s" % (r.returncode, r.stdout[-4000:], r.stderr[-4000:]))
    found = strict_overlaps(trace)
    if found:
        sys.exit("%d slices overlap without nesting, in microseconds as written:\n  %s" % (len(found), "\n  ".join(found[:10])))


def digest(trace, errors):
    doc = json.loads(trace)
    lines = []
    for e in doc["traceEvents"]:
        ph = e["ph"]
        if ph == "M" and e["name"] in ("process_name", "process_labels", "thread_name"):
            lines.append("M pid=%s tid=%s %s=%s" % (e["pid"], e["tid"], e["name"], list(e["args"].values())[0]))
        elif ph == "X" and (e.get("cat") in DEVICE_CATS and (e["pid"] != 1 or e["cat"] == "cuda_runtime")):
            lines.append("X %.3f +%.3f pid=%s tid=%s %s %s" % (e["ts"], e["dur"], e["pid"], e["tid"], e["cat"], e["name"]))
        elif ph == "C":
            lines.append("C %.3f %s allocated=%s reserved=%s" % (e["ts"], e["name"], e["args"]["allocated"],
                                                                e["args"]["reserved"]))
        elif ph in "sf" and e.get("cat") == "ac2g":
            lines.append("%s %.3f id=%s pid=%s tid=%s" % (ph, e["ts"], e["id"], e["pid"], e["tid"]))
        elif ph == "i" and e["name"] in ("print", "data race"):
            text = mask_errors(e.get("args", {}).get("text", ""), errors)
            lines.append("i %.3f %s %s" % (e["ts"], e["name"], json.dumps(text, ensure_ascii=False)))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--lesson", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        first = run(a.exe, a.lesson, os.path.join(d, "a.json"))
        second = run(a.exe, a.lesson, os.path.join(d, "b.json"))
        check_rules(a.exe, os.path.join(d, "a.json"), first)
    if first != second:
        at = next(i for i in range(min(len(first), len(second))) if first[i] != second[i]) if first[:len(second)] != second[:len(first)] else min(len(first), len(second))
        sys.exit("two runs of lesson %s wrote different traces (first difference at byte %d: %r vs %r)"
                 % (a.lesson, at, first[max(0, at - 60):at + 60], second[max(0, at - 60):at + 60]))
    errors = []
    text = digest(first, errors)
    for precision, value, line in errors:
        low, high = ERROR_RANGE[precision]
        if not low <= value < high:
            sys.exit("lesson %s printed %r: a %s error outside [%g, %g)" % (a.lesson, line, precision, low, high))
    if a.update:
        with open(a.golden, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (a.golden, text.count("\n")))
        return
    with open(a.golden, encoding="utf-8") as f:
        want = f.read()
    if text != want:
        got, exp = text.splitlines(), want.splitlines()
        for i in range(max(len(got), len(exp))):
            g = got[i] if i < len(got) else "<end>"
            w = exp[i] if i < len(exp) else "<end>"
            if g != w:
                sys.exit("lesson %s's device trace differs from %s at line %d:\n  expected: %s\n  got:      %s\n"
                         "(rerun with --update if the change is meant)" % (a.lesson, a.golden, i + 1, w, g))
    print("lesson %s: identical traces on two runs that follow the Chrome rules; %d device lines match %s"
          % (a.lesson, text.count("\n"), a.golden))


if __name__ == "__main__":
    main()
