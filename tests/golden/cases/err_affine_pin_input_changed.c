/* pin_cse where host code may change the producer's input between producer and consumer. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const double *x, double *t, double *y, double *w) {
#pragma loom pin_cse(t)
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: y[i], write: t[i])
  y[0] = 1.0;
#pragma loom par_loop(add2) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], x[i], write: w[i])
}
