/* OK: indirect arguments dat[map[i]], read and inc, in an edge loop that
 * scatters a flux to the two cells of each edge (OP2's res_calc pattern). */
#include <loom.h>

static void flux(const double *xa, const double *xb, double *ra, double *rb) {
  double f = 0.5 * (xb[0] - xa[0]);
  ra[0] += f;
  rb[0] -= f;
}

int main(int argc, char **argv) {
  double xv[3] = {0.0, 1.0, 4.0};
  int edge_cells[4] = {0, 1, 1, 2};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, edge_cells, "ecell");
  loom_dat x = loom_decl_dat(cells, 1, double, xv, "x");
  loom_dat res = loom_decl_temp(cells, 1, double, "res");
#pragma loom par_loop(flux) over(edges) \
    args(read: x[ecell[0]], x[ecell[1]], inc: res[ecell[0]], res[ecell[1]])
  loom_exit();
  return 0;
}
