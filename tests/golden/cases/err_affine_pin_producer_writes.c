/* pin where the producer writes a second array. */
static void copy(const double *a, double *b) { *b = *a; }
static void add2(const double *a, const double *b, double *c) { *c = *a + *b; }
static void split(const double *a, double *b, double *c) { *b = *a; *c = -*a; }


void f(int n, const double *x, double *t, double *y, double *w) {
#pragma loom pin(t)
#pragma loom par_loop(split) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], write: t[i], y[i])
#pragma loom par_loop(copy) domain("[n] -> { [i] : 0 <= i < n }") args(read: t[i], write: w[i])
}
