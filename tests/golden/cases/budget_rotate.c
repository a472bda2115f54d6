/* The budget of a rotation (ROTATE_HEADS, 8): in a time loop of ten loops
 * that each read d0 through a map, the last writing it, no group can run
 * early for the next iteration; after eight heads tried the note names the
 * budget (--report). */
#include <loom.h>

static void step(const double *a, const double *b, double *c) { c[0] = a[0] + b[0]; }

int main(int argc, char **argv) {
  static const int next[3] = {1, 2, 0};
  double v[3] = {0.0, 1.0, 4.0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_map cnext = loom_decl_map(cells, cells, 1, next, "cnext");
  loom_dat d0 = loom_decl_dat(cells, 1, double, v, "d0");
  loom_dat d1 = loom_decl_dat(cells, 1, double, v, "d1");
  loom_dat d2 = loom_decl_dat(cells, 1, double, v, "d2");
  loom_dat d3 = loom_decl_dat(cells, 1, double, v, "d3");
  loom_dat d4 = loom_decl_dat(cells, 1, double, v, "d4");
  loom_dat d5 = loom_decl_dat(cells, 1, double, v, "d5");
  loom_dat d6 = loom_decl_dat(cells, 1, double, v, "d6");
  loom_dat d7 = loom_decl_dat(cells, 1, double, v, "d7");
  loom_dat d8 = loom_decl_dat(cells, 1, double, v, "d8");
  loom_dat d9 = loom_decl_dat(cells, 1, double, v, "d9");
  loom_dat d10 = loom_decl_dat(cells, 1, double, v, "d10");
  for (int it = 0; it < 3; it++) {
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d10[cnext[0]], write: d1)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d1[cnext[0]], write: d2)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d2[cnext[0]], write: d3)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d3[cnext[0]], write: d4)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d4[cnext[0]], write: d5)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d5[cnext[0]], write: d6)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d6[cnext[0]], write: d7)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d7[cnext[0]], write: d8)
#pragma loom par_loop(step) over(cells) args(read: d0[cnext[0]], d8[cnext[0]], write: d9)
#pragma loom par_loop(step) over(cells) args(read: d9[cnext[0]], d10, write: d0)
  }
  (void)d10;
  loom_exit();
  return 0;
}
