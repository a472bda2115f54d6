/* Error: pin(t) where the producer increments t inside a time loop: each
 * step starts from the sums the last one left, which a pinned temporary
 * never stores.  Without the hint loomc chooses pin_cse. */
#include <stdlib.h>

static void acc(const double *x, double *t) { *t += *x; }
static void use(const double *t, double *y) { *y = *t; }

int main(void) {
  int n = 4;
  double *x = calloc((size_t)n, sizeof(double));
  double *t = calloc((size_t)n, sizeof(double));
  double *y = calloc((size_t)n, sizeof(double));
  for (int it = 0; it < 3; it++) {
#pragma loom pin(t)
#pragma loom par_loop(acc) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], inc: t[i])
#pragma loom par_loop(use) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], write: y[i])
  }
  free(x);
  free(t);
  free(y);
  return 0;
}
