/*
 * poisson.c — P1 finite elements with a matrix assembled by a par_loop:
 * -Δu + u = f on the unit square (poisson_kernels.h), on the perturbed
 * triangle meshes of samples/common/tri_mesh.h, refined N, 2N, 4N, ...
 * The matrix (stiffness + mass) is assembled into PETSc, the system
 * solved by CG (options from the command line: -ksp_type, -pc_type,
 * -ksp_rtol, ...); with -d the boundary values are imposed (Dirichlet:
 * rows and columns zeroed, the matrix kept symmetric) instead of the
 * natural condition.
 *
 * Usage: poisson [-d] [N [LEVELS]] [PETSc options]   (default N 16, LEVELS 4)
 *   e.g. poisson 16 4 -ksp_type cg -pc_type gamg -ksp_rtol 1e-12
 * Prints, for each mesh, N, the matrix's Frobenius norm (through the PETSc
 * Mat, loom_petsc.h), the L2 and H1 errors and their observed rates (log2
 * of the ratio to the coarser mesh's): about 2 and 1.  Under MPI every set
 * is declared before the first loop partitions the mesh: one mesh per run
 * (LEVELS 1).
 */
#include <loom.h>
#include <loom_petsc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poisson_kernels.h"
#include "../common/tri_mesh.h"

struct options {
  int dirichlet, n, levels;
};

static void usage(const char *prog, int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [-d] [N [LEVELS]] [PETSc options]\n"
          "  solves -laplace(u) + u = f on LEVELS meshes (N x N, 2N x 2N, ...; default 16 and 4)\n"
          "  -d  Dirichlet boundary values instead of the natural condition\n",
          prog);
  exit(status);
}

/* A positive integer no larger than max, or exit 2 naming what. */
static int positive(const char *s, int max, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || end == s || v < 1 || v > max) {
    fprintf(stderr, "poisson: %s must be an integer from 1 to %d, not '%s'\n", what, max, s);
    exit(2);
  }
  return (int)v;
}

/* Our options come first; what follows (from the first '-' but -d) is
 * PETSc's. */
static struct options parse(int argc, char **argv) {
  struct options o = {0, 16, 4};
  int k = 1, pos = 0;
  for (; k < argc; k++) {
    if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0)
      usage(argv[0], 0);
    else if (strcmp(argv[k], "-d") == 0)
      o.dirichlet = 1;
    else if (argv[k][0] == '-')
      break;
    else if (pos++ == 0)
      o.n = positive(argv[k], 2048, "N");
    else if (pos == 2)
      o.levels = positive(argv[k], 8, "LEVELS");
    else
      usage(argv[0], 2);
  }
  if ((long)o.n << (o.levels - 1) > 2048) {
    fprintf(stderr, "poisson: the finest mesh, %ld x %ld, is larger than 2048 x 2048\n",
            (long)o.n << (o.levels - 1), (long)o.n << (o.levels - 1));
    exit(2);
  }
  return o;
}

/* One mesh: assemble, solve, and the errors' squares; the matrix's norm
 * (before the boundary conditions). */
static int level(const struct tri_mesh *m, int dirichlet, double *norm, double *l2, double *h1) {
  loom_set nodes = loom_decl_set(m->nnode, "nodes");
  loom_set cells = loom_decl_set(m->ncell, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, m->c2n, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, m->x, "x");
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  loom_dat b = loom_decl_temp(nodes, 1, double, "b");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");

#pragma loom par_loop(helmholtz) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: A[c2n, c2n])
#pragma loom par_loop(load) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: b[c2n[0]], b[c2n[1]], b[c2n[2]])
#pragma loom par_loop(exact) over(nodes) args(read: x, write: u)
  PetscReal fro = 0.0;
  Mat P = loom_mat_petsc(A); /* assembled */
  int rc = P && MatNorm(P, NORM_FROBENIUS, &fro) == 0 ? LOOM_OK : LOOM_EINVAL;
  *norm = (double)fro;
  if (dirichlet) {
    int nb, *bn = tri_mesh_boundary(m, &nb);
    rc = bn ? loom_mat_zero_rows_columns(A, nb, bn, 1.0, u, b) : LOOM_ENOMEM;
    free(bn);
  }
  if (rc == LOOM_OK)
    rc = loom_solve(A, u, b);
  double e0 = 0.0, e1 = 0.0;
#pragma loom par_loop(errors) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], u[c2n[0]], u[c2n[1]], u[c2n[2]], \
         inc: e0, e1)
  *l2 = e0;
  *h1 = e1;
  return rc;
}

int main(int argc, char **argv) {
  struct options o = parse(argc, argv);
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  double l2p = 0.0, h1p = 0.0, norm;
  int rc = 0;
  for (int k = 0; k < o.levels && !rc; k++) {
    struct tri_mesh m;
    if (tri_mesh_make(o.n << k, &m)) {
      rc = 1;
      break;
    }
    double l2, h1;
    rc = level(&m, o.dirichlet, &norm, &l2, &h1) != LOOM_OK;
    l2 = sqrt(l2);
    h1 = sqrt(h1);
    if (!rc && loom_rank() == 0) {
      if (k == 0)
        printf("%6s %16s %14s %14s %8s %8s\n", "N", "norm of A", "L2 error", "H1 error",
               "L2 rate", "H1 rate");
      if (k == 0)
        printf("%6d %16.10e %14.6e %14.6e\n", m.n, norm, l2, h1);
      else
        printf("%6d %16.10e %14.6e %14.6e %8.3f %8.3f\n", m.n, norm, l2, h1, log2(l2p / l2),
               log2(h1p / h1));
    }
    l2p = l2;
    h1p = h1;
    tri_mesh_free(&m);
  }
  loom_exit();
  return rc;
}
