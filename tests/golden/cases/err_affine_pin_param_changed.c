/* pin where host code changes the domain's parameter n between producer
 * and consumer: the producer's domain reads n. */
static void copy(const double *a, double *b) { *b = *a; }

void f(int n, const double *x, double *t, double *w) {
#pragma loom pin(t)
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], write: t[i])
  n = n - 1;
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], write: w[i])
}
