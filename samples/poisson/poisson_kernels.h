/*
 * poisson_kernels.h — the kernels of the P1 finite-element sample
 * (poisson.c): -Δu + u = f on the unit square, u = cos(2πx) cos(2πy), so
 * f = (8π² + 1) u and ∂u/∂n = 0 on the boundary (the natural condition).
 *
 * On a triangle with vertices x0, x1, x2 (counter-clockwise) and area |T|,
 * the P1 basis functions have constant gradients (samples/common/p1.h);
 * the element matrix is the stiffness |T| ∇φi·∇φj plus the mass |T|/12
 * (1 + δij), and the load is integrated with the three-point edge-midpoint
 * rule (exact for quadratics).  The errors use Strang and Fix's
 * seven-point rule (exact for polynomials of degree 5; p1.h).
 */
#ifndef POISSON_KERNELS_H
#define POISSON_KERNELS_H

#include <math.h>

#include "../common/p1.h"

static inline double poisson_u(double x, double y) {
  const double pi = 3.14159265358979323846;
  return cos(2.0 * pi * x) * cos(2.0 * pi * y);
}

static inline void poisson_grad_u(double x, double y, double g[2]) {
  const double pi = 3.14159265358979323846;
  g[0] = -2.0 * pi * sin(2.0 * pi * x) * cos(2.0 * pi * y);
  g[1] = -2.0 * pi * cos(2.0 * pi * x) * sin(2.0 * pi * y);
}

static inline double poisson_f(double x, double y) {
  const double pi = 3.14159265358979323846;
  return (8.0 * pi * pi + 1.0) * poisson_u(x, y);
}

/* The element matrix of -Δ + 1. */
static inline void helmholtz(const double *x0, const double *x1, const double *x2, double A[3][3]) {
  double g[3][2];
  const double d = p1_geometry(x0, x1, x2, g), area = 0.5 * d;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] += (g[i][0] * g[j][0] + g[i][1] * g[j][1]) / (2.0 * d) +
                 area / 12.0 * (i == j ? 2.0 : 1.0);
}

/* The load: ∫ f φi over the triangle, by the edge-midpoint rule. */
static inline void load(const double *x0, const double *x1, const double *x2, double *b0, double *b1,
                 double *b2) {
  const double *v[3] = {x0, x1, x2};
  double g[3][2];
  const double area = 0.5 * p1_geometry(x0, x1, x2, g);
  double *b[3] = {b0, b1, b2};
  for (int k = 0; k < 3; k++) { /* the midpoint of the edge opposite vertex k */
    const double *p = v[(k + 1) % 3], *q = v[(k + 2) % 3];
    const double fm = poisson_f(0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1]));
    for (int i = 0; i < 3; i++) /* φi there: 1/2 on the edge's two vertices */
      *b[i] += area / 3.0 * fm * (i == k ? 0.0 : 0.5);
  }
}

/* The exact solution at a node (Dirichlet values, the initial guess). */
static inline void exact(const double *x, double *u) { *u = poisson_u(x[0], x[1]); }

/* ∫ (uh - u)² and ∫ |∇uh - ∇u|² over the triangle (seven-point rule). */
static inline void errors(const double *x0, const double *x1, const double *x2, const double *u0,
                   const double *u1, const double *u2, double *l2, double *h1) {
  double g[3][2];
  const double d = p1_geometry(x0, x1, x2, g), area = 0.5 * d;
  const double uh[3] = {*u0, *u1, *u2};
  double guh[2] = {0.0, 0.0};
  for (int i = 0; i < 3; i++) {
    guh[0] += uh[i] * g[i][0] / d;
    guh[1] += uh[i] * g[i][1] / d;
  }
  double e0 = 0.0, e1 = 0.0;
  for (int q = 0; q < 7; q++) {
    double l[3];
    const double wq = p1_rule7(q, l);
    const double px = l[0] * x0[0] + l[1] * x1[0] + l[2] * x2[0];
    const double py = l[0] * x0[1] + l[1] * x1[1] + l[2] * x2[1];
    const double e = l[0] * uh[0] + l[1] * uh[1] + l[2] * uh[2] - poisson_u(px, py);
    double gu[2];
    poisson_grad_u(px, py, gu);
    e0 += wq * e * e;
    e1 += wq * ((guh[0] - gu[0]) * (guh[0] - gu[0]) + (guh[1] - gu[1]) * (guh[1] - gu[1]));
  }
  *l2 += area * e0;
  *h1 += area * e1;
}

#endif
