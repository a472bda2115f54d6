/* Warning: a plain `inline` kernel (as in OP2's kernel headers, written
 * for C++): in C it is no external definition, so the program links only
 * where the C compiler inlines the call.  The loop is translated. */
#include <loom.h>

inline void dirichlet(double *res) { *res = 0.0; }

int main(int argc, char **argv) {
  static const int bnode[2] = {0, 2};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set bnodes = loom_decl_set(2, "bnodes");
  loom_map pbnodes = loom_decl_map(bnodes, nodes, 1, bnode, "pbnodes");
  loom_dat r = loom_decl_temp(nodes, 1, double, "r");
#pragma loom par_loop(dirichlet) over(bnodes) args(write: r[pbnodes[0]])
  loom_exit();
  return 0;
}
