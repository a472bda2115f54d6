/* pin(t) where the producer writes each t[i] once per j (the last write
 * counts): each use's local is set inside the loop over j, which a C
 * compiler cannot see runs at least once, so the local starts at 0 (the
 * golden runner compiles the output at -O2 with -Wall -Werror). */
static void row(const double *a, const double *b, double *t) { *t = *a * *b; }
static void use(const double *t, double *y) { *y += *t - 1024.0 * __builtin_floor(*t / 1024.0); }

void rows(int n, double a[n][n], const double *b, double *t, double *y) {
#pragma loom pin(t)
#pragma loom par_loop(row) domain("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }") \
    args(read: a[i][j], b[j], write: t[i])
#pragma loom par_loop(use) domain("[n] -> { [i] : 0 <= i < n }") \
    args(read: t[i], inc: y[i])
}
