/* Vectorization of increments through maps (vectorize.h): flux reads its
 * cells through a map, does enough arithmetic per value and increments
 * its cells through the map: it is staged, its increments taken per
 * element in a strip local from 0 and added to r after the strip's
 * kernels, in element order.  Not staged: relax increments r through a
 * map and directly (deferring one would reorder the additions);
 * lift takes the maximum through a map (only increments are deferred);
 * twice increments r1[0] twice per element (summed from 0 in a local, then
 * added, it would round otherwise than added in place).  Staged: branch,
 * which increments each component once on each path of its if. */
#include <loom.h>
#include <math.h>

static inline void flux(const double *y1, const double *y2, const double *n,
                        double *r1, double *r2) {
  double d = sqrt(y1[0] * y1[0] + n[0] * n[0]) - sqrt(y2[0] * y2[0] + n[1] * n[1]);
  double f = d * exp(-0.5 * (y1[1] + y2[1])) / (1.0 + fabs(n[0] - n[1]));
  f = f * (1.0 + 0.25 * f * f) / (1.0 + 0.5 * f * f + 0.125 * f * f * f * f);
  r1[0] += f;
  r1[1] += f * y1[1];
  r2[0] -= f;
  r2[1] -= f * y2[1];
}
static inline void relax(const double *y, double *r0, double *r1) {
  double g = sqrt(y[0] * y[0] + y[1] * y[1] + 1.0) * exp(-y[0] * y[1]) / (1.0 + y[0] * y[0]);
  g = g * (2.0 - g) + log(1.0 + g * g) - 0.5 * g * g * g + 0.25 * y[0] - 0.125 * y[1];
  r0[0] += g;
  r1[1] += g * g;
}
static inline void lift(const double *y, double *m) {
  double v = sqrt(y[0] * y[0] + y[1] * y[1]) * exp(-y[1]) + log(1.0 + y[0] * y[0]);
  if (v > m[0])
    m[0] = v;
}

static inline void twice(const double *y1, const double *y2, double *r1, double *r2) {
  double a = sqrt(y1[0] * y1[0] + y2[0] * y2[0] + 1.0) * exp(-0.5 * (y1[1] + y2[1]));
  double b = log(1.0 + a * a) / (1.0 + fabs(y1[0] - y2[0])) + 0.25 * a * a * a;
  r1[0] += a;
  r1[0] += b * y1[1];
  r2[0] -= a + b;
}
static inline void branch(const double *y1, const double *y2, double *r1, double *r2) {
  double a = sqrt(y1[0] * y1[0] + y2[0] * y2[0] + 1.0) * exp(-0.5 * (y1[1] + y2[1]));
  double b = log(1.0 + a * a) / (1.0 + fabs(y1[0] - y2[0])) + 0.25 * a * a * a;
  b = b * (1.0 + 0.25 * b * b) / (1.0 + 0.5 * a * b + 0.125 * a * a * b * b);
  if (a > b) {
    r1[0] += a;
    r2[1] -= b;
  } else {
    r1[0] += b;
    r1[1] += a * b;
  }
  r2[0] -= a - b;
}

int main(int argc, char **argv) {
  static double yv[6] = {1, 0.5, 2, 0.25, 3, 0.125};
  static double nv[4] = {0.5, 1.5, 2.5, 3.5};
  static const int e2c[4] = {0, 1, 1, 2};
  static const int c2c[3] = {1, 2, 0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set edges = loom_decl_set(2, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_map cnext = loom_decl_map(cells, cells, 1, c2c, "cnext");
  loom_dat y = loom_decl_dat(cells, 2, double, yv, "y");
  loom_dat n = loom_decl_dat(edges, 2, double, nv, "n");
  loom_dat r = loom_decl_temp(cells, 2, double, "r");
  loom_dat m = loom_decl_temp(cells, 1, double, "m");
#pragma loom par_loop(flux) over(edges) \
    args(read: y[ecell[0]], y[ecell[1]], n, inc: r[ecell[0]], r[ecell[1]])
#pragma loom par_loop(relax) over(cells) args(read: y, inc: r, r[cnext[0]])
#pragma loom par_loop(twice) over(edges) \
    args(read: y[ecell[0]], y[ecell[1]], inc: r[ecell[0]], r[ecell[1]])
#pragma loom par_loop(branch) over(edges) \
    args(read: y[ecell[0]], y[ecell[1]], inc: r[ecell[0]], r[ecell[1]])
#pragma loom par_loop(lift) over(edges) args(read: y[ecell[0]], max: m[ecell[1]])
  double out[6], top[3];
  loom_dat_fetch(r, out, sizeof out);
  loom_dat_fetch(m, top, sizeof top);
  loom_exit();
  return out[0] + top[0] > 0.0 ? 0 : 1;
}
