#!/usr/bin/env bash
# End-to-end tests: loomc's command line, #line mapping (C compilers, gdb),
# diagnostics.md against the golden cases, the mesh generator, Airfoil,
# the installed package and the documents' link lines.
# Set LOOM_E2E_QUICK=1 to skip the reference-mesh run (a few minutes).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pass=0 fail=0
step() {
  echo "== $*"
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
step "$here/cli.sh" "$root/build/bin/loomc"
step "$here/line_mapping.sh" "$root/build/bin/loomc"
step "$here/gdb_step.sh" "$root/build/bin/loomc"
step "$here/diag_coverage.sh"
step "$here/mesh_ref.sh" "$root/build/samples/airfoil/naca0012"
step "$here/airfoil.sh" small
step "$here/airfoil.sh" openmp
step "$here/airfoil_modular.sh" small
step "$here/wave.sh"
step "$here/aero_mesh.sh" "$root/build/samples/aero/naca_fem"
step "$here/aero.sh"
step "$here/limiter.sh"
step "$here/extruded.sh"
step "$here/columns.sh"
step "$here/poisson.sh"
step "$here/heat.sh"
step "$here/outer.sh"
step "$here/output_shape.sh"
step "$here/prescan.sh" "$root/build/bin/loomc"
step "$here/mpi.sh"
step "$here/hdf5.sh" small
step "$here/bad_inputs.sh"
if [ "${LOOM_E2E_SANITIZE:-0}" = 1 ]; then
  echo "== cmake_project: skipped under SANITIZE=1 (it installs the normal build)"
else
  step "$here/cmake_project.sh"
fi
# the documents' link lines, as written (skips itself under SANITIZE=1)
step "$here/link_lines.sh"
if [ "${LOOM_E2E_QUICK:-0}" = 1 ]; then
  echo "== airfoil ref, airfoil_modular ref: skipped (LOOM_E2E_QUICK=1)"
else
  step "$here/airfoil.sh" ref
  step "$here/airfoil_modular.sh" ref-mpi
fi
echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
