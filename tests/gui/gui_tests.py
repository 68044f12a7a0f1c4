#!/usr/bin/env python3
"""End-to-end checks of the desktop window under Xvfb (run by CTest, one case per test).

Usage: gui_tests.py --exe PATH --work DIR CASE [ARGS...]
  screenshot N K LANG   render lesson N step K to DIR/lesson<N>-step<K>-<LANG>.png and check
                        the picture (png_check.py) and the exit status (0: no step error)
  frame_times           make a trace of >= 100,000 events, open it, render 300 frames and
                        print the frame-time percentiles (never asserts a time)
  timeline_sweep GEN N  write a generated trace of N events (GEN: ipt_trace_bench), open it in
                        the Timeline and zoom from the whole trace down to one call over 300
                        frames; print the open time, memory and frame-time percentiles
                        (never asserts a time)
  bad_trace             a truncated trace file: the window exits 0 or 1, never crashes
  bad_step              --lesson 2 --step 99: exits 0 or 1, never crashes
  bad_lesson            --lesson 9 (not written): exits 0 or 1, never crashes
  bad_schema            --schema with a malformed schema or an unknown operator: a picture, no crash

Exit 0 = pass, 1 = fail, 77 = skipped (no xvfb-run / Xvfb on this machine).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import png_check

EXE = None
WORK = None
SKIP = 77
WIDTH, HEIGHT = 1600, 1000
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 %dx%dx24" % (WIDTH, HEIGHT)]
# What a crash leaves on stderr (the C++ runtime, glibc, sanitizers, the shell).
CRASH_MARKERS = ["Segmentation fault", "Aborted", "core dumped", "terminate called", "AddressSanitizer",
                 "UndefinedBehaviorSanitizer", "runtime error:", "Assertion", "double free", "stack smashing"]
FRAME_LINE = re.compile(r"^frames: (\d+)\s+events: (\d+)\s+CPU ms/frame: p50 ([\d.]+)\s+p90 ([\d.]+)\s+"
                        r"p95 ([\d.]+)\s+p99 ([\d.]+)\s+max ([\d.]+)\s+wall ms/frame: p50 ([\d.]+)\s+p95 ([\d.]+)\s+"
                        r"max ([\d.]+)\s*$", re.M)


def fail(msg, out="", err=""):
    print("FAIL:", msg)
    if out:
        print("--- stdout ---\n" + out[-4000:])
    if err:
        print("--- stderr ---\n" + err[-4000:])
    sys.exit(1)


def expect(cond, msg, out="", err=""):
    if not cond:
        fail(msg, out, err)


def require_xvfb():
    missing = [t for t in ("xvfb-run", "Xvfb") if not shutil.which(t)]
    if missing:
        print("SKIP: %s not installed (apt-get install xvfb)" % " and ".join(missing))
        sys.exit(SKIP)


def run(args, timeout=300):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_gui(args, timeout=300):
    """Runs `inside-pytorch gui ARGS` under Xvfb (one retry if Xvfb itself failed to start, or if
    xvfb-run could not clean up its temporary directory: its exit status 5 then hides the
    program's)."""
    cmd = XVFB + [EXE, "gui"] + args
    xvfb_trouble = ("Xvfb failed to start", "xvfb-run: error: problem while cleaning up temporary directory")
    for attempt in range(2):
        rc, out, err = run(cmd, timeout)
        if not (rc != 0 and any(m in err for m in xvfb_trouble) and attempt == 0):
            break
    print("$ " + " ".join(cmd))
    print("exit status %d" % rc)
    return rc, out, err


def expect_no_crash(rc, out, err, what):
    expect(rc in (0, 1), "%s: exit status %d (a crash or a signal; 0 or 1 expected)" % (what, rc), out, err)
    for m in CRASH_MARKERS:
        expect(m not in err, "%s: stderr mentions %r" % (what, m), out, err)


def case_screenshot(number, step, lang):
    require_xvfb()
    os.makedirs(WORK, exist_ok=True)
    png = os.path.join(WORK, "lesson%s-step%s-%s.png" % (number, step, lang))
    if os.path.exists(png):
        os.remove(png)
    rc, out, err = run_gui(["--lesson", number, "--step", step, "--lang", lang, "--width", str(WIDTH),
                            "--height", str(HEIGHT), "--screenshot", png])
    expect(rc == 0, "lesson %s step %s (%s): exit status %d (1 = a step reported an error)" % (number, step, lang, rc),
           out, err)
    expect(os.path.exists(png), "no PNG written to " + png, out, err)
    problems = png_check.check(png, WIDTH, HEIGHT, min_colours=50, max_share=0.9)
    expect(not problems, "; ".join(problems), out, err)


def count_trace_events(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return len(doc["insidePyTorch"]["events"])


def make_big_trace(target=100000):
    """Writes big.py and big.json in WORK; returns (path, number of events)."""
    os.makedirs(WORK, exist_ok=True)
    py, trace = os.path.join(WORK, "big.py"), os.path.join(WORK, "big.json")
    n = 9000  # about 12 events per `y = x + x`
    for _ in range(4):
        with open(py, "w", encoding="utf-8") as f:
            f.write("import torch\nx = torch.ones(2, 3)\nfor i in range(%d):\n    y = x + x\n" % n)
        rc, out, err = run([EXE, "run", py, "--trace", trace])
        expect(rc == 0, "inside-pytorch run big.py --trace big.json", out, err)
        events = count_trace_events(trace)
        print("big.py with range(%d): %d events" % (n, events))
        if events >= target:
            return trace, events
        n = int(n * target / max(events, 1) * 1.05) + 1
    fail("could not make a trace of %d events" % target)


def case_frame_times():
    require_xvfb()
    trace, events = make_big_trace()
    rc, out, err = run_gui(["--trace", trace, "--frames", "300", "--report-frame-times"], timeout=600)
    expect(rc == 0, "gui --trace big.json --frames 300: exit status %d" % rc, out, err)
    m = FRAME_LINE.search(out)
    expect(m is not None, "no frame-time line printed", out, err)
    print(m.group(0).strip())
    expect(int(m.group(2)) == events, "the window reports %s events, the trace file holds %d" % (m.group(2), events),
           out, err)


OPEN_LINE = re.compile(r"^opened: (\d+) events in ([\d.]+) s, resident memory \+(-?\d+) MB \((\d+) MB in all\)$", re.M)


def case_timeline_sweep(gen, n):
    require_xvfb()
    os.makedirs(WORK, exist_ok=True)
    trace = os.path.join(WORK, "generated-%s.json" % n)
    rc, out, err = run([gen, "--write", trace, "--events", n], timeout=600)
    expect(rc == 0, "ipt_trace_bench --write: exit status %d" % rc, out, err)
    try:
        frames = 300
        rc, out, err = run_gui(["--trace", trace, "--view", "timeline", "--zoom-sweep", str(frames), "--frames",
                                str(frames), "--report-frame-times"], timeout=900)
        expect(rc == 0, "gui --trace %s --view timeline --zoom-sweep: exit status %d" % (trace, rc), out, err)
        opened, m = OPEN_LINE.search(out), FRAME_LINE.search(out)
        expect(opened is not None and m is not None, "no open or frame-time line printed", out, err)
        print(opened.group(0).strip())
        print(m.group(0).strip())
        expect(int(m.group(2)) >= int(n), "the window reports %s events, %s were written" % (m.group(2), n), out, err)
    finally:
        os.remove(trace)


def case_bad_trace():
    require_xvfb()
    os.makedirs(WORK, exist_ok=True)
    py, good, bad = (os.path.join(WORK, n) for n in ("small.py", "small.json", "truncated.json"))
    with open(py, "w", encoding="utf-8") as f:
        f.write("import torch\nx = torch.arange(6.).reshape(2, 3)\ny = x.t().contiguous()\nprint(y)\n")
    rc, out, err = run([EXE, "run", py, "--trace", good])
    expect(rc == 0, "inside-pytorch run small.py --trace small.json", out, err)
    with open(good, "rb") as f:
        text = f.read()
    with open(bad, "wb") as f:
        f.write(text[:len(text) // 2])
    rc, out, err = run_gui(["--trace", bad, "--frames", "5"])
    expect_no_crash(rc, out, err, "gui --trace truncated.json")


def case_bad_step():
    require_xvfb()
    rc, out, err = run_gui(["--lesson", "2", "--step", "99", "--frames", "5"])
    expect_no_crash(rc, out, err, "gui --lesson 2 --step 99")


def case_bad_lesson():
    require_xvfb()
    rc, out, err = run_gui(["--lesson", "9", "--frames", "5"])
    expect_no_crash(rc, out, err, "gui --lesson 9")


def case_bad_schema():
    """A malformed schema and an unknown operator given to the Schema view: no crash, a real picture."""
    require_xvfb()
    os.makedirs(WORK, exist_ok=True)
    for i, text in enumerate(["add(Tensor self, Tensor other -> Tensor", "aten::no_such_op", "(((", "x" * 5000]):
        png = os.path.join(WORK, "bad-schema-%d.png" % i)
        if os.path.exists(png):
            os.remove(png)
        rc, out, err = run_gui(["--lesson", "7", "--step", "1", "--view", "schema", "--schema", text,
                                "--width", str(WIDTH), "--height", str(HEIGHT), "--screenshot", png])
        expect(rc == 0, "gui --schema %r: exit status %d" % (text[:40], rc), out, err)
        expect_no_crash(rc, out, err, "gui --schema %r" % text[:40])
        problems = png_check.check(png, WIDTH, HEIGHT, min_colours=50, max_share=0.9)
        expect(not problems, "; ".join(problems), out, err)


def main():
    global EXE, WORK
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    EXE, WORK = os.path.abspath(a.exe), os.path.abspath(a.work)
    if not (os.path.isfile(EXE) and os.access(EXE, os.X_OK)):
        fail("cannot run %s (not built, or being relinked right now)" % EXE)
    cases = {"screenshot": case_screenshot, "frame_times": case_frame_times, "timeline_sweep": case_timeline_sweep,
             "bad_trace": case_bad_trace,
             "bad_step": case_bad_step, "bad_lesson": case_bad_lesson, "bad_schema": case_bad_schema}
    if a.case not in cases:
        fail("unknown case " + a.case)
    cases[a.case](*a.args)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
