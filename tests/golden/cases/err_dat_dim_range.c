/* Error: a dat declared with dim 0. */
#include <loom.h>

static void zero(double *v) { *v = 0.0; }

enum { NCOMP = 0 };

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_temp(cells, NCOMP, double, "v");
#pragma loom par_loop(zero) over(cells) args(write: v)
  loom_exit();
  return 0;
}
