/*
 * A stored temporary first written over some layers only: t2's producer
 * writes the top layer of each column, its consumer reads every layer,
 * where the others hold the zeros loom_decl_temp filled them with.  t2
 * once reused the storage of t1 (same set, dim and type, a lifetime that
 * ended before), so those layers read t1's values instead (found by the
 * differential tester, seed 102801).
 */
#include <loom.h>
#include <stdio.h>

static void copy2(const double *x, double *t, double *w) { t[0] = x[0]; w[0] = x[0]; }
static void use(const double *t, double *w) { w[0] += t[0]; }
static void top(const double *x, const double *k, double *t) { t[0] = k[0] * x[0]; }
static void plus(const double *t, double *z) { z[0] = t[0] + 1.0; }

int main(int argc, char **argv) {
  static double xs[6] = {1, 2, 3, 4, 5, 6}, ws[6], zs[6], out[6];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set cols = loom_decl_extruded_set(cells, 3, "cols");
  loom_dat x = loom_decl_dat(cols, 1, double, xs, "x");
  loom_dat w = loom_decl_dat(cols, 1, double, ws, "w");
  loom_dat z = loom_decl_dat(cols, 1, double, zs, "z");
  loom_dat t1 = loom_decl_temp(cols, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(cols, 1, double, "t2");
#pragma loom par_loop(copy2) over(cols) args(read: x, write: t1, write: w)
  loom_dat_fetch(w, out, sizeof out); /* use runs after it: t1 is stored */
#pragma loom par_loop(use) over(cols) args(read: t1, rw: w)
  loom_dat_fetch(w, out, sizeof out);
  double k = 5.0 * out[0]; /* top runs after it: not fused with use */
#pragma loom par_loop(top) over(cols) region(top) args(read: x, read: k, write: t2)
#pragma loom par_loop(plus) over(cols) args(read: t2, write: z)
  loom_dat_fetch(z, out, sizeof out);
  if (loom_rank() == 0) {
    for (int i = 0; i < 6; i++)
      printf("%g ", out[i]);
    printf("\n");
  }
  loom_dat_fetch(w, out, sizeof out);
  if (loom_rank() == 0) {
    for (int i = 0; i < 6; i++)
      printf("%g ", out[i]);
    printf("\n");
  }
  loom_exit();
  return 0;
}
