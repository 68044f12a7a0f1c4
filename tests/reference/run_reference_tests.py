#!/usr/bin/env python3
"""Runs the reference programs with inside-pytorch and compares against PyTorch 2.15.

Usage:
  python3 run_reference_tests.py --exe build/app/inside-pytorch            # every program
  python3 run_reference_tests.py --exe EXE views_view 'errors_*'           # names or globs
  python3 run_reference_tests.py --list ['ops_*']                          # list programs

For each program NAME (tests/reference/programs/NAME.py) it runs `EXE run NAME.py` and checks:
  * stdout equals expected/NAME.out exactly (numbers within the program's stated tolerance
    where it computes with matrix products: Note [Tolerance for values computed by matrix
    products]);
  * ordinary programs exit with status 0;
  * uncaught_* programs (those with expected/NAME.rc) exit non-zero, and the last non-empty
    line of stderr equals expected/NAME.err_last (e.g. "RuntimeError: <message>"); with
    --stderr-kind-only only the exception kind before the first ':' is compared.
Exit status: 0 when every selected program matches, 1 when any fails, 2 on a usage problem
(missing executable, unknown program name, missing expected file).

Standard library only; works with Python >= 3.9. Expected outputs come from
tests/reference/generate.sh (real PyTorch 2.15).
"""
import argparse
import difflib
import fnmatch
import math
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
EXPECTED = os.path.join(HERE, "expected")


def all_programs():
    if not os.path.isdir(PROGRAMS):
        return []
    return sorted(f[:-3] for f in os.listdir(PROGRAMS) if f.endswith(".py"))


def select(patterns):
    names = all_programs()
    if not patterns:
        return names, []
    chosen, unknown = [], []
    for pat in patterns:
        pat = os.path.basename(pat)
        if pat.endswith(".py"):
            pat = pat[:-3]
        hits = [n for n in names if fnmatch.fnmatchcase(n, pat)]
        if not hits:
            unknown.append(pat)
        for n in hits:
            if n not in chosen:
                chosen.append(n)
    return chosen, unknown


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def last_line(text):
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].rstrip() if lines else ""


def kind_of(line):
    return line.split(":", 1)[0].strip()


def diff(expected, actual, label):
    return "".join(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True),
        fromfile="expected/" + label, tofile="inside-pytorch stdout", n=3))


def indent(text, prefix="    "):
    return "".join(prefix + ln for ln in text.splitlines(True)) or prefix + "(empty)\n"


def tail(text, n=20):
    lines = text.splitlines(True)
    if len(lines) > n:
        return "".join(["... (%d earlier lines)\n" % (len(lines) - n)] + lines[-n:])
    return text


# Note [Tolerance for values computed by matrix products]
# The reference PyTorch does its matrix products with MKL and its CPU convolutions with oneDNN;
# this project uses OpenBLAS, whose sums run in another order, so the last bits of `mm`,
# `linear`, `conv` and everything computed from them differ. The same holds for exp, log, sin,
# cos, tan and tanh, which the reference computes with MKL's VML and this project with SLEEF. A program whose output holds such
# values says so in a line of its own, `# reference tolerance: rtol=R atol=A`: its output must
# still equal the expected output word for word, except that each number may differ from the
# expected one by at most atol + rtol * |expected| (numbers as Python prints them: integers,
# decimals, exponents, nan, inf). Every other program is compared byte for byte.
TOLERANCE_RE = re.compile(r"^# reference tolerance: rtol=([0-9.eE+-]+) atol=([0-9.eE+-]+)\s*$", re.M)
NUMBER_RE = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|(?<![A-Za-z_])[-+]?(?:nan|inf)\b")


def tolerance_of(program_text):
    m = TOLERANCE_RE.search(program_text)
    return (float(m.group(1)), float(m.group(2))) if m else None


def close_enough(expected, actual, rtol, atol):
    """True when the two outputs differ only in numbers, each within atol + rtol * |expected|."""
    if NUMBER_RE.sub("#", expected) != NUMBER_RE.sub("#", actual):
        return False
    for e, a in zip(NUMBER_RE.findall(expected), NUMBER_RE.findall(actual)):
        if e == a:
            continue
        fe, fa = float(e), float(a)
        if math.isnan(fe) or math.isnan(fa) or math.isinf(fe) or math.isinf(fa):
            return False
        if abs(fe - fa) > atol + rtol * abs(fe):
            return False
    return True


class Result:
    def __init__(self, name):
        self.name = name
        self.problems = []
        self.seconds = 0.0

    @property
    def ok(self):
        return not self.problems


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        try:
            proc.kill()
        except OSError:
            pass


def run_one(exe, name, timeout, kind_only):
    res = Result(name)
    program = os.path.join(PROGRAMS, name + ".py")
    out_path = os.path.join(EXPECTED, name + ".out")
    rc_path = os.path.join(EXPECTED, name + ".rc")
    err_path = os.path.join(EXPECTED, name + ".err_last")
    if not os.path.isfile(out_path):
        res.problems.append("missing expected output %s (run tests/reference/generate.sh)" % out_path)
        return res
    expected_out = read_text(out_path)
    expected_rc = int(read_text(rc_path).strip()) if os.path.isfile(rc_path) else 0
    expected_err = last_line(read_text(err_path)) if os.path.isfile(err_path) else None
    if name.startswith("uncaught_") and (expected_rc == 0 or expected_err is None):
        res.problems.append("expected/%s.rc or .err_last missing (run tests/reference/generate.sh)" % name)
        return res

    env = dict(os.environ)
    env.setdefault("LC_ALL", "C.UTF-8")
    # The thread count the expected outputs were made with (scripts/reference-python's); a
    # program that sets its own (torch.set_num_threads) compares at that count.
    env.setdefault("OMP_NUM_THREADS", "1")
    # The reference is a CPU-only PyTorch: ours runs without its simulated GPU too.
    env["IPT_GPU"] = "off"
    start = time.monotonic()
    try:
        # A session of its own, so that a timeout kills the program and anything it started.
        proc = subprocess.Popen([exe, "run", program], cwd=PROGRAMS, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        res.problems.append("could not start %s: %s" % (exe, e))
        return res
    try:
        out_b, err_b = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        try:
            out_b, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            out_b = b""
        res.seconds = time.monotonic() - start
        res.problems.append("timed out after %g s" % timeout)
        partial = out_b.decode("utf-8", errors="replace") if out_b else ""
        if partial:
            res.problems.append("stdout so far:\n" + indent(tail(partial)))
        return res
    finally:
        if proc.returncode is None:
            kill_group(proc)
            proc.wait()
    res.seconds = time.monotonic() - start
    out = out_b.decode("utf-8", errors="replace")
    err = err_b.decode("utf-8", errors="replace")
    rc = proc.returncode

    tolerance = tolerance_of(read_text(program))
    if out != expected_out and not (tolerance and close_enough(expected_out, out, *tolerance)):
        d = diff(expected_out, out, name + ".out")
        if not d:  # differs only in something difflib does not show (e.g. final newline)
            d = "expected %r\n     got %r\n" % (expected_out[-80:], out[-80:])
        res.problems.append("stdout differs:\n" + indent(d))
    if rc < 0:
        res.problems.append("killed by signal %d (crash?)" % -rc)
    elif expected_rc == 0 and rc != 0:
        res.problems.append("exit status %d, expected 0" % rc)
    elif expected_rc != 0 and rc == 0:
        res.problems.append("exit status 0, expected non-zero (the program ends with an uncaught error)")
    if expected_err is not None:
        got = last_line(err)
        shown = got or "(no stderr)"
        if kind_only:
            if kind_of(got) != kind_of(expected_err):
                res.problems.append("last stderr line has kind %r, expected %r\n    expected: %s\n    got:      %s"
                                    % (kind_of(got), kind_of(expected_err), expected_err, shown))
        elif got != expected_err:
            res.problems.append("last stderr line differs\n    expected: %s\n    got:      %s" % (expected_err, shown))
    if res.problems and err.strip():
        res.problems.append("stderr:\n" + indent(tail(err)))
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Compare inside-pytorch with PyTorch 2.15 on the reference programs.")
    ap.add_argument("--exe", help="path to the inside-pytorch executable")
    ap.add_argument("--list", action="store_true", help="list the (selected) programs and exit")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per program (default 30)")
    ap.add_argument("--stderr-kind-only", action="store_true",
                    help="for uncaught_* programs compare only the exception kind of the last stderr line")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("names", nargs="*", help="program names or glob patterns (default: all)")
    args = ap.parse_args(argv)

    names, unknown = select(args.names)
    if unknown:
        print("unknown program(s): %s (see --list)" % ", ".join(unknown), file=sys.stderr)
        return 2
    if args.list:
        for n in names:
            print(n)
        return 0
    if not names:
        print("no reference programs found in %s" % PROGRAMS, file=sys.stderr)
        return 2
    if not args.exe:
        print("error: --exe PATH is required (the inside-pytorch executable, e.g. build/app/inside-pytorch)",
              file=sys.stderr)
        return 2
    exe = os.path.abspath(args.exe)
    if not os.path.exists(exe):
        print("error: inside-pytorch executable not found: %s\n"
              "       build it first (cmake --build build --target inside-pytorch) or pass the right --exe"
              % exe, file=sys.stderr)
        return 2
    if os.path.isdir(exe) or not os.access(exe, os.X_OK):
        print("error: %s is not an executable file" % exe, file=sys.stderr)
        return 2

    failed = []
    for n in names:
        res = run_one(exe, n, args.timeout, args.stderr_kind_only)
        if res.ok:
            if not args.quiet:
                print("PASS %s (%.2f s)" % (n, res.seconds))
        else:
            failed.append(n)
            print("FAIL %s" % n)
            for p in res.problems:
                print(indent(p, "  "), end="" if p.endswith("\n") else "\n")
        sys.stdout.flush()

    print("%d/%d reference programs match PyTorch 2.15" % (len(names) - len(failed), len(names)))
    if failed:
        print("failed: " + " ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
