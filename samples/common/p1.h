/*
 * p1.h — P1 triangles, for the finite-element samples' kernels (poisson,
 * heat): the basis functions' gradients and Strang and Fix's seven-point
 * quadrature rule.
 *
 * On a triangle with vertices x0, x1, x2 (counter-clockwise) the P1
 * basis functions have constant gradients: g[i] / d, where d is twice the
 * triangle's area.
 */
#ifndef LOOM_SAMPLES_P1_H
#define LOOM_SAMPLES_P1_H

/* Twice the signed area, and the basis functions' gradients times it. */
static inline double p1_geometry(const double *x0, const double *x1, const double *x2,
                                 double g[3][2]) {
  const double d = (x1[0] - x0[0]) * (x2[1] - x0[1]) - (x2[0] - x0[0]) * (x1[1] - x0[1]);
  g[0][0] = x1[1] - x2[1], g[0][1] = x2[0] - x1[0];
  g[1][0] = x2[1] - x0[1], g[1][1] = x0[0] - x2[0];
  g[2][0] = x0[1] - x1[1], g[2][1] = x1[0] - x0[0];
  return d;
}

/* Strang and Fix's seven-point rule (exact for polynomials of degree 5):
 * point q's barycentric coordinates into l, and its weight (the weights
 * sum to 1: multiply by the area). */
static inline double p1_rule7(int q, double l[3]) {
  static const double a = 0.470142064105115, b = 0.101286507323456;
  static const double bary[7][3] = {{1.0 / 3, 1.0 / 3, 1.0 / 3},
                                    {a, a, 1 - 2 * a}, {a, 1 - 2 * a, a}, {1 - 2 * a, a, a},
                                    {b, b, 1 - 2 * b}, {b, 1 - 2 * b, b}, {1 - 2 * b, b, b}};
  static const double w[7] = {0.225, 0.132394152788506, 0.132394152788506, 0.132394152788506,
                              0.125939180544827, 0.125939180544827, 0.125939180544827};
  l[0] = bary[q][0], l[1] = bary[q][1], l[2] = bary[q][2];
  return w[q];
}

#endif
