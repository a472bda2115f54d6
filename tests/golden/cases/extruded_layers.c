/* Column loops fused layer by layer, and a temporary of the columns in a
 * local: grad's t is read only by flux, at the same cell, in the same
 * layer run, so it is never stored.  s is read a layer above (through
 * up): above starts a second run and s is stored; b, read by use in that
 * run, is stored too. */
#include <loom.h>

static void grad(const double *lo, const double *hi, double *t) { t[0] = hi[0] - lo[0]; }
static void flux(const double *t, const double *k, double *s) { s[0] = k[0] * t[0]; }
static void bed(const double *t, double *b) { b[0] = 2.0 * t[0]; }
static void above(const double *s0, const double *s1, double *d) { d[0] = s1[0] - s0[0]; }
static void use(const double *b, double *sum) { *sum += b[0]; }

int main(int argc, char **argv) {
  int c2n[4] = {0, 1, 1, 2};
  static double x[3 * 5], kk[2 * 4];
  double sum = 0.0;
  int layers = argc + 3;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map cn = loom_decl_map(cells, nodes, 2, c2n, "cn");
  loom_set cols = loom_decl_extruded_set(cells, layers, "cols");
  loom_set verts = loom_decl_extruded_set(nodes, layers + 1, "verts");
  loom_map cv = loom_decl_extruded_map(cols, verts, 2, cn, (const int[]){0, 1}, "cv");
  loom_map up = loom_decl_extruded_map(cols, cols, 2, NULL, (const int[]){0, 1}, "up");
  loom_dat px = loom_decl_dat(verts, 1, double, x, "px");
  loom_dat pk = loom_decl_dat(cols, 1, double, kk, "pk");
  loom_dat pd = loom_decl_dat(cols, 1, double, kk, "pd");
  loom_dat t = loom_decl_temp(cols, 1, double, "t");
  loom_dat s = loom_decl_temp(cols, 1, double, "s");
  loom_dat b = loom_decl_temp(cols, 1, double, "b");
#pragma loom par_loop(grad) over(cols) args(read: px[cv[0]], px[cv[1]], write: t)
#pragma loom par_loop(flux) over(cols) args(read: t, read: pk, write: s)
#pragma loom par_loop(bed) over(cols) region(bottom) args(read: t, write: b)
#pragma loom par_loop(above) over(cols) region(interior) args(read: s[up[0]], s[up[1]], write: pd)
#pragma loom par_loop(use) over(cols) args(read: b, inc: sum)
  loom_exit();
  return sum > 0.0 ? 0 : 1;
}
