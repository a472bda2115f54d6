#!/usr/bin/env bash
# The installed Loom used by an external project.
#
#   tests/e2e/cmake_project.sh
#
# 1. `make install PREFIX=$tmp/prefix` from the repository root (reusing the
#    built tree), and a staged `make install DESTDIR=... PREFIX=/opt/loom` +
#    `make uninstall`: the installed files, the libloom.so symlinks and
#    soname, `loomc --version`.
# 2. pkg-config: `pkg-config --cflags --libs loom` builds and links a C file
#    that uses loom.h (shared libloom), and it runs.
# 3. samples/cmake-project, copied with samples/airfoil into $tmp (so that
#    touching a header does not touch the repository), configured with only
#    -DCMAKE_PREFIX_PATH (and -DLOOM_AIRFOIL_DIR=the copy), with the Unix
#    Makefiles generator and, if ninja is installed, Ninja: it builds; the
#    installed loomc read the installed loom.h; Airfoil on a 20x30 mesh, 200
#    iterations, prints the same rms lines and writes the same q as
#    build/samples/airfoil/airfoil_ref; after touching airfoil_kernels.h a
#    rebuild runs exactly the translation, one compile and the link; a
#    rebuild without changes runs nothing.
#
# Prints `cmake_project: PASS` and exits 0, or `FAIL cmake_project: REASON`
# and exits 1.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P) # loomc resolves its own path through symlinks
prefix=$tmp/prefix
bin=$root/build/samples/airfoil

fail() {
  echo "FAIL cmake_project: $*"
  exit 1
}
# show_fail LOG REASON: the end of LOG, then the FAIL line.
show_fail() {
  tail -n 40 "$1" | sed 's/^/  | /'
  fail "$2"
}

# Only the command line may tell CMake, pkg-config and loomc where Loom is.
unset CMAKE_PREFIX_PATH Loom_DIR LOOM_DIR LOOM_INCLUDE_DIR PKG_CONFIG_PATH CMAKE_GENERATOR
command -v cmake >/dev/null || fail "cmake not found"
command -v pkg-config >/dev/null || fail "pkg-config not found"
CC=${CC:-cc}

# ---- 1. make install ------------------------------------------------------------
make -C "$root" --no-print-directory install build/samples/airfoil/naca0012 \
  build/samples/airfoil/airfoil_ref \
  PREFIX="$prefix" DESTDIR= >"$tmp/install.log" 2>&1 ||
  show_fail "$tmp/install.log" "make install PREFIX=$prefix failed"

for f in bin/loomc include/loom.h include/loom_gen.h lib/libloom.a lib/libloom.so.0.1.0 \
  lib/pkgconfig/loom.pc lib/cmake/Loom/LoomConfig.cmake \
  lib/cmake/Loom/LoomConfigVersion.cmake; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/bin/loomc" ] || fail "bin/loomc is not executable"
[ "$(readlink "$prefix/lib/libloom.so.0")" = libloom.so.0.1.0 ] ||
  fail "lib/libloom.so.0 is not a symlink to libloom.so.0.1.0"
[ "$(readlink "$prefix/lib/libloom.so")" = libloom.so.0 ] ||
  fail "lib/libloom.so is not a symlink to libloom.so.0"
if command -v readelf >/dev/null; then
  readelf -d "$prefix/lib/libloom.so.0.1.0" | grep -q 'SONAME.*\[libloom\.so\.0\]' ||
    fail "libloom.so.0.1.0 has no soname libloom.so.0"
fi
version=$("$prefix/bin/loomc" --version) || fail "installed loomc --version failed"
[ "$version" = "loomc 0.1.0" ] || fail "installed loomc --version printed '$version'"

# Staged install: DESTDIR prefixes every path but is written into no file.
stage=$tmp/stage
make -C "$root" --no-print-directory install DESTDIR="$stage" PREFIX=/opt/loom \
  >"$tmp/stage.log" 2>&1 || show_fail "$tmp/stage.log" "make install DESTDIR=... failed"
[ -f "$stage/opt/loom/lib/cmake/Loom/LoomConfig.cmake" ] || fail "DESTDIR install: no LoomConfig.cmake"
grep -qx 'prefix=/opt/loom' "$stage/opt/loom/lib/pkgconfig/loom.pc" ||
  fail "DESTDIR install: loom.pc does not say prefix=/opt/loom"
! grep -rqF "$stage" "$stage/opt/loom/lib/pkgconfig" "$stage/opt/loom/lib/cmake" ||
  fail "DESTDIR install: DESTDIR written into an installed file"
make -C "$root" --no-print-directory uninstall DESTDIR="$stage" PREFIX=/opt/loom \
  >"$tmp/stage.log" 2>&1 || show_fail "$tmp/stage.log" "make uninstall failed"
left=$(find "$stage" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"

# ---- 2. pkg-config ------------------------------------------------------------------
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pcflags=$(pkg-config --cflags --libs loom) || fail "pkg-config --cflags --libs loom failed"
[ "$(pkg-config --modversion loom)" = 0.1.0 ] || fail "pkg-config --modversion loom is not 0.1.0"
cat >"$tmp/pc.c" <<'EOF'
#include <loom.h>
#include <stdio.h>
int main(int argc, char **argv) {
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  loom_set s = loom_decl_set(10, "cells");
  printf("%s %d %s\n", LOOM_VERSION_STRING, loom_set_size(s), loom_set_name(s));
  return loom_exit() == LOOM_OK ? 0 : 1;
}
EOF
# shellcheck disable=SC2086 # pkg-config output is a list of words
"$CC" -std=c11 -Wall -Werror -o "$tmp/pc" "$tmp/pc.c" $pcflags >"$tmp/pc.log" 2>&1 ||
  show_fail "$tmp/pc.log" "a C file using loom.h does not build with: $pcflags"
out=$(LD_LIBRARY_PATH=$prefix/lib "$tmp/pc") || fail "the pkg-config program failed"
[ "$out" = "0.1.0 10 cells" ] || fail "the pkg-config program printed '$out'"
if command -v ldd >/dev/null; then
  LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/pc" | grep -qF "$prefix/lib/libloom.so.0" ||
    fail "the pkg-config program is not linked with $prefix/lib/libloom.so.0"
fi
unset PKG_CONFIG_PATH

# ---- 3. the CMake sample ----------------------------------------------------------
mkdir -p "$tmp/src"
cp -R "$root/samples/cmake-project" "$root/samples/airfoil" "$root/samples/common" "$tmp/src/" || fail "copy of the samples"
src=$tmp/src/cmake-project
airfoil_dir=$tmp/src/airfoil

"$bin/naca0012" -I 20 -J 30 "$tmp/mesh.dat" >/dev/null || fail "mesh generation"
"$bin/airfoil_ref" "$tmp/mesh.dat" 200 "$tmp/q_ref.bin" >"$tmp/ref.out" 2>"$tmp/ref.err" ||
  show_fail "$tmp/ref.err" "airfoil_ref failed"
[ "$(wc -l <"$tmp/ref.out")" -eq 2 ] || fail "airfoil_ref: expected 2 rms lines"

# count PATTERN FILE: lines of FILE matching the extended regex PATTERN.
count() { grep -cE -- "$1" "$2"; }

# check_generator GENERATOR DIR
check_generator() {
  local gen=$1 b=$2 log=$2.log
  cmake -G "$gen" -S "$src" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" \
    -DLOOM_AIRFOIL_DIR="$airfoil_dir" >"$log" 2>&1 ||
    show_fail "$log" "$gen: configure failed"
  cmake --build "$b" >"$log" 2>&1 || show_fail "$log" "$gen: build failed"
  [ -x "$b/airfoil" ] || fail "$gen: no airfoil executable"

  # The installed loomc translated with the installed loom.h.
  local h found=0
  for h in $(tr -s ' \\:' '\n' <"$b/airfoil.seq.c.d" | grep '/loom\.h$'); do
    [ "$(realpath "$h")" = "$prefix/include/loom.h" ] && found=1
  done
  [ "$found" = 1 ] || fail "$gen: the translation did not read $prefix/include/loom.h"

  "$b/airfoil" "$tmp/mesh.dat" 200 "$b/q.bin" >"$b/run.out" 2>"$b/run.err" ||
    show_fail "$b/run.err" "$gen: airfoil failed"
  diff -u "$tmp/ref.out" "$b/run.out" >"$b/run.diff" ||
    show_fail "$b/run.diff" "$gen: rms lines differ from airfoil_ref"
  cmp -s "$tmp/q_ref.bin" "$b/q.bin" || fail "$gen: final q differs from airfoil_ref"

  # Edit a kernel header: translation, compile of the generated file, link.
  sleep 1
  touch "$airfoil_dir/airfoil_kernels.h"
  if [ "$gen" = Ninja ]; then # ninja -v prints commands instead of descriptions
    cmake --build "$b" >"$log" 2>&1 || show_fail "$log" "$gen: rebuild failed"
  else
    cmake --build "$b" -- VERBOSE=1 >"$log" 2>&1 || show_fail "$log" "$gen: rebuild failed"
    [ "$(count '/bin/loomc --target=seq ' "$log")" -eq 1 ] ||
      show_fail "$log" "$gen: after touching airfoil_kernels.h, loomc did not run exactly once"
  fi
  [ "$(count 'Loom: translating' "$log")" -eq 1 ] ||
    show_fail "$log" "$gen: after touching airfoil_kernels.h, not exactly one translation"
  if [ "$(count 'Building C object' "$log")" -ne 1 ] ||
    [ "$(count 'Building C object .*airfoil\.seq\.c\.o' "$log")" -ne 1 ]; then
    show_fail "$log" "$gen: after touching airfoil_kernels.h, not exactly the compile of airfoil.seq.c"
  fi
  [ "$(count 'Linking C executable' "$log")" -eq 1 ] ||
    show_fail "$log" "$gen: after touching airfoil_kernels.h, not exactly one link"
  # Progress lines: those three (+ "Built target airfoil" with make), nothing else.
  if [ "$(count '^\[[^]]*\] ' "$log")" -gt 4 ] ||
    [ "$(count 'Generating|Building (CXX|ASM)' "$log")" -ne 0 ]; then
    show_fail "$log" "$gen: after touching airfoil_kernels.h, other steps ran too"
  fi

  # No change, no work.
  cmake --build "$b" >"$log" 2>&1 || show_fail "$log" "$gen: no-op rebuild failed"
  [ "$(count 'Loom: translating|Building C object|Linking C executable|Generating' "$log")" -eq 0 ] ||
    show_fail "$log" "$gen: a rebuild without changes did work"
  echo "  $gen: built, Airfoil identical to airfoil_ref, incremental rebuilds exact"
}

check_generator "Unix Makefiles" "$tmp/build-make"
if command -v ninja >/dev/null; then
  check_generator Ninja "$tmp/build-ninja"
fi

# ---- 4. MPI -------------------------------------------------------------------------
mpi_done=""
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  for f in lib/libloom_mpi.a lib/libloom_mpi.so.0.1.0 lib/pkgconfig/loom-mpi.pc; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
  done
  [ "$(readlink "$prefix/lib/libloom_mpi.so.0")" = libloom_mpi.so.0.1.0 ] ||
    fail "lib/libloom_mpi.so.0 is not a symlink to libloom_mpi.so.0.1.0"
  if command -v readelf >/dev/null; then
    readelf -d "$prefix/lib/libloom_mpi.so.0.1.0" | grep -q 'SONAME.*\[libloom_mpi\.so\.0\]' ||
      fail "libloom_mpi.so.0.1.0 has no soname libloom_mpi.so.0"
  fi
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  mpi() { # NP PROG ARGS...
    local np=$1
    shift
    timeout 120 mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1 \
      -np "$np" "$@"
  }

  # pkg-config: the shared libloom_mpi, MPI from mpi-c.
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  pcflags=$(pkg-config --cflags --libs loom-mpi) || fail "pkg-config --cflags --libs loom-mpi failed"
  cat >"$tmp/pcmpi.c" <<'EOF'
#include <loom.h>
#include <stdio.h>
int main(int argc, char **argv) {
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  double v[6] = {1, 2, 3, 4, 5, 6};
  loom_set s = loom_decl_set(6, "s");
  loom_dat d = loom_decl_dat(s, 1, double, v, "d");
  if (argc > 1 && loom_dat_write_hdf5(d, argv[1], "d") != LOOM_OK) /* the HDF5 I/O */
    return 1;
  if (loom_rank() == 0)
    printf("ranks %d\n", loom_nranks());
  return loom_exit() == LOOM_OK ? 0 : 1;
}
EOF
  # shellcheck disable=SC2086 # pkg-config output is a list of words
  "$CC" -std=c11 -Wall -Werror -o "$tmp/pcmpi" "$tmp/pcmpi.c" $pcflags >"$tmp/pcmpi.log" 2>&1 ||
    show_fail "$tmp/pcmpi.log" "a C file using loom.h does not build with: $pcflags"
  out=$(LD_LIBRARY_PATH=$prefix/lib mpi 2 "$tmp/pcmpi" 2>"$tmp/pcmpi.err") ||
    show_fail "$tmp/pcmpi.err" "the loom-mpi pkg-config program failed under mpirun -np 2"
  [ "$out" = "ranks 2" ] || fail "the loom-mpi pkg-config program printed '$out', not 'ranks 2'"
  # the static library, with the HDF5 I/O: dsl-spec/mpi.md's lines, as written
  # there for an install (its own line, and pkg-config --static)
  # shellcheck disable=SC2046
  for how in line pc; do
    if [ $how = line ]; then
      mpicc -std=c11 -Wall -Werror -o "$tmp/pcmpi_$how" "$tmp/pcmpi.c" -I"$prefix/include" \
        "$prefix/lib/libloom_mpi.a" $(pkg-config --libs hdf5-openmpi) -lmetis -lptscotch \
        -lscotch -lptscotcherr -lm >"$tmp/pcmpi.log" 2>&1
    else
      mpicc -std=c11 -Wall -Werror $(pkg-config --cflags loom-mpi) -o "$tmp/pcmpi_$how" \
        "$tmp/pcmpi.c" "$prefix/lib/libloom_mpi.a" $(pkg-config --libs --static loom-mpi) \
        >"$tmp/pcmpi.log" 2>&1
    fi || show_fail "$tmp/pcmpi.log" "the HDF5 program does not link statically ($how, dsl-spec/mpi.md)"
    out=$(mpi 2 "$tmp/pcmpi_$how" "$tmp/pc_$how.h5" 2>"$tmp/pcmpi.err") && [ -s "$tmp/pc_$how.h5" ] ||
      show_fail "$tmp/pcmpi.err" "the static HDF5 program ($how) failed under mpirun -np 2"
    [ "$out" = "ranks 2" ] || fail "the static HDF5 program ($how) printed '$out'"
  done
  unset PKG_CONFIG_PATH

  # check_mpi TARGET THREADS LIB: the CMake sample for TARGET, at 2 ranks.
  check_mpi() {
    local target=$1 threads=$2 lib=$3 b log r d
    b=$tmp/build-${target/+/-}
    log=$b.log
    cmake -S "$src" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" -DLOOM_AIRFOIL_DIR="$airfoil_dir" \
      -DLOOM_TARGET="$target" >"$log" 2>&1 || show_fail "$log" "$target: configure failed"
    cmake --build "$b" -- VERBOSE=1 >"$log" 2>&1 || show_fail "$log" "$target: build failed"
    grep -q "loomc --target=$target " "$log" || show_fail "$log" "$target: not translated for $target"
    grep -qF "$prefix/lib/libloom_mpi.a" "$log" || show_fail "$log" "$target: $lib did not link libloom_mpi.a"
    grep -q -- "-lmpi\|libmpi\.so" "$log" || show_fail "$log" "$target: $lib did not link MPI"
    ! grep -q "linked with the serial libloom" "$log" || show_fail "$log" "$target: linked the serial runtime"
    LOOM_DIAG=1 OMP_NUM_THREADS=$threads mpi 2 "$b/airfoil" "$tmp/mesh.dat" 200 "$b/q.bin" \
      >"$b/run.out" 2>"$b/run.err" || show_fail "$b/run.err" "$target: airfoil failed at 2 ranks"
    grep -q "partition: .* over 2 ranks" "$b/run.err" ||
      show_fail "$b/run.err" "$target: not partitioned over 2 ranks"
    for r in 0 1; do
      [ "$(grep -cE "partition: set '[a-z]+' rank $r: owned [1-9]" "$b/run.err")" -eq 4 ] ||
        show_fail "$b/run.err" "$target: rank $r does not own part of each of the 4 sets"
    done
    diff -u "$tmp/ref.out" "$b/run.out" >"$b/run.diff" ||
      show_fail "$b/run.diff" "$target: rms lines differ from airfoil_ref"
    d=$("$root/build/tests/qdiff" "$tmp/q_ref.bin" "$b/q.bin" 2>&1 | tail -n 1)
    awk -v line="$d" 'BEGIN { n = split(line, w, " "); for (i = 1; i <= n; i++)
        if (w[i] == "difference") { exit !(w[i + 1] + 0 <= 1e-12) } exit 1 }' ||
      fail "$target: final q differs from airfoil_ref: $d"
    echo "  $target: $lib, partitioned over 2 ranks, Airfoil equal to airfoil_ref"
  }
  check_mpi mpi 1 Loom::loom_mpi
  check_mpi mpi+openmp 2 Loom::loom_mpi_openmp
  mpi_done=", MPI package"
fi

echo "cmake_project: PASS (make install, pkg-config, find_package(Loom) + loom_translate$mpi_done)"
exit 0
