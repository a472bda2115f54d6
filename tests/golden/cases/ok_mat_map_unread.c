/* A loop whose only use of its map is a matrix argument: the runtime
 * reads the map's entries, the loop's code does not (no unused map
 * pointer, which -Werror would reject). */
#include <loom.h>

static void diag(const double *w, double *A) {
  A[0] += *w;
  A[3] += *w;
}

int main(int argc, char **argv) {
  double wt[2] = {1.0, 2.0};
  int edge_nodes[4] = {0, 1, 1, 2};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map e2n = loom_decl_map(edges, nodes, 2, edge_nodes, "e2n");
  loom_dat w = loom_decl_dat(edges, 1, double, wt, "w");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &e2n, &e2n, "sp");
  loom_mat A = loom_decl_mat(sp, "A");
#pragma loom par_loop(diag) over(edges) args(read: w, inc: A[e2n, e2n])
  loom_exit();
  return 0;
}
