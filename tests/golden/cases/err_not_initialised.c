/* Error: a dat handle assigned after its declaration: loomc reads a dat's
 * facts from the initialiser of its declaration. */
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
