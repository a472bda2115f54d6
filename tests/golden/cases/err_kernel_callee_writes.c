/* Error: a kernel calls a function that writes a file-scope variable (the
 * kernel's own body writes none): file-scope variables are constants inside
 * kernels, also in the functions they call whose bodies loomc sees. */
#include <loom.h>

static double calls;
static double count(double v) { calls += 1.0; return v; }
static void copy(const double *a, double *b) { *b = count(*a); }

int main(int argc, char **argv) {
  static double ones[4] = {1, 1, 1, 1};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, ones, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(copy) over(cells) args(read: x, write: y)
  loom_exit();
  return 0;
}
