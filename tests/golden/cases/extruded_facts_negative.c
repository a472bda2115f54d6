/* A negative shift in LOOM_EXTRUDED_MAP_FACTS, written as a literal and
 * as a macro: a map to the layer below, on a function's parameter, read
 * from the top layer (the sign was once refused: "write an integer
 * constant"; differential tester, seed 101445). */
#include <loom.h>

#define BELOW (-1)

static void jump(const double *below, const double *here, double *d) {
  d[0] = here[0] - below[0];
}

static void diff(loom_set cells, loom_set cols LOOM_EXTRUDED_SET_FACTS(cells),
                 loom_map down LOOM_EXTRUDED_MAP_FACTS(cols, cols, 2, NULL, -1, 0),
                 loom_map down2 LOOM_EXTRUDED_MAP_FACTS(cols, cols, 2, NULL, BELOW, 0),
                 loom_dat pg LOOM_DAT_FACTS(cols, 1, double),
                 loom_dat pd LOOM_DAT_FACTS(cols, 1, double)) {
  (void)cells;
#pragma loom par_loop(jump) over(cols) region(top) args(read: pg[down[0]], pg[down[1]], write: pd)
#pragma loom par_loop(jump) over(cols) region(top) args(read: pg[down2[0]], pg[down2[1]], write: pd)
}

int main(int argc, char **argv) {
  static double g[2 * 4], d[2 * 4];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_set cols = loom_decl_extruded_set(cells, 4, "cols");
  loom_map down = loom_decl_extruded_map(cols, cols, 2, NULL, (const int[]){-1, 0}, "down");
  loom_dat pg = loom_decl_dat(cols, 1, double, g, "pg");
  loom_dat pd = loom_decl_dat(cols, 1, double, d, "pd");
  diff(cells, cols, down, down, pg, pd);
  loom_exit();
  return 0;
}
