/* all targets.  Needs PETSc.
 *
 * loom_solve given a dat on the wrong set: the error names the call's
 * file and line (recorded by loom.h's call-site macros), as every matrix
 * call's errors do. */
#include <loom.h>
#include <stdio.h>

static void k(const double *w, double A[3][3]) { A[0][0] += *w; }

int main(int argc, char **argv) {
  int tri[3] = {0, 1, 2};
  double one[1] = {1.0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set cells = loom_decl_set(1, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat w = loom_decl_dat(cells, 1, double, one, "w");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(k) over(cells) args(read: w, inc: A[c2n, c2n])
  loom_solve(A, w, w);
  printf("not reached\n");
  loom_exit();
  return 0;
}
