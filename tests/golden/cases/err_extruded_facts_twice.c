/* Error: an extruded set's facts name an extruded set as its base. */
#include <loom.h>

static void grad(const double *lo, const double *hi, double *g) { g[0] = hi[0] - lo[0]; }

static void step(loom_set cells, loom_set nodes, loom_map cn LOOM_MAP_FACTS(cells, nodes, 2),
                 loom_set pre LOOM_EXTRUDED_SET_FACTS(cells), loom_set cols LOOM_EXTRUDED_SET_FACTS(pre),
                 loom_set verts LOOM_EXTRUDED_SET_FACTS(nodes),
                 loom_map cv LOOM_EXTRUDED_MAP_FACTS(cols, verts, 2, cn, 0, 1),
                 loom_dat px LOOM_DAT_FACTS(verts, 1, double),
                 loom_dat pg LOOM_DAT_FACTS(cols, 1, double)) {
#pragma loom par_loop(grad) over(cols) args(read: px[cv[0]], px[cv[1]], write: pg)
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  (void)step;
  loom_exit();
  return 0;
}
