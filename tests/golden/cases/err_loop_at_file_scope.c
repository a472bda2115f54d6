/* Error: a par_loop outside any function. */
#include <loom.h>

static void zero(double *v) { *v = 0.0; }

#pragma loom par_loop(zero) over(cells) args(write: v)

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_temp(cells, 1, double, "v");
  (void)v;
  loom_exit();
  return 0;
}
