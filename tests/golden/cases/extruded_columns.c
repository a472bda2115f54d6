/* Columns of their own heights (loom_decl_extruded_set_columns): a loop
 * runs layers 0 to its column's own count (its region's of them), read
 * once per column; storage strides stay the highest column's.
 *
 * lid writes the top prism of each column, and peek, over the interior,
 * reads the same layer of the neighbouring columns (nb: shift 0).  Over
 * one number of layers (slabs) the interior never reaches a top, so the
 * two fuse column by column; over columns of their own heights (cols) a
 * neighbour's top may be any layer, so they do not.  settle runs in a
 * function that receives the set by its facts (LOOM_EXTRUDED_COLUMNS_FACTS). */
#include <loom.h>

static void lid(double *t) { t[0] = 1.0; }
static void peek(const double *a, const double *b, double *s) { s[0] += a[0] + b[0]; }
static void settle(double *t) { t[0] *= 0.5; }

static void relax(loom_set cells, loom_set cols LOOM_EXTRUDED_COLUMNS_FACTS(cells),
                  loom_dat t LOOM_DAT_FACTS(cols, 1, double)) {
  (void)cells;
#pragma loom par_loop(settle) over(cols) args(rw: t)
}

int main(int argc, char **argv) {
  int c2c[6] = {1, 2, 0, 2, 0, 1};
  int heights[3] = {3, 1, 4};
  static double ts[3 * 4], ss[3 * 4], tc[3 * 4], sc[3 * 4];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_map c2 = loom_decl_map(cells, cells, 2, c2c, "c2");
  loom_set slabs = loom_decl_extruded_set(cells, 4, "slabs");
  loom_set cols = loom_decl_extruded_set_columns(cells, heights, "cols");
  loom_map nbs = loom_decl_extruded_map(slabs, slabs, 2, c2, (const int[]){0, 0}, "nbs");
  loom_map nbc = loom_decl_extruded_map(cols, cols, 2, c2, (const int[]){0, 0}, "nbc");
  loom_dat t_s = loom_decl_dat(slabs, 1, double, ts, "t_s");
  loom_dat s_s = loom_decl_dat(slabs, 1, double, ss, "s_s");
  loom_dat t_c = loom_decl_dat(cols, 1, double, tc, "t_c");
  loom_dat s_c = loom_decl_dat(cols, 1, double, sc, "s_c");
#pragma loom par_loop(lid) over(slabs) region(top) args(write: t_s)
#pragma loom par_loop(peek) over(slabs) region(interior) args(read: t_s[nbs[0]], t_s[nbs[1]], rw: s_s)
#pragma loom par_loop(lid) over(cols) region(top) args(write: t_c)
#pragma loom par_loop(peek) over(cols) region(interior) args(read: t_c[nbc[0]], t_c[nbc[1]], rw: s_c)
  relax(cells, cols, t_c);
  loom_exit();
  return 0;
}
