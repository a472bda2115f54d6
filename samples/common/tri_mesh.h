/*
 * tri_mesh.h — a triangle mesh of the unit square, made in memory (the
 * limiter, Poisson and heat samples): the unit square cut
 * into N x N quadrilaterals, each split into two triangles along a
 * diagonal chosen by a hash of its position, and every interior node moved
 * by up to a quarter of the spacing (a fixed pseudo-random perturbation):
 * an unstructured mesh, the same on every run and every rank.
 */
#ifndef LOOM_SAMPLES_TRI_MESH_H
#define LOOM_SAMPLES_TRI_MESH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tri_mesh {
  int n, nnode, ncell;
  double *x;   /* 2 per node */
  int *c2n;    /* 3 per cell, counter-clockwise */
};

static unsigned tri_mesh_hash(unsigned a) {
  a ^= a >> 16;
  a *= 0x7feb352dU;
  a ^= a >> 15;
  a *= 0x846ca68bU;
  a ^= a >> 16;
  return a;
}

/* A number in [-1, 1] for key k. */
static double tri_mesh_jitter(unsigned k) { return (tri_mesh_hash(k) % 20001U) / 10000.0 - 1.0; }

static int tri_mesh_make(int n, struct tri_mesh *m) {
  m->n = n;
  m->nnode = (n + 1) * (n + 1);
  m->ncell = 2 * n * n;
  m->x = malloc(sizeof(double) * 2 * (size_t)m->nnode);
  m->c2n = malloc(sizeof(int) * 3 * (size_t)m->ncell);
  if (!m->x || !m->c2n) {
    fprintf(stderr, "out of memory for a %d x %d mesh\n", n, n);
    free(m->x);
    free(m->c2n);
    return 1;
  }
  const double h = 1.0 / n;
  for (int j = 0; j <= n; j++)
    for (int i = 0; i <= n; i++) {
      const int k = j * (n + 1) + i, inner = i > 0 && i < n && j > 0 && j < n;
      m->x[2 * k] = i * h + (inner ? 0.25 * h * tri_mesh_jitter(2U * k) : 0.0);
      m->x[2 * k + 1] = j * h + (inner ? 0.25 * h * tri_mesh_jitter(2U * k + 1) : 0.0);
    }
  int *t = m->c2n;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      const int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      if (tri_mesh_hash(0x9e3779b9U ^ (unsigned)(j * n + i)) & 1U) {
        int q[6] = {a, b, c, a, c, d};
        for (int s = 0; s < 6; s++) *t++ = q[s];
      } else {
        int q[6] = {a, b, d, b, c, d};
        for (int s = 0; s < 6; s++) *t++ = q[s];
      }
    }
  return 0;
}

/* The nodes on the square's boundary (declared numbers), malloc'ed, their
 * number into *nb; NULL when out of memory. */
static inline int *tri_mesh_boundary(const struct tri_mesh *m, int *nb) {
  int *b = malloc(sizeof(int) * 4 * (size_t)(m->n + 1));
  *nb = 0;
  for (int k = 0; b && k < m->nnode; k++) {
    const int i = k % (m->n + 1), j = k / (m->n + 1);
    if (i == 0 || j == 0 || i == m->n || j == m->n)
      b[(*nb)++] = k;
  }
  return b;
}

static void tri_mesh_free(struct tri_mesh *m) {
  free(m->x);
  free(m->c2n);
}

#endif
