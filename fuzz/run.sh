#!/usr/bin/env bash
# Runs both fuzzers for SECONDS each, side by side (one core each), on
# build-dir copies of the committed seed corpora, and prints what they did.
#
#   fuzz/run.sh BUILD_DIR SECONDS [pragma|frontend ...]
#
# Exit status 1 when a fuzzer found a crash (the input is in
# BUILD_DIR/artifacts/, the report in BUILD_DIR/NAME.log).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=${*:-pragma frontend}

# LeakSanitizer: leaks inside libclang (not instrumented, not ours) are
# suppressed by frame; anything of loomc's is reported.
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

mkdir -p "$build/artifacts"
pids=()
for t in $targets; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  cp -n "$here/corpus/$t"/* "$corpus/" 2>/dev/null || true
  case $t in
  pragma) opts=(-dict="$here/pragma.dict" -max_len=512 -timeout=5) ;;
  frontend) opts=(-dict="$here/frontend.dict" -max_len=4096 -timeout=20 -rss_limit_mb=4096) ;;
  *) echo "unknown fuzz target '$t'" >&2; exit 2 ;;
  esac
  echo "fuzz_$t: ${seconds}s, corpus $corpus, log $build/$t.log"
  "$build/fuzz_$t" "${opts[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$corpus" >"$build/$t.log" 2>&1 &
  pids+=($!)
done

status=0 i=0
for t in $targets; do
  wait "${pids[$i]}"
  rc=$?
  i=$((i + 1))
  log=$build/$t.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz_$t: ${runs:-?} executions in ${time:-?} s, $cov, corpus $(ls "$build/corpus/$t" | wc -l) inputs, 0 crashes"
  else
    status=1
    echo "fuzz_$t: FAILED (exit $rc) after ${runs:-?} executions; report:"
    grep -A40 -m1 '^==[0-9]*==ERROR\|runtime error\|check failed\|^==[0-9]*== ERROR: libFuzzer' "$log" | head -60
    ls -1 "$build/artifacts/$t-"* 2>/dev/null
  fi
done
exit $status
