/* Under MPI a reduction is folded before the first computation that reads
 * its global.  Here that computation is the first iteration of a loop
 * statement whose head (lift, reading lowest) is rotated into the group
 * before the loop (fill + total + lift): the fold of lowest must come
 * before that group's call, not before the `for` (found by the difftest,
 * seed 62020).  It came after it, so
 * the first lift read lowest before the minimum was known (1e9, not 1). */
#include <loom.h>
#include <stdio.h>

static inline void low(double *g, const double *x, const double *y) {
  if (x[0] + y[0] < *g)
    *g = x[0] + y[0];
}
static inline void fill(double *t) { t[0] = 2.0; }
static inline void total(double *s, const double *t) { *s += t[0]; }
static inline void lift(double *y, const double *g) {
  if (*g + 10.0 > y[0])
    y[0] = *g + 10.0;
}

int main(int argc, char **argv) {
  double xs[6] = {5, 3, 8, 1, 9, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(6, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, xs, "x");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
  struct { loom_set cells; } m = {cells}; /* the set as a member: total and
                                           * lift are not fused with low */
  double lowest = 1e9, sum = 0.0;
#pragma loom par_loop(low) over(cells) args(min: lowest, read: x, y)
  double before[6]; /* a host statement: low is not fused with fill */
  loom_dat_fetch(y, before, sizeof before);
#pragma loom par_loop(fill) over(cells) args(write: t)
#pragma loom par_loop(total) over(m.cells) args(inc: sum, read: t)
  for (int it = 0; it < 2; it++) {
#pragma loom par_loop(lift) over(m.cells) args(max: y, read: lowest)
  }
  double out[6];
  loom_dat_fetch(y, out, sizeof out);
  if (loom_rank() == 0)
    printf("lowest %g sum %g y %g %g %g %g %g %g before %g\n", lowest, sum, out[0], out[1],
           out[2], out[3], out[4], out[5], before[0]);
  loom_exit();
  return 0;
}
