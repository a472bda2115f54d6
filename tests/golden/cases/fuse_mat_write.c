/* Fusion and a loop writing a matrix (mode write): its entries are
 * replaced after the loop, so it does not fuse with a loop naming the same
 * matrix (the increment before it), but may with one that does not (the
 * dat written after it). */
#include <loom.h>

static void add(const double *w, double A[3][3]) {
  for (int i = 0; i < 3; i++)
    A[i][i] += *w;
}

static void put(const double *w, double A[3][3]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] = *w;
}

static void twice(const double *w, double *v) { *v = 2.0 * *w; }

int main(int argc, char **argv) {
  int tri[6] = {0, 1, 2, 2, 1, 3};
  double wt[2] = {1.0, 2.0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat w = loom_decl_dat(cells, 1, double, wt, "w");
  loom_dat v = loom_decl_temp(cells, 1, double, "v");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(add) over(cells) args(read: w, inc: A[c2n, c2n])
#pragma loom par_loop(put) over(cells) args(read: w, write: A[c2n, c2n])
#pragma loom par_loop(twice) over(cells) args(read: w, write: v)
  double out[2];
  loom_dat_fetch(v, out, sizeof out);
  loom_mat_assemble(A);
  loom_exit();
  return (int)out[0] - 2;
}
