/* Host code that writes a global orders against every computation that
 * reads or reduces it: `rms = 0.0` waits for the loop that broadcasts rms
 * (write after read) and comes before the reduction into it; the loop
 * that uses neither is ordered against nothing.  `rms += 1.0` reads and
 * writes rms; `reset(&rms)` passes its address, which reads and writes it;
 * `n = sizeof rms` does not evaluate rms, so it is no computation. */
#include <stdio.h>

#include <loom.h>

static void bias(const double *q, const double *rms, double *r) { *r = *q - *rms; }
static void sumsq(const double *q, double *rms) { *rms += *q * *q; }
static void copy(const double *q, double *s) { *s = *q; }
static void reset(double *g) { *g = 0.0; }

int main(int argc, char **argv) {
  double zeros[4] = {0};
  double rms = 1.0;
  unsigned long n;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat q = loom_decl_dat(cells, 1, double, zeros, "q");
  loom_dat r = loom_decl_temp(cells, 1, double, "r");
  loom_dat s = loom_decl_temp(cells, 1, double, "s");
#pragma loom par_loop(bias) over(cells) args(read: q, rms, write: r)
  rms = 0.0;
#pragma loom par_loop(sumsq) over(cells) args(read: q, inc: rms)
#pragma loom par_loop(copy) over(cells) args(read: q, write: s)
  rms += 1.0;
  reset(&rms);
  n = sizeof rms;
  loom_exit();
  return (int)n;
}
