/* Two subscripts on a one-dimensional array. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const double *x, double *t, double *y) {
#pragma loom par_loop(copy) domain("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }") \
    args(read: x[i][j], write: y[i])
}
