#!/usr/bin/env python3
"""End-to-end checks of the inside-pytorch executable (run by CTest, one case per test).

Usage: cli_tests.py --exe PATH CASE [ARGS...]
Each case runs the program and checks exit status and output; exit 0 = pass.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

EXE = None


def run(args, env=None, timeout=120, cwd=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run([EXE] + args, capture_output=True, text=True, timeout=timeout, env=e, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def expect(cond, msg, out="", err=""):
    if not cond:
        print("FAIL:", msg)
        if out:
            print("--- stdout ---\n" + out[-4000:])
        if err:
            print("--- stderr ---\n" + err[-4000:])
        sys.exit(1)


def write(dirname, name, text):
    path = os.path.join(dirname, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def case_help():
    for sub in [[], ["run"], ["lessons"], ["lesson"], ["all-lessons"], ["schema"], ["ops"], ["trace"], ["gui"]]:
        rc, out, err = run(sub + ["--help"])
        expect(rc == 0 and "Usage" in out, "--help for %s" % sub, out, err)


def case_lessons():
    rc, out, err = run(["lessons"])
    expect(rc == 0, "lessons exits 0", out, err)
    lines = [l for l in out.splitlines() if l.strip()]
    expect(len(lines) == 7, "seven lessons listed", out, err)
    expect(all("steps)" in l for l in lines), "every lesson is written, with its number of steps", out, err)
    rc, out, err = run(["lessons", "--lang", "zh"])
    expect(rc == 0 and len([l for l in out.splitlines() if l.strip()]) == 7, "Chinese listing", out, err)
    # An index entry without a file is listed as coming.
    with tempfile.TemporaryDirectory() as d:
        write(d, "index.yaml", "lessons:\n  - number: 8\n    title: {en: Later, zh: 以后}\n")
        rc, out, err = run(["lessons"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 0 and "coming" in out, "a lesson without a file is marked coming", out, err)
        rc, out, err = run(["lessons", "--lang", "zh"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 0 and "即将推出" in out, "Chinese listing of a coming lesson", out, err)


def case_lesson_step(number, step):
    rc, out, err = run(["lesson", number, "--step", step])
    expect(rc == 0, "lesson %s step %s runs without error" % (number, step), out, err)
    expect(("Step %s/" % step) in out, "the step is shown", out, err)
    rc, out, err = run(["lesson", number, "--step", step, "--lang", "zh"])
    expect(rc == 0 and ("第 %s 步" % step) in out, "the step runs in Chinese", out, err)


def case_lesson_coming():
    with tempfile.TemporaryDirectory() as d:
        write(d, "index.yaml", "lessons:\n  - number: 8\n    title: {en: Later, zh: 以后}\n")
        rc, out, err = run(["lesson", "8"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 2 and "coming" in err, "an unwritten lesson says it is coming", out, err)
    rc, out, err = run(["lesson", "2", "--step", "99"])
    expect(rc == 2 and "steps 1 to" in err, "a step out of range is refused", out, err)


def case_bad_lesson_file():
    with tempfile.TemporaryDirectory() as d:
        write(d, "index.yaml", "lessons:\n  - number: 2\n    title: {en: T, zh: T}\n    file: bad.yaml\n")
        write(d, "bad.yaml", "number: 2\ntitle: {en: T, zh: T}\nsummary: {en: S, zh: S}\nsteps:\n"
                             "  - title: {en: A, zh: A}\n    view: storage\n    narration: {en: N}\n    code: print(1)\n")
        rc, out, err = run(["lesson", "2"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 2 and "missing 'narration.zh'" in err and "step 1" in err, "a missing field is named", out, err)
        write(d, "bad.yaml", "number: [\n")
        rc, out, err = run(["lesson", "2"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 2 and "not valid YAML" in err, "malformed YAML is reported", out, err)
        # A field of the wrong type: the file, its line, the field and what was expected.
        write(d, "bad.yaml", "number: 2\ntitle: [T]\nsummary: {en: S, zh: S}\nsteps: []\n")
        rc, out, err = run(["lesson", "2"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 2 and "bad.yaml:2: 'title' must be a mapping with 'en' and 'zh' texts, not a list" in err,
               "a field of the wrong type is named with its file and line", out, err)
        # An index that is not a mapping, or whose entry has a file of the wrong type.
        write(d, "index.yaml", "7\n")
        for cmd in (["lessons"], ["lesson", "2"], ["all-lessons", "--out", d]):
            rc, out, err = run(cmd, env={"IPT_LESSONS_DIR": d})
            expect(rc == 2 and "index.yaml:1: expected a mapping with a 'lessons' list, not text" in err,
                   "a scalar index is refused (%s)" % cmd[0], out, err)
            expect("yaml-cpp" not in err, "no raw library message", out, err)
        write(d, "index.yaml", "lessons:\n  - number: 2\n    title: {en: T, zh: T}\n    file: [a, b]\n")
        rc, out, err = run(["lessons"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 2 and "index.yaml:4: lesson entry 1: 'file' must be text, not a list" in err,
               "an entry's file of the wrong type is named", out, err)


def case_failing_step_line():
    # A failing step's traceback names the lesson file's own line, and shows that line.
    with tempfile.TemporaryDirectory() as d:
        write(d, "index.yaml", "lessons:\n  - number: 2\n    title: {en: T, zh: T}\n    file: l.yaml\n")
        write(d, "l.yaml", "number: 2\ntitle: {en: T, zh: T}\nsummary: {en: S, zh: S}\nsteps:\n"
                           "  - title: {en: A, zh: A}\n    view: output\n    narration: {en: N, zh: N}\n"
                           "    code: |\n      def f():\n          return 1 / 0\n"
                           "  - title: {en: B, zh: B}\n    view: output\n    narration: {en: N, zh: N}\n"
                           "    code: |\n      import torch\n      print(torch.ones(2).sum().item())\n      f()\n"
                           "  - title: {en: C, zh: C}\n    view: output\n    narration: {en: N, zh: N}\n"
                           "    code: print(undefined_name)\n")
        rc, out, err = run(["lesson", "2"], env={"IPT_LESSONS_DIR": d})
        expect(rc == 1 and "2.0" in out, "the lesson runs, failing steps exit 1", out, err)
        path = os.path.join(d, "l.yaml")
        expect('File "%s", line 17, in <module>\n    f()' % path in err, "step 2 fails at the file's line 17", out, err)
        expect('File "%s", line 10, in f\n    return 1 / 0' % path in err,
               "the function from step 1 is shown at the file's line 10", out, err)
        expect('File "%s", line 21, in <module>\n    print(undefined_name)' % path in err,
               "a one-line code field is on its own line", out, err)


def case_non_utf8_program():
    # Bytes that are not UTF-8 are refused before compiling, in CPython's words; a str that
    # cannot be encoded fails in print() as on CPython's UTF-8 stdout. Nothing crashes, and
    # the trace still writes.
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "latin1.py")
        with open(p, "wb") as f:
            f.write(b"import torch\n# caf\xe9\nprint(1)\n")
        rc, out, err = run(["run", p, "--trace", os.path.join(d, "t.json")])
        expect(rc == 1 and out == "", "a non-UTF-8 program does not run", out, err)
        expect("SyntaxError: Non-UTF-8 code starting with '\\xe9' in file %s on line 2, but no encoding declared" % p
               in err, "CPython's message", out, err)
        rc, out, err = run(["trace", os.path.join(d, "t.json")])
        expect(rc == 0, "its trace loads", out, err)
        p = write(d, "surrogate.py", "print(1)\nprint('\\udcff')\n")
        rc, out, err = run(["run", p])
        expect(rc == 1 and out == "1\n" and "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udcff'" in err,
               "a lone surrogate fails in print as in CPython", out, err)


def case_traced_uninitialized_bools():
    # Found by the program fuzzer: the trace's storage snapshot of a bool tensor read its
    # fresh, uninitialized bytes as bools (undefined for bytes other than 0 and 1). Under the
    # sanitizer build this is the regression test.
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "bools.py", "import torch\nc = torch.ones(2, dtype=torch.bool)\nprint(c, c.dtype)\n"
                                 "e = torch.empty(1000, dtype=torch.bool)\nprint(e.shape, e.dtype)\n"
                                 "print(str(e)[:8])\n")
        rc, out, err = run(["run", p, "--trace", os.path.join(d, "t.json")])
        expect(rc == 0 and out.startswith("tensor([True, True]) torch.bool\ntorch.Size([1000]) torch.bool\ntensor(["),
               "bool tensors print and trace", out, err)


def case_run_ok():
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "ok.py", "import torch\nx = torch.arange(6.).reshape(2, 3)\nprint(x.t().stride(), x.sum().item())\n")
        rc, out, err = run(["run", p])
        expect(rc == 0 and out == "(1, 3) 15.0\n", "a program runs and prints like PyTorch", out, err)


def case_syntax_error():
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "bad.py", "import torch\nif True\n    print(1)\n")
        rc, out, err = run(["run", p])
        expect(rc == 1, "a syntax error exits non-zero", out, err)
        expect("line 2" in err and "SyntaxError" in err, "the line is named", out, err)
        expect("    if True\n" in err and "^" in err, "CPython's caret under the line", out, err)
        p = write(d, "classes.py", "class A:\n    def f(self):\n        return 2\nprint(A().f(), f'{1.5:.3f}')\n")
        rc, out, err = run(["run", p])
        expect(rc == 0 and out == "2 1.500\n", "all of Python runs (classes, f-strings)", out, err)


def case_runtime_error():
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "err.py", "import torch\nprint('before')\ny = torch.ones(2, 3).t().view(6)\nprint('after')\n")
        rc, out, err = run(["run", p])
        expect(rc == 1 and out == "before\n", "runs until the error", out, err)
        last = err.strip().splitlines()[-1]
        expect(last.startswith("RuntimeError: view size is not compatible"), "PyTorch's kind and message", out, err)
        expect("line 3" in err and "Traceback (most recent call last):" in err, "CPython's traceback names the line", out, err)


def case_missing_file():
    rc, out, err = run(["run", "/nonexistent/prog.py"])
    expect(rc == 2 and "cannot open: No such file" in err, "a missing file is a usage error", out, err)


def case_special_and_huge_files():
    # Found by hostile input: /dev/zero was read without end. Only regular files are read, up
    # to a limit.
    for args in (["run", "/dev/zero"], ["trace", "/dev/zero"], ["run", "/"]):
        rc, out, err = run(args)
        expect(rc == 2 and "not a regular file" in err, "%s is refused" % " ".join(args), out, err)
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big.py")
        with open(big, "w") as f:
            f.write("#" * (17 << 20))
        rc, out, err = run(["run", big])
        expect(rc == 2 and "more than the limit of 16777216 bytes" in err, "a 17 MB program is refused", out, err)


def check_trace(path):
    rc, out, err = run(["trace", path])
    expect(rc == 0 and "Perfetto" in out, "the trace reads back and follows the Chrome trace rules", out, err)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    expect(isinstance(doc.get("traceEvents"), list), "traceEvents list present")
    payload = doc.get("insidePyTorch", {})
    expect(payload.get("version") == 7, "versioned payload present")
    expect(isinstance(payload.get("strings"), list) and payload["strings"][:1] == [""], "the string table, \"\" first")
    return doc


def run_traced(source):
    """Runs the program `source` with --trace and returns the checked trace document."""
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "t.py", source)
        tpath = os.path.join(d, "out.json")
        rc, out, err = run(["run", p, "--trace", tpath])
        expect(rc == 0, "run with --trace", out, err)
        return check_trace(tpath)


def case_run_trace():
    doc = run_traced("import torch\na = torch.ones(2)\nb = a + a\nc = a.t()\na.add_(b)\n")
    names = [e.get("name", "") for e in doc["traceEvents"]]
    expect(any("aten::add.Tensor [AutogradCPU]" in n for n in names), "dispatch slices named by op and key")
    expect(any("aten::add_.Tensor [ADInplaceOrView]" in n for n in names), "the in-place redispatch chain")
    # Records are [dt_ns, tid, phase, category, name, payload]; categories are numbered in
    # the order of docs/trace-format.md (0 dispatch, 2 tensor, 5 script).
    cats = {e[3] for e in doc["insidePyTorch"]["events"]}
    expect({0, 2, 5} <= cats, "payload holds dispatch, tensor and script events: %s" % cats)
    strings = doc["insidePyTorch"]["strings"]
    ops = {strings[e[5][1]] for e in doc["insidePyTorch"]["events"] if len(e) == 6 and e[5][0] == 0}
    expect({"aten::add.Tensor", "aten::add_.Tensor"} <= ops, "dispatch records name their operator", ops)


def case_autocast_trace():
    """The Autocast kernel is a slice of its own: it casts (two _to_copy calls) and calls the
    operator again, which then passes the Autocast key by."""
    doc = run_traced("import torch\nx = torch.ones(2, 2)\nwith torch.autocast('cpu'):\n    y = torch.mm(x, x)\n")
    names = [e.get("name", "") for e in doc["traceEvents"] if e.get("ph") in ("B", "X")]
    expect("aten::mm [AutocastCPU]" in names, "the Autocast kernel's slice", names)
    after = names[names.index("aten::mm [AutocastCPU]") + 1:]
    expect(after.count("aten::_to_copy [AutogradCPU]") == 2 and "aten::mm [AutogradCPU]" in after and
           "aten::mm [AutocastCPU]" not in after, "casts, then the operator below the Autocast key", after)
    kernels = [e.get("args", {}).get("kernel", "") for e in doc["traceEvents"]]
    expect("AutocastCPU::mm [lower_precision_fp]" in kernels, "the kernel names its cast policy")


def case_backward_flows():
    """Arrows from each forward operator to the backward node it created (Kineto's fwdbwd)."""
    doc = run_traced("import torch\na = torch.ones(3, requires_grad=True)\nb = (a * a).sum()\nb.backward()\n")
    flows = [e for e in doc["traceEvents"] if e.get("cat") == "fwdbwd"]
    starts = {e["id"]: e for e in flows if e["ph"] == "s"}
    ends = {e["id"]: e for e in flows if e["ph"] == "f"}
    expect(len(starts) == 2 and starts.keys() == ends.keys(), "one arrow per created node (mul, sum)", flows)
    expect(all(starts[i]["ts"] < ends[i]["ts"] and ends[i].get("bp") == "e" for i in starts),
           "each arrow goes forward in time, into the node's slice", flows)


def case_lesson_trace(number):
    with tempfile.TemporaryDirectory() as d:
        tpath = os.path.join(d, "lesson.json")
        rc, out, err = run(["lesson", number, "--trace", tpath])
        expect(rc == 0, "lesson with --trace", out, err)
        check_trace(tpath)


def case_trace_malformed():
    with tempfile.TemporaryDirectory() as d:
        p = write(d, "t.py", "import torch\nx = torch.ones(3)\n")
        tpath = os.path.join(d, "good.json")
        rc, out, err = run(["run", p, "--trace", tpath])
        expect(rc == 0, "write a trace", out, err)
        with open(tpath, encoding="utf-8") as f:
            text = f.read()
        bad = write(d, "truncated.json", text[: len(text) // 2])
        rc, out, err = run(["trace", bad])
        expect(rc == 2 and "truncated" in err, "a truncated trace is rejected clearly", out, err)
        doc = json.loads(text)
        doc["insidePyTorch"]["version"] = 99
        future = write(d, "future.json", json.dumps(doc))
        rc, out, err = run(["trace", future])
        expect(rc == 2 and "newer" in err, "a future version is rejected clearly", out, err)
        rc, out, err = run(["run", p, "--trace", os.path.join(d, "no", "such", "dir", "x.json")])
        expect(rc == 2 and "could not write" in err, "an unwritable trace path is reported", out, err)


def case_schema():
    rc, out, err = run(["schema", "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"])
    expect(rc == 0, "schema parses", out, err)
    j = json.loads(out)
    expect(j["name"] == "add" and j["overload_name"] == "Tensor", "name and overload", out)
    alpha = [a for a in j["arguments"] if a["name"] == "alpha"][0]
    expect(alpha["kwarg_only"] and alpha["default"] == "1", "keyword-only default", out)
    rc, out, err = run(["schema", "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"])
    j = json.loads(out)
    expect(j["is_inplace"] and j["is_mutable"] and j["arguments"][0]["is_write"], "in-place schema", out)
    rc, out, err = run(["schema", "add(Tensor self -> Tensor"])
    expect(rc == 2 and "column" in err, "malformed schema rejected with its column", out, err)


def case_schema_yaml(path):
    if not os.path.exists(path):
        print("SKIP: PyTorch's native_functions.yaml is not installed")
        return
    rc, out, err = run(["schema", "--yaml", path])
    expect(rc == 0, "PyTorch's own native_functions.yaml parses completely", out, err)
    parts = out.split()
    expect(parts[0] == "parsed" and parts[1] == parts[3], "every schema parsed: " + out, out, err)


def case_ops_table():
    rc, out, err = run(["ops", "--table", "add.Tensor"])
    expect(rc == 0 and "AutogradCPU: registered at" in out and "[autograd kernel]" in out, "dispatch table", out, err)
    rc, out, err = run(["ops", "--table", "no_such_op"])
    expect(rc == 2 and "unknown operator" in err, "unknown operator", out, err)
    rc, out, err = run(["ops"])
    expect(rc == 0 and "aten::mm(Tensor self, Tensor mat2) -> Tensor" in out, "operator list", out, err)
    # The Core ATen opset's coverage: 2.15 tags 193 operators core; every column counts them all,
    # and an operator this project has (asin) is listed under none of the gaps.
    rc, out, err = run(["ops", "--coverage"])
    expect(rc == 0 and "Core ATen opset of PyTorch 2.15 (operators tagged core): 193" in out,
           "coverage header", out, err)
    for label in ("schema", "CPU", "Meta", "CUDA (simulated GPU)", "derivative"):
        m = re.search(r"^  " + re.escape(label) + r" +(\d+)/193$", out, re.M)
        expect(m is not None and 0 < int(m.group(1)) <= 193, "coverage line for " + label, out, err)
    m = re.search(r"^PyTorch 2.15 schemas that run here \(a CPU kernel\): (\d+)/(\d+)$", out, re.M)
    expect(m is not None and 0 < int(m.group(1)) < int(m.group(2)), "schemas that run", out, err)
    missing = re.search(r"^missing \(\d+\):(.*)$", out, re.M)
    expect(missing is None or " asin " not in missing.group(1) + " ", "asin is not missing", out, err)


def case_gui_headless():
    with tempfile.TemporaryDirectory() as d:
        env = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}
        rc, out, err = run(["gui", "--out", os.path.join(d, "traces")], env=env, timeout=300)
        expect(rc == 0 and "No display" in out, "without a display it says so and runs the lessons", out, err)
        files = sorted(os.listdir(os.path.join(d, "traces")))
        expect("lesson-2.json" in files and "lesson-3.json" in files, "lesson traces written: %s" % files)


def main():
    global EXE
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("case")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    EXE = a.exe
    fn = globals().get("case_" + a.case)
    if fn is None:
        print("unknown case", a.case)
        return 2
    fn(*a.args)
    print("ok", a.case, " ".join(a.args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
