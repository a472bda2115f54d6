/*
 * wave_host.h — host-side helpers shared by the wave programs (wave.c,
 * wave_ref.c) and the mesh generator (wave_mesh.c): the unit-square mesh
 * (generated in memory, read from and written to a file), the initial
 * condition, the output file and the command line.
 *
 * Mesh file (written by wave_mesh), whitespace-separated, 0-based:
 *   nnode ncell      header: node and cell counts (nnode >= 3, ncell >= 1)
 *   x y              nnode times: node coordinates (finite reals)
 *   n1 n2 n3         ncell times: the triangle's nodes, counter-clockwise
 * Nothing but whitespace may follow the last cell.  The reader checks every
 * number (syntax, index range) and every triangle (counter-clockwise, non-
 * degenerate: the kernels need a positive area), and reports the first
 * problem as "FILE:LINE: WHAT: expected ..., found ...".  wave_mesh writes
 * coordinates with "%.17g", which strtod reads back exactly, so a mesh read
 * from a file is bit-identical to the same mesh generated in memory.
 *
 * The unit-square mesh of size N: (N+1)^2 nodes, node j*(N+1)+i at
 * (i/N, j/N) for 0 <= i, j <= N; 2 N^2 cells: square (i, j) with corners
 * a = (i, j), b = (i+1, j), c = (i+1, j+1), d = (i, j+1) is split along its
 * diagonal a-c into cells 2*(j*N+i) = (a, b, c) and 2*(j*N+i)+1 = (a, c, d),
 * both counter-clockwise.  1 <= N <= WAVE_MAX_N.
 *
 * Everything here is `static` (this header is included by one file per
 * program) and plain C11.
 */
#ifndef WAVE_HOST_H
#define WAVE_HOST_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/out_file.h"
#include "../common/text_reader.h"

#if defined(__GNUC__) || defined(__clang__)
#define WAVE_HOST_UNUSED __attribute__((unused))
#else
#define WAVE_HOST_UNUSED
#endif

/* Largest N for the generated mesh: 2 N^2 cells of 3 ints stay far below
 * INT_MAX entries (and about 2.4 GB of cells). */
enum { WAVE_MAX_N = 10000 };

struct wave_mesh {
  int nnode, ncell;
  double *x; /* 2 coordinates per node */
  int *cell; /* 3 nodes per cell, counter-clockwise */
};

/* Frees the mesh's arrays and zeroes it; safe on a zeroed mesh. */
WAVE_HOST_UNUSED static void wave_free_mesh(struct wave_mesh *m) {
  free(m->x);
  free(m->cell);
  memset(m, 0, sizeof *m);
}

static int wave_alloc_mesh(struct wave_mesh *m, const char *what) {
  m->x = malloc(2 * (size_t)m->nnode * sizeof(double));
  m->cell = malloc(3 * (size_t)m->ncell * sizeof(int));
  if (m->x && m->cell)
    return 0;
  fprintf(stderr, "%s: out of memory for a mesh of %d nodes, %d cells\n", what,
          m->nnode, m->ncell);
  wave_free_mesh(m);
  return 1;
}

/* Twice the signed area of the triangle (a, b, c): positive when the
 * vertices are counter-clockwise.  The same expression as the kernels'. */
static double wave_area2(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
}

/* Generates the unit-square mesh of size n (see the top of this file).
 * Returns 0, or nonzero after printing why. */
WAVE_HOST_UNUSED static int wave_generate_mesh(int n, struct wave_mesh *m) {
  memset(m, 0, sizeof *m);
  if (n < 1 || n > WAVE_MAX_N) {
    fprintf(stderr, "wave: mesh size %d outside [1, %d]\n", n, WAVE_MAX_N);
    return 1;
  }
  m->nnode = (n + 1) * (n + 1);
  m->ncell = 2 * n * n;
  if (wave_alloc_mesh(m, "wave"))
    return 1;
  for (int j = 0; j <= n; j++)
    for (int i = 0; i <= n; i++) {
      size_t k = (size_t)j * (size_t)(n + 1) + (size_t)i;
      m->x[2 * k] = (double)i / (double)n;
      m->x[2 * k + 1] = (double)j / (double)n;
    }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      int *t = m->cell + 6 * ((size_t)j * (size_t)n + (size_t)i);
      t[0] = a, t[1] = b, t[2] = c; /* lower right triangle */
      t[3] = a, t[4] = c, t[5] = d; /* upper left triangle */
    }
  return 0;
}

/* ---- reading a mesh file ----------------------------------------------- */

static int wave_read_header(struct text_reader *r, struct wave_mesh *m) {
  static const char *const names[2] = {"nnode", "ncell"};
  static const char *const ranges[2] = {"a count in [3, INT_MAX/3]",
                                        "a count in [1, INT_MAX/3]"};
  int *fields[2] = {&m->nnode, &m->ncell};
  for (int k = 0; k < 2; k++) {
    int status = text_parse_int(r, k == 0 ? 3 : 1, INT_MAX / 3, fields[k]);
    if (status == 0)
      continue;
    char what[64];
    snprintf(what, sizeof what, "header (nnode ncell), %s", names[k]);
    text_read_error(r, what, ranges[k], status == TEXT_EOF);
    return 1;
  }
  return 0;
}

static int wave_read_nodes(struct text_reader *r, struct wave_mesh *m) {
  for (int n = 0; n < m->nnode; n++)
    for (int k = 0; k < 2; k++) {
      int status = text_parse_double(r, &m->x[2 * (size_t)n + (size_t)k]);
      if (status == 0)
        continue;
      char what[64];
      snprintf(what, sizeof what, "nodes section, node %d, %s", n,
               k ? "y" : "x");
      text_read_error(r, what, "a finite real number", status == TEXT_EOF);
      return 1;
    }
  return 0;
}

static int wave_read_cells(struct text_reader *r, struct wave_mesh *m) {
  for (int c = 0; c < m->ncell; c++) {
    int *t = m->cell + 3 * (size_t)c;
    for (int k = 0; k < 3; k++) {
      int status = text_parse_int(r, 0, (long)m->nnode - 1, &t[k]);
      if (status == 0)
        continue;
      char what[64], expected[64];
      snprintf(what, sizeof what, "cells section, cell %d, n%d", c, k + 1);
      snprintf(expected, sizeof expected, "a node index in [0, %d)",
               m->nnode);
      text_read_error(r, what, expected, status == TEXT_EOF);
      return 1;
    }
    double a2 = wave_area2(&m->x[2 * (size_t)t[0]], &m->x[2 * (size_t)t[1]],
                           &m->x[2 * (size_t)t[2]]);
    if (!(a2 > 0.0)) {
      fprintf(stderr,
              "%s:%ld: cells section, cell %d (%d %d %d): expected a "
              "counter-clockwise triangle of positive area, found twice "
              "the signed area %.17g\n",
              r->path, r->tok_line, c, t[0], t[1], t[2], a2);
      return 1;
    }
  }
  return 0;
}

static int wave_read_end(struct text_reader *r) {
  if (!text_next_token(r))
    return 0;
  text_read_error(r, "after the last cell",
                  "end of file (do the header's counts match the file?)", 0);
  return 1;
}

/* Reads the mesh file at `path` into *m.  Returns 0, or nonzero after
 * printing what is wrong on stderr (then *m holds nothing to free). */
WAVE_HOST_UNUSED static int wave_read_mesh(const char *path,
                                           struct wave_mesh *m) {
  memset(m, 0, sizeof *m);
  struct text_reader *r = text_open(path);
  if (!r)
    return 1;
  int failed = wave_read_header(r, m) || wave_alloc_mesh(m, path) ||
               wave_read_nodes(r, m) || wave_read_cells(r, m) ||
               wave_read_end(r);
  failed = text_close(r, failed);
  if (failed)
    wave_free_mesh(m);
  return failed;
}

/* Writes the mesh in the file format above.  Returns 0, or nonzero after
 * printing why. */
WAVE_HOST_UNUSED static int wave_write_mesh(const char *path,
                                            const struct wave_mesh *m) {
  char *tmp;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  int failed = fprintf(fp, "%d %d\n", m->nnode, m->ncell) < 0;
  for (int n = 0; n < m->nnode && !failed; n++)
    failed = fprintf(fp, "%.17g %.17g\n", m->x[2 * (size_t)n],
                     m->x[2 * (size_t)n + 1]) < 0;
  for (int c = 0; c < m->ncell && !failed; c++) {
    const int *t = m->cell + 3 * (size_t)c;
    failed = fprintf(fp, "%d %d %d\n", t[0], t[1], t[2]) < 0;
  }
  return out_commit(fp, tmp, path, failed);
}

/* Writes the final state, raw doubles in host byte order: for each node in
 * order, p then phi (2 doubles per node).  Returns 0, or nonzero after
 * printing why. */
WAVE_HOST_UNUSED static int wave_write_state(const char *path, const double *p,
                                             const double *phi, int nnode) {
  char *tmp;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  int failed = 0;
  for (int n = 0; n < nnode && !failed; n++) {
    const double v[2] = {p[n], phi[n]};
    failed = fwrite(v, sizeof v[0], 2, fp) != 2;
  }
  return out_commit(fp, tmp, path, failed);
}

/* ---- the problem ------------------------------------------------------- */

/* The shortest edge of the mesh (each cell's three sides), for the time
 * step. */
WAVE_HOST_UNUSED static double wave_min_edge(const struct wave_mesh *m) {
  double h = INFINITY;
  for (int c = 0; c < m->ncell; c++)
    for (int k = 0; k < 3; k++) {
      const double *a = &m->x[2 * (size_t)m->cell[3 * (size_t)c + (size_t)k]];
      const double *b =
          &m->x[2 * (size_t)m->cell[3 * (size_t)c + (size_t)(k + 1) % 3]];
      double dx = b[0] - a[0], dy = b[1] - a[1];
      double len = sqrt(dx * dx + dy * dy);
      if (len < h)
        h = len;
    }
  return h;
}

/* The initial condition of the Firedrake test: p = exp(-40 r^2), r the
 * distance to the centre (.5, .5) of the square; phi = 0. */
WAVE_HOST_UNUSED static void wave_initial(const struct wave_mesh *m, double *p,
                                          double *phi) {
  for (int n = 0; n < m->nnode; n++) {
    double dx = m->x[2 * (size_t)n] - .5, dy = m->x[2 * (size_t)n + 1] - .5;
    p[n] = exp(-40 * (dx * dx + dy * dy));
    phi[n] = 0.0;
  }
}

/* Whether a step prints the norm line: every 100 steps, and the last. */
WAVE_HOST_UNUSED static int wave_reports(int step, int niter) {
  return step % 100 == 0 || step == niter;
}

/* ---- command line ------------------------------------------------------ */

struct wave_args {
  const char *mesh_path; /* NULL: generate the mesh of size n */
  int n;
  int niter;
  const char *out_path; /* NULL without OUT */
};

static void wave_usage(FILE *to, const char *prog) {
  fprintf(to,
          "usage: %s MESH ITERS [OUT]\n"
          "  MESH   a mesh file (wave_mesh's format), or the size of the\n"
          "         unit-square mesh to generate in memory: N (decimal\n"
          "         digits only; write ./123 for a file named 123) or -n N,\n"
          "         for N x N squares of 2 triangles, 1 <= N <= %d\n"
          "  ITERS  number of time steps, a positive integer\n"
          "  OUT    optional file receiving the final p and phi (raw doubles:\n"
          "         p, phi for each node in order)\n",
          prog, WAVE_MAX_N);
}

static int wave_parse_count(const char *s, long lo, long hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    return 1;
  *out = (int)v;
  return 0;
}

static int wave_all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

/* Parses `PROG MESH ITERS [OUT]` (MESH: a file, N, or -n N).  On bad
 * arguments prints the usage on stderr and exits with status 2; on -h or
 * --help prints it on stdout and exits with status 0. */
WAVE_HOST_UNUSED static void wave_parse_args(int argc, char **argv,
                                             struct wave_args *a) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "wave";
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    wave_usage(stdout, prog);
    exit(0);
  }
  memset(a, 0, sizeof *a);
  int i = 1;
  const char *size = NULL;
  if (argc > 1 && !strcmp(argv[1], "-n")) {
    if (argc < 3) {
      fprintf(stderr, "%s: -n needs a mesh size N\n", prog);
      wave_usage(stderr, prog);
      exit(2);
    }
    size = argv[2];
    i = 3;
  } else if (argc > 1 && wave_all_digits(argv[1])) {
    size = argv[1];
    i = 2;
  } else if (argc > 1) {
    a->mesh_path = argv[1];
    i = 2;
  }
  int rest = argc - i; /* ITERS [OUT] */
  if (argc < 2 || rest < 1 || rest > 2) {
    fprintf(stderr, "%s: expected MESH ITERS [OUT], got %d argument%s\n", prog,
            argc > 0 ? argc - 1 : 0, argc == 2 ? "" : "s");
    wave_usage(stderr, prog);
    exit(2);
  }
  if (size && wave_parse_count(size, 1, WAVE_MAX_N, &a->n)) {
    fprintf(stderr, "%s: the mesh size N must be an integer in [1, %d], got '%s'\n",
            prog, WAVE_MAX_N, size);
    wave_usage(stderr, prog);
    exit(2);
  }
  if (wave_parse_count(argv[i], 1, INT_MAX, &a->niter)) {
    fprintf(stderr, "%s: ITERS must be a positive integer, got '%s'\n", prog,
            argv[i]);
    wave_usage(stderr, prog);
    exit(2);
  }
  a->out_path = rest == 2 ? argv[i + 1] : NULL;
  if (a->out_path && out_check(a->out_path))
    exit(2); /* before loading the mesh and stepping, not after */
}

/* The mesh the arguments name: read from the file, or generated. */
WAVE_HOST_UNUSED static int wave_load_mesh(const struct wave_args *a,
                                           struct wave_mesh *m) {
  return a->mesh_path ? wave_read_mesh(a->mesh_path, m)
                      : wave_generate_mesh(a->n, m);
}

#endif /* WAVE_HOST_H */
