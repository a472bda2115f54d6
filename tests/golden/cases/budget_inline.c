/* The budget of a call seen through (INLINE_LOOPS, 32): a function of the
 * file running 33 par_loops is called as it is, and the note names the
 * budget (--report). */
#include <loom.h>
#include <stdio.h>

static void copy(const double *a, double *b) { b[0] = a[0] + 1.0; }

static void sweep(loom_set cells, loom_dat d0 LOOM_DAT_FACTS(cells, 1, double),
                  loom_dat d1 LOOM_DAT_FACTS(cells, 1, double)) {
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

int main(int argc, char **argv) {
  double v[3] = {0.0, 1.0, 4.0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat d0 = loom_decl_dat(cells, 1, double, v, "d0");
  loom_dat d1 = loom_decl_dat(cells, 1, double, v, "d1");

  for (int it = 0; it < 2; it++) {
    sweep(cells, d0, d1);
#pragma loom par_loop(copy) over(cells) args(read: d0, write: d1)
  }
  loom_exit();
  return 0;
}
