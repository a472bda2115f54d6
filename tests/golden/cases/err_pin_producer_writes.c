/* Error: pin(t) where the producer also writes u: pinned, it would run
 * once per use, writing u only where a consumer reads t. */
#include <loom.h>
#include <stdio.h>

static void prod(const double *x, double *t, double *u) { t[0] = 10.0 + x[0]; u[0] = 2.0 * x[0]; }
static void cp(const double *t, double *z) { z[0] = t[0]; }

int main(int argc, char **argv) {
  static const int e2c[5] = {1, 1, 1, 1, 1};
  static const double x0[4] = {1, 2, 3, 4};
  double out[5], uo[4];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map ec = loom_decl_map(edges, cells, 1, e2c, "ec");
  loom_dat x = loom_decl_dat(cells, 1, double, x0, "x");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
  loom_dat u = loom_decl_temp(cells, 1, double, "u");
  loom_dat z = loom_decl_temp(edges, 1, double, "z");
#pragma loom pin(t)
#pragma loom par_loop(prod) over(cells) args(read: x, write: t, u)
#pragma loom par_loop(cp) over(edges) args(read: t[ec[0]], write: z)
  loom_dat_fetch(z, out, sizeof out);
  loom_dat_fetch(u, uo, sizeof uo);
  if (loom_rank() == 0) printf("z %g %g %g %g %g u %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4], uo[0], uo[1], uo[2], uo[3]);
  loom_exit();
  return 0;
}
