#!/usr/bin/env bash
# The generated C people read: no block of 10 or more lines written twice
# (scripts/repeats.py) in the samples' outputs that have none today, and
# Airfoil's seq output within 800 lines (issue: loomc at the scale of
# real codes).  A change that brings a repeat back fails here, with the
# runs it found.
#   tests/e2e/output_shape.sh        (after `make all`)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
b=$root/build/samples
fail=0
files="$b/airfoil/airfoil_seq.c $b/airfoil/airfoil_hdf5_mpi.c $b/airfoil/airfoil_hdf5_mpi_openmp.c
       $b/aero/aero_seq.c $b/aero/aero_openmp.c $b/aero/aero_mpi.c
       $b/heat/heat_seq.c $b/heat/heat_openmp.c $b/heat/heat_mpi.c $b/heat/heat_mpi_openmp.c
       $b/limiter/limiter_seq.c $b/limiter/limiter_openmp.c $b/limiter/limiter_mpi.c
       $b/poisson/poisson_seq.c $b/poisson/poisson_openmp.c $b/poisson/poisson_mpi.c
       $b/poisson/poisson_mpi_openmp.c $b/outer/outer_seq.c $b/outer/outer_openmp.c"
for f in $files; do
  if [ ! -f "$f" ]; then
    echo "output_shape: $f missing (make all, make mpi)"
    fail=1
  elif ! python3 "$root/scripts/repeats.py" "$f"; then
    fail=1
  fi
done
lines=$(wc -l <"$b/airfoil/airfoil_seq.c")
if [ "$lines" -gt 800 ]; then
  echo "output_shape: airfoil_seq.c has $lines lines (at most 800)"
  fail=1
fi
if [ $fail = 0 ]; then
  echo "output_shape: PASS ($(echo $files | wc -w) outputs without a repeated run; airfoil_seq.c $lines lines)"
else
  echo "output_shape: FAIL"
fi
exit $fail
