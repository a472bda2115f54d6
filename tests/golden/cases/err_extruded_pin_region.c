/* Error: a pinned temporary of the columns needs its producer over every layer its consumers read. */
#include <loom.h>

static void avg(const double *b0, const double *b1, const double *t0, const double *t1,
                double *q) {
  q[0] = 0.25 * (b0[0] + b1[0] + t0[0] + t1[0]);
}
static void diff(const double *below, const double *above, double *d) {
  d[0] = above[0] - below[0];
}
static void one(const double *a, double *q) { q[0] = a[0]; }
static void num(const int *i, double *q) { q[0] = *i; }

int main(int argc, char **argv) {
  int c2n[8] = {0, 1, 0, 1, 1, 2, 1, 2};
  double x[12] = {0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map cn = loom_decl_map(cells, nodes, 4, c2n, "cn");
  loom_set prisms = loom_decl_extruded_set(cells, 3, "prisms");
  loom_set lines = loom_decl_extruded_set(nodes, 4, "lines");
  loom_map pv = loom_decl_extruded_map(prisms, lines, 4, cn, (const int[]){0, 0, 1, 1}, "pv");
  loom_map up = loom_decl_extruded_map(prisms, prisms, 2, NULL, (const int[]){0, 1}, "up");
  loom_dat px = loom_decl_dat(lines, 1, double, x, "px");
  loom_dat pq = loom_decl_temp(prisms, 1, double, "pq");
  loom_dat pd = loom_decl_temp(prisms, 1, double, "pd");
#pragma loom pin(pq)
#pragma loom par_loop(avg) over(prisms) region(bottom) args(read: px[pv[0]], px[pv[1]], px[pv[2]], px[pv[3]], write: pq)
#pragma loom par_loop(one) over(prisms) args(read: pq, write: pd)
  loom_exit();
  return 0;
}
