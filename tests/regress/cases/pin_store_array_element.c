/* A store through the address of an element of a file-scope array
 * (memcpy(&c0[1], ...)) writes that array, not every variable: a pin whose
 * producer reads another file-scope variable (g0) stays legal across it
 * (difftest seed 205806: loomc took the store for one through an unknown
 * pointer and rejected the pin). */
#include <loom.h>
#include <stdio.h>
#include <string.h>

static int c0[3] = {8, 9, 10};
static double g0[1] = {4};

static void k1(const double *g, double *t) { t[0] = g[0]; }
static void k2(const double *t, double *s) { s[0] += t[0]; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(5, "cells");
  loom_dat t0 = loom_decl_temp(cells, 1, double, "t0");
  double sum = 0;
#pragma loom pin(t0)
#pragma loom par_loop(k1) over(cells) args(read: g0, write: t0)
  {
    const int v = 20;
    memcpy(&c0[1], &v, sizeof v);
  }
#pragma loom par_loop(k2) over(cells) args(read: t0, inc: sum)
  if (loom_rank() == 0)
    printf("%g %d\n", sum, c0[1]);
  loom_exit();
  return 0;
}
