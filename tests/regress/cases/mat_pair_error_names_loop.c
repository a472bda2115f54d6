/* all targets.  Needs PETSc.
 *
 * A loop adds into a matrix through maps loomc cannot tell apart at
 * compile time (parameters with facts), and at run time they are not a
 * pair of the sparsity.  The error names the loop and its directive's
 * line, not a function of the generated code. */
#include <loom.h>
#include <stdio.h>

static void k(const double *w, double A[3][3]) { A[0][0] += *w; }

static void assemble(loom_set cells, loom_set nodes, loom_mat A LOOM_MAT_FACTS(nodes, nodes, 1, 1),
                     loom_map m LOOM_MAP_FACTS(cells, nodes, 3),
                     loom_dat w LOOM_DAT_FACTS(cells, 1, double)) {
#pragma loom par_loop(k) over(cells) args(read: w, inc: A[m, m])
}

int main(int argc, char **argv) {
  int tri[3] = {0, 1, 2}, rev[3] = {2, 1, 0};
  double one[1] = {1.0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set cells = loom_decl_set(1, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_map c2nb = loom_decl_map(cells, nodes, 3, rev, "c2nb");
  loom_dat w = loom_decl_dat(cells, 1, double, one, "w");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
  assemble(cells, nodes, A, c2nb, w);
  printf("not reached\n");
  loom_exit();
  return 0;
}
