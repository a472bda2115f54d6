/* A collective call that rank 0 alone makes, in a program loomc
 * translated: rank 0's message names the calls by the lines of this file
 * (the generated code's #line directives), not of the generated one. */
#include <loom.h>
#include <stdio.h>

static void twice(const double *a, double *b) { b[0] = 2 * a[0]; }

int main(int argc, char **argv) {
  double v[4] = {1, 2, 3, 4}, out[4] = {0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat a = loom_decl_dat(cells, 1, double, v, "a");
  loom_dat b = loom_decl_temp(cells, 1, double, "b");
#pragma loom par_loop(twice) over(cells) args(read: a, write: b)
  if (loom_rank() == 0)
    loom_dat_fetch(b, out, sizeof out); /* rank 0 alone */
  printf("%g\n", out[3]);
  loom_exit(); /* every rank */
  return 0;
}
