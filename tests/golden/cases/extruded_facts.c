/* Extruded handles loomc does not see declared: a function's parameters
 * and a struct's members carry their facts (LOOM_EXTRUDED_SET_FACTS,
 * LOOM_EXTRUDED_MAP_FACTS); its loops are compiled as in main, and check
 * the handles they get against those facts when they run. */
#include <loom.h>

typedef struct column_mesh {
  loom_set cells, nodes;
  loom_map cn LOOM_MAP_FACTS(cells, nodes, 2);
  loom_set cols LOOM_EXTRUDED_SET_FACTS(cells);
  loom_set verts LOOM_EXTRUDED_SET_FACTS(nodes);
  loom_map cv LOOM_EXTRUDED_MAP_FACTS(cols, verts, 2, cn, 0, 1);
} column_mesh;

static void grad(const double *lo, const double *hi, double *g) { g[0] = hi[0] - lo[0]; }
static void jump(const double *below, const double *above, double *d) {
  d[0] = above[0] - below[0];
}

static void step(column_mesh *m, loom_dat px LOOM_DAT_FACTS(m->verts, 1, double),
                 loom_dat pg LOOM_DAT_FACTS(m->cols, 1, double)) {
#pragma loom par_loop(grad) over(m->cols) args(read: px[m->cv[0]], px[m->cv[1]], write: pg)
}

static void diff(loom_set cells, loom_set cols LOOM_EXTRUDED_SET_FACTS(cells),
                 loom_map up LOOM_EXTRUDED_MAP_FACTS(cols, cols, 2, NULL, 0, 1),
                 loom_dat pg LOOM_DAT_FACTS(cols, 1, double),
                 loom_dat pd LOOM_DAT_FACTS(cols, 1, double)) {
  (void)cells;
#pragma loom par_loop(jump) over(cols) region(interior) args(read: pg[up[0]], pg[up[1]], write: pd)
}

int main(int argc, char **argv) {
  int c2n[4] = {0, 1, 1, 2};
  static double x[3 * 5], g[2 * 4], d[2 * 4];
  loom_init(&argc, &argv);
  column_mesh m;
  m.cells = loom_decl_set(2, "cells");
  m.nodes = loom_decl_set(3, "nodes");
  m.cn = loom_decl_map(m.cells, m.nodes, 2, c2n, "cn");
  m.cols = loom_decl_extruded_set(m.cells, 4, "cols");
  m.verts = loom_decl_extruded_set(m.nodes, 5, "verts");
  m.cv = loom_decl_extruded_map(m.cols, m.verts, 2, m.cn, (const int[]){0, 1}, "cv");
  loom_map up = loom_decl_extruded_map(m.cols, m.cols, 2, NULL, (const int[]){0, 1}, "up");
  loom_dat px = loom_decl_dat(m.verts, 1, double, x, "px");
  loom_dat pg = loom_decl_dat(m.cols, 1, double, g, "pg");
  loom_dat pd = loom_decl_dat(m.cols, 1, double, d, "pd");
  step(&m, px, pg);
  diff(m.cells, m.cols, up, pg, pd);
  loom_exit();
  return 0;
}
