/*
 * airfoil_kernels.h — the constants and the five kernels of the Airfoil
 * benchmark (non-linear 2D inviscid flow around an airfoil: finite volume,
 * predictor/corrector time marching), after OP2's apps/c/airfoil.
 *
 * Both the plain-C baseline (airfoil_ref.c) and the Loom version include
 * this header, so both run the same arithmetic.  To reproduce OP2's
 * published rms table digit for digit, the floating-point operations are
 * written in OP2's order, and the literals are float literals exactly as in
 * OP2 (0.5f, 1.0f, ...): they are exact in float, so promoting them to
 * double changes nothing, but the constants 1.4f, 0.9f, 0.05f and 0.4f are
 * NOT exact and their float roundings are part of the reference results.
 *
 * The constants are file-scope and set once by airfoil_set_constants()
 * before any loop runs; kernels only read them (a kernel must never write a
 * file-scope variable: Loom treats those as constants).  Each file that
 * includes this header has its own copy, unless AIRFOIL_CONSTANTS_EXTERN is
 * defined first: then they are declared extern, for a program of several
 * files that defines them once (samples/airfoil-modular/mesh.c).
 *
 * Kernel arguments, per element of the loop's set:
 *   x*   node coordinates (2 doubles)     q, qold, res  cell states (4)
 *   adt  cell area / timestep (1)         bound  boundary kind (1 int:
 *                                                1 = airfoil wall, else far field)
 */
#ifndef AIRFOIL_KERNELS_H
#define AIRFOIL_KERNELS_H

#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#define AIRFOIL_MAYBE_UNUSED __attribute__((unused))
#else
#define AIRFOIL_MAYBE_UNUSED
#endif

/* ---- constants --------------------------------------------------------- */

#ifdef AIRFOIL_CONSTANTS_EXTERN
extern double gam, gm1, cfl, eps, mach, alpha, qinf[4];
#else
static double gam, gm1, cfl, eps, mach, alpha, qinf[4];
#endif

/* Sets the constants: ratio of specific heats, CFL number, dissipation
 * coefficient, free-stream Mach number and angle of attack (unused by the
 * kernels, kept for fidelity), and the free-stream state qinf
 * (density, x-momentum, y-momentum, energy) for p = r = 1. */
AIRFOIL_MAYBE_UNUSED static void airfoil_set_constants(void) {
  gam = 1.4f;
  gm1 = gam - 1.0f;
  cfl = 0.9f;
  eps = 0.05f;
  mach = 0.4f;
  alpha = 3.0f * atan(1.0f) / 45.0f;

  double p = 1.0f;
  double r = 1.0f;
  double u = sqrt(gam * p / r) * mach;
  double e = p / (r * gm1) + 0.5f * u * u;

  qinf[0] = r;
  qinf[1] = r * u;
  qinf[2] = 0.0f;
  qinf[3] = r * e;
}

/* ---- kernels ----------------------------------------------------------- */

/* Over cells: keep the state at the start of the time step. */
static inline void save_soln(const double *q, double *qold) {
  for (int n = 0; n < 4; n++)
    qold[n] = q[n];
}

/* Over cells (x1..x4 through the cell's four nodes): the local area /
 * timestep: for each side in turn (x1->x2, x2->x3, x3->x4, x4->x1) the
 * convective plus acoustic speed times the side's length, summed and
 * divided by cfl. */
static inline void adt_calc(const double *x1, const double *x2,
                            const double *x3, const double *x4,
                            const double *q, double *adt) {
  double dx, dy, ri, u, v, c;

  ri = 1.0f / q[0];
  u = ri * q[1];
  v = ri * q[2];
  c = sqrt(gam * gm1 * (ri * q[3] - 0.5f * (u * u + v * v)));

  dx = x2[0] - x1[0];
  dy = x2[1] - x1[1];
  *adt = fabs(u * dy - v * dx) + c * sqrt(dx * dx + dy * dy);

  dx = x3[0] - x2[0];
  dy = x3[1] - x2[1];
  *adt += fabs(u * dy - v * dx) + c * sqrt(dx * dx + dy * dy);

  dx = x4[0] - x3[0];
  dy = x4[1] - x3[1];
  *adt += fabs(u * dy - v * dx) + c * sqrt(dx * dx + dy * dy);

  dx = x1[0] - x4[0];
  dy = x1[1] - x4[1];
  *adt += fabs(u * dy - v * dx) + c * sqrt(dx * dx + dy * dy);

  *adt = (*adt) / cfl;
}

/* Over interior edges (x1, x2 its nodes; q1, adt1, res1 and q2, adt2, res2
 * its two cells): the flux across the edge with scalar dissipation, added
 * to the first cell's residual and subtracted from the second's. */
static inline void res_calc(const double *x1, const double *x2,
                            const double *q1, const double *q2,
                            const double *adt1, const double *adt2,
                            double *res1, double *res2) {
  double dx = x1[0] - x2[0];
  double dy = x1[1] - x2[1];

  double ri = 1.0f / q1[0];
  double p1 = gm1 * (q1[3] - 0.5f * ri * (q1[1] * q1[1] + q1[2] * q1[2]));
  double vol1 = ri * (q1[1] * dy - q1[2] * dx);

  ri = 1.0f / q2[0];
  double p2 = gm1 * (q2[3] - 0.5f * ri * (q2[1] * q2[1] + q2[2] * q2[2]));
  double vol2 = ri * (q2[1] * dy - q2[2] * dx);

  double mu = 0.5f * ((*adt1) + (*adt2)) * eps;
  double f;

  f = 0.5f * (vol1 * q1[0] + vol2 * q2[0]) + mu * (q1[0] - q2[0]);
  res1[0] += f;
  res2[0] -= f;
  f = 0.5f * (vol1 * q1[1] + p1 * dy + vol2 * q2[1] + p2 * dy) +
      mu * (q1[1] - q2[1]);
  res1[1] += f;
  res2[1] -= f;
  f = 0.5f * (vol1 * q1[2] - p1 * dx + vol2 * q2[2] - p2 * dx) +
      mu * (q1[2] - q2[2]);
  res1[2] += f;
  res2[2] -= f;
  f = 0.5f * (vol1 * (q1[3] + p1) + vol2 * (q2[3] + p2)) +
      mu * (q1[3] - q2[3]);
  res1[3] += f;
  res2[3] -= f;
}

/* Over boundary edges (x1, x2 its nodes; q1, adt1, res1 its cell): on the
 * airfoil (bound 1) only the pressure force; elsewhere the flux against the
 * free stream qinf, with dissipation. */
static inline void bres_calc(const double *x1, const double *x2,
                             const double *q1, const double *adt1,
                             double *res1, const int *bound) {
  double dx = x1[0] - x2[0];
  double dy = x1[1] - x2[1];

  double ri = 1.0f / q1[0];
  double p1 = gm1 * (q1[3] - 0.5f * ri * (q1[1] * q1[1] + q1[2] * q1[2]));

  if (*bound == 1) {
    res1[1] += +p1 * dy;
    res1[2] += -p1 * dx;
  } else {
    double vol1 = ri * (q1[1] * dy - q1[2] * dx);

    ri = 1.0f / qinf[0];
    double p2 =
        gm1 * (qinf[3] - 0.5f * ri * (qinf[1] * qinf[1] + qinf[2] * qinf[2]));
    double vol2 = ri * (qinf[1] * dy - qinf[2] * dx);

    double mu = (*adt1) * eps;
    double f;

    f = 0.5f * (vol1 * q1[0] + vol2 * qinf[0]) + mu * (q1[0] - qinf[0]);
    res1[0] += f;
    f = 0.5f * (vol1 * q1[1] + p1 * dy + vol2 * qinf[1] + p2 * dy) +
        mu * (q1[1] - qinf[1]);
    res1[1] += f;
    f = 0.5f * (vol1 * q1[2] - p1 * dx + vol2 * qinf[2] - p2 * dx) +
        mu * (q1[2] - qinf[2]);
    res1[2] += f;
    f = 0.5f * (vol1 * (q1[3] + p1) + vol2 * (qinf[3] + p2)) +
        mu * (q1[3] - qinf[3]);
    res1[3] += f;
  }
}

/* Over cells: q = qold - res / adt, residual reset to zero, and the sum of
 * squared changes accumulated into *rms (a global reduction). */
static inline void update(const double *qold, double *q, double *res,
                          const double *adt, double *rms) {
  double adti = 1.0f / (*adt);

  for (int n = 0; n < 4; n++) {
    double del = adti * res[n];
    q[n] = qold[n] - del;
    res[n] = 0.0f;
    *rms += del * del;
  }
}

#endif /* AIRFOIL_KERNELS_H */
