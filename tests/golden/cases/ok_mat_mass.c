/* A matrix assembled by a loop: the P1 mass matrix of two triangles
 * (PyOP2's unit test), its element matrices row-major [3][3]; a second
 * loop adds a block matrix through a flat pointer. */
#include <loom.h>
#include <stdio.h>

static void mass(const double *x0, const double *x1, const double *x2, double A[3][3]) {
  double area = 0.5 * ((x1[0] - x0[0]) * (x2[1] - x0[1]) - (x2[0] - x0[0]) * (x1[1] - x0[1]));
  if (area < 0)
    area = -area;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] += area / 12.0 * (i == j ? 2.0 : 1.0);
}

static void coupling(const double *w, double *B) {
  for (int k = 0; k < 36; k++)
    B[k] += *w;
}

int main(int argc, char **argv) {
  double xy[8] = {0, 0, 2, 0, 1, 1, 0, 1.5}, wt[2] = {1.0, 0.5};
  int tri[6] = {0, 1, 3, 2, 3, 1};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "x");
  loom_dat w = loom_decl_dat(cells, 1, double, wt, "w");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_sparsity sp2 = loom_decl_sparsity(nodes, nodes, 2, 2, 1, &c2n, &c2n, "sp2");
  loom_mat M = loom_decl_mat(sp, "M");
  loom_mat B = loom_decl_mat(sp2, "B");

#pragma loom par_loop(mass) over(cells) args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: M[c2n, c2n])
#pragma loom par_loop(coupling) over(cells) args(read: w, inc: B[c2n, c2n])
  printf("%g %g\n", loom_mat_get(M, 0, 0, 0, 0), loom_mat_get(B, 1, 1, 3, 0));
  loom_exit();
  return 0;
}
