/* A loom directive in a header of a program whose loops the syntax unrolls: the translation of the expanded text scans the headers (it is the first parse of the unit, transform/prescan.h), so the directive's error is said as without the syntax's decision. */
#include <loom.h>

#include "err_prescan_header.h"

static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }

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
    }
  }
  loom_exit();
  return 0;
}
