/* Unrolling decided on the syntax (transform/prescan.h): the k loop of 2 iterations in the time loop's body holds only par_loops and an assignment, so it is written out before the full parse, which reads the expanded text once; the one of 3 iterations, counting down, in the second time loop likewise.  The output and the report are those the analysis of the input gives (--no-prescan; tests/e2e/prescan.sh compares them). */
#include <loom.h>

static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }
static inline void spread(const double *b0, const double *b1, double *t0, double *t1) {
  t0[0] += b1[0];
  t1[0] += b0[0];
}
static inline void settle(const double *t, double *a, double *rms) {
  a[0] += t[0];
  *rms += t[0] * t[0];
}
static inline void save(const double *a, double *o) { o[0] = a[0]; }

int main(int argc, char **argv) {
  static double data[6] = {1, 2, 3, 4, 5, 6};
  static const int e2n[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat a = loom_decl_dat(nodes, 1, double, data, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, data, "b");
  loom_dat old = loom_decl_dat(nodes, 1, double, data, "old");
  loom_dat t = loom_decl_temp(nodes, 1, double, "t");
  int niter = argc * 10;
  double rms = 0.0;
  for (int iter = 1; iter <= niter; iter++) {
#pragma loom par_loop(save) over(nodes) args(read: a, write: old)
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#pragma loom par_loop(spread) over(edges) args(read: b[en[0]], b[en[1]], inc: t[en[0]], t[en[1]])
      rms = 0.0;
#pragma loom par_loop(settle) over(nodes) args(read: t, rw: a, inc: rms)
    }
  }
  int n = 0;
  while (n < niter) {
    for (int stage = 2; stage >= 0; stage -= 1) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
    }
    n++;
  }
  loom_exit();
  return rms > 0.0 ? 0 : 1;
}
