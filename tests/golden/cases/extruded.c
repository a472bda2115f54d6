/* An extruded mesh: prisms over 2 base cells (a column of `layers` each)
 * and the vertical lines over its 3 nodes.  pv reaches each prism's
 * bottom and top nodes (shifts 0 and 1), up a prism's own column one
 * layer on (the facets between layers: region(interior)).  All five fuse
 * by columns; avg, flip (the bottom layer) and spread layer by layer,
 * then jump (it reads the layer above) and lid. */
#include <loom.h>

static void avg(const double *b0, const double *b1, const double *t0, const double *t1,
                double *q) {
  q[0] = 0.25 * (b0[0] + b1[0] + t0[0] + t1[0]);
}
static void flip(double *q) { q[0] = -q[0]; }
static void spread(const double *q, double *v0, double *v1, double *w0, double *w1) {
  v0[0] += q[0];
  v1[0] += q[0];
  w0[0] += 0.5 * q[0];
  w1[0] += 0.5 * q[0];
}
static void jump(const double *below, const double *above, double *sum) {
  *sum += above[0] - below[0];
}
static void lid(const double *q, double *top) { *top += q[0]; }

int main(int argc, char **argv) {
  int c2n[8] = {0, 1, 0, 1, 1, 2, 1, 2};
  static double x[3 * 5];
  double sum = 0.0, top = 0.0;
  int layers = argc + 3;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map cn = loom_decl_map(cells, nodes, 4, c2n, "cn");
  loom_set prisms = loom_decl_extruded_set(cells, layers, "prisms");
  loom_set lines = loom_decl_extruded_set(nodes, layers + 1, "lines");
  static const int bottom_top[] = {0, 0, 1, 1};
  loom_map pv = loom_decl_extruded_map(prisms, lines, 4, cn, bottom_top, "pv");
  loom_map up = loom_decl_extruded_map(prisms, prisms, 2, NULL, (const int[]){0, 1}, "up");
  loom_dat px = loom_decl_dat(lines, 1, double, x, "px");
  loom_dat pw = loom_decl_dat(lines, 1, double, x, "pw");
  loom_dat pq = loom_decl_temp(prisms, 1, double, "pq");
#pragma loom par_loop(avg) over(prisms) \
    args(read: px[pv[0]], px[pv[1]], px[pv[2]], px[pv[3]], write: pq)
#pragma loom par_loop(flip) over(prisms) region(bottom) args(rw: pq)
#pragma loom par_loop(spread) over(prisms) \
    args(read: pq, inc: pw[pv[0]], pw[pv[1]], pw[pv[2]], pw[pv[3]])
#pragma loom par_loop(jump) over(prisms) region(interior) args(read: pq[up[0]], pq[up[1]], inc: sum)
#pragma loom par_loop(lid) over(prisms) region(top) args(read: pq, inc: top)
  loom_exit();
  return sum + top > 0.0 ? 0 : 1;
}
