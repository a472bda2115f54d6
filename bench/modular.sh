#!/usr/bin/env bash
# The multi-file Airfoil (samples/airfoil-modular) against the single-file
# sample, from one run of bench/airfoil.sh (baseline: airfoil_seq, the
# single-file sample as loomc translates it by default):
#   airfoil_modular_calls      loomc --no-inline --no-version: each call of
#                              the solver a call, its handles one dat
#   airfoil_modular_noversion  loomc --no-version: calls seen through, the
#                              handles still one dat
#   airfoil_modular_seq        the default: calls seen through and the body
#                              written twice, its first copy for distinct
#                              handles (dsl-spec/transformations.md §8)
#
#   bench/modular.sh MESH ITERS AIRFOIL_BINDIR MODULAR_BINDIR
#   (BENCH_REPEAT as for airfoil.sh)
set -euo pipefail
mesh=$1 iters=$2 bin=$3 mod=$4
here=$(cd "$(dirname "$0")" && pwd)

"$here/airfoil.sh" "$mesh" "$iters" "$bin/airfoil_seq" "$mod/airfoil_modular_calls" \
  "$mod/airfoil_modular_noversion" "$mod/airfoil_modular_seq"
