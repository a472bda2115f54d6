/* OK: line splices inside a kernel's tokens (a name, an operator, a
 * number): loomc reads the kernel's operators off its tokens, whose ends
 * it takes from the file's text where the text is their spelling, and
 * from libclang where a splice makes it differ.  The operations counted
 * (loom__loop_traffic's last argument: 3, a -, a * and a +=) are those of
 * the same kernel written without splices. */
#include <loom.h>

static void edge_len(const double *x1, const double *x2, double *len) {
  len[0] = x\
2[0] -\
 x1[0] * x1[1\
0 - 10];
  len[0] +\
= 1.0;
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
#pragma loom par_loop(edge_len) over(edges) args(read: x[pedge[0]], x[pedge[1]], write: len)
  loom_exit();
  return 0;
}
