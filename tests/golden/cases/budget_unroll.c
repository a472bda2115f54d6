/* The budget of a loop unrolled (UNROLL_LOOPS, 16): a loop of 2 iterations
 * in a time loop whose body runs 17 par_loops is not unrolled, and the
 * note names the budget (--report). */
#include <loom.h>
#include <stdio.h>

static void copy(const double *a, double *b) { b[0] = a[0] + 1.0; }

int main(int argc, char **argv) {
  double v[3] = {0.0, 1.0, 4.0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat d0 = loom_decl_dat(cells, 1, double, v, "d0");
  loom_dat d1 = loom_decl_dat(cells, 1, double, v, "d1");

  for (int it = 0; it < 3; it++) {
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
    }
  }
  loom_exit();
  return 0;
}
