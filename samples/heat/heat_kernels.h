/*
 * heat_kernels.h — the kernels of the heat-equation sample (heat.c):
 * u_t = Δu on the unit square, u = 0 on the boundary, with the exact
 * solution u = exp(-2π² t) sin(πx) sin(πy).
 *
 * P1 elements (samples/common/p1.h): on a triangle T the mass matrix is
 * |T|/12 (1 + δij) and the stiffness matrix |T| ∇φi·∇φj, each assembled
 * by a loop of its own; the L2 error at time t is integrated with Strang
 * and Fix's seven-point rule.
 */
#ifndef HEAT_KERNELS_H
#define HEAT_KERNELS_H

#include <math.h>

#include "../common/p1.h"

static inline double heat_u(double x, double y, double t) {
  const double pi = 3.14159265358979323846;
  return exp(-2.0 * pi * pi * t) * sin(pi * x) * sin(pi * y);
}

/* The element mass matrix. */
static inline void mass(const double *x0, const double *x1, const double *x2, double M[3][3]) {
  double g[3][2];
  const double area = 0.5 * p1_geometry(x0, x1, x2, g);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      M[i][j] += area / 12.0 * (i == j ? 2.0 : 1.0);
}

/* The element stiffness matrix (of -Δ). */
static inline void stiffness(const double *x0, const double *x1, const double *x2,
                             double K[3][3]) {
  double g[3][2];
  const double d = p1_geometry(x0, x1, x2, g);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      K[i][j] += (g[i][0] * g[j][0] + g[i][1] * g[j][1]) / (2.0 * d);
}

/* The initial value at a node: the exact solution at t = 0. */
static inline void initial(const double *x, double *u) { *u = heat_u(x[0], x[1], 0.0); }

/* ∫ (uh - u(t))² over the triangle (seven-point rule). */
static inline void l2_error(const double *x0, const double *x1, const double *x2, const double *u0,
                         const double *u1, const double *u2, const double *t, double *l2) {
  double g[3][2];
  const double area = 0.5 * p1_geometry(x0, x1, x2, g);
  double e2 = 0.0;
  for (int q = 0; q < 7; q++) {
    double l[3];
    const double wq = p1_rule7(q, l);
    const double px = l[0] * x0[0] + l[1] * x1[0] + l[2] * x2[0];
    const double py = l[0] * x0[1] + l[1] * x1[1] + l[2] * x2[1];
    const double e = l[0] * *u0 + l[1] * *u1 + l[2] * *u2 - heat_u(px, py, *t);
    e2 += wq * e * e;
  }
  *l2 += area * e2;
}

#endif
