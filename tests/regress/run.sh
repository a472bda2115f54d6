#!/usr/bin/env bash
# Regression programs: small complete Loom programs that loomc or libloom
# once got wrong (tests/regress/README.md).  Each cases/NAME.c is
# translated for every target, built, run, and its standard output
# compared with cases/NAME.expect:
#   seq          as is and with --no-fuse
#   openmp       1, 2 and 3 threads, every plan checked (LOOM_CHECK_PLANS=1)
#   mpi          1, 2 and 3 ranks
#   mpi+openmp   2 ranks x 2 threads
# A warning of the C compiler located in the generated code (the output
# file's own lines) fails the case; warnings in the user's code do not.
# cases/NAME.conf (optional, sourced) adjusts a case:
#   TARGETS="seq mpi"      the targets it runs on (default: all four)
#   MPI_RANKS="1"          the rank counts of mpi (default: 1 2 3)
#   PARTITIONERS="metis block"  mpi runs at each rank count with each
#                          LOOM_PARTITIONER (default: the runtime's default)
#   PETSC=1                links the matrices' library and PETSc (a program
#                          with matrices: libloom_petsc.a or
#                          libloom_mpi_petsc.a ahead of the runtime; skipped
#                          when pkg-config finds no petsc)
#   ENV="VAR=value ..."    environment of every run
#   LOOMC_ONLY=1           translate only; LOOMC_FAILS=1: loomc must fail
#   LOOMC_STDERR_GREP=...  a line loomc's diagnostics must contain
#   EXPECT_FAIL=1          the program must exit non-zero
#   STDERR_GREP=...        a text every run's stderr must contain
#   STDERR_GREP_MPI, STDERR_NOGREP_MPI   the same (or its absence) for
#                          the MPI targets only (a grep -E pattern for NOGREP)
#
#   tests/regress/run.sh [LOOM_ROOT]   (REGRESS_ONLY=GLOB: the cases named so)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/../..}" && pwd)
loomc=$root/build/bin/loomc
inc=$root/runtime/include
mpi_libs="$root/build/lib/libloom_mpi.a -lmetis -lptscotch -lscotch -lptscotcherr -lm"
mpirun_cmd="mpirun --oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
petsc_libs=$(pkg-config --libs petsc mpi-c 2>/dev/null)
have_mpi=1
command -v mpicc >/dev/null && [ -f "$root/build/lib/libloom_mpi.a" ] || have_mpi=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
pass=0 fail=0

# run_case NAME: every target and configuration of one case.
run_case() {
  local name=$1 src=$here/cases/$1.c dir=$scratch/$1
  local TARGETS="seq openmp mpi mpi+openmp" ENV="" LOOMC_ONLY=0 LOOMC_FAILS=0
  local LOOMC_STDERR_GREP="" EXPECT_FAIL=0 STDERR_GREP="" STDERR_GREP_MPI=""
  local STDERR_NOGREP_MPI="" MPI_RANKS="1 2 3" PARTITIONERS="" PETSC=0
  # shellcheck disable=SC1090
  [ -f "$here/cases/$name.conf" ] && . "$here/cases/$name.conf"
  if [ "$PETSC" = 1 ] && [ -z "$petsc_libs" ]; then
    echo "regress: $name skipped: no PETSc (pkg-config petsc)"
    return 0
  fi
  mkdir -p "$dir"
  cp "$src" "$dir/"
  local target ok=1
  for target in $TARGETS; do
    case $target in mpi*) [ $have_mpi = 1 ] || continue ;; esac
    run_target "$name" "$dir" "$target" || ok=0
  done
  return $((1 - ok))
}

# translate NAME DIR TARGET OUT OPTS...: loomc, checked against the conf.
translate() {
  local name=$1 dir=$2 target=$3 out=$4
  shift 4
  (cd "$dir" && "$loomc" --target="$target" "$@" "$name.c" -o "$out" 2>"$out.loomc.err")
  local rc=$?
  if [ -n "$LOOMC_STDERR_GREP" ] && ! grep -qF "$LOOMC_STDERR_GREP" "$dir/$out.loomc.err"; then
    echo "FAIL $name ($target $*): loomc's diagnostics lack: $LOOMC_STDERR_GREP"
    cat "$dir/$out.loomc.err"
    return 1
  fi
  if [ "$LOOMC_FAILS" = 1 ]; then
    [ $rc -ne 0 ] && [ ! -e "$dir/$out" ] && return 2
    echo "FAIL $name ($target): loomc should have failed (rc $rc)"
    return 1
  fi
  if [ $rc -ne 0 ]; then
    echo "FAIL $name ($target $*): loomc exited $rc"
    cat "$dir/$out.loomc.err"
    return 1
  fi
  [ "$LOOMC_ONLY" = 1 ] && return 2
  return 0
}

# build NAME DIR TARGET OUT: the C compiler, no warning in generated code.
build() {
  local name=$1 dir=$2 target=$3 out=$4 cc=cc omp="" libs="$root/build/lib/libloom.a -lm"
  case $target in
    openmp) omp=-fopenmp ;;
    mpi) cc=mpicc libs=$mpi_libs ;;
    mpi+openmp) cc=mpicc omp=-fopenmp libs=$mpi_libs ;;
  esac
  if [ "$PETSC" = 1 ]; then
    case $target in
      mpi*) libs="$root/build/lib/libloom_mpi_petsc.a $libs $petsc_libs" ;;
      *) libs="$root/build/lib/libloom_petsc.a $libs $petsc_libs" ;;
    esac
  fi
  # shellcheck disable=SC2086
  if ! (cd "$dir" && $cc -std=c11 -Wall -Wextra -O1 $omp -I"$inc" "$out" $libs \
          -o "${out%.c}" 2>"$out.cc.err"); then
    echo "FAIL $name ($target): the generated code does not build"
    cat "$dir/$out.cc.err"
    return 1
  fi
  if grep -q "^$out:[0-9]*:[0-9]*: warning" "$dir/$out.cc.err"; then
    echo "FAIL $name ($target): warnings in the generated code"
    grep -A3 "^$out:" "$dir/$out.cc.err"
    return 1
  fi
}

# check NAME DIR WHAT MPI STATUS: one run's output against the case.
check() {
  local name=$1 dir=$2 what=$3 mpi=$4 status=$5
  if [ "$EXPECT_FAIL" = 1 ] && [ "$status" -eq 0 ]; then
    echo "FAIL $name ($what): exited 0, expected an error"; return 1
  fi
  if [ "$EXPECT_FAIL" = 0 ] && [ "$status" -ne 0 ]; then
    echo "FAIL $name ($what): exited $status"; cat "$dir/run.err"; return 1
  fi
  if [ "$EXPECT_FAIL" = 0 ] && ! diff -u "$here/cases/$name.expect" "$dir/run.out" >"$dir/diff"; then
    echo "FAIL $name ($what): output differs"; cat "$dir/diff"; return 1
  fi
  local want=$STDERR_GREP
  [ "$mpi" = 1 ] && [ -n "$STDERR_GREP_MPI" ] && want=$STDERR_GREP_MPI
  if [ -n "$want" ] && ! grep -qF "$want" "$dir/run.err"; then
    echo "FAIL $name ($what): stderr lacks: $want"; cat "$dir/run.err"; return 1
  fi
  if [ "$mpi" = 1 ] && [ -n "$STDERR_NOGREP_MPI" ] && grep -qE "$STDERR_NOGREP_MPI" "$dir/run.err"; then
    echo "FAIL $name ($what): stderr has: $STDERR_NOGREP_MPI"; cat "$dir/run.err"; return 1
  fi
  return 0
}

# execute NAME DIR WHAT MPI CMD...: one run, under the case's environment.
execute() {
  local name=$1 dir=$2 what=$3 mpi=$4
  shift 4
  # shellcheck disable=SC2086
  (cd "$dir" && env $ENV timeout 60 "$@" >run.out 2>run.err)
  check "$name" "$dir" "$what" "$mpi" $?
}

run_target() {
  local name=$1 dir=$2 target=$3 out=$1.${3/+/_}.c rc ok=1
  translate "$name" "$dir" "$target" "$out"
  rc=$?
  [ $rc -eq 1 ] && return 1
  [ $rc -eq 2 ] && return 0
  build "$name" "$dir" "$target" "$out" || return 1
  local exe=./${out%.c} n
  case $target in
    seq)
      execute "$name" "$dir" seq 0 "$exe" || ok=0
      translate "$name" "$dir" seq "$name.nofuse.c" --no-fuse && build "$name" "$dir" seq "$name.nofuse.c" &&
        execute "$name" "$dir" "seq --no-fuse" 0 "./$name.nofuse" || ok=0 ;;
    openmp)
      for n in 1 2 3; do
        execute "$name" "$dir" "openmp $n threads" 0 env OMP_NUM_THREADS=$n LOOM_CHECK_PLANS=1 "$exe" || ok=0
      done ;;
    mpi)
      local part
      for n in $MPI_RANKS; do
        for part in ${PARTITIONERS:-default}; do
          local penv=() pwhat=""
          [ "$part" != default ] && penv=(-x "LOOM_PARTITIONER=$part") pwhat=", $part"
          # shellcheck disable=SC2086
          execute "$name" "$dir" "mpi $n ranks$pwhat" 1 $mpirun_cmd "${penv[@]}" -np $n "$exe" || ok=0
        done
      done ;;
    mpi+openmp)
      # shellcheck disable=SC2086
      execute "$name" "$dir" "mpi+openmp 2x2" 1 $mpirun_cmd -x OMP_NUM_THREADS=2 -np 2 "$exe" || ok=0 ;;
  esac
  return $((1 - ok))
}

for src in "$here"/cases/${REGRESS_ONLY:-*}.c; do
  name=$(basename "$src" .c)
  if run_case "$name"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
[ $have_mpi = 1 ] || echo "regress: mpicc or libloom_mpi.a missing: MPI targets skipped"
echo "regress: $pass passed, $fail failed"
[ $fail -eq 0 ]
