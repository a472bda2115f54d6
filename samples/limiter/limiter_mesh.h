/*
 * limiter_mesh.h — the sample's mesh, made in memory: the unit square cut
 * into N x N quadrilaterals, each split into two triangles along a
 * diagonal chosen by a hash of its position, and every interior node moved
 * by up to a quarter of the spacing (a fixed pseudo-random perturbation):
 * an unstructured mesh, the same on every run and every rank.
 */
#ifndef LIMITER_MESH_H
#define LIMITER_MESH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct limiter_mesh {
  int n, nnode, ncell;
  double *x;   /* 2 per node */
  int *c2n;    /* 3 per cell, counter-clockwise */
};

static unsigned limiter_hash(unsigned a) {
  a ^= a >> 16;
  a *= 0x7feb352dU;
  a ^= a >> 15;
  a *= 0x846ca68bU;
  a ^= a >> 16;
  return a;
}

/* A number in [-1, 1] for key k. */
static double limiter_jitter(unsigned k) { return (limiter_hash(k) % 20001U) / 10000.0 - 1.0; }

static int limiter_mesh_make(int n, struct limiter_mesh *m) {
  m->n = n;
  m->nnode = (n + 1) * (n + 1);
  m->ncell = 2 * n * n;
  m->x = malloc(sizeof(double) * 2 * (size_t)m->nnode);
  m->c2n = malloc(sizeof(int) * 3 * (size_t)m->ncell);
  if (!m->x || !m->c2n) {
    fprintf(stderr, "limiter: out of memory for a %d x %d mesh\n", n, n);
    free(m->x);
    free(m->c2n);
    return 1;
  }
  const double h = 1.0 / n;
  for (int j = 0; j <= n; j++)
    for (int i = 0; i <= n; i++) {
      const int k = j * (n + 1) + i, inner = i > 0 && i < n && j > 0 && j < n;
      m->x[2 * k] = i * h + (inner ? 0.25 * h * limiter_jitter(2U * k) : 0.0);
      m->x[2 * k + 1] = j * h + (inner ? 0.25 * h * limiter_jitter(2U * k + 1) : 0.0);
    }
  int *t = m->c2n;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      const int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      if (limiter_hash(0x9e3779b9U ^ (unsigned)(j * n + i)) & 1U) {
        int q[6] = {a, b, c, a, c, d};
        for (int s = 0; s < 6; s++) *t++ = q[s];
      } else {
        int q[6] = {a, b, d, b, c, d};
        for (int s = 0; s < 6; s++) *t++ = q[s];
      }
    }
  return 0;
}

static void limiter_mesh_free(struct limiter_mesh *m) {
  free(m->x);
  free(m->c2n);
}

/* N from the command line: limiter [N] (default 64). */
static int limiter_size(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && (argv[1][0] == '-'))) {
    fprintf(stderr, "usage: %s [N]   (the N x N mesh, 1 <= N <= 4000; default 64)\n", argv[0]);
    exit(argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) ? 0 : 2);
  }
  if (argc < 2)
    return 64;
  char *end;
  long n = strtol(argv[1], &end, 10);
  if (*end || end == argv[1] || n < 1 || n > 4000) {
    fprintf(stderr, "limiter: N must be an integer from 1 to 4000, not '%s'\n", argv[1]);
    exit(2);
  }
  return (int)n;
}

#endif
