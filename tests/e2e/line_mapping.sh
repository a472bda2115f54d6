#!/usr/bin/env bash
# The #line directives of loomc's output (dsl-spec/semantics.md §7):
#
# 1. C errors point at the user's file.  tests/e2e/inputs/line_map.c is
#    translated and compiled with gcc and with clang-14; each BREAK_* macro
#    plants one error that the C compiler must report at the user's line:
#      BREAK_SCALE   a type error in a kernel body (clang only warns, so
#                    loomc translates; -Werror makes it an error)
#      BREAK_NORM    the same in a kernel defined after a group of loop
#                    functions
#      BREAK_AFTER   in user code just after a three-line directive
#      BREAK_GLOBAL  a read global bound to a non-const kernel parameter:
#                    loomc warns at the directive line where the argument is
#                    written, and the generated code (which passes the
#                    global with a cast) still compiles with -Werror
#    and two macros are given to the C compiler only, as if a header had
#    changed after the translation:
#      LOOM_TEST_BREAK_PARAM   a kernel parameter's type: the error is the
#                    kernel call's argument, at its line of the directive
#      LOOM_TEST_BREAK_GLOBAL  a global's type: the error is the call that
#                    replaced the directive, at the directive's first line;
#                    the compiler's note is at the loop function's parameter,
#                    in the output file, at that parameter's line
#    The input as it is compiles without a warning under -Wall -Wextra
#    -Werror with both compilers, and runs.
# 2. Every line of the output is mapped right: a line mapped to the output
#    file has its own number; a line mapped to the input is that line of
#    the input, or replaces a directive (the loop call, the kernel call);
#    every line of the input outside directives is in the output, in order;
#    a loop loomc unrolled (transform/expand.h) shows as its comment
#    (`/* loomc: the for of line N unrolled: ... */`, mapped to the for's
#    line), then per iteration `/* k = 0 */` and the body's lines again,
#    then a blank line for its closing brace; a call seen through
#    (transform/inline.h) shows as `/* loomc: the call of f seen through */`
#    mapped to the call's line, then f's body mapped to f's lines (its names
#    renamed, the same text otherwise; its parameters declared anew on the
#    line of its '{', its value given on the line of its return), then the
#    rest of the call's line; a static function seen through keeps its
#    lines, `__attribute__((unused)) ` before the first; a function body
#    written twice (transform/version.h) shows as its comment and its test
#    (both mapped to the line of its '{'), the body with its handles
#    renamed, `} else {` (mapped to the line of its '}'), the body again,
#    and `} }` for the two closing braces; a kernel's lane copy
#    (emit/lane_copy.h), after its comment `/* K as lanes ... */`, is mapped
#    to the kernel's lines, in its own file, and holds their names.
#    Checked for line_map.c, samples/airfoil/airfoil.c and every golden
#    case that translates.
#   tests/e2e/line_mapping.sh [LOOMC]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
loomc=$(cd "$(dirname "${1:-$root/build/bin/loomc}")" && pwd)/$(basename "${1:-loomc}")
libloom=${LIBLOOM:-$root/build/lib/libloom.a}
compilers=${LOOM_LINE_CCS:-gcc clang-14}
input=line_map.c
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/inputs/$input" "$tmp/"
cd "$tmp" || exit 1

for cc in $compilers; do
  command -v "$cc" >/dev/null 2>&1 || { bad "$cc is not installed"; }
done

# The line of the first match of a fixed string in the input.
line_of() {
  local n
  n=$(grep -nF -- "$1" "$input" | head -1 | cut -d: -f1)
  [ -n "$n" ] || { echo "line_mapping.sh: '$1' not found in $input" >&2; echo 0; return; }
  echo "$n"
}

# check_map INPUT OUTPUT: the mapping of every output line (part 2).
check_map() {
  awk -v in_name="$1" -v out_name="$2" '
    function handles(s) { gsub(/[A-Za-z_][A-Za-z_0-9]*((->|\.)[A-Za-z_][A-Za-z_0-9]*)*/, "X", s); return s }
    function shape(s) { gsub(/[A-Za-z_][A-Za-z_0-9]*/, "X", s); gsub(/[ \t]+/, " ", s); return s }
    function fail(msg) { errors++; if (errors <= 10) print "FAIL: " (ended ? "" : out_name ":" FNR ": ") msg }
    FNR == NR {
      src[FNR] = $0; n = FNR
      # a directive line: #pragma loom ... (after blanks and comments), or a
      # continuation of one
      dir[FNR] = $0 ~ /^[ \t]*(\/\*([^*]|\*+[^*\/])*\*+\/[ \t]*)*#[ \t]*pragma[ \t]+loom([ \t]|$)/ ||
                 (cont && dir[FNR - 1])
      cont = $0 ~ /\\[ \t]*$/
      next
    }
    # a lane copy (emit/lane_copy.h): the kernel`s lines, wherever it is
    # defined, with its uses of parameters rewritten; compared by the
    # names they hold, the offsets left out
    function idents(s,   t, k, w, out) {
      gsub(/, int loom_o_[A-Za-z_0-9]*/, "", s); gsub(/loom_o_[A-Za-z_0-9]*/, "", s)
      gsub(/loom_lanes_/, "", s); gsub(/[^A-Za-z_0-9]+/, " ", s)
      k = split(s, t, " "); out = ""
      for (w = 1; w <= k; w++)   # the copy is `static inline void`, whatever the kernel was
        if (t[w] !~ /^([0-9]|static$|inline$|void$)/) out = out " " t[w]
      return out
    }
    function line_of(path, l,   x, i) {
      if (path == in_name) return src[l]
      if (!(path in loaded)) {
        loaded[path] = 1; i = 0
        while ((getline x < path) > 0) other[path, ++i] = x
        close(path)
      }
      return other[path, l]
    }
    FNR == 1 { file = out_name; line = 1; last = 0; at = 0; lanes = 0; lanes_next = 0 }
    { lanes_prev = lanes_next
      lanes_next = $0 ~ /^[ \t]*\/\* [A-Za-z_][A-Za-z_0-9]* as lanes \(line [0-9]+\): each argument as base and offset \*\/$/ }
    /^#line [0-9]+ "/ {
      split($0, f, "\"")
      file = f[2]; line = $2 + 0; at = FNR; reported = 0; lanes = lanes_prev
      next
    }
    lanes {
      if (idents($0) != idents(line_of(file, line)))
        fail("mapped to " file ":" line " in a lane copy, but it differs: \"" $0 "\" vs \"" line_of(file, line) "\"")
      line++
      next
    }
    {
      if (file == out_name) {
        if (line != FNR && !reported++)
          fail((at ? "the #line at line " at " numbers the lines after it from " line - (FNR - at - 1) \
                     ": it should be #line " at + 1 : "line " FNR " is numbered " line) \
               " (" out_name ":" FNR " is reported as " out_name ":" line ")")
      } else if (file == in_name) {
        if (line < 1 || line > n) fail("mapped to " in_name ":" line ", past its end")
        else if ($0 ~ /^[ \t]*\/\* loomc: the body of [A-Za-z_][A-Za-z_0-9]* written twice: .*\*\/$/ &&
                 src[line] ~ /\{[ \t]*$/) {
          ver_open[++ver] = line                        # a body written twice (version.h)
        } else if (ver && line == ver_open[ver] && $0 ~ /^[ \t]*if \(loom__dats_distinct\(/) {
          fast[ver] = 1; last = line                    # the test, and the handles of the first copy
        } else if (ver && line == ver_open[ver] && $0 ~ /^[ \t]*$/) {
          ;                                             # the rest of the line of its brace
        } else if (ver && fast[ver] && $0 ~ /^[ \t]*} else {$/ && src[line] ~ /^[ \t]*}/) {
          fast[ver] = 0; ver_close[ver] = line; last = ver_open[ver]   # the second copy
        } else if (ver && line == ver_close[ver] && $0 ~ /} }[ \t]*$/) {
          rest = $0; sub(/} /, "", rest)
          if (rest != src[line]) fail("mapped to " in_name ":" line ", but it differs: \"" $0 "\" vs \"" src[line] "\"")
          seen[line] = 1; last = line; ver--            # both copies closed
        } else if (ver && fast[ver] && !inl && !dir[line] && $0 != src[line] &&
                   handles($0) == handles(src[line])) {
          if (line <= last) fail("line " line " of " in_name " again, or out of order")
          seen[line] = 1; last = line                   # the first copy, its handles renamed
        } else if ($0 ~ /^[ \t]*\/\* loomc: the call of [A-Za-z_][A-Za-z_0-9]* seen through \*\/$/) {
          name = $0; sub(/^[ \t]*\/\* loomc: the call of /, "", name); sub(/ seen through \*\/$/, "", name)
          if (index(src[line], name "(") == 0)
            fail("the call of " name " written out at " in_name ":" line ", which does not call it")
          if (!inl) { seen[line] = 1; last = line }
          call_line[++inl] = line                       # a call seen through (inline.h)
        } else if (inl && line == call_line[inl]) {
          rest = $0; sub(/^[ \t]+/, "", rest)           # back to the caller: what
          if (rest != "" && substr(src[line], length(src[line]) - length(rest) + 1) != rest)
            fail("mapped to the call at " in_name ":" line ", but it differs: \"" $0 "\" vs \"" src[line] "\"")
          inl--                                          # follows the call, if anything
        } else if (inl && src[line] ~ /\{[ \t]*$/ &&
                   ($0 ~ /^[ \t]*$/ || $0 ~ / = \(.*\);[ \t]*$/ || $0 ~ /^[ \t]*\(void\)\(.*\);[ \t]*$/)) {
          ;                                              # the parameters declared anew
        } else if (inl && src[line] ~ /(^|[^A-Za-z_0-9])return([^A-Za-z_0-9]|$)/ &&
                   ($0 ~ /^[ \t]*$/ || $0 ~ / = \(.*\);[ \t]*$/ || $0 ~ /^[ \t]*\(void\)\(.*\);[ \t]*$/)) {
          ;                                              # its value, to the caller
        } else if (inl && !dir[line]) {
          if (shape($0) != shape(src[line]))             # the body, names renamed
            fail("mapped to " in_name ":" line " in a call seen through, but it differs: \"" $0 "\" vs \"" src[line] "\"")
        } else if ($0 == "__attribute__((unused)) " src[line]) {
          if (line <= last) fail("line " line " of " in_name " again, or out of order")
          seen[line] = 1; last = line                   # a static function seen through
        } else if ($0 ~ /^[ \t]*\/\* loomc: the [a-z]+ of line [0-9]+ unrolled: [0-9]+ iterations \*\/$/ &&
                 src[line] ~ /^[ \t]*for[ \t]*\(/) {
          seen[line] = 1; last = line; unrolled = line  # a loop written out (expand.h)
        } else if (unrolled && $0 ~ /^[ \t]*\/\* [A-Za-z_][A-Za-z_0-9]* = -?[0-9]+ \*\/$/ &&
                   line == unrolled) {
          last = line                                   # one iteration: its lines again
        } else if (unrolled && $0 ~ /^[ \t]*$/ && src[line] ~ /^[ \t]*}[ \t]*$/) {
          seen[line] = 1; last = line                   # the closing brace of the loop
        } else if ($0 == src[line]) {
          if (line <= last) fail("line " line " of " in_name " again, or out of order")
          seen[line] = 1; last = line
        } else if (dir[line]) {
          generated[line] = 1
        } else if (split_line == line && substr($0, 1, length(prefix)) ~ /^ *$/ &&
                   prefix substr($0, length(prefix) + 1) == src[line]) {
          seen[line] = 1; last = line   # the rest of a line split before a function
        } else if (index(src[line], $0) == 1) {
          split_line = line; prefix = $0 # a line split before a function
        } else fail("mapped to " in_name ":" line ", but it differs: \"" $0 "\" vs \"" src[line] "\"")
      } else if (!reported++) fail("mapped to a third file: " file)
      line++
    }
    END {
      ended = 1
      for (i = 1; i <= n; i++) {
        if (!dir[i] && !seen[i]) fail("line " i " of " in_name " is missing: \"" src[i] "\"")
        if (dir[i] && !dir[i - 1] && !seen[i] && !generated[i])
          fail("the directive at " in_name ":" i " is neither kept nor replaced")
      }
      if (errors > 10) print "FAIL: ... " errors - 10 " more"
      exit (errors > 0)
    }' "$1" "$2"
}

# translate DEFS...: line_map.c -> line_map.seq.c with loomc and DEFS.
translate() {
  if "$loomc" "$@" "$input" -o line_map.seq.c 2>loomc.err; then return 0; fi
  bad "loomc $* $input failed:"; cat loomc.err; return 1
}

# expect_error LOOMC_DEFS CC_DEFS LINE [NOTE_FILE NOTE_LINE]: after
# `loomc LOOMC_DEFS`, each C compiler (with CC_DEFS -Werror) fails and its
# first error starts with line_map.c:LINE: (and its first note, if given,
# with NOTE_FILE:NOTE_LINE:).
expect_error() {
  local ldefs=$1 cdefs=$2 want=$3 nfile=${4:-} nline=${5:-} cc first note
  # shellcheck disable=SC2086
  translate $ldefs || return
  for cc in $compilers; do
    # shellcheck disable=SC2086
    if "$cc" -std=c11 -Werror $cdefs -I"$root/runtime/include" -c line_map.seq.c -o x.o 2>cc.err; then
      bad "$cc $cdefs: compiled, expected an error at $input:$want"; continue
    fi
    first=$(grep -m1 ': error: ' cc.err)
    echo "   $cc $cdefs: $first"
    if [[ $first == "$input:$want:"* ]]; then ok; else bad "$cc $cdefs: expected the first error at $input:$want:"; cat cc.err; fi
    [ -n "$nfile" ] || continue
    note=$(grep -m1 ': note: ' cc.err)
    echo "   $cc $cdefs: $note"
    if [[ $note == "$nfile:$nline:"* ]]; then ok
    else bad "$cc $cdefs: expected the note at $nfile:$nline: (line $nline of the output: '$(sed -n "${nline}p" line_map.seq.c)')"; fi
  done
}

echo "-- the well-formed input: no warning, and it runs"
if translate; then
  if [ -s loomc.err ]; then bad "loomc warned:"; cat loomc.err; else ok; fi
  for cc in $compilers; do
    if "$cc" -std=c11 -Wall -Wextra -Werror -I"$root/runtime/include" line_map.seq.c "$libloom" -lm -o prog 2>cc.err; then
      ok
      if ./prog; then ok; else bad "the program built by $cc exited $?"; fi
    else
      bad "$cc -Wall -Wextra -Werror:"; cat cc.err
    fi
  done
fi

echo "-- C errors in user code and in kernels"
expect_error -DBREAK_SCALE -DBREAK_SCALE "$(line_of '@BREAK_SCALE')"
expect_error -DBREAK_NORM -DBREAK_NORM "$(line_of '@BREAK_NORM')"
expect_error -DBREAK_AFTER -DBREAK_AFTER "$(line_of '@BREAK_AFTER')"

echo "-- C errors in the arguments of a par_loop"
if translate -DBREAK_GLOBAL; then
  if grep -q "^$input:$(line_of 'read: by)'):[0-9]*: warning: " loomc.err; then ok
  else bad "-DBREAK_GLOBAL: no loomc warning at $input:$(line_of 'read: by)')"; cat loomc.err; fi
  for cc in $compilers; do
    if "$cc" -std=c11 -Wall -Wextra -Werror -DBREAK_GLOBAL -I"$root/runtime/include" -c line_map.seq.c -o x.o 2>cc.err; then ok
    else bad "$cc -DBREAK_GLOBAL: the generated code does not compile"; cat cc.err; fi
  done
fi
expect_error "" -DLOOM_TEST_BREAK_PARAM "$(line_of 'args(read: x, write: y,')"
# the line of the output holding the loop function's parameter rms
translate && param=$(awk '/^static (LOOM_LOOP_FN )?void loom_loop_[0-9]+_norm\(/ { f = 1 } f && /\*rms[,)]/ { print NR; exit }' line_map.seq.c)
expect_error "" -DLOOM_TEST_BREAK_GLOBAL "$(line_of 'par_loop(norm)')" line_map.seq.c "${param:-0}"

echo "-- every line mapped right"
translate && { if check_map "$input" line_map.seq.c; then ok; else fail=$((fail + 1)); fi; }
mkdir airfoil && cp "$root/samples/airfoil/airfoil.c" airfoil/
if (cd airfoil && "$loomc" -I "$root/samples/airfoil" airfoil.c -o airfoil.seq.c 2>loomc.err); then
  if (cd airfoil && check_map airfoil.c airfoil.seq.c); then ok; else fail=$((fail + 1)); fi
else
  bad "loomc failed on samples/airfoil/airfoil.c"; cat airfoil/loomc.err
fi
golden=0
for src in "$root"/tests/golden/cases/*.c; do
  case $src in *.seq.c) continue ;; esac
  name=$(basename "$src" .c)
  [ -f "${src%.c}.seq.c" ] || continue
  mkdir "g_$name" && cp "$src" "g_$name/"
  [ -f "${src%.c}.h" ] && cp "${src%.c}.h" "g_$name/"
  args=""
  [ -f "${src%.c}.args" ] && args=$(cat "${src%.c}.args")
  # shellcheck disable=SC2086
  if (cd "g_$name" && "$loomc" $args "$name.c" -o "$name.seq.c" 2>/dev/null); then
    golden=$((golden + 1))
    if (cd "g_$name" && check_map "$name.c" "$name.seq.c"); then ok; else fail=$((fail + 1)); fi
  else
    bad "loomc failed on the golden case $name"
  fi
done
echo "   $golden golden cases"

echo "line_mapping: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
