/*
 * mat_checks.c — matrices assembled by par_loops, checked against values
 * computed by hand (tests/e2e/poisson.sh runs it on seq and openmp):
 *   1. PyOP2's mass-matrix test: nodes (0,0), (2,0), (1,1), (0,1.5),
 *      elements [0,1,3] and [2,3,1]: M_ij = sum over elements of
 *      |T|/12 (1 + δij); then M x = M f solved returns f;
 *   2. the Laplace patch test: 3x3 nodes on the unit square, 8 triangles,
 *      u = 1 on y = 0 and u = 2 on y = 1 (rows and columns zeroed), the
 *      natural condition elsewhere: u = 1 + y at every node.
 * Prints one line per check and exits 1 when any fails.
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>

static void mass(const double *x0, const double *x1, const double *x2, double A[3][3]) {
  double area = 0.5 * ((x1[0] - x0[0]) * (x2[1] - x0[1]) - (x2[0] - x0[0]) * (x1[1] - x0[1]));
  area = fabs(area);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] += area / 12.0 * (i == j ? 2.0 : 1.0);
}

static void laplace(const double *x0, const double *x1, const double *x2, double *A) {
  const double *v[3] = {x0, x1, x2};
  double g[3][2];
  for (int i = 0; i < 3; i++) { /* gradients times twice the area */
    const double *p = v[(i + 1) % 3], *q = v[(i + 2) % 3];
    g[i][0] = p[1] - q[1];
    g[i][1] = q[0] - p[0];
  }
  const double d = (x1[0] - x0[0]) * (x2[1] - x0[1]) - (x2[0] - x0[0]) * (x1[1] - x0[1]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[3 * i + j] += (g[i][0] * g[j][0] + g[i][1] * g[j][1]) / (2.0 * d);
}

static double rhs[4]; /* M f, computed by the host */

static void set_f(const double *x, double *f) { *f = 1.0 + x[0] * x[0] + 0.5 * x[1]; }
static void set_rhs(const int *i, double *b) { *b = rhs[*i]; }
static void set_bc(const double *x, double *u) { *u = x[1] == 0.0 ? 1.0 : x[1] == 1.0 ? 2.0 : 0.0; }

static int check_mass(void) {
  double xy[8] = {0, 0, 2, 0, 1, 1, 0, 1.5};
  int tri[6] = {0, 1, 3, 2, 3, 1};
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "x");
  loom_dat f = loom_decl_temp(nodes, 1, double, "f");
  loom_dat b = loom_decl_temp(nodes, 1, double, "b");
  loom_dat sol = loom_decl_temp(nodes, 1, double, "sol");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat M = loom_decl_mat(sp, "M");
#pragma loom par_loop(mass) over(cells) args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: M[c2n, c2n])
#pragma loom par_loop(set_f) over(nodes) args(read: x, write: f)
  /* |T| = 1.5 for [0,1,3] and 0.25 for [2,3,1] */
  const double t0 = 1.5 / 12.0, t1 = 0.25 / 12.0;
  const double want[4][4] = {{2 * t0, t0, 0, t0},
                             {t0, 2 * t0 + 2 * t1, t1, t0 + t1},
                             {0, t1, 2 * t1, t1},
                             {t0, t0 + t1, t1, 2 * t0 + 2 * t1}};
  double worst = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      worst = fmax(worst, fabs(loom_mat_get(M, i, 0, j, 0) - want[i][j]));
  /* b = M f on the host, from the entries, then M sol = b */
  double fv[4], sv[4];
  loom_dat_fetch(f, fv, sizeof fv);
  for (int i = 0; i < 4; i++) {
    rhs[i] = 0.0;
    for (int j = 0; j < 4; j++)
      rhs[i] += want[i][j] * fv[j];
  }
  int ok = worst < 1e-15;
  printf("mass: largest entry error %.3g: %s\n", worst, ok ? "ok" : "FAIL");
#pragma loom par_loop(set_rhs) over(nodes) args(idx, write: b)
  int rc = loom_solve(M, sol, b);
  loom_dat_fetch(sol, sv, sizeof sv);
  double err = 0.0;
  for (int i = 0; i < 4; i++)
    err = fmax(err, fabs(sv[i] - fv[i]));
  int ok2 = rc == LOOM_OK && err < 1e-10;
  printf("mass: M x = M f gives x = f to %.3g: %s\n", err, ok2 ? "ok" : "FAIL");
  return ok && ok2 ? 0 : 1;
}

static int check_patch(void) {
  double xy[18];
  int tri[24], t = 0;
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) {
      xy[2 * (3 * j + i)] = 0.5 * i;
      xy[2 * (3 * j + i) + 1] = 0.5 * j;
    }
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++) {
      const int a = 3 * j + i, q[6] = {a, a + 1, a + 4, a, a + 4, a + 3};
      for (int k = 0; k < 6; k++)
        tri[t++] = q[k];
    }
  loom_set nodes = loom_decl_set(9, "pnodes");
  loom_set cells = loom_decl_set(8, "pcells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "pc2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "px");
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  loom_dat b = loom_decl_temp(nodes, 1, double, "pb");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "psp");
  loom_mat K = loom_decl_mat(sp, "K");
#pragma loom par_loop(laplace) over(cells) args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: K[c2n, c2n])
#pragma loom par_loop(set_bc) over(nodes) args(read: x, write: u)
  const int bc[6] = {0, 1, 2, 6, 7, 8};
  int rc = loom_mat_zero_rows_columns(K, 6, bc, 1.0, u, b);
  if (rc == LOOM_OK)
    rc = loom_solve(K, u, b);
  double uv[9];
  loom_dat_fetch(u, uv, sizeof uv);
  double err = 0.0;
  for (int k = 0; k < 9; k++)
    err = fmax(err, fabs(uv[k] - (1.0 + xy[2 * k + 1])));
  int ok = rc == LOOM_OK && err < 1e-8;
  printf("patch: u =");
  for (int k = 0; k < 9; k++)
    printf(" %.6g", uv[k]);
  printf(" (largest error %.3g): %s\n", err, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  int failed = check_mass();
  failed |= check_patch();
  loom_exit();
  return failed;
}
