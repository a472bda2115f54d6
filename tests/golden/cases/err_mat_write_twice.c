/* Error: a loop writing a matrix (mode write) names it once: its entries
 * are replaced after the loop, which another argument could not see. */
#include <loom.h>

static void k(double *W, double *A) { W[0] = A[0] = 1.0; }

int main(int argc, char **argv) {
  int tri[3] = {0, 1, 2};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set cells = loom_decl_set(1, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(k) over(cells) args(write: A[c2n, c2n], inc: A[c2n, c2n])
  loom_exit();
  return 0;
}
