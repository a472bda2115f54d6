/*
 * naca_grid.h — the structured grid around a NACA0012 section that OP2's
 * Octave generators build (naca0012.m for Airfoil's finite-volume mesh,
 * naca_fem.m for aero's finite-element mesh): shared by
 * samples/airfoil/naca0012.c and samples/aero/naca_fem.c, which differ only
 * in how they number and write it.
 *
 * The upper surface is sampled at 100 points x = sin(t)^2, t =
 * linspace(0, pi/2, 100) (trailing-edge thickness forced to zero), sent
 * to sqrt(z - 0.0077) and mirrored (w -> -conj(w)): 199 points with
 * increasing real part.  In that plane the grid has columns xb =
 * linspace(-3, 3, 3I+1), whose bottom is 0 except under the airfoil
 * (columns I+1 .. 2I-1, 0-based), where a not-a-knot cubic spline
 * through the 199 points gives it (bottom_line); each column is split
 * into J equal intervals up to y = 3, and squaring the complex
 * coordinate maps a grid point back (complex_square).
 *
 * Every operation is done as Octave does it, in its order, so that both
 * generators print Octave's %f digits (their headers say how); this needs
 * each operation rounded separately: build in ISO mode (-std=c11).
 *
 * Everything here is `static` and plain C11 + libm.
 */
#ifndef LOOM_SAMPLES_NACA_GRID_H
#define LOOM_SAMPLES_NACA_GRID_H

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AIRFOIL_SAMPLES 100 /* points on the upper surface */
#define NOSE_SHIFT 0.0077   /* x0 of the square-root transform */
#define DOMAIN_HALF 3.0     /* transformed domain: [-3,3] x [yb,3] */
#define PI_DOUBLE 3.14159265358979323846

/* ------------------------------------------------------------------ */
/* Small numeric helpers                                               */
/* ------------------------------------------------------------------ */

/* Element k (0-based) of Octave's linspace(a, b, n), n >= 2. */
static double linspace_at(double a, double b, long n, long k)
{
    double delta = (b - a) / (double)(n - 1);
    long half = n / 2;

    if (k == 0)
        return a;
    if (k == n - 1)
        return b;
    if (n % 2 == 1 && k == half)
        return (a == -b) ? 0.0 : (a + b) / 2.0;
    if (k < half)
        return a + (double)k * delta;
    return b - (double)(n - 1 - k) * delta;
}

/* re + i*im without arithmetic (no sign-of-zero surprises); C11 lays out
 * a complex number as an array of its real and imaginary parts.  (CMPLX
 * would do, but not every compiler/libc pair provides it.) */
static double complex make_complex(double re, double im)
{
    double parts[2] = {re, im};
    double complex z;

    memcpy(&z, parts, sizeof z);
    return z;
}

/* (1 + 0i) * (z * z): libstdc++'s pow(z, 2) for complex z, spelled out
 * with the same operations (this fixes the sign of zero imaginary parts,
 * e.g. (-3 + 0i)^2 = 9 + 0i, not 9 - 0i). */
static void complex_square(double re, double im, double *out_re,
                           double *out_im)
{
    double sq_re = re * re - im * im;
    double sq_im = re * im + im * re;

    *out_re = 1.0 * sq_re - 0.0 * sq_im;
    *out_im = 1.0 * sq_im + 0.0 * sq_re;
}

/* ------------------------------------------------------------------ */
/* Not-a-knot cubic spline (Octave spline.m + ppval)                  */
/* ------------------------------------------------------------------ */

typedef struct {
    long n;        /* number of breaks */
    double *x;     /* breaks, strictly increasing, n entries */
    double *coef;  /* per interval k: coef[4k..4k+3] = d, c, b, a */
} spline;

/*
 * Solve the tridiagonal system with sub-diagonal dl[0..m-2], diagonal
 * d[0..m-1], super-diagonal du[0..m-2] and right-hand side rhs[0..m-1]
 * (overwritten by the solution), the way LAPACK's dgtsv does it:
 * Gaussian elimination with partial pivoting, which may introduce a
 * second super-diagonal (stored in dl).  All arrays are clobbered.
 * Returns 0, or -1 if the matrix is singular.
 */
static int tridiag_solve(long m, double *dl, double *d, double *du,
                         double *rhs)
{
    for (long i = 0; i + 1 < m; i++) {
        if (fabs(d[i]) >= fabs(dl[i])) {
            double fact;
            if (d[i] == 0.0)
                return -1;
            fact = dl[i] / d[i];
            d[i + 1] = d[i + 1] - fact * du[i];
            rhs[i + 1] = rhs[i + 1] - fact * rhs[i];
            dl[i] = 0.0;
        } else {
            double fact = d[i] / dl[i];
            double temp = d[i + 1];
            d[i] = dl[i];
            d[i + 1] = du[i] - fact * temp;
            if (i + 2 < m) {
                dl[i] = du[i + 1];
                du[i + 1] = -fact * dl[i];
            } else {
                dl[i] = 0.0;
            }
            du[i] = temp;
            temp = rhs[i];
            rhs[i] = rhs[i + 1];
            rhs[i + 1] = temp - fact * rhs[i + 1];
        }
    }
    if (d[m - 1] == 0.0)
        return -1;

    rhs[m - 1] = rhs[m - 1] / d[m - 1];
    if (m > 1)
        rhs[m - 2] = (rhs[m - 2] - du[m - 2] * rhs[m - 1]) / d[m - 2];
    for (long i = m - 3; i >= 0; i--)
        rhs[i] = (rhs[i] - du[i] * rhs[i + 1] - dl[i] * rhs[i + 2]) / d[i];
    return 0;
}

static void spline_free(spline *sp)
{
    free(sp->x);
    free(sp->coef);
    sp->x = NULL;
    sp->coef = NULL;
    sp->n = 0;
}

/*
 * Build the not-a-knot cubic spline through (x[k], y[k]), k < n, n >= 5,
 * x strictly increasing.  Returns 0, or -1 on allocation failure or a
 * singular system (sp is then left empty).
 */
static int spline_build(spline *sp, const double *x, const double *y, long n)
{
    long m = n - 2; /* unknown interior second-derivative terms */
    double *h = malloc((size_t)(n - 1) * sizeof *h);
    double *c = malloc((size_t)n * sizeof *c);
    double *dl = malloc((size_t)(m - 1) * sizeof *dl);
    double *dg = malloc((size_t)m * sizeof *dg);
    double *du = malloc((size_t)(m - 1) * sizeof *du);
    double *g = malloc((size_t)m * sizeof *g);
    int rc = -1;

    sp->n = n;
    sp->x = malloc((size_t)n * sizeof *sp->x);
    sp->coef = malloc((size_t)(n - 1) * 4 * sizeof *sp->coef);
    if (!h || !c || !dl || !dg || !du || !g || !sp->x || !sp->coef)
        goto done;

    memcpy(sp->x, x, (size_t)n * sizeof *x);
    for (long k = 0; k + 1 < n; k++)
        h[k] = x[k + 1] - x[k];

    /* Right-hand side; first and last rows carry the end conditions. */
    g[0] = 3.0 / (h[0] + h[1]) *
           ((y[2] - y[1]) - h[1] / h[0] * (y[1] - y[0]));
    g[m - 1] = 3.0 / (h[n - 2] + h[n - 3]) *
               (h[n - 3] / h[n - 2] * (y[n - 1] - y[n - 2]) -
                (y[n - 2] - y[n - 3]));
    for (long k = 1; k + 1 < m; k++)
        g[k] = 3.0 * (y[k + 2] - y[k + 1]) / h[k + 1] -
               3.0 * (y[k + 1] - y[k]) / h[k];

    /* Tridiagonal matrix. */
    for (long k = 0; k < m; k++)
        dg[k] = 2.0 * (h[k] + h[k + 1]);
    dg[0] = dg[0] - h[0];
    dg[m - 1] = dg[m - 1] - h[n - 2];
    for (long k = 0; k + 1 < m; k++)
        dl[k] = du[k] = h[k + 1];
    du[0] = du[0] - h[0];
    dl[m - 2] = dl[m - 2] - h[n - 2];

    if (tridiag_solve(m, dl, dg, du, g) != 0)
        goto done;

    for (long k = 0; k < m; k++)
        c[k + 1] = g[k];
    c[0] = c[1] + h[0] / h[1] * (c[1] - c[2]);
    c[n - 1] = c[n - 2] + h[n - 2] / h[n - 3] * (c[n - 2] - c[n - 3]);

    for (long k = 0; k + 1 < n; k++) {
        double *p = sp->coef + 4 * k;
        p[0] = (c[k + 1] - c[k]) / (3.0 * h[k]);
        p[1] = c[k];
        p[2] = (y[k + 1] - y[k]) / h[k] - h[k] / 3.0 * (c[k + 1] + 2.0 * c[k]);
        p[3] = y[k];
    }
    rc = 0;

done:
    free(h);
    free(c);
    free(dl);
    free(dg);
    free(du);
    free(g);
    if (rc != 0)
        spline_free(sp);
    return rc;
}

/* Evaluate like ppval: interval by clamped lookup, then Horner. */
static double spline_eval(const spline *sp, double xi)
{
    long lo = 0, hi = sp->n - 2; /* valid interval indices */
    const double *p;
    double dx, v;

    /* Largest k in [0, n-2] with x[k] <= xi (0 when xi < x[0]). */
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (sp->x[mid] <= xi)
            lo = mid;
        else
            hi = mid - 1;
    }
    p = sp->coef + 4 * lo;
    dx = xi - sp->x[lo];
    v = p[0];
    v = v * dx;
    v = v + p[1];
    v = v * dx;
    v = v + p[2];
    v = v * dx;
    v = v + p[3];
    return v;
}

/* ------------------------------------------------------------------ */
/* Geometry                                                            */
/* ------------------------------------------------------------------ */

/*
 * Transformed airfoil contour: 2*AIRFOIL_SAMPLES-1 points (sx, sy),
 * trailing edge (lower) -> nose -> trailing edge (upper).
 */
static void airfoil_contour(double *sx, double *sy)
{
    const long ns = AIRFOIL_SAMPLES;
    const double half_pi = PI_DOUBLE / 2.0;

    for (long k = 0; k < ns; k++) {
        double s = sin(linspace_at(0.0, half_pi, ns, k));
        double x = s * s;
        double poly = 0.298222773 * sqrt(x) - 0.127125232 * x -
                      0.357907906 * (x * x) + 0.291984971 * (x * x * x) -
                      0.105174696 * pow(x, 4.0);
        double y = (k == ns - 1) ? 0.0 : 0.594689181 * poly;
        double complex w = csqrt(make_complex(x - NOSE_SHIFT, y));

        /* Mirror image -conj(w) = -re + i*im at ns-1-k (this includes
         * the nose point itself), w at ns-1+k for the upper half. */
        sx[ns - 1 - k] = -creal(w);
        sy[ns - 1 - k] = cimag(w);
        if (k > 0) {
            sx[ns - 1 + k] = creal(w);
            sy[ns - 1 + k] = cimag(w);
        }
    }
}

/*
 * Bottom of each grid column in the transformed plane: 0 on the cut line
 * and in the wake, the splined airfoil for columns I+1 .. 2I-1 (0-based).
 * Returns a malloc'ed array of 3I+1 values, or NULL on failure.
 */
static double *bottom_line(long ni)
{
    const long npts = 2 * AIRFOIL_SAMPLES - 1;
    const long ncols = 3 * ni + 1;
    double sx[2 * AIRFOIL_SAMPLES - 1], sy[2 * AIRFOIL_SAMPLES - 1];
    spline sp;
    double *yb = calloc((size_t)ncols, sizeof *yb);

    if (!yb)
        return NULL;
    airfoil_contour(sx, sy);
    if (spline_build(&sp, sx, sy, npts) != 0) {
        free(yb);
        return NULL;
    }
    for (long i = ni + 1; i < 2 * ni; i++)
        yb[i] = spline_eval(&sp, linspace_at(-DOMAIN_HALF, DOMAIN_HALF,
                                             ncols, i));
    spline_free(&sp);
    return yb;
}

#endif /* LOOM_SAMPLES_NACA_GRID_H */
