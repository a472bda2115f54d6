/*
 * prism_kernels.h — the kernels of the extruded heat sample (extruded.c)
 * and of its plain-C twin (extruded_ref.c): P1 finite elements on right
 * prisms over triangles, which are tensor products of a triangle's P1
 * and an interval's P1, so their matrices are products of the two small
 * ones (exact, no quadrature):
 *
 *   K(ia, jb) = Kt(i, j) Mz(a, b) + Mt(i, j) Kz(a, b)
 *
 * i, j the triangle's vertices, a, b the prism's bottom (0) and top (1);
 * Kt = area grad(l_i).grad(l_j), Mt = area (1 + [i == j]) / 12,
 * Kz = [[1, -1], [-1, 1]] / dz, Mz = dz [[2, 1], [1, 2]] / 6.  A prism's
 * vertices, in its map's slot order: the bottom triangle (0, 1, 2), then
 * the top one (3, 4, 5) over it.
 */
#ifndef LOOM_SAMPLES_PRISM_KERNELS_H
#define LOOM_SAMPLES_PRISM_KERNELS_H

#include <math.h>

#define PRISM_PI 3.14159265358979323846

/* The exact solution: exp(-3 pi^2 t) sin(pi x) sin(pi y) sin(pi z), zero
 * on the faces of the unit cube. */
static inline double prism_exact(const double *x, double t) {
  return exp(-3.0 * PRISM_PI * PRISM_PI * t) * sin(PRISM_PI * x[0]) * sin(PRISM_PI * x[1]) *
         sin(PRISM_PI * x[2]);
}

/* The bottom triangle's area, the gradients of its barycentric
 * coordinates (g[2 i], g[2 i + 1]) and the prism's height. */
static inline double prism_geometry(const double *const x[6], double g[6], double *dz) {
  const double ax = x[1][0] - x[0][0], ay = x[1][1] - x[0][1];
  const double bx = x[2][0] - x[0][0], by = x[2][1] - x[0][1];
  const double det = ax * by - bx * ay; /* twice the signed area */
  g[0] = (x[1][1] - x[2][1]) / det, g[1] = (x[2][0] - x[1][0]) / det;
  g[2] = (x[2][1] - x[0][1]) / det, g[3] = (x[0][0] - x[2][0]) / det;
  g[4] = (x[0][1] - x[1][1]) / det, g[5] = (x[1][0] - x[0][0]) / det;
  *dz = x[3][2] - x[0][2];
  return 0.5 * fabs(det);
}

/* The lumped mass: a sixth of the prism's volume to each vertex. */
static void prism_mass(const double *x[6], double *m[6]) {
  double g[6], dz;
  const double share = prism_geometry(x, g, &dz) * dz / 6.0;
  for (int v = 0; v < 6; v++)
    m[v][0] += share;
}

/* r += K u, the prism's stiffness matrix times its vertices' values. */
static void prism_stiffness(const double *x[6], const double *u[6], double *r[6]) {
  double g[6], dz;
  const double area = prism_geometry(x, g, &dz);
  for (int i = 0; i < 3; i++)
    for (int a = 0; a < 2; a++) {
      double sum = 0.0;
      for (int j = 0; j < 3; j++) {
        const double kt = area * (g[2 * i] * g[2 * j] + g[2 * i + 1] * g[2 * j + 1]);
        const double mt = area * (i == j ? 2.0 : 1.0) / 12.0;
        for (int b = 0; b < 2; b++) {
          const double mz = dz * (a == b ? 2.0 : 1.0) / 6.0;
          const double kz = (a == b ? 1.0 : -1.0) / dz;
          sum += (kt * mz + mt * kz) * u[3 * b + j][0];
        }
      }
      r[3 * a + i][0] += sum;
    }
}

/* An explicit Euler step of M du/dt = -K u at a vertex, with the lumped
 * mass; a vertex on the boundary keeps its value (zero). */
static void prism_step(const double *r, const double *m, const int *boundary,
                       const double *dt, double *u) {
  if (!*boundary)
    u[0] -= *dt * r[0] / m[0];
}

static void prism_zero(double *r) { r[0] = 0.0; }
static void prism_mark(int *boundary) { *boundary = 1; }

/* The error against the exact solution at time t: its square weighted by
 * the lumped mass (the discrete L2 norm's), and its largest size. */
static void prism_error(const double *u, const double *x, const double *m, const double *t,
                        double *l2, double *largest) {
  const double e = u[0] - prism_exact(x, *t);
  *l2 += m[0] * e * e;
  *largest = fmax(*largest, fabs(e));
}

#endif
