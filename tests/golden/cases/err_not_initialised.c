/* Error: a dat handle assigned after its declaration, without facts: loomc
 * reads a dat's facts from its declaration's initialiser or LOOM_DAT_FACTS. */
#include <loom.h>

static void zero(double *v) { *v = 0.0; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v;
  v = loom_decl_temp(cells, 1, double, "v");
#pragma loom par_loop(zero) over(cells) args(write: v)
  loom_exit();
  return 0;
}
