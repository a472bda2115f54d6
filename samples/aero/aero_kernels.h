/*
 * aero_kernels.h — the constants and the nine kernels of the aero
 * benchmark, after OP2's apps/c/aero: a steady potential flow around an
 * airfoil (a NACA0012 section in the complex square-root domain mesh,
 * samples/aero/naca_fem.c), finite elements on bilinear quadrilaterals.
 * Each outer (Newton) iteration assembles the residual and the element
 * stiffness matrices (res_calc), fixes the far-field nodes (dirichlet),
 * and solves the linear system with conjugate gradients, whose product
 * with the matrix (spMV) runs element by element from the stored 4x4
 * element matrices, never forming the global one.
 *
 * Both the Loom program (aero.c) and the plain-C baseline (aero_ref.c)
 * include this header, so both run the same arithmetic, in OP2's order:
 * the printed rms is OP2's own check (within 0.02% of 5.644214176463586e-7
 * after 20 iterations on the default mesh).
 *
 * The constants are file-scope and set once by aero_set_constants() before
 * any loop runs; kernels only read them.  Of OP2's constants only those the
 * kernels read are kept: gm1, gm1i, m2, and the 2x2 Gauss rule's weights
 * wtg2 and shape-function derivatives Ng2_xi (d/dxi then d/deta of the four
 * shape functions at each of the four points).
 *
 * Kernel arguments, per element of the loop's set:
 *   x*     node coordinates (2 doubles)      K  element matrix (16, row-major)
 *   phim*  node potential (1)                res*, v*, p*  node values (1)
 *   c, alpha, beta, rms  globals (1 double)
 */
#ifndef AERO_KERNELS_H
#define AERO_KERNELS_H

#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#define AERO_MAYBE_UNUSED __attribute__((unused))
#else
#define AERO_MAYBE_UNUSED
#endif

/* ---- constants --------------------------------------------------------- */

static double gm1, gm1i, m2, minf, wtg2[4], Ng2_xi[32];

/* Sets the constants: gas constants for gamma = 1.4, the free-stream Mach
 * number 0.1, and the Gauss rule at (1/2 -+ 1/(2 sqrt 3)) in each
 * direction, with OP2's literal values. */
AERO_MAYBE_UNUSED static void aero_set_constants(void) {
  static const double g1 = 0.788675134594813, g2 = 0.211324865405187;
  /* d/dxi of the shape functions (i,j) (i+1,j) (i,j+1) (i+1,j+1) at the
   * four points, then d/deta */
  static const double xi[32] = {
      -g1, g1,  -g2, g2,  -g1, g1,  -g2, g2,  -g2, g2,  -g1,
      g1,  -g2, g2,  -g1, g1,  -g1, -g2, g1,  g2,  -g2, -g1,
      g2,  g1,  -g1, -g2, g1,  g2,  -g2, -g1, g2,  g1};
  double gam = 1.4;
  gm1 = gam - 1.0;
  gm1i = 1.0 / gm1;
  for (int i = 0; i < 4; i++)
    wtg2[i] = 0.25;
  for (int i = 0; i < 32; i++)
    Ng2_xi[i] = xi[i];
  minf = 0.1;
  m2 = minf * minf;
}

/* ---- kernels ----------------------------------------------------------- */

/* Over cells (x0..x3, phim0..phim3 through the cell's four nodes): the
 * element stiffness matrix K of the linearised problem and the residual
 * rho grad(phi) . grad(N_j), added to the four nodes, by 2x2 Gauss
 * quadrature.  N_x holds dN/dx (first four) and dN/dy (last four), scaled
 * by the Jacobian's determinant until divided by it. */
static inline void res_calc(const double *x0, const double *x1,
                            const double *x2, const double *x3,
                            const double *phim0, const double *phim1,
                            const double *phim2, const double *phim3,
                            double *K, double *res0, double *res1,
                            double *res2, double *res3) {
  double x[4][2], phim[4];
  x[0][0] = x0[0];
  x[1][0] = x1[0];
  x[2][0] = x2[0];
  x[3][0] = x3[0];
  x[0][1] = x0[1];
  x[1][1] = x1[1];
  x[2][1] = x2[1];
  x[3][1] = x3[1];
  phim[0] = phim0[0];
  phim[1] = phim1[0];
  phim[2] = phim2[0];
  phim[3] = phim3[0];

  for (int j = 0; j < 16; j++)
    K[j] = 0;
  for (int i = 0; i < 4; i++) { /* each Gauss point */
    double det_x_xi = 0;
    double N_x[8];
    double a = 0;
    for (int m = 0; m < 4; m++)
      det_x_xi += Ng2_xi[4 * i + 16 + m] * x[m][1];
    for (int m = 0; m < 4; m++)
      N_x[m] = det_x_xi * Ng2_xi[4 * i + m];

    for (int m = 0; m < 4; m++)
      a += Ng2_xi[4 * i + m] * x[m][0];
    for (int m = 0; m < 4; m++)
      N_x[4 + m] = a * Ng2_xi[4 * i + 16 + m];
    det_x_xi *= a;

    a = 0;
    for (int m = 0; m < 4; m++)
      a += Ng2_xi[4 * i + m] * x[m][1];
    for (int m = 0; m < 4; m++)
      N_x[m] -= a * Ng2_xi[4 * i + 16 + m];

    double b = 0;
    for (int m = 0; m < 4; m++)
      b += Ng2_xi[4 * i + 16 + m] * x[m][0];
    for (int m = 0; m < 4; m++)
      N_x[4 + m] -= b * Ng2_xi[4 * i + m];
    det_x_xi -= a * b;

    for (int j = 0; j < 8; j++)
      N_x[j] /= det_x_xi;

    double wt1 = wtg2[i] * det_x_xi;
    double u[2] = {0.0, 0.0};
    for (int j = 0; j < 4; j++) {
      u[0] += N_x[j] * phim[j];
      u[1] += N_x[4 + j] * phim[j];
    }

    double Dk = 1.0 + 0.5 * gm1 * (m2 - (u[0] * u[0] + u[1] * u[1]));
    double rho = pow(Dk, gm1i);
    double rc2 = rho / Dk;

    res0[0] += wt1 * rho * (u[0] * N_x[0] + u[1] * N_x[4 + 0]);
    res1[0] += wt1 * rho * (u[0] * N_x[1] + u[1] * N_x[4 + 1]);
    res2[0] += wt1 * rho * (u[0] * N_x[2] + u[1] * N_x[4 + 2]);
    res3[0] += wt1 * rho * (u[0] * N_x[3] + u[1] * N_x[4 + 3]);

    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 4; k++)
        K[j * 4 + k] += wt1 * rho * (N_x[j] * N_x[k] + N_x[4 + j] * N_x[4 + k]) -
                        wt1 * rc2 * (u[0] * N_x[j] + u[1] * N_x[4 + j]) *
                            (u[0] * N_x[k] + u[1] * N_x[4 + k]);
  }
}

/* Over boundary nodes (through the map to nodes): a Dirichlet node's value
 * is 0. */
static inline void dirichlet(double *res) { *res = 0.0; }

/* Over cells: v += K p for the cell's four nodes, from the upper triangle
 * of the symmetric K, in OP2's order of operations. */
static inline void spMV(double *v0, double *v1, double *v2, double *v3,
                        const double *K, const double *p0, const double *p1,
                        const double *p2, const double *p3) {
  v0[0] += K[0] * p0[0];
  v0[0] += K[1] * p1[0];
  v1[0] += K[1] * p0[0];
  v0[0] += K[2] * p2[0];
  v2[0] += K[2] * p0[0];
  v0[0] += K[3] * p3[0];
  v3[0] += K[3] * p0[0];
  v1[0] += K[4 + 1] * p1[0];
  v1[0] += K[4 + 2] * p2[0];
  v2[0] += K[4 + 2] * p1[0];
  v1[0] += K[4 + 3] * p3[0];
  v3[0] += K[4 + 3] * p1[0];
  v2[0] += K[8 + 2] * p2[0];
  v2[0] += K[8 + 3] * p3[0];
  v3[0] += K[8 + 3] * p2[0];
  v3[0] += K[15] * p3[0];
}

/* Over nodes: the start of a CG solve (c = r.r, p = r, u = v = 0). */
static inline void init_cg(const double *r, double *c, double *u, double *v,
                           double *p) {
  *c += (*r) * (*r);
  *p = *r;
  *u = 0;
  *v = 0;
}

/* Over nodes: c += p.v */
static inline void dotPV(const double *p, const double *v, double *c) {
  *c += (*p) * (*v);
}

/* Over nodes: u += alpha p, r -= alpha v, and v cleared for the next
 * product. */
static inline void updateUR(double *u, double *r, const double *p, double *v,
                            const double *alpha) {
  *u += (*alpha) * (*p);
  *r -= (*alpha) * (*v);
  *v = 0.0;
}

/* Over nodes: c += r.r */
static inline void dotR(const double *r, double *c) { *c += (*r) * (*r); }

/* Over nodes: p = beta p + r */
static inline void updateP(const double *r, double *p, const double *beta) {
  *p = (*beta) * (*p) + (*r);
}

/* Over nodes: the Newton step phim -= u; the residual cleared for the next
 * assembly; rms sums u^2. */
static inline void update(double *phim, double *res, const double *u,
                          double *rms) {
  *phim -= *u;
  *res = 0.0;
  *rms += (*u) * (*u);
}

#endif /* AERO_KERNELS_H */
