/* Temporaries: t1 and t2 (same set, dim and type) have disjoint lifetimes, so t2 reuses t1's storage; the fetch of y keeps copy from moving up to scale (they would fuse, and their temporaries live at once), and the second gather runs over cells, so that it does not fuse with the first. */
#include <loom.h>

static inline void copy(const double *x, double *y) { y[0] = x[0]; }
static inline void scale(const double *x, double *y) { y[0] = 2.0 * x[0]; }
static inline void add(const double *x, const double *y, double *z) { z[0] = x[0] + y[0]; }
static inline void gather(const double *a, const double *b, double *e) { e[0] = a[0] - b[0]; }
static inline void total(const double *x, double *s) { *s += x[0]; }

int main(int argc, char **argv) {
  static double data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const int e2c[6] = {0, 1, 1, 2, 2, 3};
  static const int c2c[4] = {1, 2, 3, 0};
  double s = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_map cnext = loom_decl_map(cells, cells, 1, c2c, "cnext");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_dat(cells, 1, double, data, "y");
  loom_dat z = loom_decl_dat(cells, 1, double, data, "z");
  loom_dat e = loom_decl_dat(edges, 1, double, data, "e");
  loom_dat t1 = loom_decl_temp(cells, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(cells, 1, double, "t2");
#pragma loom par_loop(scale) over(cells) args(read: x, write: t1)
#pragma loom par_loop(gather) over(edges) args(read: t1[ecell[0]], t1[ecell[1]], write: e)
  loom_dat_fetch(y, data, sizeof data / 2);
#pragma loom par_loop(copy) over(cells) args(read: y, write: t2)
#pragma loom par_loop(gather) over(cells) args(read: t2[cnext[0]], t2, write: z)
  (void)ecell, (void)cnext, (void)x, (void)y, (void)z, (void)e;
  loom_exit();
  return (int)s;
}
