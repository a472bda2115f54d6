/* loom_checkpoint reads every dat: the loop before it runs before it (it
 * is not fused with the loop after, which would move it past the call). */
#include <loom.h>

static void scale(const double *a, double *b) { b[0] = 2.0 * a[0]; }
static void shift(const double *b, double *c) { c[0] = b[0] + 1.0; }

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(8, "cells");
  double v[8] = {0};
  loom_dat a = loom_decl_dat(cells, 1, double, v, "a");
  loom_dat b = loom_decl_dat(cells, 1, double, v, "b");
  loom_dat c = loom_decl_dat(cells, 1, double, v, "c");
#pragma loom par_loop(scale) over(cells) args(read: a, write: b)
  loom_checkpoint("state.h5", 1);
#pragma loom par_loop(shift) over(cells) args(read: b, write: c)
  loom_exit();
  return 0;
}
