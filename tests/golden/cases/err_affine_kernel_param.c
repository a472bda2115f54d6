/* An affine argument whose element type is not the kernel's. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }

void f(int n, const int *v, double *y) {
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: v[i], write: y[i])
}
