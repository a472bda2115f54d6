#!/usr/bin/env bash
# A debugger sees the user's file: tests/e2e/inputs/gdb_step.c is translated,
# built with gcc -g -O0 and run under gdb (batch mode), which
#   - breaks in each kernel and checks, with `bt`, that the kernel's frame is
#     at the kernel's first statement in gdb_step.c, the loop function's
#     frame at the directive (the kernel call's lines are mapped to it) and
#     the frame of the function holding the loop at the directive's first
#     line (the call that replaced the directive);
#   - breaks in each loop function and steps (`step`) into its kernel: the
#     stops in the loop function are at lines of the output file that hold
#     code (not a #line directive, not a blank line), the first one at the
#     set check, and the last step lands on the kernel's first statement.
# The second loop's functions come after a three-line directive, so they
# check the `#line N "OUTPUT"` directives that follow it.
#   tests/e2e/gdb_step.sh [LOOMC]
# Skips (exit 0) when gdb is not installed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
loomc=$(cd "$(dirname "${1:-$root/build/bin/loomc}")" && pwd)/$(basename "${1:-loomc}")
libloom=${LIBLOOM:-$root/build/lib/libloom.a}
cc=${CC:-gcc}
input=gdb_step.c output=gdb_step.seq.c
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v gdb >/dev/null 2>&1; then
  echo "SKIP: gdb is not installed (apt-get install gdb)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/inputs/$input" "$tmp/"
cd "$tmp" || exit 1

# The line of the first match of a fixed string in the input.
line_of() { grep -nF -- "$1" "$input" | head -1 | cut -d: -f1; }
# The last line of the directive starting at line $1 (backslash continuations).
directive_end() {
  awk -v first="$1" 'NR >= first { if ($0 !~ /\\[ \t]*$/) { print NR; exit } }' "$input"
}

if ! "$loomc" "$input" -o "$output" 2>loomc.err; then
  bad "loomc failed"; cat loomc.err; echo "gdb_step: $pass passed, $fail failed"; exit 1
fi
if ! "$cc" -std=c11 -g -O0 -I"$root/runtime/include" "$output" "$libloom" -lm -o prog 2>cc.err; then
  bad "$cc failed"; cat cc.err; echo "gdb_step: $pass passed, $fail failed"; exit 1
fi
if ./prog; then ok; else bad "the program exited $?, expected 0"; fi

cat >cmds.gdb <<'GDB'
set pagination off
set width 0
set confirm off
skip -rfu ^loom__
break scale
run
echo @@BT scale\n
bt
delete
break total
continue
echo @@BT total\n
bt
delete
kill
python
import gdb
def where(f):
    sal = f.find_sal()
    name = sal.symtab.filename if sal.symtab else "?"
    return "%s %s %d" % (f.name(), name, sal.line)
first = True
for loopfn, kernel in (("loom_loop_1_scale", "scale"), ("loom_loop_2_total", "total")):
    gdb.execute("tbreak " + loopfn, to_string=True)
    gdb.execute("run" if first else "continue", to_string=True)
    first = False
    print("@@STOP %s %s" % (loopfn, where(gdb.selected_frame())))
    n = 0
    while gdb.selected_frame().name() != kernel and n < 100:
        gdb.execute("step", to_string=True)
        n += 1
        print("@@STOP %s %s" % (loopfn, where(gdb.selected_frame())))
gdb.execute("kill")
end
GDB
gdb -batch -nx -x cmds.gdb ./prog >gdb.out 2>&1

# is_user FILE: the name gdb gives is the user's file (maybe with its directory).
is_user() { [ "$1" = "$input" ] || [ "${1%/"$input"}" != "$1" ]; }

# check_bt KERNEL CALLER: frames #0 (kernel), #1 (loop function), #2 (CALLER).
check_bt() {
  local kernel=$1 caller=$2 body dir dir_end bt f0 f1 f2 loc l
  body=$(line_of "@$kernel-first")
  dir=$(line_of "par_loop($kernel)")
  dir_end=$(directive_end "$dir")
  bt=$(sed -n "/^@@BT $kernel\$/,/^@@BT\|^\[Inferior/p" gdb.out | grep '^#')
  echo "-- gdb: break $kernel, bt:"
  while IFS= read -r l; do echo "   $l"; done <<<"$bt"
  f0=$(grep "^#0 " <<<"$bt") f1=$(grep "^#1 " <<<"$bt") f2=$(grep "^#2 " <<<"$bt")
  loc=${f0##* at }
  if [[ $f0 == *" $kernel ("* ]] && is_user "${loc%:*}" && [ "${loc##*:}" = "$body" ]; then ok
  else bad "kernel frame: expected $kernel at $input:$body, got: $f0"; fi
  loc=${f1##* at }
  if [[ $f1 == *" loom_loop_"*"_$kernel ("* ]] && is_user "${loc%:*}" &&
     [ "${loc##*:}" -ge "$dir" ] && [ "${loc##*:}" -le "$dir_end" ]; then ok
  else bad "loop function frame: expected $input:$dir-$dir_end (the directive), got: $f1"; fi
  loc=${f2##* at }
  if [[ $f2 == *" $caller ("* ]] && is_user "${loc%:*}" && [ "${loc##*:}" = "$dir" ]; then ok
  else bad "caller frame: expected $caller at $input:$dir, got: $f2"; fi
}
check_bt scale prepare
check_bt total main

# check_steps LOOPFN KERNEL: the stops from LOOPFN's breakpoint into KERNEL.
check_steps() {
  local loopfn=$1 kernel=$2 body dir dir_end stops first=1 fn file line text call_seen=0
  body=$(line_of "@$kernel-first")
  dir=$(line_of "par_loop($kernel)")
  dir_end=$(directive_end "$dir")
  stops=$(grep "^@@STOP $loopfn " gdb.out | cut -d' ' -f3-)
  echo "-- stepping from $loopfn into $kernel (function file line: text):"
  while read -r fn file line; do
    if [ "$fn" = "$loopfn" ] && [ "$file" = "$output" ]; then
      text=$(sed -n "${line}p" "$output")
    elif is_user "$file"; then
      text=$(sed -n "${line}p" "$input")
    else
      text="?"
    fi
    echo "   $fn $file:$line: $text"
    if [ "$fn" = "$loopfn" ] && [ "$file" = "$output" ]; then
      # a line of the loop function itself: must hold code
      if [ "$first" = 1 ] && [[ $text != *"loom__check_set("* ]]; then
        bad "$loopfn's breakpoint is at $output:$line, which is not its first statement (the set check): '$text'"
      elif [[ $text =~ ^[[:space:]]*(#|$|/\*) ]]; then
        bad "gdb stopped in $loopfn at $output:$line, which holds no code: '$text' (#line to the output file wrong?)"
      else ok; fi
    elif [ "$fn" = "$loopfn" ] && is_user "$file"; then
      # the kernel call: at the directive
      if [ "$line" -ge "$dir" ] && [ "$line" -le "$dir_end" ]; then ok; call_seen=1
      else bad "gdb stopped in $loopfn at $file:$line, outside the directive ($dir-$dir_end)"; fi
    elif [ "$fn" != "$kernel" ]; then
      bad "gdb stopped in $fn at $file:$line"
    fi
    first=0
  done <<<"$stops"
  if [ "$call_seen" = 1 ]; then ok; else bad "stepping through $loopfn never stopped at the kernel call ($input:$dir)"; fi
  read -r fn file line <<<"$(tail -1 <<<"$stops")"
  if [ "$fn" = "$kernel" ] && is_user "$file" && [ "$line" = "$body" ]; then ok
  else bad "stepping into $kernel ended at $fn $file:$line, expected $kernel $input:$body"; fi
}
check_steps loom_loop_1_scale scale
check_steps loom_loop_2_total total

if [ "$fail" -ne 0 ]; then echo "-- gdb's output:"; cat gdb.out; fi
echo "gdb_step: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
