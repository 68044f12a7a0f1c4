"""Building generated C++ into a shared library, cached on disk by a hash of its source, as
Inductor's C++ backend does (the cache lives in $TORCHINDUCTOR_CACHE_DIR, by default
/tmp/torchinductor_<user>/).

Note [Compiling a kernel]
The source is written to <cache>/<k[1:3]>/<k>.cpp and compiled into <k>.so next to it, k being
"c" and the first 51 characters of the base32 SHA-256 of the source, the compiler and its flags
(2.15's naming of its cache files); a later
run (or another process) that generates the same source with the same flags finds the .so and
loads it without compiling. The compiler is the first entry of torch._inductor.config.cpp.cxx
that answers `--version` (get_cpp_compiler); when none does, InvalidCxxCompiler says so, and a
compile that fails raises CppCompileError with the command and the compiler's output, both in
PyTorch 2.15's words. torch.compile raises either, wrapped in InductorError, as 2.15 does.

Note [Inductor's compiler flags]
The flags are those PyTorch 2.15's cpp_builder gives a CPU kernel, in its order (get_cpp_flags):
-O3 -DNDEBUG, a frame pointer and line tables, the flags -ffast-math implies followed by
-fno-finite-math-only -fno-unsafe-math-optimizations (NaN and infinity keep their meaning and
no algebra is reordered), -fmath-errno, -ffp-contract=off (a * b + c is never fused into one
FMA with a single rounding, so a fused pointwise chain gives eager's result bit for bit), the
architecture (-march=native) and the vector ISA's flags: those of AVX2 (-mavx2 -mfma -mf16c
with CPU_CAPABILITY_AVX2), the kernels this project follows, when the CPU has it. 2.15's
include paths, its precompiled header, -fopenmp and the libtorch libraries are left out: these
kernels include only the C++ standard library and run on one thread.

One flag is left out on purpose: -fno-tree-loop-vectorize. 2.15 writes its kernels with ATen's
vector types and turns GCC's loop vectorizer off; this project writes 2.15's scalar form
(Note [The kernels' header]), so GCC's vectorizer is what makes them vector code, as 2.15's
are. It changes no result: without -fassociative-math (-fno-unsafe-math-optimizations) GCC
vectorizes only element-wise work and keeps every reduction in its order. With the flag, a
scalar relu compiles to a branch that random signs mispredict, about five times slower."""
import base64
import ctypes
import functools
import getpass
import hashlib
import os
import re
import shlex
import subprocess
import tempfile
import time

from torch._inductor import config
from torch._inductor.exc import CppCompileError, InvalidCxxCompiler

stats = {"compiled": 0, "disk_hits": 0, "compile_s": 0.0}

__all__ = ["CppCompileError", "InvalidCxxCompiler", "cache_dir", "compile_source", "get_cpp_compiler",
           "get_cpp_flags", "load_kernel"]


def cache_dir():
    d = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    if not d:
        try:
            user = getpass.getuser()
        except Exception:
            user = "user"
        d = os.path.join(tempfile.gettempdir(), "torchinductor_" + user)
    return d


def _compiler_command(compiler, *args):
    command = shlex.split(compiler)
    if not command:
        raise ValueError("empty compiler command")
    return command + list(args)


@functools.lru_cache(None)
def _version_first_line(compiler):
    try:
        out = subprocess.check_output(_compiler_command(compiler, "--version"), stderr=subprocess.DEVNULL)
    except (FileNotFoundError, PermissionError, subprocess.SubprocessError, ValueError):
        return ""
    lines = out.decode("utf-8", "replace").strip().splitlines()
    return lines[0] if lines else ""


@functools.lru_cache(None)
def _compiler_search(search):
    for cxx in search:
        if cxx is None:  # conda's GCC (config.cpp.cxx's note)
            continue
        try:
            subprocess.check_output(_compiler_command(cxx, "--version"), stderr=subprocess.DEVNULL)
            return cxx
        except (FileNotFoundError, PermissionError, subprocess.SubprocessError, ValueError):
            continue
    raise InvalidCxxCompiler


def get_cpp_compiler():
    cxx = config.cpp.cxx
    return _compiler_search(tuple(cxx) if isinstance(cxx, (list, tuple)) else (cxx,))


def _is_clang(compiler):
    first = _version_first_line(compiler)
    if "Intel" not in first and re.search(r"(^|[\s/-])clang version\b", first):
        return True
    return bool(re.search(r"(^|[/\s-])(clang\+\+|clang)(?=[\s-]|$)", compiler))


def _is_gcc(compiler):
    if _is_clang(compiler):
        return False
    return bool(re.search(r"(^|[\s/-])(gcc|g\+\+|gnu-c\+\+)(?=[\s(-]|$)", _version_first_line(compiler), re.I))


@functools.lru_cache(None)
def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def _vec_isa():
    """(macros, flags) of the vector ISA: AVX2's when the CPU has it (Note [Inductor's compiler flags])."""
    if {"avx2", "fma", "f16c"} <= _cpu_flags():
        return ["CPU_CAPABILITY_AVX2"], ["-mavx2", "-mfma", "-mf16c"]
    return [], []


def get_cpp_flags(compiler):
    """The flags between the source and `-o` (Note [Inductor's compiler flags])."""
    gcc, clang = _is_gcc(compiler), _is_clang(compiler)
    macros, isa = _vec_isa()
    flags = []
    for m in macros:
        flags += ["-D", m]
    flags += ["-O3", "-DNDEBUG", "-fno-omit-frame-pointer", "-gline-tables-only" if clang else "-g1"]
    flags += ["-fno-trapping-math", "-funsafe-math-optimizations", "-ffinite-math-only", "-fno-signed-zeros",
              "-fno-finite-math-only"]
    if not config.cpp.enable_unsafe_math_opt_flag:
        flags.append("-fno-unsafe-math-optimizations")
    flags += ["-fmath-errno", "-ffp-contract={}".format(config.cpp.enable_floating_point_contract_flag)]
    if gcc:
        flags.append("-fexcess-precision=fast")  # not -fno-tree-loop-vectorize: Note [Inductor's compiler flags]
    march = config.cpp.march
    if march is None:
        flags.append("-march=native")
    elif march != "":
        flags.append("-march={}".format(march))
    flags += ["-shared", "-fPIC", "-Wall", "-std=c++20", "-Wno-unused-variable", "-Wno-unknown-pragmas"]
    if clang:
        flags.append("-Wno-ignored-optimization-argument")
    if gcc:
        flags.append("-pedantic")
    return flags + isa


def _key(text):
    return "c" + base64.b32encode(hashlib.sha256(text.encode()).digest()).decode()[:51].lower()


def write_module(source):
    """Writes a generated wrapper module into the cache as 2.15 names it, <cache>/<k[1:3]>/<k>.py
    with k = "c" + the first 51 characters of the base32 SHA-256 of its source, and returns the path."""
    key = _key(source)
    folder = os.path.join(cache_dir(), key[1:3])
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, key + ".py")
    if not os.path.exists(path):
        tmp = path + ".tmp{}".format(os.getpid())
        with open(tmp, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    return path


def compile_source(source):
    """The path of the shared library built from `source` (compiled now, or found on disk) and
    whether it came from the disk cache."""
    compiler = get_cpp_compiler()
    flags = get_cpp_flags(compiler)
    key = _key(source + "\n" + " ".join([compiler] + flags))
    folder = os.path.join(cache_dir(), key[1:3])
    so = os.path.join(folder, key + ".so")
    if os.path.exists(so):
        stats["disk_hits"] += 1
        return so, True
    os.makedirs(folder, exist_ok=True)
    cpp = os.path.join(folder, key + ".cpp")
    with open(cpp, "w") as f:
        f.write(source)
    tmp = so + ".tmp{}".format(os.getpid())
    cmd = _compiler_command(compiler, cpp, *flags, "-o", tmp)
    start = time.perf_counter()
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except (FileNotFoundError, PermissionError):
        raise InvalidCxxCompiler(compiler) from None
    stats["compile_s"] += time.perf_counter() - start
    if r.returncode != 0:
        raise CppCompileError(cmd, r.stdout)
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
