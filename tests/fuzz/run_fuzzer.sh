#!/usr/bin/env bash
# Runs one libFuzzer target on its committed seed corpus for SECONDS seconds.
# Usage: run_fuzzer.sh FUZZER_BINARY TARGET SECONDS [more libFuzzer options]
#   TARGET: schema | trace | lesson | program
# New inputs go to a temporary folder (the committed corpus is never changed); a finding is
# saved under $IPT_FUZZ_FINDINGS (default: ./fuzz-findings/TARGET/) and fails the run.
set -euo pipefail
bin="$1"; target="$2"; seconds="$3"; shift 3
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# IPT_FUZZ_SEEDS=committed (CTest's short runs) reads only tests/fuzz/corpus/TARGET: libFuzzer
# runs every seed before its time limit counts, and the 140 reference programs take minutes
# under the sanitizers.
seeds=("$here/corpus/$target")
case "$target" in
  schema|trace) ;;
  lesson) extra="$root/lessons" ;;
  program) extra="$root/tests/reference/programs" ;;
  *) echo "unknown fuzz target '$target' (schema, trace, lesson or program)" >&2; exit 2 ;;
esac
if [ -n "${extra:-}" ] && [ "${IPT_FUZZ_SEEDS:-all}" != committed ]; then seeds+=("$extra"); fi

findings="${IPT_FUZZ_FINDINGS:-$PWD/fuzz-findings}/$target"
mkdir -p "$findings"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The program target runs CPython, whose caches grow from input to input: leak checking
# there would report CPython, not us (the unit tests under LeakSanitizer cover our code).
leaks=1
[ "$target" = program ] && leaks=0
export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=$leaks"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export IPT_PYTHON_DIR="$root/python"

log="$work/fuzz.log"
status=0
"$bin" "$work" "${seeds[@]}" -dict="$here/$target.dict" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=3072 -max_len=200000 -artifact_prefix="$findings/" -print_final_stats=1 "$@" \
  >"$log" 2>&1 || status=$?
runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
if [ "$status" -ne 0 ]; then
  tail -n 80 "$log"
  echo "fuzz $target: FINDING after ${runs:-?} runs (reproducer in $findings/)"
  exit 1
fi
cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1)"
echo "fuzz $target: ${runs:-?} runs in ${seconds} s, ${cov:-cov: ?}, no finding"
