/*
 * limiter_kernels.h — the kernels of the vertex-based slope limiter
 * (limiter.c, and limiter_ref.c, the plain-C baseline, call the same ones).
 *
 * A cell-centred scalar u on a triangle mesh is reconstructed linearly in
 * each cell, u + g . (x - c), with g the gradient of the P1 interpolant of
 * the nodal averages of u.  The limiter (Barth and Jespersen's, in its
 * vertex-based form after Kuzmin, 2010) scales g by the largest phi in
 * [0, 1] for which the reconstruction at each vertex v stays within
 * [umin(v), umax(v)], the least and greatest u of the cells around v: the
 * bounds are `min` and `max` through the cell-to-node map.
 */
#ifndef LIMITER_KERNELS_H
#define LIMITER_KERNELS_H

#include <math.h>

/* The initial field: a smooth wave with a jump across a wavy line. */
static inline double limiter_u0(double x, double y) {
  const double pi = 3.14159265358979323846;
  if (x < 0.5 + 0.1 * sin(2.0 * pi * y))
    return 1.0 + 0.5 * sin(2.0 * pi * x) * cos(2.0 * pi * y);
  return 0.2 * cos(pi * x * y);
}

static void centroid(const double *x0, const double *x1, const double *x2, double *c,
                     double *u) {
  c[0] = (x0[0] + x1[0] + x2[0]) / 3.0;
  c[1] = (x0[1] + x1[1] + x2[1]) / 3.0;
  *u = limiter_u0(c[0], c[1]);
}

/* Each node's bounds start empty, its average at zero. */
static void node_init(double *lo, double *hi, double *sum, double *count) {
  *lo = HUGE_VAL;
  *hi = -HUGE_VAL;
  *sum = 0.0;
  *count = 0.0;
}

static void bounds(const double *u, double *lo0, double *lo1, double *lo2, double *hi0,
                   double *hi1, double *hi2) {
  if (*u < *lo0) *lo0 = *u;
  if (*u < *lo1) *lo1 = *u;
  if (*u < *lo2) *lo2 = *u;
  if (*u > *hi0) *hi0 = *u;
  if (*u > *hi1) *hi1 = *u;
  if (*u > *hi2) *hi2 = *u;
}

static void nodal_sum(const double *u, double *s0, double *s1, double *s2, double *n0,
                      double *n1, double *n2) {
  *s0 += *u;
  *s1 += *u;
  *s2 += *u;
  *n0 += 1.0;
  *n1 += 1.0;
  *n2 += 1.0;
}

static void nodal_avg(const double *sum, const double *count, double *avg) {
  *avg = *sum / *count;
}

/* The gradient of the linear function through (x_i, a_i), i = 0, 1, 2. */
static void gradient(const double *x0, const double *x1, const double *x2, const double *a0,
                     const double *a1, const double *a2, double *g) {
  const double dx1 = x1[0] - x0[0], dy1 = x1[1] - x0[1];
  const double dx2 = x2[0] - x0[0], dy2 = x2[1] - x0[1];
  const double det = dx1 * dy2 - dx2 * dy1;
  const double da1 = *a1 - *a0, da2 = *a2 - *a0;
  g[0] = (da1 * dy2 - da2 * dy1) / det;
  g[1] = (dx1 * da2 - dx2 * da1) / det;
}

/* Barth-Jespersen's factor of one vertex. */
static inline double limiter_vertex(const double *x, const double *c, const double *g, double u,
                                    double lo, double hi) {
  const double d = g[0] * (x[0] - c[0]) + g[1] * (x[1] - c[1]);
  if (d > 1e-14)
    return fmin(1.0, (hi - u) / d);
  if (d < -1e-14)
    return fmin(1.0, (lo - u) / d);
  return 1.0;
}

static void limit(const double *x0, const double *x1, const double *x2, const double *lo0,
                  const double *lo1, const double *lo2, const double *hi0, const double *hi1,
                  const double *hi2, const double *c, const double *u, const double *g,
                  double *phi) {
  double p = limiter_vertex(x0, c, g, *u, *lo0, *hi0);
  p = fmin(p, limiter_vertex(x1, c, g, *u, *lo1, *hi1));
  p = fmin(p, limiter_vertex(x2, c, g, *u, *lo2, *hi2));
  *phi = fmax(0.0, p);
}

/* How far the limited reconstruction at vertex x leaves [lo, hi] (0 inside). */
static inline double limiter_excess(const double *x, const double *c, const double *g,
                                    double phi, double u, double lo, double hi) {
  const double v = u + phi * (g[0] * (x[0] - c[0]) + g[1] * (x[1] - c[1]));
  return v > hi ? v - hi : v < lo ? lo - v : 0.0;
}

/* The program's own check: the worst excess, the least phi and how many
 * cells are limited. */
static void check(const double *x0, const double *x1, const double *x2, const double *lo0,
                  const double *lo1, const double *lo2, const double *hi0, const double *hi1,
                  const double *hi2, const double *c, const double *u, const double *g,
                  const double *phi, double *excess, double *phimin, int *limited) {
  double e = limiter_excess(x0, c, g, *phi, *u, *lo0, *hi0);
  e = fmax(e, limiter_excess(x1, c, g, *phi, *u, *lo1, *hi1));
  e = fmax(e, limiter_excess(x2, c, g, *phi, *u, *lo2, *hi2));
  if (e > *excess) *excess = e;
  if (*phi < *phimin) *phimin = *phi;
  *limited += *phi < 1.0 - 1e-9;
}

#endif
