/* A staged loop's increments through maps are added to their rows after
 * the strip's kernels, in element order: a row of a type and size loom.h
 * has a vector type for (float x 4, int x 8) with one LOOM__ADD_ROW, any
 * other (double x 3) component by component. */
#include <loom.h>
#include <math.h>

static inline void spread(const double *y1, const double *y2, float *a1, float *a2,
                          double *b1, double *b2, int *c1, int *c2) {
  double d = sqrt(y1[0] * y1[0] + y2[0] * y2[0] + 1.0) * exp(-0.5 * (y1[1] + y2[1]));
  double e = log(1.0 + d * d) / (1.0 + fabs(y1[0] - y2[0])) + 0.25 * d * d * d;
  e = e * (1.0 + 0.25 * e * e) / (1.0 + 0.5 * d * e + 0.125 * d * d * e * e);
  a1[0] += (float)(d * 1);
  a2[0] -= (float)(e * 1);
  a1[1] += (float)(d * 2);
  a2[1] -= (float)(e * 2);
  a1[2] += (float)(d * 3);
  a2[2] -= (float)(e * 3);
  a1[3] += (float)(d * 4);
  a2[3] -= (float)(e * 4);
  b1[0] += d + 0;
  b2[0] -= e - 0;
  b1[1] += d + 1;
  b2[1] -= e - 1;
  b1[2] += d + 2;
  b2[2] -= e - 2;
  c1[0] += 0;
  c2[0] -= 0;
  c1[1] += 1;
  c2[1] -= 2;
  c1[2] += 2;
  c2[2] -= 4;
  c1[3] += 3;
  c2[3] -= 6;
  c1[4] += 4;
  c2[4] -= 8;
  c1[5] += 5;
  c2[5] -= 10;
  c1[6] += 6;
  c2[6] -= 12;
  c1[7] += 7;
  c2[7] -= 14;
}

int main(int argc, char **argv) {
  static double yv[6] = {1, 0.5, 2, 0.25, 3, 0.125};
  static const int e2c[4] = {0, 1, 1, 2};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat y = loom_decl_dat(cells, 2, double, yv, "y");
  loom_dat a = loom_decl_temp(cells, 4, float, "a");
  loom_dat b = loom_decl_temp(cells, 3, double, "b");
  loom_dat c = loom_decl_temp(cells, 8, int, "c");
#pragma loom par_loop(spread) over(edges) \
    args(read: y[ecell[0]], y[ecell[1]], inc: a[ecell[0]], a[ecell[1]], b[ecell[0]], b[ecell[1]], c[ecell[0]], c[ecell[1]])
  float av[12];
  double bv[9];
  int cv[24];
  loom_dat_fetch(a, av, sizeof av);
  loom_dat_fetch(b, bv, sizeof bv);
  loom_dat_fetch(c, cv, sizeof cv);
  loom_exit();
  return av[0] + bv[0] + cv[0] > 0.0 ? 0 : 1;
}
