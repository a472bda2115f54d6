/* A k loop whose body holds a conditional directive: the single-file parse does not evaluate it as the full parse does, so the syntax decides nothing (transform/prescan.h) and the analysis of the input unrolls the loop, the par_loop under `#if 0` left out. */
#include <loom.h>

static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }
static inline void settle(const double *b, double *a) { a[0] += b[0]; }

int main(int argc, char **argv) {
  static double data[6] = {1, 2, 3, 4, 5, 6};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_dat a = loom_decl_dat(nodes, 1, double, data, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, data, "b");
  int niter = argc * 10;
  for (int iter = 1; iter <= niter; iter++) {
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#if 0
#pragma loom par_loop(scale) over(nodes) args(read: b, write: a)
#endif
#pragma loom par_loop(settle) over(nodes) args(read: b, rw: a)
    }
  }
  loom_exit();
  return 0;
}
