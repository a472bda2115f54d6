/*
 * assembly_petsc.c — the baseline of bench/assembly.sh: the Poisson
 * sample's matrix assembled as a careful PETSc user writes it by hand,
 * exactly preallocated (entries per row counted from the mesh), each cell's
 * element matrix (the same kernel, poisson_kernels.h) inserted with
 * MatSetValues(ADD_VALUES), then MatAssemblyBegin/End; REPS times from
 * MatZeroEntries.  Prints the best time as assembly.c does.
 *
 * Usage: assembly_petsc N REPS
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <petscmat.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "poisson_kernels.h"
#include "../common/tri_mesh.h"

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Entries per row: each node's distinct neighbours through the cells, and
 * itself. */
static PetscInt *row_counts(const struct tri_mesh *m) {
  PetscInt *nnz = calloc((size_t)m->nnode, sizeof *nnz);
  int *cols = malloc(sizeof(int) * 64 * (size_t)m->nnode), *len = calloc((size_t)m->nnode, sizeof(int));
  if (!nnz || !cols || !len)
    return NULL;
  for (int e = 0; e < m->ncell; e++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        const int r = m->c2n[3 * e + i], c = m->c2n[3 * e + j];
        int seen = 0;
        for (int k = 0; k < len[r] && !seen; k++)
          seen = cols[64 * r + k] == c;
        if (!seen && len[r] < 64)
          cols[64 * r + len[r]++] = c;
      }
  for (int r = 0; r < m->nnode; r++)
    nnz[r] = len[r];
  free(cols);
  free(len);
  return nnz;
}

int main(int argc, char **argv) {
  if (argc < 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: %s N REPS\n", argv[0]);
    return 2;
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]);
  struct tri_mesh m;
  if (tri_mesh_make(n, &m))
    return 1;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscInt *nnz = row_counts(&m);
  if (!nnz)
    return 1;
  Mat A;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m.nnode, m.nnode, 0, nnz, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    const double t0 = wall();
    PetscCall(MatZeroEntries(A));
    for (int e = 0; e < m.ncell; e++) {
      const int *v = m.c2n + 3 * e;
      double Ae[3][3] = {{0}};
      helmholtz(m.x + 2 * v[0], m.x + 2 * v[1], m.x + 2 * v[2], Ae);
      PetscCall(MatSetValues(A, 3, v, 3, v, &Ae[0][0], ADD_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    const double t = wall() - t0;
    if (t < best)
      best = t;
  }
  MatInfo info;
  PetscReal norm;
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatNorm(A, NORM_FROBENIUS, &norm));
  printf("assembly: %d cells, %.0f nonzeros, best %.6f s: %.2f ns per cell, %.2f ns per "
         "nonzero; norm %.17g\n", m.ncell, info.nz_used, best, 1e9 * best / m.ncell,
         1e9 * best / info.nz_used, (double)norm);
  PetscCall(MatDestroy(&A));
  free(nnz);
  tri_mesh_free(&m);
  PetscCall(PetscFinalize());
  return 0;
}
