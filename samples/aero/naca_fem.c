/*
 * naca_fem.c - generator for the finite-element mesh of the Aero sample.
 *
 * Design
 * ------
 * OP2's aero application solves a nonlinear potential-flow problem around
 * a NACA0012 aerofoil with bilinear quadrilateral elements.  It reads the
 * mesh from FE_grid.dat, written by OP2's Octave script `naca_fem.m`.
 * This program re-implements that script in plain C11 (libc + libm) and
 * writes the same file, byte for byte, for the default I = 400, J = 600.
 *
 * The grid is the C-grid of the Airfoil sample (samples/airfoil/naca0012.c
 * builds it the same way):
 *
 *   1. Aerofoil: the NACA0012 upper surface is sampled at 100 points
 *      x = sin(t)^2, t = linspace(0, pi/2, 100); the trailing-edge
 *      thickness is forced to zero.
 *   2. Conformal map: each surface point z = x + iy goes to sqrt(z - x0),
 *      x0 = 0.0077; mirroring (w -> -conj(w)) gives the lower half, 199
 *      points in all with increasing real part.
 *   3. Structured grid in the mapped plane: 3I+1 columns at
 *      xb = linspace(-3, 3, 3I+1); a column's bottom is 0, except for the
 *      columns I+2 .. 2I (1-based), strictly between the trailing edge's
 *      images -1 and 1, where it is the mapped aerofoil interpolated by a
 *      not-a-knot cubic spline; each column is cut into J equal intervals
 *      up to y = 3.
 *   4. Back to the physical plane by squaring the complex coordinate.
 *
 * What differs from the Airfoil mesh is the numbering.  The bottom line
 * left of the aerofoil (columns 1 .. I+1, 1-based) is the lower side of
 * the wake cut; squaring maps column i onto column 3I+2-i, so those nodes
 * are not numbered again but take the ids of their images: with the
 * 1-based id k = i + (j-1)(3I+1) - (I+1) of node (i, j), the nodes with
 * k <= 0 are exactly the first I+1 nodes, and node (i, 1), i <= I+1, is
 * node 2I+1-i.  Hence
 *
 *     nnode  = (3I+1)(J+1) - (I+1)   numbered nodes, in (j, i) order;
 *     ncell  = 3IJ                   cells, rows j = 1..J, i fastest, each
 *                                    (i,j) (i+1,j) (i,j+1) (i+1,j+1) (the
 *                                    tensor-product order of the element,
 *                                    not round the quad);
 *     nbnode = 3I + 2J               far-field (Dirichlet) nodes: numbered
 *                                    nodes on the left or right end or the
 *                                    top line, in (j, i) order.
 *
 * The file is a header ` nnode ncell nbnode `, then ` x y ` per node
 * (`%f`), ` a b c d ` per cell, ` n ` per far-field node, ids 0-based.
 * Cells and far-field nodes are integer arithmetic, streamed straight to
 * the file; only the bottom line of the mapped grid is kept in memory.
 *
 * Bit-exactness
 * -------------
 * To print the same `%f` digits as Octave, every floating-point operation
 * is done as Octave does it, in the same order:
 *   - linspace (Octave 7): end points exact; element k is a + k*delta in
 *     the first half and b - (n-1-k)*delta in the second, delta =
 *     (b-a)/(n-1); the middle element of an odd-length range is (a+b)/2,
 *     or exactly 0 when a == -b;
 *   - real x.^2 is x*x, x.^3 is x*x*x, x.^4 is pow(x, 4); the polynomial
 *     is summed left to right, then scaled;
 *   - complex sqrt is C99 csqrt (what std::sqrt of a complex calls);
 *   - spline(x, y, xi) with as many y as x is Octave's spline.m with
 *     not-a-knot ends: its tridiagonal system solved the way LAPACK's
 *     dgtsv does (Gaussian elimination with partial pivoting), then
 *     ppval's Horner evaluation on the interval found by a clamped lookup;
 *   - complex z.^2 is std::pow(z, 2), i.e. (1 + 0i) * (z * z) with the
 *     textbook complex product, written out so that the signs of zeros
 *     come out as Octave's (no "-0.000000");
 *   - `%f` is the C library's, as Octave's fprintf uses it.
 * This needs every operation rounded separately: build in ISO mode
 * (-std=c11, where GCC does not contract a*b+c into an FMA).
 *
 * Usage: naca_fem [-I N] [-J N] OUT.dat     (defaults I = 400, J = 600)
 * The mesh goes to a temporary file next to OUT, renamed over OUT only
 * once completely and successfully written; on failure it is removed.
 * Errors in the options: one line "naca_fem: error: ...", status 2;
 * a failure to write: a message, status 1.
 */

#define _POSIX_C_SOURCE 200809L

#include <complex.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The program's name as invoked, before each message. */
static const char *prog = "naca_fem";

#include "naca_grid.h" /* the grid in the mapped plane: linspace_at,
                        * bottom_line, complex_square */

static void complain(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* The mesh                                                            */
/* ------------------------------------------------------------------ */

typedef struct {
    long ni;  /* I: cells along the aerofoil, a third of a row */
    long nj;  /* J: cells from the wall to the far field */
    long nnode, ncell, nbnode;
} fem_size;

static fem_size fem_size_of(long ni, long nj)
{
    fem_size s;

    s.ni = ni;
    s.nj = nj;
    s.nnode = (3 * ni + 1) * (nj + 1) - (ni + 1);
    s.ncell = 3 * ni * nj;
    s.nbnode = 3 * ni + 2 * nj;
    return s;
}

/* 1-based id of grid node (i, j), 0-based i and j: its number in (j, i)
 * order with the first I+1 nodes left out, which are the lower side of
 * the wake cut and share the ids of their images 3I-i on the upper side.
 */
static long node_k(const fem_size *s, long i, long j)
{
    return (i + 1) + j * (3 * s->ni + 1) - (s->ni + 1);
}

/* The 0-based id written to the file. */
static long node_id(const fem_size *s, long i, long j)
{
    long k = node_k(s, i, j);

    return (k > 0 ? k : 2 * s->ni - i) - 1;
}

/* ` x y ` of every numbered node in (j, i) order.  Stops early (the
 * caller sees ferror) once a write has failed. */
static void write_nodes(FILE *f, const fem_size *s, const double *yb)
{
    const long ncols = 3 * s->ni + 1;

    for (long j = 0; j <= s->nj && !ferror(f); j++) {
        for (long i = 0; i < ncols; i++) {
            if (node_k(s, i, j) <= 0)
                continue;
            double xg = linspace_at(-DOMAIN_HALF, DOMAIN_HALF, ncols, i);
            double yg = linspace_at(yb[i], DOMAIN_HALF, s->nj + 1, j);
            double x, y;
            complex_square(xg, yg, &x, &y);
            fprintf(f, " %f %f \n", x, y);
        }
    }
}

/* ` a b c d ` per cell: row by row, i fastest (naca_fem.m's loops over j2,
 * i, j with wid = 1), nodes in tensor-product order. */
static void write_cells(FILE *f, const fem_size *s)
{
    for (long j = 0; j < s->nj && !ferror(f); j++)
        for (long i = 0; i < 3 * s->ni; i++)
            fprintf(f, " %ld %ld %ld %ld \n", node_id(s, i, j),
                    node_id(s, i + 1, j), node_id(s, i, j + 1),
                    node_id(s, i + 1, j + 1));
}

/* ` n ` per far-field node: the numbered nodes on the left end, the right
 * end or the top line, in (j, i) order. */
static void write_farfield(FILE *f, const fem_size *s)
{
    const long last = 3 * s->ni;

    for (long j = 0; j <= s->nj; j++)
        for (long i = 0; i <= last; i++)
            if (node_k(s, i, j) > 0 && (i == 0 || i == last || j == s->nj))
                fprintf(f, " %ld \n", node_id(s, i, j));
}

static void write_mesh(FILE *f, const fem_size *s, const double *yb)
{
    fprintf(f, " %ld %ld %ld \n", s->nnode, s->ncell, s->nbnode);
    write_nodes(f, s, yb);
    write_cells(f, s);
    write_farfield(f, s);
}

/* ------------------------------------------------------------------ */
/* The output file                                                     */
/* ------------------------------------------------------------------ */

/* The temporary file to remove if a signal ends the run. */
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
 * Write the mesh to OUT.tmp.XXXXXX next to OUT, then rename it to OUT, so
 * that OUT is either untouched or complete.  Returns 0, or -1 after
 * saying why and removing the temporary file.
 */
static int write_mesh_file(const char *out, const fem_size *s,
                           const double *yb)
{
    static const char suffix[] = ".tmp.XXXXXX";
    size_t len = strlen(out);
    const char *what = NULL;
    struct stat st;
    FILE *f = NULL;
    int err = 0;

    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* renaming over a device or a directory would replace it */
        complain("%s: not a regular file; write the mesh to a file\n", out);
        return -1;
    }
    char *tmp = malloc(len + sizeof suffix);
    if (!tmp) {
        complain("%s: out of memory\n", out);
        return -1;
    }
    memcpy(tmp, out, len);
    memcpy(tmp + len, suffix, sizeof suffix);

    int fd = mkstemp(tmp);
    if (fd < 0) {
        err = errno;
        memcpy(tmp + len, suffix, sizeof suffix); /* mkstemp's edits */
        complain("%s: cannot create the temporary file %s: %s\n", out, tmp,
                 strerror(err));
        free(tmp);
        return -1;
    }
    pending_tmp = tmp;

    /* mkstemp makes the file 0600; give it the usual 0666 & ~umask */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        err = errno;
        what = "cannot set the permissions of";
        close(fd);
        goto fail;
    }
    f = fdopen(fd, "w");
    if (!f) {
        err = errno;
        what = "cannot open";
        close(fd);
        goto fail;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);

    errno = 0;
    write_mesh(f, s, yb);
    if (fflush(f) != 0 || ferror(f)) {
        err = errno;
        what = "cannot write";
        fclose(f);
        goto fail;
    }
    if (fclose(f) != 0) {
        err = errno;
        what = "cannot close";
        goto fail;
    }
    if (rename(tmp, out) != 0) {
        err = errno;
        what = "cannot rename into place";
        goto fail;
    }
    pending_tmp = NULL;
    free(tmp);
    return 0;

fail:
    complain("%s: %s the temporary file %s: %s\n", out, what, tmp,
             err ? strerror(err) : "I/O error");
    unlink(tmp);
    pending_tmp = NULL;
    free(tmp);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [-I N] [-J N] OUT.dat\n"
            "  Write the finite-element mesh of OP2's aero application\n"
            "  (FE_grid.dat: quadrilaterals round a NACA0012 aerofoil).\n"
            "  -I N  cells along the aerofoil, N >= 1 (default 400)\n"
            "  -J N  cells from the aerofoil to the far field, N >= 1"
            " (default 600)\n"
            "  The node count (3I+1)(J+1)-(I+1) must fit in a C int.\n",
            prog);
}

/* An option's error: one line, then status 2. */
static int bad_usage(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* Parse the value of -I or -J into *v.  Returns 0, or 2 after saying
 * what is wrong. */
static int parse_dim(const char *opt, const char *arg, long *v)
{
    char *end;
    long long n;

    if (!arg)
        return bad_usage("%s needs a value (see --help)", opt);
    errno = 0;
    n = strtoll(arg, &end, 10);
    if (end == arg || *end != '\0' ||
        !(arg[0] == '-' || arg[0] == '+' || (arg[0] >= '0' && arg[0] <= '9')))
        return bad_usage("%s takes a whole number, not '%s'", opt, arg);
    if (errno == ERANGE ? arg[0] == '-' : n < 1)
        return bad_usage("%s must be at least 1, not '%s'", opt, arg);
    if (errno == ERANGE || n > INT_MAX)
        return bad_usage("%s %s is too large: the mesh's counts must fit"
                         " in a C int", opt, arg);
    *v = (long)n;
    return 0;
}

int main(int argc, char **argv)
{
    long ni = 400, nj = 600;
    const char *out = NULL;
    int options_done = 0;

    if (argc > 0 && argv[0] && *argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        prog = slash ? slash + 1 : argv[0];
    }
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
                usage(stdout);
                return 0;
            } else if (strcmp(arg, "--") == 0) {
                options_done = 1;
            } else if (strcmp(arg, "-I") == 0 || strcmp(arg, "-J") == 0) {
                const char *val = a + 1 < argc ? argv[++a] : NULL;
                int rc = parse_dim(arg, val, arg[1] == 'I' ? &ni : &nj);
                if (rc != 0)
                    return rc;
            } else {
                return bad_usage("unknown option '%s' (see --help)", arg);
            }
        } else if (out) {
            return bad_usage("more than one output file: '%s' and '%s'",
                             out, arg);
        } else {
            out = arg;
        }
    }
    if (!out)
        return bad_usage("no output file given (usage: %s [-I N] [-J N]"
                         " OUT.dat)", prog);

    /* The largest count and id is below (3I+1)(J+1); I, J <= INT_MAX, so
     * 3I+1 and J+1 fit in a long long and the division is exact enough. */
    if ((3LL * ni + 1) > INT_MAX / (nj + 1LL))
        return bad_usage("-I %ld -J %ld is too large: the mesh's counts"
                         " must fit in a C int", ni, nj);

    fem_size s = fem_size_of(ni, nj);
    double *yb = bottom_line(ni);
    if (!yb) {
        complain("cannot build the aerofoil spline (out of memory, or a singular "
                 "system)\n");
        return 1;
    }

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* exceeding the file size limit becomes a reported write error */
    signal(SIGXFSZ, SIG_IGN);

    int rc = write_mesh_file(out, &s, yb);
    free(yb);
    return rc == 0 ? 0 : 1;
}
