/* OK: line continuations with no blank after them, right before a token: a
 * '(' , a ',' and a map slot.  libclang starts such a token at the backslash
 * and spells it with the continuation ("\\\n(" for '('); loomc must see the
 * token alone, where it stands. */
#include <loom.h>

static void edge_len(const double *x1, const double *x2, double *len) {
  len[0] = x2[0] - x1[0];
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
#pragma loom par_loop(edge_len) over(edges) args\
(read: x[pedge[\
0]]\
, x[pedge[1]], write:\
len)
  loom_exit();
  return 0;
}
