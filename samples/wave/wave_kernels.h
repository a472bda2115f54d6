/*
 * wave_kernels.h — the time step and the kernels of the explicit wave
 * example (PyOP2's lazy-evaluation document, after Firedrake's test
 * suite): P1 Lagrange finite elements on a triangle mesh, lumped mass.
 *
 * Firedrake's time loop, with p and phi P1 functions and v the test
 * function:
 *
 *     phi -= dt / 2 * p
 *     p += assemble(dt * inner(nabla_grad(v), nabla_grad(phi)) * dx)
 *          / assemble(v * dx)
 *     phi -= dt / 2 * p
 *
 * that is, with K the stiffness matrix (K_ij = integral of grad l_i .
 * grad l_j, l_i the hat function of node i: symmetric positive semi-
 * definite) and m the lumped mass (m_i = integral of l_i),
 *
 *     phi -= dt/2 p;   p += dt (K phi) / m;   phi -= dt/2 p
 *
 * a Stoermer-Verlet (leapfrog) step of phi' = -p, p' = M^-1 K phi, i.e.
 * phi'' = -M^-1 K phi, the discrete wave equation phi'' = laplace(phi) with
 * natural (homogeneous Neumann) boundary conditions.  The sign as the seed
 * writes it is the physical one.  The seven par_loops of one step, as PyOP2
 * runs them:
 *
 *     phi_expr   nodes   p(READ), phi(INC)             phi -= dt/2 p
 *     zero       nodes   t1(WRITE)                     t1 = 0
 *     assemble1  cells   x(READ, map), phi(READ, map), t1 += dt K_e phi_e
 *                        t1(INC, map)
 *     zero       nodes   t2(WRITE)                     t2 = 0
 *     assemble2  cells   x(READ, map), t2(INC, map)    t2 += area / 3
 *     expr       nodes   t1(READ), t2(READ), p(RW)     p += t1 / t2
 *     phi_expr   nodes   p(READ), phi(INC)             phi -= dt/2 p
 *
 * (PyOP2's "v(READ, map)" is the mesh geometry the element integrals need:
 * here the node coordinates x; its "t1(WRITE)"/"t2(WRITE)" through the map
 * are increments, INC in Loom, and its "p(WRITE)" of p += t1/t2 is RW.)
 *
 * Time step.  dt is a file-scope constant, set once by wave_set_constants()
 * from the mesh's shortest edge h: dt = WAVE_CFL * h.  On the unit-square
 * mesh of size N (h = 1/N) K/m is the 5-point Laplacian / h^2, whose
 * largest eigenvalue is below 8/h^2, and the step is stable for
 * dt^2 * 8/h^2 < 4, i.e. dt < h / sqrt(2) ~ 0.707 h (a CFL condition:
 * dt ~ h, not h^2).  WAVE_CFL = 0.1 keeps a factor 7 of margin, and gives
 * the seed's dt = 0.001 on its 100 x 100 mesh.
 *
 * Both the plain-C baseline (wave_ref.c) and the Loom version (wave.c)
 * include this header, so both run the same arithmetic.
 */
#ifndef WAVE_KERNELS_H
#define WAVE_KERNELS_H

#if defined(__GNUC__) || defined(__clang__)
#define WAVE_MAYBE_UNUSED __attribute__((unused))
#else
#define WAVE_MAYBE_UNUSED
#endif

#define WAVE_CFL 0.1

/* The time step; kernels only read it (Loom: file-scope variables are
 * constants inside kernels). */
static double dt;

/* Sets dt from the mesh's shortest edge h (see above). */
WAVE_MAYBE_UNUSED static void wave_set_constants(double h) { dt = WAVE_CFL * h; }

/* Over nodes: phi -= dt/2 p (an increment of phi). */
static inline void phi_expr(const double *p, double *phi) {
  phi[0] -= dt / 2 * p[0];
}

/* Over nodes: t = 0. */
static inline void zero(double *t) { t[0] = 0.0; }

/* Over cells (x, phi, t1 through the cell's three nodes, counter-
 * clockwise): t1_i += dt * integral over the triangle of grad l_i .
 * grad phi_h, for its three vertices i.  P1 gradients are constant: with
 * 2A = twice the area, grad l_i = (b_i, c_i) / 2A where
 *   b_0 = y_1 - y_2, b_1 = y_2 - y_0, b_2 = y_0 - y_1,
 *   c_0 = x_2 - x_1, c_1 = x_0 - x_2, c_2 = x_1 - x_0,
 * so the element stiffness is K_ij = (b_i b_j + c_i c_j) / (2 * 2A), and
 * (K phi)_i = (b_i gx + c_i gy) / (2 * 2A), gx = sum b_j phi_j,
 * gy = sum c_j phi_j. */
static inline void assemble1(const double **x, const double **phi,
                             double **t1) {
  double b[3], c[3];
  b[0] = x[1][1] - x[2][1];
  b[1] = x[2][1] - x[0][1];
  b[2] = x[0][1] - x[1][1];
  c[0] = x[2][0] - x[1][0];
  c[1] = x[0][0] - x[2][0];
  c[2] = x[1][0] - x[0][0];
  double area2 = (x[1][0] - x[0][0]) * (x[2][1] - x[0][1]) -
                 (x[2][0] - x[0][0]) * (x[1][1] - x[0][1]);
  double gx = b[0] * phi[0][0] + b[1] * phi[1][0] + b[2] * phi[2][0];
  double gy = c[0] * phi[0][0] + c[1] * phi[1][0] + c[2] * phi[2][0];
  double scale = dt / (2.0 * area2);
  for (int i = 0; i < 3; i++)
    t1[i][0] += scale * (b[i] * gx + c[i] * gy);
}

/* Over cells (x, t2 through the cell's three nodes): the lumped mass,
 * t2_i += integral of l_i = area / 3 at each vertex. */
static inline void assemble2(const double **x, double **t2) {
  double area2 = (x[1][0] - x[0][0]) * (x[2][1] - x[0][1]) -
                 (x[2][0] - x[0][0]) * (x[1][1] - x[0][1]);
  double m = area2 / 6.0;
  for (int i = 0; i < 3; i++)
    t2[i][0] += m;
}

/* Over nodes: p += t1 / t2. */
static inline void expr(const double *t1, const double *t2, double *p) {
  p[0] += t1[0] / t2[0];
}

/* Over nodes, for the printed norm (not part of the step): sum += p^2
 * (a global reduction). */
static inline void sqnorm(const double *p, double *sum) {
  *sum += p[0] * p[0];
}

#endif /* WAVE_KERNELS_H */
