/* Vectorization (vectorize.h): area reads its nodes through a map and does enough arithmetic per value: it is staged, so its group (area + scale) runs in strips, the nodes gathered per strip, t contracted into a strip array.  Not staged: flux increments through a map, norm reduces, copy does too little. */
#include <loom.h>
#include <math.h>

/* A triangle's area (Heron's formula) from its three nodes, weighted. */
static inline void area(const double *a, const double *b, const double *c,
                        const double *w, const int *id, double *t) {
  double ab = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]));
  double bc = sqrt((c[0] - b[0]) * (c[0] - b[0]) + (c[1] - b[1]) * (c[1] - b[1]));
  double ca = sqrt((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]));
  double s = 0.5 * (ab + bc + ca);
  t[0] = w[0] * sqrt(s * (s - ab) * (s - bc) * (s - ca)) + 1e-3 * *id;
}
static inline void scale(const double *t, double *y) { y[0] = 0.5 * t[0]; }
static inline void flux(const double *y1, const double *y2, double *r1, double *r2) {
  r1[0] += y1[0] - y2[0];
  r2[0] -= y1[0] - y2[0];
}
static inline void norm(const double *r, double *s) { *s += r[0] * r[0]; }
static inline void copy(const double *n, double *z) { z[0] = n[0]; }

int main(int argc, char **argv) {
  static double xy[8] = {0, 0, 1, 0, 1, 1, 0, 1};
  static double ones[4] = {1, 1, 1, 1};
  static const int c2n[6] = {0, 1, 2, 0, 2, 3};
  static const int e2c[2] = {0, 1};
  static const int c2c[2] = {1, 0};
  double s = 0.0;
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_set edges = loom_decl_set(1, "edges");
  loom_map cnode = loom_decl_map(cells, nodes, 3, c2n, "cnode");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_map cnext = loom_decl_map(cells, cells, 1, c2c, "cnext");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "x");
  loom_dat w = loom_decl_dat(cells, 1, double, ones, "w");
  loom_dat y = loom_decl_dat(cells, 1, double, ones, "y");
  loom_dat r = loom_decl_dat(cells, 1, double, ones, "r");
  loom_dat z = loom_decl_dat(cells, 1, double, ones, "z");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
#pragma loom par_loop(area) over(cells) \
    args(read: x[cnode[0]], x[cnode[1]], x[cnode[2]], w, idx, write: t)
#pragma loom par_loop(scale) over(cells) args(read: t, write: y)
#pragma loom par_loop(flux) over(edges) \
    args(read: y[ecell[0]], y[ecell[1]], inc: r[ecell[0]], r[ecell[1]])
#pragma loom par_loop(norm) over(cells) args(read: r[cnext[0]], inc: s)
#pragma loom par_loop(copy) over(cells) args(read: r[cnext[0]], write: z)
  loom_exit();
  return s > 0.0 ? 0 : 1;
}
