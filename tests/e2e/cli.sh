#!/usr/bin/env bash
# loomc's command line: exit codes, messages, atomic output, determinism.
#   tests/e2e/cli.sh [LOOMC]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
loomc=${1:-$root/build/bin/loomc}
sample=$root/samples/airfoil/airfoil.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_exit CODE STDERR_SUBSTRING -- ARGS...
expect_exit() {
  local code=$1 want=$2 got
  shift 3
  "$loomc" "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -ne "$code" ]; then bad "loomc $* exited $got, expected $code"; cat "$tmp/err"; return; fi
  if [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err" "$tmp/out"; then
    bad "loomc $*: output lacks '$want'"; cat "$tmp/err"; return
  fi
  ok
}

expect_exit 0 "usage: loomc" -- --help
expect_exit 0 "loomc 0." -- --version
expect_exit 2 "no input file" -- -o "$tmp/x.c"
expect_exit 2 "no output file" -- "$sample"
expect_exit 2 "unknown option '--frobnicate'" -- --frobnicate "$sample" -o "$tmp/x.c"
expect_exit 0 "" -- --target=mpi+openmp -I "$root/samples/airfoil" "$sample" -o "$tmp/x.c"
grep -q "loom__ocplan_get_range" "$tmp/x.c" && ok || bad "--target=mpi+openmp output lacks range plans"
expect_exit 0 "" -- --target=mpi -I "$root/samples/airfoil" "$sample" -o "$tmp/x.c"
grep -q "loom__mpi_ready" "$tmp/x.c" && ok || bad "--target=mpi output lacks loom__mpi_ready"
expect_exit 0 "digraph loom" -- --target=mpi --emit-dag=- -I "$root/samples/airfoil" "$sample"
expect_exit 0 "region main() at" -- --report -I "$root/samples/airfoil" "$sample"
expect_exit 2 "unknown target 'cuda'; expected 'seq', 'openmp', 'mpi' or 'mpi+openmp'" -- --target=cuda "$sample" -o "$tmp/x.c"
expect_exit 2 "more than one input" -- "$sample" "$sample" -o "$tmp/x.c"
expect_exit 2 "needs an argument" -- "$sample" -o "$tmp/x.c" -I
expect_exit 1 "cannot read '$tmp/nope.c'" -- "$tmp/nope.c" -o "$tmp/x.c"
expect_exit 2 "options after '--' go to clang" -- --frobnicate "$sample" -o "$tmp/x.c"

# A compiler's manners: '--target X' with a space; the C compiler's flags
# (-std= and -f... to clang, -O/-W/-g/-c ignored) give the same output.
expect_exit 0 "" -- --target openmp -I "$root/samples/airfoil" "$sample" -o "$tmp/t1.c"
expect_exit 0 "" -- -std=c99 -O3 -g -Wall -Wextra -Werror -pedantic -c -fopenmp -march=native \
  --target=openmp -I "$root/samples/airfoil" "$sample" -o "$tmp/t2.c"
if cmp -s <(sed 's/t1\.c/t.c/' "$tmp/t1.c") <(sed 's/t2\.c/t.c/' "$tmp/t2.c"); then ok
else bad "compiler flags changed the output"; fi
expect_exit 2 "option '--target' needs a target" -- "$sample" -o "$tmp/x.c" --target
# C++ is rejected with one message, by suffix or by -x.
printf 'class A {};\nint main(void) { return 0; }\n' >"$tmp/k.cpp"
expect_exit 2 "'$tmp/k.cpp' is C++: loomc translates C" -- "$tmp/k.cpp" -o "$tmp/x.c"
if [ "$(wc -l <"$tmp/err")" -eq 2 ]; then ok; else bad "C++ input: more than one message"; fi
expect_exit 2 "loomc translates C; '-x c++' is not supported" -- -x c++ "$sample" -o "$tmp/x.c"

# The sample translates with -I, and also with -I given as a separate word
# and with -D/-- passed through to clang.
expect_exit 0 "" -- -I "$root/samples/airfoil" "$sample" -o "$tmp/a1.c"
expect_exit 0 "" -- -I"$root/samples/airfoil" -DUNUSED=1 "$sample" -o "$tmp/a2.c" -- -Wno-everything
# Same input, same bytes.
mv "$tmp/a1.c" "$tmp/first.c"
expect_exit 0 "" -- -I "$root/samples/airfoil" "$sample" -o "$tmp/a1.c"
if cmp -s "$tmp/a1.c" "$tmp/first.c"; then ok; else bad "two runs gave different bytes"; fi
# The output names the user's file in #line directives.
if grep -q "^#line 1 \"$sample\"" "$tmp/a1.c"; then ok; else bad "no #line to the user's file"; fi

# A failing translation leaves no output, and removes a stale one.
cp "$tmp/a1.c" "$tmp/stale.c"
cp "$sample" "$tmp/lonely.c"   # without the headers beside it
expect_exit 1 "lonely.c:17:10: error: 'airfoil_kernels.h' file not found" -- "$tmp/lonely.c" -o "$tmp/stale.c"
if [ ! -e "$tmp/stale.c" ]; then ok; else bad "a stale output survived a failed run"; fi
if ls "$tmp" | grep -q '\.tmp\.'; then bad "a temporary file was left"; else ok; fi

# An unwritable output is a clear error, exit 1.
expect_exit 1 "cannot create a temporary file for '$tmp/no/such/dir/x.c'" -- \
  -I "$root/samples/airfoil" "$sample" -o "$tmp/no/such/dir/x.c"

# -MD / -MMD: the headers the translation read, as a make rule.
expect_exit 0 "" -- -MMD -I "$root/samples/airfoil" "$sample" -o "$tmp/dep.c"
if grep -q "^$tmp/dep.c: $sample" "$tmp/dep.d" && grep -q "airfoil_kernels.h \\\\$" "$tmp/dep.d" &&
   grep -q "^$root/samples/airfoil/airfoil_mesh.h:$\|^samples/airfoil/airfoil_mesh.h:$\|airfoil_mesh.h:$" "$tmp/dep.d" &&
   ! grep -q "stdio.h" "$tmp/dep.d"; then ok; else bad "-MMD rule wrong"; cat "$tmp/dep.d"; fi
expect_exit 0 "" -- -MD -MF "$tmp/custom.d" -MT objs/dep.o -I "$root/samples/airfoil" "$sample" -o "$tmp/dep.c"
if grep -q "^objs/dep.o: " "$tmp/custom.d" && grep -q "/stdio.h" "$tmp/custom.d"; then ok; else bad "-MD -MF -MT rule wrong"; cat "$tmp/custom.d"; fi
cp "$tmp/custom.d" "$tmp/custom1.d"
expect_exit 0 "" -- -MD -MF "$tmp/custom.d" -MT objs/dep.o -I "$root/samples/airfoil" "$sample" -o "$tmp/dep.c"
if cmp -s "$tmp/custom.d" "$tmp/custom1.d"; then ok; else bad "-MD output not deterministic"; fi
expect_exit 2 "-MD with '-o -' needs -MF FILE" -- -MD "$sample" -o -

# An output that is not a regular file (a pipe, /dev/null) is written in
# place, not replaced by a renamed temporary file.
mkfifo "$tmp/pipe"
cat "$tmp/pipe" >"$tmp/from_pipe" &
reader=$!
expect_exit 0 "" -- -I "$root/samples/airfoil" "$sample" -o "$tmp/pipe"
wait "$reader"
if [ -p "$tmp/pipe" ] && grep -q "loom_loop_1_save_soln" "$tmp/from_pipe"; then ok
else bad "-o PIPE replaced the pipe or wrote nothing into it"; fi

# -o - writes to stdout.
"$loomc" -I "$root/samples/airfoil" "$sample" -o - >"$tmp/stdout.c" 2>"$tmp/err"
if grep -q "loom_loop_1_save_soln" "$tmp/stdout.c"; then ok; else bad "-o - wrote nothing"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
