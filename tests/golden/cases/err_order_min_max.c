/* Error: min and max of one dat through maps in one loop do not commute
 * with each other. */
#include <loom.h>

static void both(const double *a, double *v0, double *v1) {
  if (*a < *v0) *v0 = *a;
  if (*a > *v1) *v1 = *a;
}

int main(int argc, char **argv) {
  double xy[3] = {0.0, 0.5, 1.0};
  int edge_nodes[4] = {0, 1, 1, 2};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map pedge = loom_decl_map(edges, nodes, 2, edge_nodes, "pedge");
  loom_dat x = loom_decl_dat(nodes, 1, double, xy, "x");
  loom_dat len = loom_decl_temp(edges, 1, double, "len");

#pragma loom par_loop(both) over(edges) args(read: len, min: x[pedge[0]], max: x[pedge[1]])
  loom_exit();
  return 0;
}
