/* Error: sync names dats and global variables, not a set. */
#include <loom.h>

static void zero(double *v) { *v = 0.0; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
#pragma loom par_loop(zero) over(cells) args(write: t)
#pragma loom sync(t, cells)
  loom_exit();
  return 0;
}
