/*
 * xcol_hand.c — xcol.c written by hand, as a careful programmer of an
 * extruded code writes it: the columns' values contiguous, each column's
 * six base-map entries read once, the layers innermost with unit stride.
 * The baseline of bench/extruded.sh.
 *
 *   xcol_hand N LAYERS ITERS
 */
#include "xcol_kernel.h"

static void pass(const int *c2n6, int cols, int layers, const double *x, double *q) {
  const int points = layers + 1;
  for (int c = 0; c < cols; c++) {
    const int *row = c2n6 + 6 * c;
    const double *b0 = x + (size_t)row[0] * points, *b1 = x + (size_t)row[1] * points,
                 *b2 = x + (size_t)row[2] * points, *t0 = x + (size_t)row[3] * points + 1,
                 *t1 = x + (size_t)row[4] * points + 1, *t2 = x + (size_t)row[5] * points + 1;
    double *qc = q + (size_t)c * layers;
    for (int k = 0; k < layers; k++)
      xcol_mean(b0 + k, b1 + k, b2 + k, t0 + k, t1 + k, t2 + k, qc + k);
  }
}

int main(int argc, char **argv) {
  int n, layers, iters;
  xcol_args(argc, argv, &n, &layers, &iters);
  struct xcol_mesh m;
  if (xcol_mesh_make(n, layers, &m))
    return 1;
  const long cols = m.base.ncell, count = cols * layers;
  double *q = calloc((size_t)count, sizeof(double));
  if (!q)
    return 1;
  const double bytes = 8.0 * m.base.nnode * (layers + 1) + 8.0 * count + 24.0 * cols;
  double best = 1e30;
  for (int it = 0; it < iters; it++) {
    const double t0 = xcol_now();
    pass(m.c2n6, m.base.ncell, layers, m.x, q);
    const double t = xcol_now() - t0;
    best = t < best ? t : best;
  }
  xcol_report(best, count, bytes, q);
  tri_mesh_free(&m.base);
  free(m.c2n6);
  free(m.x);
  free(q);
  return 0;
}
