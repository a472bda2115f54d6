/* A domain parameter that is not an integer variable. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const double *x, double *t, double *y) {
  double m = 3.0;
#pragma loom par_loop(copy) domain("[n, m] -> { [i] : 0 <= i < n and i < m }") \
    args(read: x[i], write: y[i])
}
