/*
 * Friction (not a bug): OP2's op_arg_idx(0, ppedge) -- the index of the
 * element an edge reaches through a map -- had no Loom form, and the natural
 * spelling got a parser message that did not say so (now `idx[map[i]]`,
 * the declared number of the element reached through slot i; this copy
 * prints what the kernel computes):
 *
 *   loomc friction_idx_through_map.c -o out.c
 *   friction_idx_through_map.c:21:57: error: expected ')', found '['
 *
 * (semantics.md: `idx` is the iteration index only.)  jac1's port reads an
 * int dat of node numbers through the map instead.
 */
#include <loom.h>
#include <stdio.h>
static void k(const int *e, const int *n0, double *x) { *x = *e + *n0; }
int main(int argc, char **argv) {
  int pp[4] = {0, 1, 1, 0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(2, "nodes");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map ppedge = loom_decl_map(edges, nodes, 2, pp, "ppedge");
  loom_dat x = loom_decl_temp(edges, 1, double, "x");
#pragma loom par_loop(k) over(edges) args(read: idx, idx[ppedge[0]], write: x)
  double out[2]; /* edge e + the node its slot 0 reaches: 0 + 0, 1 + 1 */
  loom_dat_fetch(x, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g\n", out[0], out[1]);
  loom_exit();
  return 0;
}
