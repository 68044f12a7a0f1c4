#!/usr/bin/env bash
# Regenerates tests/reference/expected/ by running every program in
# tests/reference/programs/ with real PyTorch 2.15.
#
#   tests/reference/generate.sh              # all programs
#   tests/reference/generate.sh views_view   # only the named ones (with or without .py)
#
# Environment:
#   PYTORCH_PYTHON   command that runs a Python with torch 2.15 (default: scripts/reference-python)
#   EXPECTED_DIR     where to write (default: tests/reference/expected), e.g. to compare first
#
# For each program NAME it writes expected/NAME.out (stdout, byte for byte).
# Programs named uncaught_* must end with an uncaught exception: for those it also
# writes expected/NAME.err_last (the last non-empty line of stderr, e.g.
# "RuntimeError: ...") and expected/NAME.rc (the exit status, non-zero).
# Every other program must exit 0 with an empty stderr; otherwise this script fails
# and writes nothing for that program.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
programs="$here/programs"
expected="${EXPECTED_DIR:-$here/expected}"
py="${PYTORCH_PYTHON:-$here/../../scripts/reference-python}"

if ! version="$("$py" -c 'import torch; print(torch.__version__)' 2>/dev/null)"; then
  echo "generate.sh: '$py' cannot import torch; run scripts/reference-env, or set PYTORCH_PYTHON to a Python with PyTorch 2.15" >&2
  exit 2
fi
case "$version" in
  2.15.*) ;;
  *) echo "generate.sh: expected PyTorch 2.15, '$py' has $version" >&2; exit 2 ;;
esac

# Deterministic runs: AVX2 kernels, one thread (reduction order), fixed hash seed, no user site
# (scripts/reference-python sets the same; they are repeated for a PYTORCH_PYTHON of one's own).
export ATEN_CPU_CAPABILITY=avx2 MKL_CBWR=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0 PYTHONNOUSERSITE=1
export PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 LC_ALL=C.UTF-8

mkdir -p "$expected"

names=()
if [ "$#" -gt 0 ]; then
  for a in "$@"; do
    n="$(basename "$a" .py)"
    if [ ! -f "$programs/$n.py" ]; then
      echo "generate.sh: no program $programs/$n.py" >&2
      exit 2
    fi
    names+=("$n")
  done
else
  for f in "$programs"/*.py; do
    names+=("$(basename "$f" .py)")
  done
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=0
for n in "${names[@]}"; do
  rc=0
  (cd "$programs" && timeout 60 "$py" "$n.py") >"$tmp/out" 2>"$tmp/err" || rc=$?
  case "$n" in
    uncaught_*)
      last="$(grep -v '^[[:space:]]*$' "$tmp/err" | tail -n 1 || true)"
      if [ "$rc" -eq 0 ] || [ -z "$last" ]; then
        echo "FAIL $n: an uncaught_* program must exit non-zero with an error on stderr (rc=$rc)" >&2
        failed=1; continue
      fi
      cp "$tmp/out" "$expected/$n.out"
      printf '%s\n' "$last" >"$expected/$n.err_last"
      printf '%s\n' "$rc" >"$expected/$n.rc"
      echo "ok   $n (rc=$rc: $last)"
      ;;
    *)
      if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
        echo "FAIL $n: rc=$rc, stderr:" >&2
        sed 's/^/    /' "$tmp/err" >&2
        failed=1; continue
      fi
      cp "$tmp/out" "$expected/$n.out"
      rm -f "$expected/$n.err_last" "$expected/$n.rc"
      echo "ok   $n"
      ;;
  esac
done

# Expected files whose program is gone.
if [ "$#" -eq 0 ]; then
  for f in "$expected"/*; do
    [ -e "$f" ] || continue
    b="$(basename "$f")"; n="${b%.*}"
    if [ ! -f "$programs/$n.py" ]; then
      echo "removing stale $b"
      rm -f "$f"
    fi
  done
fi

if [ "$failed" -ne 0 ]; then
  echo "generate.sh: some programs failed (see above)" >&2
  exit 1
fi
echo "generate.sh: ${#names[@]} program(s) recorded with PyTorch $version"
