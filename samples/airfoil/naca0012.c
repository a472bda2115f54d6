/*
 * naca0012.c - generator for the NACA0012 mesh of the Airfoil sample.
 *
 * Design
 * ------
 * This program re-implements, in plain C11 (libc + libm only), the
 * algorithm of OP2's Octave mesh generator `naca0012.m` (new-style grid
 * output) and reproduces its output file byte for byte for I = 400,
 * J = 600.  The steps are:
 *
 *   1. Airfoil: the NACA0012 upper surface is sampled at 100 points
 *      x = sin(t)^2, t = linspace(0, pi/2, 100); the trailing-edge
 *      thickness is forced to zero.
 *   2. Conformal map: each surface point z = x + iy is sent to
 *      sqrt(z - x0) with x0 = 0.0077; mirroring (w -> -conj(w)) yields the
 *      lower half, giving 199 points with increasing real part.
 *   3. Structured grid in the transformed plane: columns
 *      xb = linspace(-3, 3, 3I+1); the bottom of each column is 0 except
 *      for columns I+2 .. 2I (1-based), where it follows the transformed
 *      airfoil, interpolated by a not-a-knot cubic spline; each column
 *      is split into J equal intervals up to y = 3.
 *   4. Back to the physical plane by squaring the complex coordinate.
 *   5. Numbering (0-based in the output): node (i,j) -> i + j(3I+1),
 *      cell (i,j) -> i + 3Ij, with i running fastest; interior edges,
 *      the cut line (the first I bottom edges, glued to the cells at the
 *      mirrored position) and boundary edges (airfoil = 1, far field = 2)
 *      are emitted in the same order as the Octave script.
 *
 * Bit-exactness
 * -------------
 * To print the same `%f` digits as Octave, floating-point operations are
 * carried out in the same order as Octave does them:
 *   - linspace: end points are set exactly, interior points are
 *     a + k*delta from the front half and b - k*delta from the back half,
 *     and the middle point of an odd-length range is (a+b)/2, or exactly 0
 *     when a == -b (the symmetric algorithm of current Octave releases);
 *   - x.^2 is x*x, x.^3 is x*x*x, x.^4 is pow(x, 4);
 *   - the spline follows Octave's spline.m (not-a-knot): second-derivative
 *     coefficients from a tridiagonal system solved as LAPACK's dgtsv
 *     does (Gaussian elimination with partial pivoting), then ppval's
 *     Horner evaluation on the interval found by a left/right-clamped
 *     lookup;
 *   - complex sqrt is C99 csqrt (what std::sqrt<complex> calls);
 *   - z.^2 on a complex array is libstdc++'s pow(z, 2), i.e.
 *     (1 + 0i) * (z * z), written out so that zero signs come out as in
 *     the reference (no "-0.000000" on the bottom line).
 * This relies on every operation being rounded separately: build in ISO
 * mode (-std=c11, where GCC does not contract a*b+c into an FMA); GNU
 * modes with -march supporting FMA change last bits and printed digits.
 *
 * Cells, edges and boundary edges are pure integer arithmetic and are
 * streamed straight to the output; only the node coordinates of the
 * transformed bottom line and the spline are kept in memory.
 *
 * Usage: naca0012 [-I N] [-J N] OUT.dat     (defaults I = 400, J = 600)
 * The mesh is written to a temporary file next to OUT and renamed over
 * OUT only once it has been completely and successfully written.
 *
 * HDF5: built with -DNACA0012_HDF5 (build/bin/loom-naca0012, with HDF5),
 * an OUT ending in ".h5" gets the mesh in OP2's HDF5 layout directly
 * (airfoil_h5.h), for meshes too large for a text file (I = 1600,
 * J = 2400: 11.5M cells).  The records go to arrays instead of the text
 * (the same sink calls), and each coordinate is the value its %f text
 * reads back as, so the file equals the text mesh converted by loom-mesh.
 */

#define _POSIX_C_SOURCE 200809L

#include <complex.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef NACA0012_HDF5
#include "airfoil_h5.h"
#else
struct airfoil_mesh;
#endif

/* The program's name as invoked (loom-naca0012 when installed), before
 * each message. */
static const char *prog = "loom-naca0012";
#define complain(...) (fprintf(stderr, "%s: ", prog), fprintf(stderr, __VA_ARGS__))

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

/* ------------------------------------------------------------------ */
/* Mesh output                                                         */
/* ------------------------------------------------------------------ */

typedef struct {
    long ni;     /* I: cells along the airfoil (one third of a row) */
    long nj;     /* J: cells from the wall to the far field */
    long nnodes, ncells, nedges, nbedges;
} mesh_size;

static mesh_size mesh_size_of(long ni, long nj)
{
    mesh_size s;
    s.ni = ni;
    s.nj = nj;
    s.nnodes = (3 * ni + 1) * (nj + 1);
    s.ncells = 3 * ni * nj;
    s.nedges = (3 * ni - 1) * nj + 3 * ni * (nj - 1) + ni;
    s.nbedges = ni + 3 * ni + 2 * nj;
    return s;
}

/* 0-based node and cell numbers of grid position (i, j). */
static long node_id(const mesh_size *s, long i, long j)
{
    return i + j * (3 * s->ni + 1);
}

static long cell_id(const mesh_size *s, long i, long j)
{
    return i + j * (3 * s->ni);
}

/* Where the records go: the text file, or (HDF5 build) the arrays of a
 * mesh, section by section. */
typedef struct sink {
    FILE *f;                 /* text, or NULL */
    struct airfoil_mesh *m;  /* arrays (HDF5 build), or NULL */
    int section;             /* -1 header, 0 nodes, 1 cells, 2 edges, 3 bedges */
    long at;                 /* records stored in the section */
} sink;

#ifdef NACA0012_HDF5
static void store4(sink *k, long a, long b, long c, long d)
{
    struct airfoil_mesh *m = k->m;
    long i = k->at++;
    if (k->section == 1) {
        int *r = m->cell + 4 * i;
        r[0] = (int)a, r[1] = (int)b, r[2] = (int)c, r[3] = (int)d;
    } else if (k->section == 2) {
        m->edge[2 * i] = (int)a, m->edge[2 * i + 1] = (int)b;
        m->ecell[2 * i] = (int)c, m->ecell[2 * i + 1] = (int)d;
    } else if (k->section == 3) {
        m->bedge[2 * i] = (int)a, m->bedge[2 * i + 1] = (int)b;
        m->becell[i] = (int)c, m->bound[i] = (int)d;
    }
}

/* The value the text's "%f" reads back as. */
static double as_text(double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%f", v);
    return strtod(buf, NULL);
}
#endif

static void put4(sink *k, long a, long b, long c, long d)
{
    if (k->f)
        fprintf(k->f, " %ld %ld %ld %ld \n", a, b, c, d);
#ifdef NACA0012_HDF5
    else if (k->section >= 0)
        store4(k, a, b, c, d);
#endif
}

static void put_node(sink *k, double x, double y)
{
    if (k->f) {
        fprintf(k->f, " %f %f \n", x, y);
        return;
    }
#ifdef NACA0012_HDF5
    k->m->x[2 * k->at] = as_text(x);
    k->m->x[2 * k->at + 1] = as_text(y);
    k->at++;
#endif
}

static void section(sink *k, int which)
{
    k->section = which;
    k->at = 0;
}

static void write_nodes(sink *f, const mesh_size *s, const double *yb)
{
    const long ncols = 3 * s->ni + 1;

    for (long j = 0; j <= s->nj; j++) {
        for (long i = 0; i < ncols; i++) {
            double xg = linspace_at(-DOMAIN_HALF, DOMAIN_HALF, ncols, i);
            double yg = linspace_at(yb[i], DOMAIN_HALF, s->nj + 1, j);
            double x, y;
            complex_square(xg, yg, &x, &y);
            put_node(f, x, y);
        }
    }
}

static void write_cells(sink *f, const mesh_size *s)
{
    for (long j = 0; j < s->nj; j++)
        for (long i = 0; i < 3 * s->ni; i++)
            put4(f, node_id(s, i, j), node_id(s, i + 1, j),
                 node_id(s, i + 1, j + 1), node_id(s, i, j + 1));
}

/* Interior edges: node, node, cell, cell.  In each cell, in order: the
 * cut-line edge below (first row, first I cells: it joins the cell to
 * its mirror image across the cut), the edge above, the edge right. */
static void write_edges(sink *f, const mesh_size *s)
{
    const long ni = s->ni, nj = s->nj;

    for (long j = 0; j < nj; j++) {
        for (long i = 0; i < 3 * ni; i++) {
            if (j == 0 && i < ni)
                put4(f, node_id(s, i, 0), node_id(s, i + 1, 0),
                     cell_id(s, 3 * ni - 1 - i, 0), cell_id(s, i, 0));
            if (j < nj - 1)
                put4(f, node_id(s, i, j + 1), node_id(s, i + 1, j + 1),
                     cell_id(s, i, j), cell_id(s, i, j + 1));
            if (i < 3 * ni - 1)
                put4(f, node_id(s, i + 1, j), node_id(s, i + 1, j + 1),
                     cell_id(s, i + 1, j), cell_id(s, i, j));
        }
    }
}

/* Boundary edges: node, node, cell, flag (1 airfoil, 2 far field):
 * airfoil, then the far field going round: outflow at the right end,
 * the outer line right to left, the outflow at the left end. */
static void write_bedges(sink *f, const mesh_size *s)
{
    const long ni = s->ni, nj = s->nj, last = 3 * ni;

    for (long i = ni; i < 2 * ni; i++)
        put4(f, node_id(s, i + 1, 0), node_id(s, i, 0), cell_id(s, i, 0), 1);
    for (long j = 0; j < nj; j++)
        put4(f, node_id(s, last, j + 1), node_id(s, last, j),
             cell_id(s, last - 1, j), 2);
    for (long i = last - 1; i >= 0; i--)
        put4(f, node_id(s, i, nj), node_id(s, i + 1, nj),
             cell_id(s, i, nj - 1), 2);
    for (long j = nj - 1; j >= 0; j--)
        put4(f, node_id(s, 0, j), node_id(s, 0, j + 1), cell_id(s, 0, j), 2);
}

static void write_mesh(sink *f, const mesh_size *s, const double *yb)
{
    section(f, -1);
    put4(f, s->nnodes, s->ncells, s->nedges, s->nbedges);
    section(f, 0);
    write_nodes(f, s, yb);
    section(f, 1);
    write_cells(f, s);
    section(f, 2);
    write_edges(f, s);
    section(f, 3);
    write_bedges(f, s);
}

/* ------------------------------------------------------------------ */
/* Files and command line                                              */
/* ------------------------------------------------------------------ */

/* Temporary file to remove if a signal interrupts the run. */
static char *volatile pending_tmp;

static void on_signal(int sig)
{
    char *p = pending_tmp;
    if (p)
        unlink(p);
    signal(sig, SIG_DFL);
    raise(sig);
}

/*
 * Write the mesh to OUT through OUT.tmp.XXXXXX + rename, so OUT is either
 * untouched or complete.  Prints a diagnostic and returns -1 on failure.
 */
static int write_mesh_file(const char *out, const mesh_size *s,
                           const double *yb)
{
    static const char suffix[] = ".tmp.XXXXXX";
    size_t len = strlen(out);
    char *tmp = malloc(len + sizeof suffix);
    FILE *f = NULL;
    int fd, err = 0;
    const char *what = NULL;
    mode_t mask;

    if (!tmp) {
        complain("%s: out of memory\n", out);
        return -1;
    }
    struct stat st;
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* renaming over a device would replace it */
        complain("%s: not a regular file; write the mesh "
                "to a file\n", out);
        free(tmp);
        return -1;
    }
    memcpy(tmp, out, len);
    memcpy(tmp + len, suffix, sizeof suffix);

    fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        memcpy(tmp + len, suffix, sizeof suffix); /* undo mkstemp's edits */
        complain("%s: cannot create temporary file %s: %s\n",
                out, tmp, strerror(e));
        free(tmp);
        return -1;
    }
    pending_tmp = tmp;

    /* mkstemp creates the file 0600; give it the usual 0666 & ~umask. */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        err = errno;
        what = "cannot set permissions of temporary file";
        close(fd);
        goto fail;
    }

    f = fdopen(fd, "w");
    if (!f) {
        err = errno;
        what = "cannot open temporary file";
        close(fd);
        goto fail;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);

    sink k = {f, NULL, -1, 0};
    write_mesh(&k, s, yb);
    if (fflush(f) != 0 || ferror(f)) {
        err = errno;
        what = "write error";
        fclose(f);
        goto fail;
    }
    if (fclose(f) != 0) {
        err = errno;
        what = "write error on close";
        goto fail;
    }
    if (rename(tmp, out) != 0) {
        err = errno;
        what = "cannot rename temporary file into place";
        goto fail;
    }
    pending_tmp = NULL;
    free(tmp);
    return 0;

fail:
    complain("%s: %s (%s): %s\n", out, what, tmp,
            err ? strerror(err) : "unknown error");
    unlink(tmp);
    pending_tmp = NULL;
    free(tmp);
    return -1;
}

#ifdef NACA0012_HDF5
/* The mesh in arrays, then to an HDF5 file (airfoil_h5.h). */
static int write_mesh_h5(const char *out, const mesh_size *s, const double *yb)
{
    struct airfoil_mesh m = {(int)s->nnodes, (int)s->ncells, (int)s->nedges,
                             (int)s->nbedges, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL};
    m.cell = malloc(4 * (size_t)m.ncell * sizeof(int));
    m.edge = malloc(2 * (size_t)m.nedge * sizeof(int));
    m.ecell = malloc(2 * (size_t)m.nedge * sizeof(int));
    m.bedge = malloc(2 * (size_t)m.nbedge * sizeof(int));
    m.becell = malloc((size_t)m.nbedge * sizeof(int));
    m.bound = malloc((size_t)m.nbedge * sizeof(int));
    m.x = malloc(2 * (size_t)m.nnode * sizeof(double));
    int rc = 1;
    if (m.cell && m.edge && m.ecell && m.bedge && m.becell && m.bound && m.x) {
        sink k = {NULL, &m, -1, 0};
        write_mesh(&k, s, yb);
        airfoil_set_constants();
        rc = airfoil_write_h5(out, &m);
    } else {
        complain("%s: out of memory\n", out);
    }
    free(m.cell), free(m.edge), free(m.ecell), free(m.bedge);
    free(m.becell), free(m.bound), free(m.x);
    return rc;
}
#endif

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [-I N] [-J N] OUT.dat\n"
            "  Write OP2's NACA0012 Airfoil mesh (new-style grid format).\n"
            "  -I N  cells along the airfoil, N >= 2 (default 400)\n"
            "  -J N  cells from the airfoil to the far field, N >= 2"
            " (default 600)\n", prog);
}

/* Largest I or J accepted on its own; main() also bounds the product. */
#define MAX_DIM 1000000L

/* Parse a dimension argument; returns -1 if invalid. */
static long parse_dim(const char *opt, const char *arg)
{
    char *end;
    long v;

    if (!arg) {
        complain("option %s needs a value\n", opt);
        return -1;
    }
    errno = 0;
    v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < 2 || v > MAX_DIM) {
        complain("invalid value '%s' for %s: expected an integer"
                " from 2 to %ld\n",
                arg, opt, MAX_DIM);
        return -1;
    }
    return v;
}

int main(int argc, char **argv)
{
    long ni = 400, nj = 600;
    const char *out = NULL;
    mesh_size s;
    double *yb;
    int rc;

    if (argc > 0 && argv[0] && *argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        prog = slash ? slash + 1 : argv[0];
    }
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "-I") == 0 || strcmp(arg, "-J") == 0) {
            long v = parse_dim(arg, a + 1 < argc ? argv[a + 1] : NULL);
            if (v < 0) {
                usage(stderr);
                return 2;
            }
            if (arg[1] == 'I')
                ni = v;
            else
                nj = v;
            a++;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            complain("unknown option '%s'\n", arg);
            usage(stderr);
            return 2;
        } else if (out) {
            complain("more than one output file given\n");
            usage(stderr);
            return 2;
        } else {
            out = arg;
        }
    }
    if (!out) {
        complain("no output file given\n");
        usage(stderr);
        return 2;
    }

    /* Every count is below 6IJ for I, J >= 2; check that bound in floating
     * point before forming the counts, so they all fit in a C int. */
    if (6.0 * (double)ni * (double)nj > (double)INT_MAX) {
        complain("mesh %ld x %ld too large: counts must fit"
                        " in a C int\n", ni, nj);
        return 2;
    }
    s = mesh_size_of(ni, nj);

    yb = bottom_line(ni);
    if (!yb) {
        complain("%s: cannot build the airfoil spline"
                        " (out of memory)\n", out);
        return 1;
    }

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* Exceeding a file size limit becomes a reported write error. */
    signal(SIGXFSZ, SIG_IGN);
#ifdef NACA0012_HDF5
    size_t len = strlen(out);
    if (len > 3 && strcmp(out + len - 3, ".h5") == 0) {
        rc = write_mesh_h5(out, &s, yb);
        free(yb);
        return rc;
    }
#endif
    rc = write_mesh_file(out, &s, yb);
    free(yb);
    return rc == 0 ? 0 : 1;
}
