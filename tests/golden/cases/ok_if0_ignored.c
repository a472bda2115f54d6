/* OK: directives in skipped preprocessor ranges are ignored, even when they
 * are malformed; the directive of the taken branch is translated. */
#include <loom.h>

static void copy(const double *x, double *y) { y[0] = x[0]; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#if 0
#pragma loom par_loop(copy) over(nodes) args(read: x, frobnicate: y)
#pragma loom this is not a directive at all
#endif
#ifdef LOOM_NOT_DEFINED
#pragma loom par_loop(copy) over(cells) args(read: y, write: x)
#else
#pragma loom par_loop(copy) over(cells) args(read: x, write: y)
#endif
  loom_exit();
  return 0;
}
