/* The domain is not a string literal. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const double *x, double *t, double *y) {
#pragma loom par_loop(copy) domain(n) args(read: x[i], write: y[i])
}
