/* Error (--target=mpi): a chain of pinned temporaries whose first producer
 * reads through a map, evaluated by a consumer reaching t1 through a map:
 * at halo elements k1 would read map rows no rank holds. */
#include <loom.h>
#include <stdio.h>

static void k1(const double *x, double *t0) { t0[0] = 2.0 * x[0]; }
static void k2(const double *t0, double *t1) { t1[0] = t0[0] + 1.0; }
static void k3(const double *a, const double *b, double *y) { y[0] = a[0] + 10.0 * b[0]; }

int main(int argc, char **argv) {
  static const int e2c[8] = {0, 1, 1, 2, 2, 3, 3, 0}, c2c[4] = {1, 2, 3, 0};
  static const double x0[4] = {1, 2, 3, 4};
  double out[4];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map ec = loom_decl_map(edges, cells, 2, e2c, "ec");
  loom_map cnext = loom_decl_map(cells, cells, 1, c2c, "cnext");
  loom_dat x = loom_decl_dat(cells, 1, double, x0, "x");
  loom_dat t0 = loom_decl_temp(cells, 1, double, "t0");
  loom_dat t1 = loom_decl_temp(cells, 1, double, "t1");
  loom_dat y = loom_decl_temp(edges, 1, double, "y");
#pragma loom pin(t0)
#pragma loom pin(t1)
#pragma loom par_loop(k1) over(cells) args(read: x[cnext[0]], write: t0)
#pragma loom par_loop(k2) over(cells) args(read: t0, write: t1)
#pragma loom par_loop(k3) over(edges) args(read: t1[ec[0]], t1[ec[1]], write: y)
  loom_dat_fetch(y, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  loom_exit();
  return 0;
}
