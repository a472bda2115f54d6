/* `#pragma loom sync(r, rms)` forces every pending computation on r and
 * on rms, and nothing else: it reads and writes all of both, so it comes
 * after the loops that write r or reduce rms, and before the later loop
 * that reads r; the loop on s is not ordered against it.  write_to_disk,
 * whose body loomc does not see, reads and writes the unseen state, which
 * may be any C variable (rms) but no dat: after the sync, and not ordered
 * against the loops, which read no variable. */
#include <loom.h>

static void scale(const double *q, double *r) { *r = 2.0 * *q; }
static void sumsq(const double *q, double *rms) { *rms += *q * *q; }
static void copy(const double *q, double *s) { *s = *q; }

extern void write_to_disk(const char *path);

int main(int argc, char **argv) {
  double zeros[4] = {0};
  double rms = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat q = loom_decl_dat(cells, 1, double, zeros, "q");
  loom_dat r = loom_decl_temp(cells, 1, double, "r");
  loom_dat s = loom_decl_temp(cells, 1, double, "s");
#pragma loom par_loop(scale) over(cells) args(read: q, write: r)
#pragma loom par_loop(sumsq) over(cells) args(read: q, inc: rms)
#pragma loom par_loop(copy) over(cells) args(read: q, write: s)
#pragma loom sync(r, rms)
  write_to_disk("out.dat"); /* unseen: waits for rms, not for r */
#pragma loom par_loop(copy) over(cells) args(read: r, write: q)
  loom_exit();
  return 0;
}
