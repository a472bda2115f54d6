/* tests/e2e/link_lines.sh: a program without matrices, linked with each
 * documented line of a program without matrices.  Prints its sum (72) and
 * the number of ranks. */
#include <loom.h>
#include <stdio.h>

static void twice(const double *x, double *y, double *sum) {
  *y = 2 * *x;
  *sum += *y;
}

int main(int argc, char **argv) {
  double v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, sum = 0;
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  loom_set cells = loom_decl_set(8, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(twice) over(cells) args(read: x, write: y, inc: sum)
  if (loom_rank() == 0)
    printf("plain: sum %g on %d ranks\n", sum, loom_nranks());
  return loom_exit() == LOOM_OK && sum == 72 ? 0 : 1;
}
