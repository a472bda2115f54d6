/*
 * Found by the differential tester (seed 1200024 and six more): a loop
 * rotated with a head that writes a temporary the body declares.  Each
 * iteration declares a new temporary, so the head of the next iteration,
 * run at the end of this one, wrote this iteration's, and the next
 * iteration's tail read one nothing had written.  A head naming what the
 * body declares is not rotated.
 */
#include <loom.h>
#include <stdio.h>

static void fill(const double *a, double *t) { t[0] = a[0] + 1.0; }
static void add(const double *t, double *a) { a[0] += 2.0 * t[0]; }

int main(int argc, char **argv) {
  static double as[5] = {1, 2, 3, 4, 5};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(5, "cells");
  loom_dat a = loom_decl_dat(cells, 1, double, as, "a");
  for (int it = 0; it < 3; it++) {
    loom_dat t = loom_decl_temp(cells, 1, double, "t");
#pragma loom par_loop(fill) over(cells) args(read: a, write: t)
    double now[5];
    loom_dat_fetch(a, now, sizeof now); /* fill and add do not fuse */
    if (loom_rank() == 0)
      printf("step %d: %g\n", it, now[0]);
#pragma loom par_loop(add) over(cells) args(read: t, rw: a)
  }
  double out[5];
  loom_dat_fetch(a, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4]);
  loom_exit();
  return 0;
}
