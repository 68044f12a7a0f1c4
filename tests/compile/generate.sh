#!/usr/bin/env bash
# Regenerates tests/compile/expected/ by running the programs in tests/compile/programs/ under
# real PyTorch 2.15 (the same CPython 3.11 the project embeds, so Dynamo sees the same bytecode).
#
#   tests/compile/generate.sh               # all programs
#   tests/compile/generate.sh int_change    # only the named ones (with or without .py)
#
# Environment:
#   PYTORCH_PYTHON   command that runs a Python with torch 2.15 (default: scripts/reference-python,
#                    which pins AVX2 kernels, one thread and the hash seed)
#
# Each program runs as run_compile_tests.py runs it under inside-pytorch (masks.run_program:
# cwd tests/compile, "programs/NAME.py", TORCH_LOGS unset, a TORCHINDUCTOR_CACHE_DIR of its own,
# stderr merged into stdout) and its output goes through the same masks.mask() before it is
# written to expected/NAME.txt. A program that exits non-zero writes nothing and fails the script.
# Where the project still differs from 2.15, expected/NAME.differences records the difference
# (run_compile_tests.py --record-differences NAME writes it; README.md explains each hunk): after
# regenerating NAME.txt, run the test again and record the difference anew if 2.15's text changed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTORCH_PYTHON:-$here/../../scripts/reference-python}"

if ! version="$("$py" -c 'import torch; print(torch.__version__)' 2>/dev/null)"; then
  echo "generate.sh: '$py' cannot import torch; run scripts/reference-env, or set PYTORCH_PYTHON to a Python with PyTorch 2.15" >&2
  exit 2
fi
case "$version" in
  2.15.*) ;;
  *) echo "generate.sh: expected PyTorch 2.15, '$py' has $version" >&2; exit 2 ;;
esac
export ATEN_CPU_CAPABILITY=avx2 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0 PYTHONNOUSERSITE=1
export PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 LC_ALL=C.UTF-8

if [ $# -eq 0 ]; then
  set -- "$here"/programs/*.py
fi
status=0
for arg in "$@"; do
  name="$(basename "$arg" .py)"
  if [ ! -f "$here/programs/$name.py" ]; then
    echo "generate.sh: no program $here/programs/$name.py" >&2
    status=1
    continue
  fi
  # A program the reference cannot run (the simulated GPU) says in its header that its expected
  # text is the project's own output, checked by hand: it is kept.
  if grep -q "is the project's own output" "$here/programs/$name.py"; then
    echo "kept expected/$name.txt (the project's own output: see programs/$name.py)"
    continue
  fi
  if python3 - "$here" "$name" "$py" <<'PY'
import os, sys
here, name, py = sys.argv[1:]
sys.path.insert(0, here)
import masks
rc, out = masks.run_program([py], name, timeout=900)
if rc != 0:
    sys.stderr.write(out)
    sys.stderr.write("generate.sh: {} exited with status {}; expected/{}.txt is unchanged\n".format(name, rc, name))
    sys.exit(1)
with open(os.path.join(here, "expected", name + ".txt"), "w") as f:
    f.write(masks.mask(out))
print("wrote expected/{}.txt".format(name))
PY
  then :; else status=1; fi
done
exit $status
