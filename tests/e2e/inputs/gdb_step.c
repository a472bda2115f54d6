/* Input of tests/e2e/gdb_step.sh: gdb must show this file's lines in the
 * kernels and at the directives, and the output file's lines in the loop
 * functions.  The first loop's directive spans three lines, so the loop
 * functions of main come after a multi-line directive. */
#include <loom.h>

static void scale(const double *x, double *y) {
  y[0] = 2.0 * x[0]; /* @scale-first */
}

static void total(const double *y, double *sum) {
  double v = y[0]; /* @total-first */
  *sum += v;
}

static void prepare(const double *data, double *out) {
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(scale) over(cells) \
    args(read: x, \
         write: y)
  loom_dat_fetch(y, out, 3 * sizeof *out);
}

int main(int argc, char **argv) {
  double data[3] = {1, 2, 3}, doubled[3], sum = 0.0;
  loom_init(&argc, &argv);
  prepare(data, doubled);
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat y = loom_decl_dat(cells, 1, double, doubled, "y");
#pragma loom par_loop(total) over(cells) args(read: y, inc: sum)
  loom_exit();
  return sum == 12.0 ? 0 : 1;
}
