/* pin where host code reads the temporary before its producer in a time
 * loop: from the second step on it reads what the last step's producer
 * stored, which a pinned temporary never is. */
#include <stdio.h>

static void copy(const double *a, double *b) { *b = *a; }

void f(int n, const double *x, double *t, double *w) {
  for (int it = 0; it < 3; it++) {
    printf("%g\n", t[0]);
#pragma loom pin(t)
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], write: t[i])
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], write: w[i])
  }
}
