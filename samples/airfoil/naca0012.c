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

#include "naca_grid.h"

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
