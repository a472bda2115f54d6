/* The budget of a group (FUSE_GROUP_LOOPS, 64): 66 direct loops over one
 * set, each fusable with the one before, make two groups, and the refusal
 * names the budget (--report). */
#include <loom.h>
#include <stdio.h>

static void copy(const double *a, double *b) { b[0] = a[0] + 1.0; }

int main(int argc, char **argv) {
  double v[3] = {0.0, 1.0, 4.0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_dat d0 = loom_decl_dat(cells, 1, double, v, "d0");
  loom_dat d1 = loom_decl_dat(cells, 1, double, v, "d1");

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
#pragma loom par_loop(copy) over(cells) args(read: d1, write: d0)
  double r[3];
  loom_dat_fetch(d0, r, sizeof r);
  printf("%g %g %g\n", r[0], r[1], r[2]);
  loom_exit();
  return 0;
}
