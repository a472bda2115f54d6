#!/usr/bin/env bash
# The link lines of the documentation, run as written.
#
#   tests/e2e/link_lines.sh
#
# Every fenced block that follows a `<!-- link_lines: ... -->` comment in
# README.md and dsl-spec/*.md is read here and nothing else is used, so
# that the documents and this test cannot drift apart:
#   - a `sh` block (its lines joined at a trailing backslash): each line
#     builds tests/e2e/inputs/link_mat.c (a matrix assembled by a loop and
#     solved by PETSc) when it names petsc, else link_plain.c, translated
#     for the first target the comment names and, with matrices, for the
#     others too (`-fopenmp` added after the compiler for openmp and
#     mpi+openmp), under the file name the line uses; it runs (mpi: at 2
#     ranks) and prints what it should.  Lines
#     naming build/lib/ run in a directory whose runtime/ and build/ are
#     this tree's; the others from an install into a temporary prefix,
#     with PREFIX and PKG_CONFIG_PATH set, and LD_LIBRARY_PATH=$PREFIX/lib
#     unless the line links $PREFIX/lib's archives (those programs must
#     load no libloom*.so).  The first line of each block without
#     matrices, given the program with matrices, must fail to link on an
#     undefined reference to a loom_ matrix call.
#   - two `cmake` blocks (README): the first a project's lines, the second
#     those of a program with matrices that replace the first's calls of
#     the same commands; each is configured with only
#     -DCMAKE_PREFIX_PATH=the install, built and run: the first with
#     its static target, the second with it and with the one its `# or`
#     comment names, and for TARGET mpi (COMPONENTS mpi petsc,
#     Loom::loom_mpi_petsc) at 2 ranks.  One build directory, configured
#     again for each (CMake's cache spares the compiler's and MPI's
#     detection).
# Also: no program without matrices loads PETSc (ldd; LD_DEBUG=libs for
# the shared libloom), the shared libloom and libloom_mpi do not need it
# (readelf -d), the programs with matrices linked shared do load it, and
# `pkg-config --libs --static` of each installed .pc file links.
#
# Skipped, saying so, without PETSc (pkg-config petsc mpi-c) or under
# SANITIZE=1 (it installs the normal build, as cmake_project.sh).  Prints
# `link_lines: PASS ...` and exits 0, or `FAIL link_lines: REASON` and
# exits 1.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
inputs=$root/tests/e2e/inputs
fail() {
  echo "FAIL link_lines: $*"
  exit 1
}
show_fail() { # LOG REASON
  tail -n 30 "$1" | sed 's/^/  | /'
  fail "$2"
}
if [ "${LOOM_E2E_SANITIZE:-0}" = 1 ]; then
  echo "link_lines: skipped under SANITIZE=1 (it installs the normal build)"
  exit 0
fi
if ! pkg-config --exists petsc mpi-c; then
  echo "link_lines: PETSc not found (pkg-config petsc mpi-c): skipped"
  exit 0
fi
have_mpi=1
command -v mpicc >/dev/null && command -v mpirun >/dev/null || have_mpi=0
unset CMAKE_PREFIX_PATH Loom_DIR LOOM_DIR LOOM_INCLUDE_DIR PKG_CONFIG_PATH CMAKE_GENERATOR \
  LD_LIBRARY_PATH PREFIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
prefix=$tmp/prefix
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
mpi2() { # PROG ARGS...: at 2 ranks
  timeout 120 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 \
    -np 2 "$@" </dev/null
}

# ---- the documents' lines --------------------------------------------------------
# One record per line: FILE <tab> BLOCK <tab> TARGETS <tab> LANG <tab> LINE.
extract() {
  awk '
    FNR == 1 { state = 0 }
    state == 0 && /^[ \t]*<!-- link_lines: / {
      t = $0; sub(/^[ \t]*<!-- link_lines: /, "", t); sub(/ *\(.*$/, "", t); sub(/ *-->.*$/, "", t)
      state = 1; next
    }
    state == 1 && /^[ \t]*```/ { lang = $0; sub(/^[ \t]*```/, "", lang); state = 2; block++; cont = ""; next }
    state == 1 && NF { printf "%s\t0\t%s\tnone\tno fenced block after the comment\n", FILENAME, t; state = 0; next }
    state == 2 && /^[ \t]*```/ { state = 0; next }
    state == 2 {
      line = $0; sub(/^[ \t]+/, "", line)
      if (line ~ /\\$/) { sub(/[ \t]*\\$/, " ", line); cont = cont line; next }
      line = cont line; cont = ""
      if (line != "") printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, block, t, lang, line
    }' "$@"
}
(cd "$root" && extract README.md dsl-spec/*.md) >"$tmp/lines.tsv"
! grep -q "	none	" "$tmp/lines.tsv" ||
  fail "a link_lines comment without its block: $(grep "	none	" "$tmp/lines.tsv" | cut -f1,3)"
# The blocks this test was written for: README's two of cc lines and two of
# CMake, dsl-spec/mpi.md's two of MPI lines.
nblocks() { awk -F'\t' -v f="$1" -v l="$2" '$1 == f && $4 == l { b[$2] = 1 } END { print length(b) }' "$tmp/lines.tsv"; }
[ "$(nblocks README.md sh)" = 2 ] || fail "README.md: not 2 sh blocks of link lines"
[ "$(nblocks README.md cmake)" = 2 ] || fail "README.md: not 2 cmake blocks of link lines"
[ "$(nblocks dsl-spec/mpi.md sh)" = 2 ] || fail "dsl-spec/mpi.md: not 2 sh blocks of link lines"

# ---- build and install ---------------------------------------------------------------
mpi_goals=""
[ $have_mpi = 1 ] && mpi_goals="mpi mpi-shared"
# shellcheck disable=SC2086
make -C "$root" --no-print-directory all shared $mpi_goals \
  >"$tmp/make.log" 2>&1 || show_fail "$tmp/make.log" "make all shared mpi mpi-shared failed"
make -C "$root" --no-print-directory install PREFIX="$prefix" DESTDIR= >"$tmp/install.log" 2>&1 ||
  show_fail "$tmp/install.log" "make install PREFIX=$prefix failed"
for f in lib/libloom_petsc.a lib/libloom_petsc.so.0 lib/pkgconfig/loom-petsc.pc include/loom_petsc.h \
  $([ $have_mpi = 1 ] && echo lib/libloom_mpi_petsc.a lib/libloom_mpi_petsc.so.0 lib/pkgconfig/loom-mpi-petsc.pc); do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done

# The shared runtimes need no PETSc; their matrices' libraries do.
for lib in libloom libloom_mpi; do
  for where in "$root/build/lib" "$prefix/lib"; do
    [ -e "$where/$lib.so.0" ] || { [ $lib = libloom_mpi ] && [ $have_mpi = 0 ]; } || fail "no $where/$lib.so.0"
    [ -e "$where/$lib.so.0" ] || continue
    ! readelf -d "$where/$lib.so.0" | grep NEEDED | grep -qi petsc ||
      fail "$where/$lib.so.0 needs PETSc"
    readelf -d "$where/${lib}_petsc.so.0" | grep NEEDED | grep -q "petsc" ||
      fail "$where/${lib}_petsc.so.0 does not need PETSc"
    readelf -d "$where/${lib}_petsc.so.0" | grep NEEDED | grep -qF "[$lib.so.0]" ||
      fail "$where/${lib}_petsc.so.0 does not need $lib.so.0"
  done
done

# pkg-config --static through each installed .pc file (PETSc's own .pc
# lists static dependencies Debian does not install: loom-petsc.pc must
# not pass them on).
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
echo 'int main(void) { return 0; }' >"$tmp/empty.c"
for pc in loom loom-petsc $([ $have_mpi = 1 ] && echo loom-mpi loom-mpi-petsc); do
  libs=$(pkg-config --libs --static "$pc") || fail "pkg-config --libs --static $pc failed"
  # shellcheck disable=SC2086
  cc -o "$tmp/empty" "$tmp/empty.c" $libs >"$tmp/static.log" 2>&1 ||
    show_fail "$tmp/static.log" "pkg-config --libs --static $pc does not link: $libs"
done
grep -q "one rank\|so far" "$prefix/lib/pkgconfig/"*.pc "$prefix/lib/cmake/Loom/LoomConfig.cmake" &&
  fail "an installed .pc or CMake file still limits matrices under MPI to one rank"
pkg-config --libs loom-mpi 2>/dev/null | grep -qw -- -lm || [ $have_mpi = 0 ] ||
  fail "pkg-config --libs loom-mpi has no -lm"
unset PKG_CONFIG_PATH

# ---- the programs, translated for each target -------------------------------------
for p in plain mat; do
  for t in seq openmp mpi mpi+openmp; do
    "$root/build/bin/loomc" --target=$t "$inputs/link_$p.c" -o "$tmp/$p.$t.c" ||
      fail "loomc --target=$t link_$p.c failed"
  done
done

# expect PROGRAM RANKS: the line the program prints.
expect() {
  case $1 in
    plain) echo "plain: sum 72 on $2 ranks" ;;
    mat) echo "mat: K00 8.041667, u = 1 at 9 of 9 nodes on $2 ranks" ;;
  esac
}

# run_line N TARGET LINE: builds with LINE (as written; -fopenmp added for
# the OpenMP targets) in a fresh directory, runs, checks.
nruns=0
run_line() {
  local n=$1 target=$2 line=$3 prog=plain src exe d out np=1 where=install
  case $line in *petsc*) prog=mat ;; esac
  case $line in *build/lib/*) where=build ;; esac
  # shellcheck disable=SC2086 # the line's words
  src=$(printf '%s\n' $line | grep -m1 -E '^[a-z_]+\.c$') || fail "no source file in: $line"
  exe=a.out
  if [[ $line =~ -o\ ([^ ]+) ]]; then exe=${BASH_REMATCH[1]}; fi
  case $target in *openmp) line="${line%% *} -fopenmp ${line#* }" ;; esac
  nruns=$((nruns + 1))
  d=$tmp/run$nruns-${target/+/-}
  mkdir -p "$d"
  cp "$tmp/$prog.$target.c" "$d/$src"
  if [ $where = build ]; then
    ln -s "$root/runtime" "$d/runtime"
    ln -s "$root/build" "$d/build"
  fi
  # shellcheck disable=SC2016 # the line is the document's, expanded by eval
  (cd "$d" && if [ $where = install ]; then
    export PREFIX=$prefix PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  fi && eval "$line") >"$d/build.log" 2>&1 ||
    show_fail "$d/build.log" "$target: does not build: $line"
  local ldpath=""
  if [ $where = install ] && [[ $line != *'$PREFIX/lib/lib'* ]]; then
    ldpath=$prefix/lib
  fi
  if [ -z "$ldpath" ] && LD_LIBRARY_PATH=$prefix/lib ldd "$d/$exe" | grep -q "libloom"; then
    fail "$target: a static link loads a shared libloom: $line"
  fi
  if [ $prog = plain ]; then
    ! LD_LIBRARY_PATH=$ldpath ldd "$d/$exe" | grep -qi petsc ||
      fail "$target: the program without matrices loads PETSc: $line"
    if [ -n "$ldpath" ] && [ $target = seq ] && [ -z "$shared_plain" ]; then
      shared_plain=$d/$exe
    fi
  elif [ -n "$ldpath" ]; then
    LD_LIBRARY_PATH=$ldpath ldd "$d/$exe" | grep -q "libloom[_a-z]*_petsc\.so" ||
      fail "$target: not linked with the shared libloom_petsc: $line"
  fi
  case $target in
    mpi*) np=2 out=$(cd "$d" && LD_LIBRARY_PATH=$ldpath OMP_NUM_THREADS=2 mpi2 "./$exe" 2>"$d/run.err") ;;
    *) out=$(cd "$d" && LD_LIBRARY_PATH=$ldpath OMP_NUM_THREADS=2 "./$exe" 2>"$d/run.err") ;;
  esac || show_fail "$d/run.err" "$target: the program fails: $line"
  [ "$out" = "$(expect $prog $np)" ] || fail "$target: printed '$out': $line"
  # the first line without matrices of a block, given matrices
  if [ $prog = plain ] && [ "${first_plain_done:-}" != "$n" ]; then
    first_plain_done=$n
    d=$d-nomat
    mkdir -p "$d"
    cp "$tmp/mat.$target.c" "$d/$src"
    if [ $where = build ]; then
      ln -s "$root/runtime" "$d/runtime"
      ln -s "$root/build" "$d/build"
    fi
    if (cd "$d" && if [ $where = install ]; then
      export PREFIX=$prefix PKG_CONFIG_PATH=$prefix/lib/pkgconfig
    fi && eval "$line") >"$d/nomat.log" 2>&1; then
      fail "$target: a program with matrices links without libloom_petsc: $line"
    fi
    grep -q "undefined reference to \`loom_\(decl_sparsity\|decl_mat\|solve\|_mat_values\|_check_mat\)" \
      "$d/nomat.log" || show_fail "$d/nomat.log" "$target: no undefined loom_ matrix call: $line"
  fi
}

summary="" shared_plain=""
while IFS=$'\t' read -r -u 3 file block targets lang line; do
  [ "$lang" = sh ] || continue
  first=1
  for t in $targets; do
    case $t in
      seq | openmp) ;;
      mpi | mpi+openmp) [ $have_mpi = 1 ] || continue ;;
      *) fail "$file: unknown target '$t' in a link_lines comment" ;;
    esac
    # the other targets: the lines with matrices
    [ $first = 1 ] || [[ $line == *petsc* ]] || continue
    first=0
    run_line "$block" "$t" "$line"
  done
  summary="$summary ${file##*/}:$block"
done 3<"$tmp/lines.tsv"
[ $nruns -gt 0 ] || fail "no line ran"

# The shared libloom, loaded: no PETSc among the libraries the loader opens.
if [ -z "$shared_plain" ] ||
  ! LD_LIBRARY_PATH=$prefix/lib ldd "$shared_plain" | grep -qF "$prefix/lib/libloom.so.0"; then
  fail "no line linked the program without matrices with the installed shared libloom"
fi
LD_DEBUG=libs LD_LIBRARY_PATH=$prefix/lib "$shared_plain" >/dev/null 2>"$tmp/ld_debug.log" ||
  fail "the program on the shared libloom fails under LD_DEBUG=libs"
grep -q "libloom.so.0" "$tmp/ld_debug.log" || fail "LD_DEBUG=libs shows no libloom.so.0 loaded"
! grep -qi "petsc" "$tmp/ld_debug.log" ||
  fail "the program without matrices on the shared libloom loads PETSc (LD_DEBUG=libs)"

# ---- CMake ---------------------------------------------------------------------------
# cmake_build NAME TARGET CMAKELINES...: a project of these lines, run.
cmake_build() {
  local name=$1 target=$2 b=$tmp/cmake np=1 out prog=plain
  shift 2
  mkdir -p "$b/src"
  { echo "cmake_minimum_required(VERSION 3.20)"
    echo "project(link_lines LANGUAGES C)"
    printf '%s\n' "$@"; } >"$b/src/CMakeLists.txt"
  case "$*" in *petsc*) prog=mat ;; esac
  cp "$inputs/link_$prog.c" "$b/src/prog.c"
  cmake -S "$b/src" -B "$b/build" -DCMAKE_PREFIX_PATH="$prefix" >"$b/log" 2>&1 ||
    show_fail "$b/log" "CMake $name: configure failed"
  cmake --build "$b/build" >"$b/log" 2>&1 || show_fail "$b/log" "CMake $name: build failed"
  if [ $prog = plain ]; then
    ! ldd "$b/build/prog" | grep -qi petsc || fail "CMake $name: the program without matrices loads PETSc"
  fi
  case $target in
    mpi) np=2 out=$(mpi2 "$b/build/prog" 2>"$b/err") ;;
    *) out=$("$b/build/prog" 2>"$b/err") ;;
  esac || show_fail "$b/err" "CMake $name: the program fails"
  [ "$out" = "$(expect $prog $np)" ] || fail "CMake $name: printed '$out'"
  echo "  CMake $name: $(printf '%s' "$*" | grep -o 'Loom::[a-z_]*)' | tr -d ')')"
}
mapfile -t plain_cm < <(awk -F'\t' '$1 == "README.md" && $4 == "cmake" { print $2 "\t" $5 }' "$tmp/lines.tsv")
b1=${plain_cm[0]%%$'\t'*}
plain=() mat=()
for r in "${plain_cm[@]}"; do
  if [ "${r%%$'\t'*}" = "$b1" ]; then plain+=("${r#*$'\t'}"); else mat+=("${r#*$'\t'}"); fi
done
# The second block's lines replace the first's calls of the same commands.
matlines=()
for l in "${plain[@]}"; do
  cmd=${l%%(*}
  for m in "${mat[@]}"; do
    [ "${m%%(*}" = "$cmd" ] && l=$m
  done
  matlines+=("$l")
done
# with_or LINES...: the lines with each `X)  # or Y` taken as `Y)`.
with_or() {
  local l
  for l in "$@"; do
    if [[ $l =~ ^(.*\ )([A-Za-z:_]+)\)\ *#\ or\ ([A-Za-z:_]+) ]]; then
      l="${BASH_REMATCH[1]}${BASH_REMATCH[3]})"
    fi
    printf '%s\n' "$l"
  done
}
printf '%s\n' "${plain[@]}" | grep -q "Loom::loom)" || fail "README.md's CMake block does not link Loom::loom"
printf '%s\n' "${matlines[@]}" | grep -q "Loom::loom_petsc)" ||
  fail "README.md's CMake block of matrices does not link Loom::loom_petsc"
mapfile -t mat_or < <(with_or "${matlines[@]}")
cmake_build plain seq "${plain[@]}"
cmake_build mat seq "${matlines[@]}"
cmake_build mat-shared seq "${mat_or[@]}"
if [ $have_mpi = 1 ]; then
  mapfile -t mat_mpi < <(printf '%s\n' "${matlines[@]}" |
    sed -e 's/COMPONENTS petsc/COMPONENTS mpi petsc/' -e 's/TARGET seq/TARGET mpi/' \
      -e 's/Loom::loom_petsc)/Loom::loom_mpi_petsc)/')
  cmake_build mat-mpi mpi "${mat_mpi[@]}"
fi

# shellcheck disable=SC2086 # the words of $summary
echo "link_lines: PASS ($nruns builds and runs of the lines of$(printf '%s\n' $summary | sort -u |
  tr '\n' ' ' | sed 's/ $//; s/^/ /'), programs without matrices free of PETSc, the CMake blocks)"
exit 0
