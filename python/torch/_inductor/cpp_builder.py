"""Building generated C++ into a shared library, cached on disk by a hash of its source, as
Inductor's C++ backend does (the cache lives in $TORCHINDUCTOR_CACHE_DIR, by default
/tmp/torchinductor_<user>/).

Note [Compiling a kernel]
The source is written to <cache>/<h[:2]>/c<h>.cpp and compiled with the system compiler
($CXX, else g++) into c<h>.so next to it; a later run (or another process) that generates the
same source finds the .so and loads it without compiling. A compiler that is missing or fails
raises CppCompileError naming the exact command and its first error lines; the caller then
runs the graph eagerly with a warning."""
import ctypes
import getpass
import hashlib
import os
import shlex
import subprocess
import tempfile
import time

FLAGS = ["-O3", "-DNDEBUG", "-march=native", "-ffast-math", "-fno-finite-math-only", "-fPIC", "-shared",
         "-std=c++17"]
stats = {"compiled": 0, "disk_hits": 0, "compile_s": 0.0}


class CppCompileError(RuntimeError):
    pass


def cache_dir():
    d = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    if not d:
        try:
            user = getpass.getuser()
        except Exception:
            user = "user"
        d = os.path.join(tempfile.gettempdir(), "torchinductor_" + user)
    return d


def source_hash(source):
    return hashlib.sha256((source + "\n" + " ".join(FLAGS)).encode()).hexdigest()[:40]


def compile_source(source):
    """The path of the shared library built from `source` (compiled now, or found on disk) and
    whether it came from the disk cache."""
    h = source_hash(source)
    folder = os.path.join(cache_dir(), h[:2])
    so = os.path.join(folder, "c{}.so".format(h))
    if os.path.exists(so):
        stats["disk_hits"] += 1
        return so, True
    os.makedirs(folder, exist_ok=True)
    cpp = os.path.join(folder, "c{}.cpp".format(h))
    with open(cpp, "w") as f:
        f.write(source)
    cxx = os.environ.get("CXX", "g++")
    tmp = so + ".tmp{}".format(os.getpid())
    cmd = shlex.split(cxx) + FLAGS + [cpp, "-o", tmp]
    start = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise CppCompileError("C++ compiler not found: `{}` (set CXX to a C++ compiler)".format(
            " ".join(shlex.quote(c) for c in cmd))) from None
    stats["compile_s"] += time.perf_counter() - start
    if r.returncode != 0:
        errors = "\n".join((r.stderr or r.stdout).strip().splitlines()[:8]) or "(it printed nothing)"
        raise CppCompileError("C++ compile error: `{}` exited with status {}:\n{}".format(
            " ".join(shlex.quote(c) for c in cmd), r.returncode, errors))
    os.replace(tmp, so)  # atomic: a reader never sees half a library
    stats["compiled"] += 1
    return so, False


_loaded = {}


def load_kernel(so, name="kernel"):
    lib = _loaded.get(so)
    if lib is None:
        lib = _loaded[so] = ctypes.CDLL(so)
    fn = getattr(lib, name)
    fn.restype = None
    return fn
