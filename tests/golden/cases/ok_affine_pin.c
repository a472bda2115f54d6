/* pin(t): t = 2 x is never stored; each use in the consumer evaluates it
 * into a local.  The consumer reads t at i and at i + 1. */
static void twice(const double *x, double *t) { *t = 2.0 * *x; }
static void diff(const double *t0, const double *t1, double *d) { *d = *t1 - *t0; }

void differences(int n, const double *x, double *t, double *d) {
#pragma loom pin(t)
#pragma loom par_loop(twice) domain("[n] -> { [i] : 0 <= i <= n }") \
    args(read: x[i], write: t[i])
#pragma loom par_loop(diff) domain("[n] -> { [i] : 0 <= i < n }") \
    args(read: t[i], t[i + 1], write: d[i])
}
