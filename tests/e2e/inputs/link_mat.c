/* tests/e2e/link_lines.sh: a program with a matrix, linked with each
 * documented line of a program with matrices.  -u'' + u on [0, 1] with P1
 * elements (8 cells): the element matrices assembled by a loop, a right
 * side whose solution is u = 1 (each element's is K_e [1 1]), solved by
 * PETSc.  Prints K(0,0) = 1/h + h/3 and whether u = 1 at every node. */
#include <loom.h>
#include <math.h>
#include <stdio.h>

#define NCELLS 8

static void stiffness(const double *x0, const double *x1, double A[2][2]) {
  double h = *x1 - *x0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      A[i][j] += (i == j ? 1.0 : -1.0) / h + h / 6.0 * (i == j ? 2.0 : 1.0);
}

static void load(const double *x0, const double *x1, double *b0, double *b1) {
  double h = *x1 - *x0;
  *b0 += h / 2;
  *b1 += h / 2;
}

int main(int argc, char **argv) {
  double xs[NCELLS + 1], zero[NCELLS + 1] = {0}, u[NCELLS + 1];
  int c2n_data[2 * NCELLS];
  for (int i = 0; i <= NCELLS; i++)
    xs[i] = (double)i / NCELLS;
  for (int c = 0; c < NCELLS; c++)
    c2n_data[2 * c] = c, c2n_data[2 * c + 1] = c + 1;
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  loom_set nodes = loom_decl_set(NCELLS + 1, "nodes");
  loom_set cells = loom_decl_set(NCELLS, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 2, c2n_data, "c2n");
  loom_dat x = loom_decl_dat(nodes, 1, double, xs, "x");
  loom_dat b = loom_decl_dat(nodes, 1, double, zero, "b");
  loom_dat sol = loom_decl_dat(nodes, 1, double, zero, "u");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat K = loom_decl_mat(sp, "K");
#pragma loom par_loop(stiffness) over(cells) args(read: x[c2n[0]], x[c2n[1]], inc: K[c2n, c2n])
#pragma loom par_loop(load) over(cells) args(read: x[c2n[0]], x[c2n[1]], inc: b[c2n[0]], inc: b[c2n[1]])
  if (loom_solve(K, sol, b) != LOOM_OK || loom_dat_fetch(sol, u, sizeof u) != LOOM_OK)
    return 1;
  double k00 = loom_mat_get(K, 0, 0, 0, 0);
  int ones = 0;
  for (int i = 0; i <= NCELLS; i++)
    ones += fabs(u[i] - 1) < 1e-6;
  if (loom_rank() == 0)
    printf("mat: K00 %.6f, u = 1 at %d of %d nodes on %d ranks\n", k00, ones, NCELLS + 1,
           loom_nranks());
  return loom_exit() == LOOM_OK && ones == NCELLS + 1 ? 0 : 1;
}
