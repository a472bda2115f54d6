/*
 * assembly.c — the Poisson sample's matrix assembly, timed (bench/
 * assembly.sh): REPS times loom_mat_zero, the par_loop adding each cell's
 * element matrix, loom_mat_assemble; prints the best time, per cell and per
 * nonzero, and the matrix's Frobenius norm (to compare with
 * assembly_petsc.c, the same assembly written against PETSc directly).
 *
 * Usage: assembly N REPS   (the N x N mesh of samples/common/tri_mesh.h)
 */
#include <loom.h>
#include <loom_petsc.h>
#include <stdio.h>
#include <stdlib.h>

#include "poisson_kernels.h"
#include "../common/tri_mesh.h"

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: %s N REPS\n", argv[0]);
    return 2;
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]);
  struct tri_mesh m;
  if (tri_mesh_make(n, &m) || loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set cells = loom_decl_set(m.ncell, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, m.c2n, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, m.x, "x");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
  double best = 1e30;
  int rc = LOOM_OK;
  for (int r = 0; r < reps && rc == LOOM_OK; r++) {
    double cpu, t0, t1;
    loom_timers(&cpu, &t0);
    rc = loom_mat_zero(A);
#pragma loom par_loop(helmholtz) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: A[c2n, c2n])
    if (rc == LOOM_OK)
      rc = loom_mat_assemble(A);
    loom_timers(&cpu, &t1);
    if (t1 - t0 < best)
      best = t1 - t0;
  }
  MatInfo info;
  PetscReal norm = 0.0;
  Mat P = loom_mat_petsc(A);
  if (rc != LOOM_OK || !P || MatGetInfo(P, MAT_LOCAL, &info) || MatNorm(P, NORM_FROBENIUS, &norm))
    return 1;
  printf("assembly: %d cells, %.0f nonzeros, best %.6f s: %.2f ns per cell, %.2f ns per "
         "nonzero; norm %.17g\n", m.ncell, info.nz_used, best, 1e9 * best / m.ncell,
         1e9 * best / info.nz_used, (double)norm);
  loom_exit();
  tri_mesh_free(&m);
  return 0;
}
