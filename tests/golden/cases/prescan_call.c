/* Unrolling the syntax decides, in a program whose time loop also calls a function that runs loops: the analysis of the unrolled text sees that call through, and writes twice the body of relax, which the call left alone, in the same round (transform/prescan.h, version.h), so the program is parsed twice where the input translated as it stands took four parses; the output is what that gave. */
#include <loom.h>

static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }
static inline void settle(const double *b, double *a) { a[0] += b[0]; }
static inline void save(const double *a, double *o) { o[0] = a[0]; }

static void relax(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
                  loom_dat b LOOM_DAT_FACTS(nodes, 1, double)) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#pragma loom par_loop(settle) over(nodes) args(read: b, rw: a)
}

int main(int argc, char **argv) {
  static double data[6] = {1, 2, 3, 4, 5, 6};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_dat a = loom_decl_dat(nodes, 1, double, data, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, data, "b");
  loom_dat old = loom_decl_dat(nodes, 1, double, data, "old");
  int niter = argc * 10;
  for (int iter = 1; iter <= niter; iter++) {
#pragma loom par_loop(save) over(nodes) args(read: a, write: old)
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#pragma loom par_loop(settle) over(nodes) args(read: b, rw: a)
    }
    relax(nodes, a, b);
  }
  loom_exit();
  return 0;
}
