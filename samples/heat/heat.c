/*
 * heat.c — the heat equation u_t = Δu on the unit square, u = 0 on the
 * boundary, u(0) = sin(πx) sin(πy) (heat_kernels.h: the exact solution is
 * exp(-2π² t) sin(πx) sin(πy)), with P1 elements on the perturbed triangle
 * meshes of samples/common/tri_mesh.h, refined N, 2N, 4N, ..., and
 * backward Euler in time:
 *
 *   (M + dt K) u^{n+1} = M u^n
 *
 * The mass matrix M and the stiffness matrix K are assembled once, each by
 * a loop; the system matrix M + dt K is formed from them in PETSc (their
 * pattern is one sparsity's); every step's right-hand side M u^n is
 * loom_mat_mult's, and the system is solved by loom_solve (options from
 * the command line: -ksp_type cg -pc_type gamg -ksp_rtol 1e-12 ...).  The
 * boundary condition: the rows and columns of the boundary nodes are
 * zeroed in both matrices (loom_mat_zero_rows_columns), with 1 on the
 * system matrix's diagonal and 0 on M's, so that M u^n is 0 there and
 * every u^n stays 0 on the boundary.
 *
 * dt = T / steps with steps = ceil(N² / 16), T = 1/64 (dt <= h²/4, h = 1/N):
 * the time error O(dt) and the space error O(h²) both fall 4 times per
 * refinement, and the L2 error's observed rate is 2 (within the
 * irregularity of the perturbed meshes, as in samples/poisson).
 *
 * Usage: heat [N [LEVELS]] [PETSc options]   (default N 8, LEVELS 4)
 *   e.g. heat 8 4 -ksp_type cg -pc_type gamg -ksp_rtol 1e-12
 * Prints, for each mesh, N, the steps, dt, the L2 error at T and its
 * observed rate (log2 of the ratio to the coarser mesh's: about 2), and
 * the discrete norm |u_h|_M = sqrt(u^T M u) at T (M u by loom_mat_mult,
 * the dot product by PETSc on the dats' Vec views, loom_petsc.h).  Under
 * MPI every set is declared before the first loop partitions the mesh:
 * one mesh per run (LEVELS 1).
 */
#include <loom.h>
#include <loom_petsc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_kernels.h"
#include "../common/tri_mesh.h"

#define FINAL_TIME (1.0 / 64.0)

struct options {
  int n, levels;
};

static void usage(const char *prog, int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [N [LEVELS]] [PETSc options]\n"
          "  solves u_t = laplace(u) to t = 1/64 by backward Euler on LEVELS meshes\n"
          "  (N x N, 2N x 2N, ...; default 8 and 4), ceil(N^2 / 16) steps on each\n",
          prog);
  exit(status);
}

/* A positive integer no larger than max, or exit 2 naming what. */
static int positive(const char *s, int max, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || end == s || v < 1 || v > max) {
    fprintf(stderr, "heat: %s must be an integer from 1 to %d, not '%s'\n", what, max, s);
    exit(2);
  }
  return (int)v;
}

/* Our options come first; what follows (from the first '-') is PETSc's. */
static struct options parse(int argc, char **argv) {
  struct options o = {8, 4};
  int pos = 0;
  for (int k = 1; k < argc; k++) {
    if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0)
      usage(argv[0], 0);
    else if (argv[k][0] == '-')
      break;
    else if (pos++ == 0)
      o.n = positive(argv[k], 512, "N");
    else if (pos == 2)
      o.levels = positive(argv[k], 8, "LEVELS");
    else
      usage(argv[0], 2);
  }
  if ((long)o.n << (o.levels - 1) > 512) {
    fprintf(stderr, "heat: the finest mesh, %ld x %ld, is larger than 512 x 512\n",
            (long)o.n << (o.levels - 1), (long)o.n << (o.levels - 1));
    exit(2);
  }
  return o;
}

struct result {
  int steps;
  double dt, l2, norm; /* the L2 error at T and |u_h|_M */
};

/* A = M + dt A (PETSc's, in place: one pattern). */
static int system_matrix(loom_mat A, loom_mat M, double dt) {
  Mat PA = loom_mat_petsc(A), PM = loom_mat_petsc(M);
  if (!PA || !PM || MatScale(PA, dt) != 0 ||
      MatAXPY(PA, 1.0, PM, SAME_NONZERO_PATTERN) != 0)
    return LOOM_EPETSC;
  return LOOM_OK;
}

/* sqrt(u^T w) through the dats' Vec views (w = M u). */
static int dot_norm(loom_dat u, loom_dat w, double *norm) {
  Vec vu = loom_dat_vec(u), vw = loom_dat_vec(w);
  PetscScalar dot = 0.0;
  int rc = vu && vw && VecDot(vu, vw, &dot) == 0 ? LOOM_OK : LOOM_EPETSC;
  if (vu && loom_dat_vec_restore(u, &vu) != LOOM_OK)
    rc = LOOM_EPETSC;
  if (vw && loom_dat_vec_restore(w, &vw) != LOOM_OK)
    rc = LOOM_EPETSC;
  *norm = sqrt((double)dot);
  return rc;
}

/* One mesh: assemble, step to T, the error and the norm at T. */
static int level(const struct tri_mesh *m, struct result *r) {
  loom_set nodes = loom_decl_set(m->nnode, "nodes");
  loom_set cells = loom_decl_set(m->ncell, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, m->c2n, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, m->x, "x");
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  loom_dat b = loom_decl_temp(nodes, 1, double, "b");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat M = loom_decl_mat(sp, "M");
  loom_mat A = loom_decl_mat(sp, "A");
  r->steps = (int)(((long)m->n * m->n + 15) / 16);
  r->dt = FINAL_TIME / r->steps;

#pragma loom par_loop(mass) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: M[c2n, c2n])
#pragma loom par_loop(stiffness) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: A[c2n, c2n])
#pragma loom par_loop(initial) over(nodes) args(read: x, write: u)
  int rc = system_matrix(A, M, r->dt);
  int nb, *bn = tri_mesh_boundary(m, &nb);
  if (!bn)
    rc = LOOM_ENOMEM;
  if (rc == LOOM_OK)
    rc = loom_mat_zero_rows_columns(A, nb, bn, 1.0, NULL, NULL);
  if (rc == LOOM_OK)
    rc = loom_mat_zero_rows_columns(M, nb, bn, 0.0, NULL, NULL);
  free(bn);
  for (int n = 0; n < r->steps && rc == LOOM_OK; n++) {
    rc = loom_mat_mult(M, u, b); /* b = M u^n */
    if (rc == LOOM_OK)
      rc = loom_solve(A, u, b); /* u^{n+1}, from u^n as the first guess */
  }
  double t = FINAL_TIME, e2 = 0.0;
#pragma loom par_loop(l2_error) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], u[c2n[0]], u[c2n[1]], u[c2n[2]], t, \
         inc: e2)
  r->l2 = sqrt(e2);
  if (rc == LOOM_OK)
    rc = loom_mat_mult(M, u, b);
  if (rc == LOOM_OK)
    rc = dot_norm(u, b, &r->norm);
  return rc;
}

int main(int argc, char **argv) {
  struct options o = parse(argc, argv);
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  double l2p = 0.0;
  int rc = 0;
  for (int k = 0; k < o.levels && !rc; k++) {
    struct tri_mesh m;
    if (tri_mesh_make(o.n << k, &m)) {
      rc = 1;
      break;
    }
    struct result r;
    rc = level(&m, &r) != LOOM_OK;
    if (!rc && loom_rank() == 0) {
      if (k == 0)
        printf("%6s %6s %12s %20s %8s %20s\n", "N", "steps", "dt", "L2 error", "L2 rate",
               "|u_h|_M");
      if (k == 0)
        printf("%6d %6d %12.6e %20.12e %8s %20.12e\n", m.n, r.steps, r.dt, r.l2, "", r.norm);
      else
        printf("%6d %6d %12.6e %20.12e %8.3f %20.12e\n", m.n, r.steps, r.dt, r.l2,
               log2(l2p / r.l2), r.norm);
    }
    l2p = r.l2;
    tri_mesh_free(&m);
  }
  loom_exit();
  return rc;
}
