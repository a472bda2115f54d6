/* Error: pin(t) where the producer also reads t: its value would be read
 * from storage that a pinned temporary never has. */
#include <loom.h>

static void grow(const double *old, double *t) { t[0] = old[0] + 1.0; }
static void copy(const double *t, double *z) { z[0] = t[0]; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
  loom_dat z = loom_decl_temp(cells, 1, double, "z");
#pragma loom pin(t)
#pragma loom par_loop(grow) over(cells) args(read: t, write: t)
#pragma loom par_loop(copy) over(cells) args(read: t, write: z)
  loom_exit();
  return 0;
}
