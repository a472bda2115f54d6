/*
 * A pinned temporary of an extruded set that its consumer reads through
 * two arguments: the producer is evaluated in the consumer's cell once
 * per argument, and its pointers at the column were once declared once
 * per argument too — a redefinition the C compiler refused (found by the
 * differential tester, seed 101239).
 */
#include <loom.h>
#include <stdio.h>

static void twice(const double *x, double *t) { t[0] = 2.0 * x[0]; }
static void add(const double *a, double *sum, const double *b) { *sum += a[0] + b[0]; }

int main(int argc, char **argv) {
  static double xs[6] = {1, 2, 3, 4, 5, 6};
  double sum = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set column = loom_decl_extruded_set(cells, 2, "column");
  loom_dat x = loom_decl_dat(column, 1, double, xs, "x");
  loom_dat t = loom_decl_temp(column, 1, double, "t");
#pragma loom pin(t)
#pragma loom par_loop(twice) over(column) args(read: x, write: t)
#pragma loom par_loop(add) over(column) args(read: t, inc: sum, read: t)
  if (loom_rank() == 0)
    printf("%g\n", sum);
  loom_exit();
  return 0;
}
