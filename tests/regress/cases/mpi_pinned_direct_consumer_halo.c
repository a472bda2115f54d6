/* mpi, mpi+openmp (LOOM_DIAG=1), any ranks.
 *
 * A loop that reads a pinned temporary directly evaluates its producer at
 * its own elements; the producer reads x through a map, so the consumer
 * needs x's halo although none of its own arguments goes through a map.
 * loomc ended that exchange in the consumer without a scheduled begin
 * (the DAG split only loops with an argument through a map): the rule is
 * that a loop's DAG has the exchanges its code ends (effects_halo_dats).
 *
 * Expected: "16 12 16 12", and 0 exchanges without a scheduled begin. */
#include <loom.h>
#include <stdio.h>
static inline void nb(const double *a, const double *b, double *t) { t[0] = a[0] + b[0]; }
static inline void use(const double *t, double *z) { z[0] = 2.0 * t[0]; }
static inline void setx(double *x) { x[0] += 1.0; }
int main(int argc, char **argv) {
  static double data[4] = {1, 2, 3, 4};
  static const int c2c[8] = {1, 3, 2, 0, 3, 1, 0, 2};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_map cnb = loom_decl_map(cells, cells, 2, c2c, "cnb");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat z = loom_decl_dat(cells, 1, double, data, "z");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
#pragma loom par_loop(setx) over(cells) args(rw: x)
#pragma loom pin(t)
#pragma loom par_loop(nb) over(cells) args(read: x[cnb[0]], x[cnb[1]], write: t)
#pragma loom par_loop(use) over(cells) args(read: t, write: z)
  double out[4];
  loom_dat_fetch(z, out, sizeof out);
  if (loom_rank() == 0) printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  loom_exit();
  return 0;
}
