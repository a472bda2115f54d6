/*
 * extruded_ref.c — extruded.c written by hand in plain C, as a careful
 * programmer of an extruded code would: the columns' data contiguous, the
 * base map's row read once per column, the layers innermost; the same
 * kernels (prism_kernels.h) called in the same order, so that its output
 * is extruded_seq's, bit for bit (tests/e2e/extruded.sh) and its time
 * the baseline of bench/extruded.sh.
 *
 * Usage: extruded_ref [N [LEVELS]]   (as extruded)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_kernels.h"
#include "../common/tri_mesh.h"

#define FINAL_TIME (1.0 / 32.0)

/* The first point of each of a prism column's six vertex lines (its
 * bottom's lines at slots 0-2, its top's, the same lines one point up,
 * at 3-5): the base map's row, read once per column. */
static void column_of(const int *c2n, int e, int L, size_t first[6]) {
  for (int s = 0; s < 6; s++)
    first[s] = (size_t)c2n[6 * e + s] * (L + 1) + (s >= 3);
}

/* The six vertices of layer k of the column (rows of data, dim values per
 * point). */
static void vertices(const size_t first[6], int k, const double *data, int dim,
                     const double *p[6]) {
  for (int s = 0; s < 6; s++)
    p[s] = data + (size_t)dim * (first[s] + k);
}

static int solve(int n, int *steps, double *l2, double *largest, long *prisms) {
  struct tri_mesh b;
  if (tri_mesh_make(n, &b))
    return 1;
  const int L = n, P = n + 1, nline = b.nnode * P;
  int nb, *bnd = tri_mesh_boundary(&b, &nb);
  int *c2n = malloc(sizeof(int) * 6 * (size_t)b.ncell), *side = calloc((size_t)nline, sizeof(int));
  double *x = malloc(sizeof(double) * 3 * (size_t)nline), *u = malloc(sizeof(double) * (size_t)nline);
  double *m = calloc((size_t)nline, sizeof(double)), *r = calloc((size_t)nline, sizeof(double));
  if (!bnd || !c2n || !side || !x || !u || !m || !r) {
    fprintf(stderr, "extruded_ref: out of memory for N = %d\n", n);
    return 1;
  }
  for (int e = 0; e < b.ncell; e++)
    for (int s = 0; s < 6; s++)
      c2n[6 * e + s] = b.c2n[3 * e + s % 3];
  for (int v = 0; v < b.nnode; v++)
    for (int k = 0; k < P; k++) {
      double *xv = x + 3 * ((size_t)v * P + k);
      xv[0] = b.x[2 * v], xv[1] = b.x[2 * v + 1], xv[2] = (double)k / n;
      u[(size_t)v * P + k] = prism_exact(xv, 0.0);
    }
  for (int i = 0; i < nb; i++)
    for (int k = 0; k < P; k++)
      side[(size_t)bnd[i] * P + k] = 1;
  for (int v = 0; v < b.nnode; v++) {
    prism_mark(&side[(size_t)v * P]);
    prism_mark(&side[(size_t)v * P + L]);
  }
  *prisms = (long)b.ncell * L;
  for (int e = 0; e < b.ncell; e++) {
    size_t first[6];
    column_of(c2n, e, L, first);
    for (int k = 0; k < L; k++) {
      const double *xs[6];
      double *ms[6];
      vertices(first, k, x, 3, xs);
      vertices(first, k, m, 1, (const double **)ms);
      prism_mass(xs, ms);
    }
  }
  *steps = 2 * n * n;
  double dt = FINAL_TIME / *steps, t = FINAL_TIME;
  for (int step = 0; step < *steps; step++) {
    for (int i = 0; i < nline; i++)
      prism_zero(&r[i]);
    for (int e = 0; e < b.ncell; e++) {
      size_t first[6];
      column_of(c2n, e, L, first);
      for (int k = 0; k < L; k++) {
        const double *xs[6], *us[6];
        double *rs[6];
        vertices(first, k, x, 3, xs);
        vertices(first, k, u, 1, us);
        vertices(first, k, r, 1, (const double **)rs);
        prism_stiffness(xs, us, rs);
      }
    }
    for (int i = 0; i < nline; i++)
      prism_step(&r[i], &m[i], &side[i], &dt, &u[i]);
  }
  double sum = 0.0, most = 0.0;
  for (int i = 0; i < nline; i++)
    prism_error(&u[i], &x[3 * (size_t)i], &m[i], &t, &sum, &most);
  *l2 = sqrt(sum);
  *largest = most;
  tri_mesh_free(&b);
  free(bnd), free(c2n), free(side), free(x), free(u), free(m), free(r);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4, levels = argc > 2 ? atoi(argv[2]) : 3;
  if (argc > 3 || n < 1 || levels < 1 || levels > 8 || (long)n << (levels - 1) > 512) {
    fprintf(stderr, "usage: %s [N [LEVELS]]\n", argv[0]);
    return 2;
  }
  double before = 0.0;
  for (int level = 0; level < levels; level++, n *= 2) {
    int steps;
    long prisms;
    double l2, largest;
    if (solve(n, &steps, &l2, &largest, &prisms))
      return 1;
    printf("N %3d: %8ld prisms, %6d steps, L2 error %.10e", n, prisms, steps, l2);
    if (level > 0)
      printf(", rate %.2f", log2(before / l2));
    printf(", largest error %.10e\n", largest);
    before = l2;
  }
  return 0;
}
