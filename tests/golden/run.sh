#!/usr/bin/env bash
# Golden tests of loomc: each tests/golden/cases/NAME.c is translated with
#   loomc --target=seq NAME.c -o NAME.seq.c      (in a scratch directory)
# and checked against what is committed beside it:
#   NAME.seq.c   the expected output: loomc must exit 0 and produce exactly
#                these bytes, and they must compile with -Wall -Wextra -Werror
#                (with cc, and with clang-14: GOLDEN_CLANG);
#   NAME.err     the expected diagnostics (stderr); without NAME.seq.c,
#                loomc must exit 1 and leave no output file.
# A header NAME.h beside the case is copied with it.
#   NAME.openmp.c  when present: the expected output of --target=openmp
#                  (compiled with -fopenmp as well).
#   NAME.mpi.c     when present: the expected output of --target=mpi.
#   NAME.mpi+openmp.c  when present: the expected output of
#                  --target=mpi+openmp (compiled with -fopenmp).
#   NAME.report  when present: the expected `loomc --report` output (the
#                region DAGs, the fusion groups and the fate of each
#                temporary, with reasons), checked the same way.
# Arguments for loomc may be given in NAME.args (one line).
#
#   tests/golden/run.sh [LOOMC]          run all cases
#   UPDATE=1 tests/golden/run.sh         rewrite the expectations (review
#                                        every changed file by eye!)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
loomc=$(cd "$(dirname "${1:-$root/build/bin/loomc}")" && pwd)/$(basename "${1:-loomc}")
cc=${CC:-cc}
# The seq output is compiled with clang too (GOLDEN_CLANG, default
# clang-14, which scripts/install-deps.sh installs; GOLDEN_CLANG= : not),
# without -Wunused-function: clang warns of an unused static inline
# function in the main file, and several cases share a prelude of kernels
# they do not all run (every kernel a case runs is called by its output).
clang_cc=${GOLDEN_CLANG-clang-14}
if [ -n "$clang_cc" ] && ! command -v "$clang_cc" >/dev/null; then
  echo "golden: $clang_cc not found (scripts/install-deps.sh installs it; GOLDEN_CLANG= skips it)" >&2
  exit 1
fi
pass=0 fail=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

check_case() {
  local src=$1 name dir args rc
  name=$(basename "$src" .c)
  dir=$scratch/$name
  mkdir -p "$dir"
  cp "$src" "$dir/"
  [ -f "$here/cases/$name.h" ] && cp "$here/cases/$name.h" "$dir/"
  args=""
  [ -f "$here/cases/$name.args" ] && args=$(cat "$here/cases/$name.args")
  # shellcheck disable=SC2086
  (cd "$dir" && "$loomc" --target=seq $args "$name.c" -o "$name.seq.c" 2>"$name.stderr")
  rc=$?
  if [ "${UPDATE:-0}" = 1 ]; then
    if [ -s "$dir/$name.stderr" ]; then cp "$dir/$name.stderr" "$here/cases/$name.err"; else rm -f "$here/cases/$name.err"; fi
    if [ $rc -eq 0 ]; then cp "$dir/$name.seq.c" "$here/cases/$name.seq.c"; else rm -f "$here/cases/$name.seq.c"; fi
  fi
  local expect_err=/dev/null
  [ -f "$here/cases/$name.err" ] && expect_err=$here/cases/$name.err
  if ! diff -u "$expect_err" "$dir/$name.stderr" >"$dir/diff"; then
    echo "FAIL $name: diagnostics differ"; cat "$dir/diff"; return 1
  fi
  if [ -f "$here/cases/$name.seq.c" ]; then
    if [ $rc -ne 0 ]; then echo "FAIL $name: loomc exited $rc, expected 0"; return 1; fi
    if ! diff -u "$here/cases/$name.seq.c" "$dir/$name.seq.c" >"$dir/diff"; then
      echo "FAIL $name: generated code differs"; cat "$dir/diff"; return 1
    fi
    if ! "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/runtime/include" -c "$dir/$name.seq.c" -o "$dir/$name.o" 2>"$dir/cc.log"; then
      echo "FAIL $name: generated code does not compile cleanly"; cat "$dir/cc.log"; return 1
    fi
    if [ -n "$clang_cc" ] &&
       ! "$clang_cc" -std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-function -I"$root/runtime/include" -c "$dir/$name.seq.c" -o "$dir/$name.o" 2>"$dir/cc.log"; then
      echo "FAIL $name: generated code does not compile cleanly with $clang_cc"; cat "$dir/cc.log"; return 1
    fi
  else
    if [ $rc -ne 1 ]; then echo "FAIL $name: loomc exited $rc, expected 1"; return 1; fi
    if [ -e "$dir/$name.seq.c" ]; then echo "FAIL $name: an output file was left behind"; return 1; fi
    if [ ! -s "$dir/$name.stderr" ]; then echo "FAIL $name: no diagnostic"; return 1; fi
  fi
  check_target "$name" "$dir" openmp || return 1
  check_target "$name" "$dir" mpi || return 1
  check_target "$name" "$dir" mpi+openmp || return 1
  check_report "$name" "$dir" "$args" || return 1
  return 0
}

# check_report NAME DIR ARGS: the expectation NAME.report.
check_report() {
  local name=$1 dir=$2 args=$3 expect=$here/cases/$1.report
  [ -f "$expect" ] || return 0
  # shellcheck disable=SC2086
  (cd "$dir" && "$loomc" --report $args "$name.c" >"$name.report" 2>"$name.report.stderr") ||
    { echo "FAIL $name: --report failed"; cat "$dir/$name.report.stderr"; return 1; }
  [ "${UPDATE:-0}" = 1 ] && cp "$dir/$name.report" "$expect"
  if ! diff -u "$expect" "$dir/$name.report" >"$dir/diff"; then
    echo "FAIL $name: --report differs"; cat "$dir/diff"; return 1
  fi
}

# check_target NAME DIR TARGET: the extra expectation NAME.TARGET.c.
check_target() {
  local name=$1 dir=$2 target=$3 expect=$here/cases/$1.$3.c
  [ -f "$expect" ] || [ "${UPDATE:-0}" = 1 ] || return 0
  [ "${UPDATE:-0}" = 1 ] && [ ! -f "$expect" ] && return 0
  (cd "$dir" && "$loomc" --target="$target" "$name.c" -o "$name.$target.c" 2>"$name.$target.stderr") ||
    { echo "FAIL $name: --target=$target failed"; cat "$dir/$name.$target.stderr"; return 1; }
  [ "${UPDATE:-0}" = 1 ] && cp "$dir/$name.$target.c" "$expect"
  if ! diff -u "$expect" "$dir/$name.$target.c" >"$dir/diff"; then
    echo "FAIL $name: --target=$target code differs"; cat "$dir/diff"; return 1
  fi
  local omp=""
  case $target in *openmp) omp=-fopenmp ;; esac
  if ! "$cc" -std=c11 -O2 $omp -Wall -Wextra -Werror -I"$root/runtime/include" -c "$dir/$name.$target.c" -o "$dir/$name.$target.o" 2>"$dir/cc.log"; then
    echo "FAIL $name: --target=$target code does not compile cleanly"; cat "$dir/cc.log"; return 1
  fi
}

for src in "$here"/cases/*.c; do
  case $(basename "$src") in *.*.c) continue ;; esac # outputs, not cases
  if check_case "$src"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
