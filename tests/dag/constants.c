/* OK: constants kernels read, declared with loom_decl_const (scalar by address, array by name); a host write to one between two loops, then its declaration again, orders the loops around it. */
#include <loom.h>
#include <stdio.h>

static double qinf[4] = {1, 2, 3, 4};
static double gam = 1.4;
static int steps = 3;

static void scale(const double *a, double *b) { b[0] = gam * a[0] + qinf[1] + steps; }

int main(int argc, char **argv) {
  double v[3] = {1, 2, 3}, out[3];
  loom_init(&argc, &argv);
  loom_decl_const(4, double, qinf, "qinf");
  loom_decl_const(1, double, &gam, "gam");
  loom_decl_const(1, int, &steps, "steps");
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat a = loom_decl_dat(cells, 1, double, v, "a");
  loom_dat b = loom_decl_temp(cells, 1, double, "b");
#pragma loom par_loop(scale) over(cells) args(read: a, write: b)
  gam = 2.0;
  loom_decl_const(1, double, &gam, "gam");
#pragma loom par_loop(scale) over(cells) args(read: b, write: a)
  loom_dat_fetch(a, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g\n", out[0], out[1], out[2]);
  loom_exit();
  return 0;
}
