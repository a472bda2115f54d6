/* Affine loops: a triangular 2-D domain over fixed-size arrays; a loop
 * whose outermost variable carries a dependence (openmp leaves it
 * sequential); and a temporary h with no hint, which loomc pins (its one
 * consumer reads each element once). */
static void copy_lower(const double *a, double *l) { *l = *a; }
static void running(const double *prev, const double *x, double *y) {
  *y = *prev + *x;
}
static void halve(const double *x, double *h) { *h = 0.5 * *x; }
static void add(const double *h, const double *y, double *z) { *z = *h + *y; }

void lower_and_prefix(int n, double a[16][16], double l[16][16], const double *x,
                      double *y, double *h, double *z) {
  if (n > 15)
    return;
#pragma loom par_loop(copy_lower) domain("[n] -> { [i, j] : 0 <= j <= i < n }") \
    args(read: a[i][j], write: l[i][j])
#pragma loom par_loop(running) domain("[n] -> { [i] : 0 <= i < n }") \
    args(read: y[i], x[i], write: y[i + 1])
#pragma loom par_loop(halve) domain("[n] -> { [i] : 0 <= i < n }") args(read: x[i], write: h[i])
#pragma loom par_loop(add) domain("[n] -> { [i] : 0 <= i < n }") \
    args(read: h[i], y[i], write: z[i])
}
