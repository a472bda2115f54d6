/* loom_decl_const: a constant with a different value on each rank is an
 * error on every rank (the default handler ends the job), at its
 * declaration, before any loop runs. */
#include <loom.h>
#include <stdio.h>

static double gam = 1.4;

static void scale(const double *a, double *b) { b[0] = gam * a[0]; }

int main(int argc, char **argv) {
  double v[3] = {1, 2, 3}, out[3];
  loom_init(&argc, &argv);
  gam += loom_rank(); /* not the same everywhere */
  loom_decl_const(1, double, &gam, "gam");
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat a = loom_decl_dat(cells, 1, double, v, "a");
  loom_dat b = loom_decl_temp(cells, 1, double, "b");
#pragma loom par_loop(scale) over(cells) args(read: a, write: b)
  loom_dat_fetch(b, out, sizeof out);
  printf("%g %g %g\n", out[0], out[1], out[2]);
  loom_exit();
  return 0;
}
