/* OK: dat[map[*]] passes all slots of a map as an array of pointers: the
 * kernel takes 'const double **' for read and 'double **' for inc. */
#include <loom.h>

static void centroid(const double **corner, double *c) {
  c[0] = 0.25 * (corner[0][0] + corner[1][0] + corner[2][0] + corner[3][0]);
  c[1] = 0.25 * (corner[0][1] + corner[1][1] + corner[2][1] + corner[3][1]);
}

static void spread(const double *w, double **corner) {
  for (int k = 0; k < 4; k++)
    corner[k][0] += 0.25 * w[0];
}

int main(int argc, char **argv) {
  double xy[8] = {0, 0, 1, 0, 1, 1, 0, 1};
  double wv[1] = {2.0};
  int quad[4] = {0, 1, 2, 3};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(1, "cells");
  loom_map pcell = loom_decl_map(cells, nodes, 4, quad, "pcell");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "x");
  loom_dat w = loom_decl_dat(cells, 1, double, wv, "w");
  loom_dat c = loom_decl_temp(cells, 2, double, "c");
  loom_dat acc = loom_decl_temp(nodes, 1, double, "acc");
#pragma loom par_loop(centroid) over(cells) args(read: x[pcell[*]], write: c)
#pragma loom par_loop(spread) over(cells) args(read: w, inc: acc[pcell[*]])
  loom_exit();
  return 0;
}
