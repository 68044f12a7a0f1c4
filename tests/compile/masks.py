"""How a tests/compile program is run and what of its output is masked, shared by
generate.sh (which runs it under PyTorch 2.15 and writes expected/<name>.txt) and
run_compile_tests.py (which runs it under inside-pytorch and compares).

Both run `<python> programs/<name>.py` with tests/compile as the working directory, TORCH_LOGS
unset, unbuffered output, a kernel cache of the program's own (TORCHINDUCTOR_CACHE_DIR, removed afterwards), and
stdout and stderr merged in the order they are written.

mask() replaces only what changes from run to run or from machine to machine; every other
character must match 2.15. Each mask is listed in MASKS with its reason."""
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (pattern, replacement, reason). Applied in order, line by line where the pattern says ^.
MASKS = [
    # The logging prefix "V1205 19:53:34.033000 7462 torch/_dynamo/symbolic_convert.py:5577] ":
    # the level letter stays; the date and time, the process id and the file:line of the
    # logging call (a line inside torch's own sources) change from run to run and release to
    # release.
    (re.compile(r"^([VIWEDC])\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ \S+:\d+\] ", re.M),
     r"\1MMDD hh:mm:ss.ffffff PID FILE:LINE] ", "logging prefix"),
    # Absolute paths: the program's directory (tests/compile, where the program runs) is
    # dropped, so "/home/u/ipt/tests/compile/programs/x.py" reads "programs/x.py" as it was
    # named on the command line; a path inside the torch package, wherever it is installed
    # (a virtual environment's site-packages, this project's python/), reads "torch/...".
    # Dynamo's own short forms (tests/compile/programs/x.py:9, relative to the directory that
    # holds both the program and torch) are left as they are.
    (re.compile(re.escape(HERE + os.sep)), "", "program directory"),
    (re.compile(r"(?<![\w.~-])/[^\s\"'<>:,()]*?/torch/"), "torch/", "torch package directory"),
    # Guards that Dynamo itself installs name the line of torch's source that installed them
    # ("# _dynamo/output_graph.py:1235 in init_ambient_guards"): like the logging site, a line of
    # torch's own files, not of the program.
    (re.compile(r"(  # _dynamo/[\w/]+\.py:)\d+( in \w+)"), r"\1LINE\2", "line in torch's source"),
    # Compiled functions are named __compiled_fn_<n>_<uuid4> (with underscores): the uuid is
    # new in every run.
    (re.compile(r"(__compiled_fn_\d+)_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}"),
     r"\1_<uuid>", "compiled function uuid"),
    # Object ids in ID_MATCH / TYPE_MATCH guards and hex addresses in reprs (weakrefs,
    # "object at 0x..."): where the allocator put the object.
    (re.compile(r"(___check_(?:obj|type)_id\([^,]+, )\d+\)"), r"\1<id>)", "object id"),
    # ... and the padding the guard tree put after such a check: it pads the check to 60
    # columns, so its width depends on how many digits the id has.
    (re.compile(r"(<id>\)[^#\n]*?) +(  # )"), r"\1\2", "padding after an object id"),
    (re.compile(r"\b0x[0-9a-f]{4,}\b"), "0x<addr>", "address"),
    # The guard tree's "Guard eval latency = 28.01 us": a time.
    (re.compile(r"(Guard eval latency = )[\d.]+( us)"), r"\1<t>\2", "guard eval latency"),
    # explain()'s "Compile Times" table: each timer's name stays, its seconds are times.
    (re.compile(r"^([A-Za-z_][\w.]*), [\d.]+(?:, [\d.]+)*$", re.M), r"\1, <times>", "compile times"),
    # The reference is PyPI's CUDA build of PyTorch: its C++ extension loader warns once,
    # on a machine with a CUDA_HOME but no CUDA runtime, that there is none. Whether the
    # line appears depends on the machine's CUDA installation, not on the program.
    (re.compile(r"^W[^\n]*\] (?:\[[\d/_]+\] )?No CUDA runtime is found, using CUDA_HOME=[^\n]*\n", re.M),
     "", "CUDA runtime warning"),
    # TORCH_LOGS=output_code ends with "Output code written to: <cache>/jn/cjn7...hu.py": the
    # kernel cache is a temporary folder of the run, and the file is named by a hash of the
    # generated module's text.
    (re.compile(r"(Output code written to: )\S*/c[a-z0-9]{51}\.py"), r"\1<cache>/<hash>.py", "output code file"),
]


def mask(text):
    for pattern, replacement, _reason in MASKS:
        text = pattern.sub(replacement, text)
    return text


def run_program(python, name, timeout):
    """Runs programs/<name>.py with `python` (a list: the interpreter and its leading arguments)
    as described above; returns (exit status, merged output, unmasked)."""
    env = dict(os.environ)
    env.pop("TORCH_LOGS", None)
    env["PYTHONUNBUFFERED"] = "1"  # stdout and the logs on stderr interleave in program order
    with tempfile.TemporaryDirectory(prefix="ipt_inductor_") as cache:
        env["TORCHINDUCTOR_CACHE_DIR"] = cache
        r = subprocess.run(list(python) + ["programs/{}.py".format(name)], cwd=HERE, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return r.returncode, r.stdout
