/* Layer by layer, in order: a loop may join a layer run when each of its
 * dependences on the run goes from a cell to the same cell or to one
 * above it in the column, which the layer loop runs later (each layer
 * runs the loops in program order).
 *
 * flux reads q at its layer and the one above (up); relax then updates q
 * in place.  relax at layer l overwrites what flux read at layer l - 1,
 * below: the three run in one loop over the layers.  drop reads the
 * layer below (down, from the top layer) what relax wrote: also forward.
 * peek reads the layer above what relax wrote, which a layer loop has not
 * run yet: its layers run after the others'. */
#include <loom.h>

static void init(double *q) { q[0] = 1.0; }
static void flux(const double *lo, const double *hi, double *f) { f[0] = hi[0] - lo[0]; }
static void relax(const double *f, double *q) { q[0] += 0.5 * f[0]; }
static void drop(const double *below, double *t) { t[0] = below[0]; }
static void peek(const double *here, const double *above, double *s) {
  s[0] = here[0] + above[0];
}

int main(int argc, char **argv) {
  static double qs[4 * 5], fs[4 * 5], ts[4 * 5], ss[4 * 5];
  int layers = argc + 4;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set cols = loom_decl_extruded_set(cells, layers, "cols");
  loom_map up = loom_decl_extruded_map(cols, cols, 2, NULL, (const int[]){0, 1}, "up");
  loom_map down = loom_decl_extruded_map(cols, cols, 1, NULL, (const int[]){-1}, "down");
  loom_dat q = loom_decl_dat(cols, 1, double, qs, "q");
  loom_dat f = loom_decl_dat(cols, 1, double, fs, "f");
  loom_dat t = loom_decl_dat(cols, 1, double, ts, "t");
  loom_dat s = loom_decl_dat(cols, 1, double, ss, "s");
#pragma loom par_loop(init) over(cols) args(write: q)
#pragma loom par_loop(flux) over(cols) region(interior) args(read: q[up[0]], q[up[1]], write: f)
#pragma loom par_loop(relax) over(cols) args(read: f, rw: q)
#pragma loom par_loop(drop) over(cols) region(top) args(read: q[down[0]], write: t)
#pragma loom par_loop(peek) over(cols) region(interior) args(read: q[up[0]], q[up[1]], write: s)
  loom_exit();
  return 0;
}
