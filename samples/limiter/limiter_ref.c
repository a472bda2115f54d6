/*
 * limiter_ref.c — limiter.c in plain C: the same kernels called in the
 * same order over the same mesh, the baseline its seq build matches
 * bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "limiter_kernels.h"
#include "limiter_mesh.h"

int main(int argc, char **argv) {
  int n = limiter_size(argc, argv);
  struct tri_mesh m;
  if (tri_mesh_make(n, &m))
    return 1;
  const int nn = m.nnode, nc = m.ncell;
  double *lo = malloc(sizeof(double) * 5 * (size_t)nn), *hi = lo + nn, *sum = hi + nn,
         *count = sum + nn, *avg = count + nn;
  double *c = malloc(sizeof(double) * 6 * (size_t)nc), *u = c + 2 * nc, *g = u + nc,
         *phi = g + 2 * nc;
  if (!lo || !c) {
    fprintf(stderr, "limiter: out of memory\n");
    return 1;
  }
  const double *x = m.x;
  const int *t = m.c2n;
#define X(e, s) (x + 2 * t[3 * (e) + (s)])
#define N(a, e, s) ((a) + t[3 * (e) + (s)])
  for (int e = 0; e < nc; e++)
    centroid(X(e, 0), X(e, 1), X(e, 2), c + 2 * e, u + e);
  for (int k = 0; k < nn; k++)
    node_init(lo + k, hi + k, sum + k, count + k);
  for (int e = 0; e < nc; e++)
    bounds(u + e, N(lo, e, 0), N(lo, e, 1), N(lo, e, 2), N(hi, e, 0), N(hi, e, 1), N(hi, e, 2));
  for (int e = 0; e < nc; e++)
    nodal_sum(u + e, N(sum, e, 0), N(sum, e, 1), N(sum, e, 2), N(count, e, 0), N(count, e, 1),
              N(count, e, 2));
  for (int k = 0; k < nn; k++)
    nodal_avg(sum + k, count + k, avg + k);
  for (int e = 0; e < nc; e++)
    gradient(X(e, 0), X(e, 1), X(e, 2), N(avg, e, 0), N(avg, e, 1), N(avg, e, 2), g + 2 * e);
  for (int e = 0; e < nc; e++)
    limit(X(e, 0), X(e, 1), X(e, 2), N(lo, e, 0), N(lo, e, 1), N(lo, e, 2), N(hi, e, 0),
          N(hi, e, 1), N(hi, e, 2), c + 2 * e, u + e, g + 2 * e, phi + e);
  double excess = 0.0, phimin = 1.0;
  int limited = 0;
  for (int e = 0; e < nc; e++)
    check(X(e, 0), X(e, 1), X(e, 2), N(lo, e, 0), N(lo, e, 1), N(lo, e, 2), N(hi, e, 0),
          N(hi, e, 1), N(hi, e, 2), c + 2 * e, u + e, g + 2 * e, phi + e, &excess, &phimin,
          &limited);
  double slo = 0.0, shi = 0.0;
  for (int k = 0; k < nn; k++) {
    slo += lo[k];
    shi += hi[k];
  }
  printf("bounds: lower sum %.17g, upper sum %.17g\n", slo, shi);
  printf("phi: least %.6f, %d of %d cells limited\n", phimin, limited, nc);
  printf("largest excess over the bounds: %.3g\n", excess);
  int rc = 0;
  if (excess > 1e-12) {
    fprintf(stderr, "limiter: a limited reconstruction leaves its bounds by %g\n", excess);
    rc = 1;
  }
  free(lo);
  free(c);
  tri_mesh_free(&m);
  return rc;
}
