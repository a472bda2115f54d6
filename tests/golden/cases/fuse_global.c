/* Global fusion (seed 001's soft fusion of siblings): zero(t2) moves up past the first assemble, which it does not touch, and fuses with zero(t1); the two assemblies over cells fuse; ratio cannot fuse with the zeros (the assemblies stand between), nor scale with ratio (ratio cannot move down past the fetch of p, and scale not up past the declaration of w it names); the last scale fuses with the first, which moves down past the fetch of u. */
#include <loom.h>

static inline void zero(double *t) { t[0] = 0.0; }
static inline void assemble(const double *x0, const double *x1, double *t0, double *t1) {
  t0[0] += x0[0] - x1[0];
  t1[0] += x1[0] - x0[0];
}
static inline void ratio(const double *a, const double *b, double *p) { p[0] += a[0] / (1.0 + b[0] * b[0]); }
static inline void scale(const double *p, double *w) { w[0] = 2.0 * p[0]; }

int main(int argc, char **argv) {
  static double data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const int c2n[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(3, "cells");
  loom_map pcell = loom_decl_map(cells, nodes, 2, c2n, "pcell");
  loom_dat x = loom_decl_dat(nodes, 1, double, data, "x");
  loom_dat p = loom_decl_dat(nodes, 1, double, data, "p");
  loom_dat u = loom_decl_dat(nodes, 1, double, data, "u");
  loom_dat t1 = loom_decl_temp(nodes, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(nodes, 1, double, "t2");
#pragma loom par_loop(zero) over(nodes) args(write: t1)
#pragma loom par_loop(assemble) over(cells) args(read: x[pcell[0]], x[pcell[1]], inc: t1[pcell[0]], t1[pcell[1]])
#pragma loom par_loop(zero) over(nodes) args(write: t2)
#pragma loom par_loop(assemble) over(cells) args(read: x[pcell[1]], x[pcell[0]], inc: t2[pcell[0]], t2[pcell[1]])
#pragma loom par_loop(ratio) over(nodes) args(read: t1, t2, rw: p)
  loom_dat_fetch(p, data, sizeof data / 2);
  loom_dat w = loom_decl_dat(nodes, 1, double, data, "w");
#pragma loom par_loop(scale) over(nodes) args(read: x, write: w)
  loom_dat_fetch(u, data, sizeof data / 2);
#pragma loom par_loop(scale) over(nodes) args(read: u, write: x)
  loom_exit();
  return 0;
}
