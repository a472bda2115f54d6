/* pin along a column: g (a vertical gradient of the points' values) is
 * never stored; each consumer evaluates grad at the cell it reads, its
 * own.  With pin_cse(h) instead, h is computed once per cell, stored,
 * and its producer's loop stays apart. */
#include <loom.h>

static void grad(const double *lo, const double *hi, double *g) { g[0] = hi[0] - lo[0]; }
static void flux(const double *g, const double *k, double *s) { s[0] = k[0] * g[0]; }
static void mag(const double *g, double *h) { h[0] = g[0] * g[0]; }
static void total(const double *h, double *sum) { *sum += h[0]; }

int main(int argc, char **argv) {
  int c2n[4] = {0, 1, 1, 2};
  static double x[3 * 5], kk[2 * 4], ss[2 * 4];
  double sum = 0.0;
  int layers = argc + 3;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map cn = loom_decl_map(cells, nodes, 2, c2n, "cn");
  loom_set cols = loom_decl_extruded_set(cells, layers, "cols");
  loom_set verts = loom_decl_extruded_set(nodes, layers + 1, "verts");
  loom_map cv = loom_decl_extruded_map(cols, verts, 2, cn, (const int[]){0, 1}, "cv");
  loom_dat px = loom_decl_dat(verts, 1, double, x, "px");
  loom_dat pk = loom_decl_dat(cols, 1, double, kk, "pk");
  loom_dat ps = loom_decl_dat(cols, 1, double, ss, "ps");
  loom_dat g = loom_decl_temp(cols, 1, double, "g");
  loom_dat h = loom_decl_temp(cols, 1, double, "h");
#pragma loom pin(g)
#pragma loom pin_cse(h)
#pragma loom par_loop(grad) over(cols) args(read: px[cv[0]], px[cv[1]], write: g)
#pragma loom par_loop(flux) over(cols) args(read: g, read: pk, write: ps)
#pragma loom par_loop(mag) over(cols) region(top) args(read: g, write: h)
#pragma loom par_loop(total) over(cols) region(top) args(read: h, inc: sum)
  loom_exit();
  return sum > 0.0 ? 0 : 1;
}
