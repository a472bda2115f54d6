/* pin_cse where host code changes a file-scope variable the producer's
 * kernel reads, between producer and consumer: moved to the consumer, the
 * producer would see the new value (the effects model: semantics.md §9.0). */
static double scale = 1.0;
static void scaled(const double *a, double *b) { *b = scale * *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const double *x, double *t, double *w) {
#pragma loom pin_cse(t)
#pragma loom par_loop(scaled) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], write: t[i])
  scale = 2.0;
#pragma loom par_loop(add2) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], x[i], write: w[i])
}
