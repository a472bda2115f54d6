/* Error: a dat declared on an element of an array of sets: loomc needs a
 * loom_set variable declared with loom_decl_set to know the dat's set. */
#include <loom.h>

static void zero(double *v) { *v = 0.0; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set sets[1] = {cells};
  loom_dat v = loom_decl_temp(sets[0], 1, double, "v");
#pragma loom par_loop(zero) over(cells) args(write: v)
  loom_exit();
  return 0;
}
