/* Error: a loop adds into a matrix through a pair of maps its sparsity
 * does not have.  loomc reads the sparsity's pairs (here a compound
 * literal of two) and names them; the run time would otherwise find it
 * only when the loop runs. */
#include <loom.h>

static void k(const double *w, double A[3][3]) { A[0][0] += *w; }

int main(int argc, char **argv) {
  int tri[3] = {0, 1, 2}, rev[3] = {2, 1, 0};
  double one[1] = {1.0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set cells = loom_decl_set(1, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_map c2nb = loom_decl_map(cells, nodes, 3, rev, "c2nb");
  loom_dat w = loom_decl_dat(cells, 1, double, one, "w");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 2, (loom_map[]){c2n, c2nb},
                                        (loom_map[]){c2n, c2n}, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(k) over(cells) args(read: w, inc: A[c2n, c2n])
#pragma loom par_loop(k) over(cells) args(read: w, inc: A[c2nb, c2nb])
  loom_exit();
  return 0;
}
