#!/usr/bin/env bash
# Runs one fuzz target for a set time:  fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
# Builds the target if needed, seeds its corpus (fuzz/seeds.py), keeps the growing corpus in fuzz/out/corpus/TARGET
# and any crash in fuzz/out/crashes/. The core's depth bounds assume a large stack, as every front end gives it, so
# the fuzzer runs with a 1 GiB stack. Exits non-zero when libFuzzer found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET SECONDS}
seconds=${2:?usage: fuzz/run.sh TARGET SECONDS}
shift 2
[ -x "fuzz/out/$target" ] || fuzz/build.sh "$target"
python3 fuzz/seeds.py "$target"
mkdir -p "fuzz/out/corpus/$target" fuzz/out/crashes
dictionary=fuzz/dictionaries/$target.dict
[ -f "$dictionary" ] || dictionary=fuzz/dictionaries/lsp.dict
ulimit -s 1048576
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
# Swift's own crash backtracer would race AddressSanitizer's report.
export SWIFT_BACKTRACE=enable=no
export TAXPRO_LIBRARY=${TAXPRO_LIBRARY:-$PWD/Sources/TaxProLibrary/Resources}
exec "fuzz/out/$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=8192 \
  -dict="$dictionary" -artifact_prefix="fuzz/out/crashes/$target-" -print_final_stats=1 "$@" \
  "fuzz/out/corpus/$target" "fuzz/out/seeds/$target" $( [ -d "fuzz/regressions/$target" ] && echo "fuzz/regressions/$target" )
