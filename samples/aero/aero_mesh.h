/*
 * aero_mesh.h — the host side of the aero sample, shared by aero.c (Loom)
 * and aero_ref.c (plain C): reading OP2's FE_grid.dat mesh, the command
 * line, writing the final potential, and OP2's check of the result.
 *
 * The mesh file (made by naca_fem, or OP2's naca_fem.m) is text:
 *   nnode ncell nbnode
 *   nnode lines  x y          node coordinates
 *   ncell lines  n0 n1 n2 n3  a cell's nodes, in tensor-product order
 *                             (i,j) (i+1,j) (i,j+1) (i+1,j+1)
 *   nbnode lines n            the far-field (Dirichlet) nodes
 * with 0-based node ids.  Every number is checked; a message names the
 * file, the line, the section and what was expected.
 *
 * Everything here is `static` and plain C11.
 */
#ifndef AERO_MESH_H
#define AERO_MESH_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_file.h"
#include "text_reader.h"

#if defined(__GNUC__) || defined(__clang__)
#define AERO_MESH_UNUSED __attribute__((unused))
#else
#define AERO_MESH_UNUSED
#endif

/* OP2's expected rms after 20 iterations on its default mesh (720,000
 * cells), and the tolerance of its check, in percent. */
#define AERO_CHECK_RMS 5.644214176463586e-7
#define AERO_CHECK_ITERS 20
#define AERO_CHECK_CELLS 720000
#define AERO_CHECK_PERCENT 0.02

struct aero_mesh {
  int nnode, ncell, nbnode;
  double *x;  /* 2 coordinates per node */
  int *cell;  /* 4 nodes per cell */
  int *bnode; /* 1 node per far-field node */
};

/* ---- sections ---------------------------------------------------------- */

static int aero_read_header(struct text_reader *r, struct aero_mesh *m) {
  static const char *const names[3] = {"nnode", "ncell", "nbnode"};
  int *fields[3] = {&m->nnode, &m->ncell, &m->nbnode};
  for (int k = 0; k < 3; k++) {
    long lo = k < 2; /* nodes and cells cannot be empty */
    int status = text_parse_int(r, lo, INT_MAX / 16, fields[k]);
    if (status == 0)
      continue;
    char what[64];
    snprintf(what, sizeof what, "header (nnode ncell nbnode), %s", names[k]);
    text_read_error(r, what, lo ? "a count in [1, INT_MAX/16]" : "a count in [0, INT_MAX/16]",
                    status == TEXT_EOF);
    return 1;
  }
  return 0;
}

static int aero_alloc_mesh(struct aero_mesh *m, const char *path) {
  m->x = calloc((size_t)m->nnode * 2, sizeof(double));
  m->cell = calloc((size_t)m->ncell * 4, sizeof(int));
  m->bnode = calloc((size_t)m->nbnode + 1, sizeof(int)); /* +1: never calloc(0) */
  if (m->x && m->cell && m->bnode)
    return 0;
  fprintf(stderr, "%s: out of memory for a mesh of %d nodes, %d cells\n", path, m->nnode,
          m->ncell);
  return 1;
}

static int aero_read_nodes(struct text_reader *r, struct aero_mesh *m) {
  for (size_t i = 0; i < 2 * (size_t)m->nnode; i++) {
    int status = text_parse_double(r, &m->x[i]);
    if (status == 0)
      continue;
    char what[64];
    snprintf(what, sizeof what, "nodes section, node %zu, %s", i / 2, i % 2 ? "y" : "x");
    text_read_error(r, what, "a finite real number", status == TEXT_EOF);
    return 1;
  }
  return 0;
}

/* `count` node ids of `per` slots each into ids[]; section/record name
 * them in messages. */
static int aero_read_ids(struct text_reader *r, int *ids, int count, int per, int nnode,
                         const char *section, const char *record) {
  for (size_t i = 0; i < (size_t)count * (size_t)per; i++) {
    int status = text_parse_int(r, 0, (long)nnode - 1, &ids[i]);
    if (status == 0)
      continue;
    char what[96], expected[64];
    if (per > 1)
      snprintf(what, sizeof what, "%s section, %s %zu, n%zu", section, record, i / (size_t)per,
               i % (size_t)per);
    else
      snprintf(what, sizeof what, "%s section, %s %zu", section, record, i);
    snprintf(expected, sizeof expected, "a node id in [0, %d)", nnode);
    text_read_error(r, what, expected, status == TEXT_EOF);
    return 1;
  }
  return 0;
}

/* Nothing but whitespace may follow the last far-field node. */
static int aero_read_end(struct text_reader *r) {
  if (!text_next_token(r))
    return 0;
  text_read_error(r, "after the last far-field node",
                  "end of file (do the header's counts match the file?)", 0);
  return 1;
}

/* ---- public helpers ---------------------------------------------------- */

AERO_MESH_UNUSED static void aero_free_mesh(struct aero_mesh *m) {
  free(m->x);
  free(m->cell);
  free(m->bnode);
  memset(m, 0, sizeof *m);
}

/* Reads the mesh at `path` into *m.  Returns 0, or nonzero after printing
 * what is wrong on stderr (then *m holds nothing to free). */
AERO_MESH_UNUSED static int aero_read_mesh(const char *path, struct aero_mesh *m) {
  memset(m, 0, sizeof *m);
  struct text_reader *r = text_open(path);
  if (!r)
    return 1;
  int failed = aero_read_header(r, m) || aero_alloc_mesh(m, path) || aero_read_nodes(r, m) ||
               aero_read_ids(r, m->cell, m->ncell, 4, m->nnode, "cells", "cell") ||
               aero_read_ids(r, m->bnode, m->nbnode, 1, m->nnode, "far-field nodes",
                             "far-field node") ||
               aero_read_end(r);
  failed = text_close(r, failed);
  if (failed)
    aero_free_mesh(m);
  return failed;
}

/* Writes nnode doubles (the final potential, raw, in host byte order) to
 * `path` (see out_file.h).  Returns 0, or nonzero after printing why. */
AERO_MESH_UNUSED static int aero_write_phi(const char *path, const double *phi, int nnode) {
  char *tmp;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  return out_commit(fp, tmp, path, fwrite(phi, sizeof *phi, (size_t)nnode, fp) != (size_t)nnode);
}

/* OP2's check, after the last iteration: on the default mesh with the
 * default iteration count, the rms within AERO_CHECK_PERCENT of OP2's
 * value.  Prints the verdict; returns 1 if it failed, 0 otherwise (also
 * when the check does not apply, saying so). */
AERO_MESH_UNUSED static int aero_check(double rms, int ncell, int niter) {
  if (ncell != AERO_CHECK_CELLS || niter != AERO_CHECK_ITERS) {
    printf("\nno reference for %d cells after %d iterations (OP2's check: %d cells, %d "
           "iterations)\n", ncell, niter, AERO_CHECK_CELLS, AERO_CHECK_ITERS);
    return 0;
  }
  double diff = fabs(100.0 * (rms / AERO_CHECK_RMS) - 100.0);
  printf("\n\nTest problem with %d cells is within %3.15E %% of the expected solution\n",
         ncell, diff);
  printf("This test is considered %s\n", diff < AERO_CHECK_PERCENT ? "PASSED" : "FAILED");
  return diff >= AERO_CHECK_PERCENT;
}

static void aero_usage(FILE *to, const char *prog) {
  fprintf(to,
          "usage: %s MESH [ITERS [OUT]]\n"
          "  MESH   OP2 aero grid file (FE_grid.dat format; made by naca_fem)\n"
          "  ITERS  outer (Newton) iterations, a positive integer (default %d);\n"
          "         each solves its linear system by CG, at most 200 steps\n"
          "  OUT    optional file receiving the final potential (1 double per node)\n"
          "Prints each iteration's number, CG steps and rms; with the default mesh\n"
          "(%d cells) and %d iterations, also OP2's check, and exits 1 if it fails.\n",
          prog, AERO_CHECK_ITERS, AERO_CHECK_CELLS, AERO_CHECK_ITERS);
}

/* Parses `PROG MESH [ITERS [OUT]]`; *out_path is NULL without OUT.  On bad
 * arguments prints the usage on stderr and exits with status 2; on -h or
 * --help prints it on stdout and exits with status 0. */
AERO_MESH_UNUSED static void aero_parse_args(int argc, char **argv, const char **mesh_path,
                                             int *niter, const char **out_path) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "aero";
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    aero_usage(stdout, prog);
    exit(0);
  }
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "%s: expected 1 to 3 arguments, got %d\n", prog, argc > 0 ? argc - 1 : 0);
    aero_usage(stderr, prog);
    exit(2);
  }
  long n = AERO_CHECK_ITERS;
  if (argc > 2) {
    char *end;
    errno = 0;
    n = strtol(argv[2], &end, 10);
    if (end == argv[2] || *end != '\0' || errno == ERANGE || n < 1 || n > INT_MAX) {
      fprintf(stderr, "%s: ITERS must be a positive integer, got '%s'\n", prog, argv[2]);
      aero_usage(stderr, prog);
      exit(2);
    }
  }
  *mesh_path = argv[1];
  *niter = (int)n;
  *out_path = argc == 4 ? argv[3] : NULL;
  if (*out_path && out_check(*out_path))
    exit(2); /* before reading the mesh and iterating, not after */
}

#endif /* AERO_MESH_H */
