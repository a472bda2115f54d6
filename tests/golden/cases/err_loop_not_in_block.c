/* Error: a par_loop as the body of a for statement without braces: it must
 * be a statement of a block. */
#include <loom.h>

static void relax(const double *r, double *q) { *q -= 0.5 * *r; }

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat r = loom_decl_dat(cells, 1, double, data, "r");
  loom_dat q = loom_decl_temp(cells, 1, double, "q");
  for (int iter = 0; iter < 10; iter++)
#pragma loom par_loop(relax) over(cells) args(read: r, rw: q)
  loom_exit();
  return 0;
}
