/* Error: a dat of long double, which is not a dat element type. */
#include <loom.h>

static void zero(long double *v) { *v = 0.0L; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_temp(cells, 1, long double, "v");
#pragma loom par_loop(zero) over(cells) args(write: v)
  loom_exit();
  return 0;
}
