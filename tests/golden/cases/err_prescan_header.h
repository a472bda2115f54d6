/* A header with a loom directive: loomc translates the main file only. */
static inline void halve(const double *a, double *b) { b[0] = 0.5 * a[0]; }
#pragma loom par_loop(halve) over(nodes) args(read: a, write: b)
