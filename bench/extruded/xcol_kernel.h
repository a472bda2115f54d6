/*
 * xcol_kernel.h — bench/extruded.sh's loop over an extruded set, for its
 * Loom program (xcol.c) and its hand-written twin (xcol_hand.c): each
 * prism of a column gets the mean of its six vertices' values, the
 * bottom triangle's (the vertical lines' point at the prism's layer) and
 * the top one's (one point up).  A gather through the map and a stream
 * of writes: what an extruded code's loops mostly do.
 *
 * The base is the perturbed triangle mesh of samples/common/tri_mesh.h;
 * xcol_mesh builds it, its map of six slots (the triangle's nodes twice)
 * and the lines' values, the same for both programs.
 */
#ifndef LOOM_BENCH_XCOL_KERNEL_H
#define LOOM_BENCH_XCOL_KERNEL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../samples/common/tri_mesh.h"

static inline void xcol_mean(const double *b0, const double *b1, const double *b2,
                             const double *t0, const double *t1, const double *t2, double *q) {
  q[0] = (b0[0] + b1[0] + b2[0] + t0[0] + t1[0] + t2[0]) * (1.0 / 6.0);
}

struct xcol_mesh {
  struct tri_mesh base;
  int *c2n6;  /* each triangle's nodes, twice */
  double *x;  /* each line's L + 1 values, line after line */
};

static int xcol_mesh_make(int n, int layers, struct xcol_mesh *m) {
  if (tri_mesh_make(n, &m->base))
    return 1;
  const size_t points = (size_t)m->base.nnode * (layers + 1);
  m->c2n6 = malloc(sizeof(int) * 6 * (size_t)m->base.ncell);
  m->x = malloc(sizeof(double) * points);
  if (!m->c2n6 || !m->x) {
    fprintf(stderr, "xcol: out of memory\n");
    return 1;
  }
  for (int e = 0; e < m->base.ncell; e++)
    for (int s = 0; s < 6; s++)
      m->c2n6[6 * e + s] = m->base.c2n[3 * e + s % 3];
  for (size_t i = 0; i < points; i++)
    m->x[i] = (double)(tri_mesh_hash((unsigned)i) % 1000u);
  return 0;
}

static double xcol_now(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC); /* C11 */
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The arguments N L ITERS, or exit 2. */
static void xcol_args(int argc, char **argv, int *n, int *layers, int *iters) {
  if (argc != 4 || (*n = atoi(argv[1])) < 1 || (*layers = atoi(argv[2])) < 1 ||
      (*iters = atoi(argv[3])) < 1) {
    fprintf(stderr, "usage: %s N LAYERS ITERS (an N x N base mesh, 2 N^2 columns)\n", argv[0]);
    exit(2);
  }
}

/* One line: the best seconds per pass over the prisms, their number, the
 * bytes a pass moves at least (the lines' values read once, the prisms'
 * written once, the map's rows read once) and a checksum of the result. */
static void xcol_report(double best, long prisms, double bytes, const double *q) {
  double sum = 0.0;
  for (long i = 0; i < prisms; i++)
    sum += q[i] * (double)(i % 7 + 1);
  printf("%.9f %ld %.0f %.17g\n", best, prisms, bytes, sum);
}

#endif
