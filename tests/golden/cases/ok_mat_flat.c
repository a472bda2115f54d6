/* A kernel's element matrix declared as a flat array, `double A[9]` for
 * a 3x3 element matrix: an array parameter is a pointer whatever its size
 * (semantics.md §4), so it is accepted like `double *`.  The sparsity's
 * maps are given by a local array. */
#include <loom.h>
#include <stdio.h>

static void k(const double *w, double A[9]) {
  for (int i = 0; i < 9; i++)
    A[i] += (i % 4 == 0 ? 2.0 : 1.0) * *w;
}

int main(int argc, char **argv) {
  int tri[6] = {0, 1, 2, 2, 1, 3};
  double wt[2] = {1.0, 0.5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat w = loom_decl_dat(cells, 1, double, wt, "w");
  loom_map maps[1] = {c2n};
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, maps, maps, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(k) over(cells) args(read: w, inc: A[c2n, c2n])
  printf("%g %g\n", loom_mat_get(A, 1, 0, 1, 0), loom_mat_get(A, 0, 0, 3, 0));
  loom_exit();
  return 0;
}
