/* Host code that reads a global waits only for the reduction that
 * produces it: printf("%g", rms) depends on ReductionEnd(rms) and on
 * nothing else, and the loop after it (which does not use rms) is not
 * ordered against it.  Host code that names neither (the puts) is not a
 * computation. */
#include <stdio.h>

#include <loom.h>

static void sumsq(const double *q, double *rms) { *rms += *q * *q; }
static void scale(const double *q, double *r) { *r = 2.0 * *q; }

int main(int argc, char **argv) {
  double zeros[4] = {0};
  double rms = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat q = loom_decl_dat(cells, 1, double, zeros, "q");
  loom_dat r = loom_decl_temp(cells, 1, double, "r");
#pragma loom par_loop(sumsq) over(cells) args(read: q, inc: rms)
  printf("rms %g\n", rms);
  puts("step done");
#pragma loom par_loop(scale) over(cells) args(read: q, write: r)
  loom_exit();
  return 0;
}
