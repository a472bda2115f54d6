/*
 * airfoil_mesh.h — host-side helpers shared by the Airfoil programs:
 * reading OP2's grid file, writing the final flow state, and the command
 * line `PROG MESH ITERS [OUT]`.
 *
 * Grid file (OP2's "new_grid.dat" format), whitespace-separated, 0-based:
 *   nnode ncell nedge nbedge
 *   x y              nnode times (node coordinates)
 *   n1 n2 n3 n4      ncell times (the cell's nodes, in order around it)
 *   n1 n2 c1 c2      nedge times (the edge's nodes and its two cells)
 *   n1 n2 c1 bound   nbedge times (boundary edge: nodes, cell, kind)
 * The reader checks every number (syntax, range of indices) and reports
 * the first problem as "FILE:LINE: SECTION RECORD: expected ..., found ...".
 * Numbers are converted with strtod / strtol, which round exactly as
 * fscanf's %lf / %d do, so coordinates are bit-identical to OP2's reader.
 *
 * Everything here is `static` (this header is included by one file per
 * program) and plain C11.
 */
#ifndef AIRFOIL_MESH_H
#define AIRFOIL_MESH_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/out_file.h"
#include "../common/text_reader.h"

#if defined(__GNUC__) || defined(__clang__)
#define AIRFOIL_MESH_UNUSED __attribute__((unused))
#else
#define AIRFOIL_MESH_UNUSED
#endif

struct airfoil_mesh {
  int nnode, ncell, nedge, nbedge;
  int *cell;   /* 4 nodes per cell */
  int *edge;   /* 2 nodes per edge */
  int *ecell;  /* 2 cells per edge */
  int *bedge;  /* 2 nodes per boundary edge */
  int *becell; /* 1 cell per boundary edge */
  int *bound;  /* 1 kind per boundary edge: 1 = airfoil, 2 = far field */
  double *x;   /* 2 coordinates per node */
};

/* ---- sections ---------------------------------------------------------- */

/* Reads `count` records of four ints; slot k of record i goes to
 * dest[k][i * stride[k]] and must lie in [0, limits[k]) (a limit of 0
 * means any int).  `section` and `record` name the records ("cells",
 * "cell"), slot_names the four numbers ("n1" ...). */
static int airfoil_read_int_records(struct text_reader *r, int count,
                                    int *const dest[4], const int stride[4],
                                    const int limits[4], const char *section,
                                    const char *record,
                                    const char *const slot_names[4]) {
  for (int i = 0; i < count; i++) {
    for (int k = 0; k < 4; k++) {
      long lo = limits[k] ? 0 : INT_MIN;
      long hi = limits[k] ? (long)limits[k] - 1 : INT_MAX;
      int *slot = dest[k] + (size_t)i * (size_t)stride[k];
      int status = text_parse_int(r, lo, hi, slot);
      if (status == 0)
        continue;
      char what[160], expected[64];
      snprintf(what, sizeof what, "%s section, %s %d, %s", section, record, i,
               slot_names[k]);
      if (limits[k])
        snprintf(expected, sizeof expected, "an index in [0, %d)", limits[k]);
      else
        snprintf(expected, sizeof expected, "an integer");
      text_read_error(r, what, expected, status == TEXT_EOF);
      return 1;
    }
  }
  return 0;
}

static int airfoil_read_header(struct text_reader *r,
                               struct airfoil_mesh *m) {
  static const char *const names[4] = {"nnode", "ncell", "nedge", "nbedge"};
  int *fields[4] = {&m->nnode, &m->ncell, &m->nedge, &m->nbedge};
  for (int k = 0; k < 4; k++) {
    long lo = k < 2 ? 1 : 0; /* nodes and cells cannot be empty */
    /* at most INT_MAX / 4, so 4 * index fits in an int */
    int status = text_parse_int(r, lo, INT_MAX / 4, fields[k]);
    if (status == 0)
      continue;
    char what[64];
    snprintf(what, sizeof what, "header (nnode ncell nedge nbedge), %s",
             names[k]);
    text_read_error(r, what,
                       lo ? "a count in [1, INT_MAX/4]"
                          : "a count in [0, INT_MAX/4]",
                       status == TEXT_EOF);
    return 1;
  }
  return 0;
}

static int airfoil_alloc_mesh(struct airfoil_mesh *m, const char *path) {
  /* +1: calloc(0) may return NULL, which would read as out of memory */
  m->cell = calloc((size_t)m->ncell * 4, sizeof(int));
  m->edge = calloc((size_t)m->nedge * 2 + 1, sizeof(int));
  m->ecell = calloc((size_t)m->nedge * 2 + 1, sizeof(int));
  m->bedge = calloc((size_t)m->nbedge * 2 + 1, sizeof(int));
  m->becell = calloc((size_t)m->nbedge + 1, sizeof(int));
  m->bound = calloc((size_t)m->nbedge + 1, sizeof(int));
  m->x = calloc((size_t)m->nnode * 2, sizeof(double));
  if (m->cell && m->edge && m->ecell && m->bedge && m->becell && m->bound &&
      m->x)
    return 0;
  fprintf(stderr, "%s: out of memory for a mesh of %d nodes, %d cells\n",
          path, m->nnode, m->ncell);
  return 1;
}

static int airfoil_read_nodes(struct text_reader *r,
                              struct airfoil_mesh *m) {
  for (int n = 0; n < m->nnode; n++) {
    for (int k = 0; k < 2; k++) {
      int status = text_parse_double(r, &m->x[2 * (size_t)n + (size_t)k]);
      if (status == 0)
        continue;
      char what[64];
      snprintf(what, sizeof what, "nodes section, node %d, %s", n,
               k ? "y" : "x");
      text_read_error(r, what, "a finite real number",
                         status == TEXT_EOF);
      return 1;
    }
  }
  return 0;
}

static int airfoil_read_cells(struct text_reader *r,
                              struct airfoil_mesh *m) {
  static const char *const slots[4] = {"n1", "n2", "n3", "n4"};
  int *const dest[4] = {m->cell, m->cell + 1, m->cell + 2, m->cell + 3};
  const int stride[4] = {4, 4, 4, 4};
  const int limits[4] = {m->nnode, m->nnode, m->nnode, m->nnode};
  return airfoil_read_int_records(r, m->ncell, dest, stride, limits, "cells",
                                  "cell", slots);
}

static int airfoil_read_edges(struct text_reader *r,
                              struct airfoil_mesh *m) {
  static const char *const slots[4] = {"n1", "n2", "c1", "c2"};
  int *const dest[4] = {m->edge, m->edge + 1, m->ecell, m->ecell + 1};
  const int stride[4] = {2, 2, 2, 2};
  const int limits[4] = {m->nnode, m->nnode, m->ncell, m->ncell};
  return airfoil_read_int_records(r, m->nedge, dest, stride, limits, "edges",
                                  "edge", slots);
}

static int airfoil_read_bedges(struct text_reader *r,
                               struct airfoil_mesh *m) {
  static const char *const slots[4] = {"n1", "n2", "c1", "bound"};
  int *const dest[4] = {m->bedge, m->bedge + 1, m->becell, m->bound};
  const int stride[4] = {2, 2, 1, 1};
  const int limits[4] = {m->nnode, m->nnode, m->ncell, 0};
  return airfoil_read_int_records(r, m->nbedge, dest, stride, limits,
                                  "boundary edges", "boundary edge", slots);
}

/* Nothing but whitespace may follow the last boundary edge. */
static int airfoil_read_end(struct text_reader *r) {
  if (!text_next_token(r))
    return 0;
  text_read_error(r, "after the last boundary edge",
                     "end of file (do the header's counts match the file?)",
                     0);
  return 1;
}

/* ---- public helpers ---------------------------------------------------- */

/* Frees the mesh's arrays and zeroes it; safe on a zeroed or partly read
 * mesh. */
AIRFOIL_MESH_UNUSED static void airfoil_free_mesh(struct airfoil_mesh *m) {
  free(m->cell);
  free(m->edge);
  free(m->ecell);
  free(m->bedge);
  free(m->becell);
  free(m->bound);
  free(m->x);
  memset(m, 0, sizeof *m);
}

/* Reads the grid file at `path` into *m.  Returns 0, or nonzero after
 * printing what is wrong on stderr (then *m holds nothing to free). */
AIRFOIL_MESH_UNUSED static int airfoil_read_mesh(const char *path,
                                                 struct airfoil_mesh *m) {
  memset(m, 0, sizeof *m);
  struct text_reader *r = text_open(path);
  if (!r)
    return 1;
  int failed = airfoil_read_header(r, m) || airfoil_alloc_mesh(m, path) ||
               airfoil_read_nodes(r, m) || airfoil_read_cells(r, m) ||
               airfoil_read_edges(r, m) || airfoil_read_bedges(r, m) ||
               airfoil_read_end(r);
  failed = text_close(r, failed);
  if (failed)
    airfoil_free_mesh(m);
  return failed;
}

/* Writes 4 * ncell doubles (the flow state, raw, in host byte order) to
 * `path` (see out_file.h).  Returns 0, or nonzero after printing why. */
AIRFOIL_MESH_UNUSED static int airfoil_write_q(const char *path,
                                               const double *q, int ncell) {
  char *tmp;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  size_t count = 4 * (size_t)ncell;
  return out_commit(fp, tmp, path, fwrite(q, sizeof *q, count, fp) != count);
}

static void airfoil_usage(FILE *to, const char *prog) {
  fprintf(to,
          "usage: %s MESH ITERS [OUT]\n"
          "  MESH   OP2 Airfoil grid file (new_grid.dat format)\n"
          "  ITERS  number of time steps, a positive integer\n"
          "  OUT    optional file receiving the final q (4 doubles per cell)\n",
          prog);
}

/* Parses `PROG MESH ITERS [OUT]`; *out_path is NULL without OUT.  On bad
 * arguments prints the usage on stderr and exits with status 2; on -h or
 * --help prints it on stdout and exits with status 0. */
AIRFOIL_MESH_UNUSED static void airfoil_parse_args(int argc, char **argv,
                                                   const char **mesh_path,
                                                   int *niter,
                                                   const char **out_path) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "airfoil";
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    airfoil_usage(stdout, prog);
    exit(0);
  }
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "%s: expected 2 or 3 arguments, got %d\n", prog,
            argc > 0 ? argc - 1 : 0);
    airfoil_usage(stderr, prog);
    exit(2);
  }
  char *end;
  errno = 0;
  long n = strtol(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0' || errno == ERANGE || n < 1 ||
      n > INT_MAX) {
    fprintf(stderr, "%s: ITERS must be a positive integer, got '%s'\n", prog,
            argv[2]);
    airfoil_usage(stderr, prog);
    exit(2);
  }
  *mesh_path = argv[1];
  *niter = (int)n;
  *out_path = argc == 4 ? argv[3] : NULL;
  if (*out_path && out_check(*out_path))
    exit(2); /* before reading the mesh and iterating, not after */
}

#endif /* AIRFOIL_MESH_H */
