/* OK: names resolve as C scoping does at the directive: inside the nested
 * block the inner 'cells' and 'x' (a dim-2 dat on a 2-element set) are the
 * ones used; after the block, the outer ones again. */
#include <loom.h>

static void copy1(const double *a, double *b) { b[0] = a[0]; }
static void copy2(const double *a, double *b) { b[0] = a[0] + a[1]; }

int main(int argc, char **argv) {
  double d4[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, d4, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
  for (int pass = 0; pass < 2; pass++) {
    loom_set cells = loom_decl_set(2, "pairs");
    loom_dat x = loom_decl_dat(cells, 2, double, d4, "x2");
    {
      loom_dat y = loom_decl_temp(cells, 1, double, "y2");
#pragma loom par_loop(copy2) over(cells) args(read: x, write: y)
    }
  }
#pragma loom par_loop(copy1) over(cells) args(read: x, write: y)
  loom_exit();
  return 0;
}
