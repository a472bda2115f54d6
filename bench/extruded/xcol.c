/*
 * xcol.c — bench/extruded.sh's loop over an extruded set, through loomc:
 * prisms over the base triangles (LAYERS per column), the vertical lines
 * over its nodes (LAYERS + 1 points), ITERS passes of xcol_mean; prints
 * xcol_report's line for the best pass.  Built with -DXCOL_COLUMNS
 * (xcol_columns), the two sets are declared by columns, each column
 * LAYERS high: the cost of reading each column's own layers.
 *
 *   xcol N LAYERS ITERS
 */
#include <loom.h>

#include "xcol_kernel.h"

int main(int argc, char **argv) {
  int n, layers, iters;
  xcol_args(argc, argv, &n, &layers, &iters);
  struct xcol_mesh m;
  if (xcol_mesh_make(n, layers, &m))
    return 1;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(m.base.ncell, "cells");
  loom_set nodes = loom_decl_set(m.base.nnode, "nodes");
  loom_map c2n = loom_decl_map(cells, nodes, 6, m.c2n6, "c2n");
#ifdef XCOL_COLUMNS
  int *heights = malloc(sizeof(int) * (size_t)(m.base.ncell + m.base.nnode));
  for (int i = 0; i < m.base.ncell + m.base.nnode; i++)
    heights[i] = i < m.base.ncell ? layers : layers + 1;
  loom_set prisms = loom_decl_extruded_set_columns(cells, heights, "prisms");
  loom_set lines = loom_decl_extruded_set_columns(nodes, heights + m.base.ncell, "lines");
  free(heights);
#else
  loom_set prisms = loom_decl_extruded_set(cells, layers, "prisms");
  loom_set lines = loom_decl_extruded_set(nodes, layers + 1, "lines");
#endif
  loom_map p2v = loom_decl_extruded_map(prisms, lines, 6, c2n,
                                        (const int[]){0, 0, 0, 1, 1, 1}, "p2v");
  loom_dat p_x = loom_decl_dat(lines, 1, double, m.x, "p_x");
  loom_dat p_q = loom_decl_temp(prisms, 1, double, "p_q");
  const long cols = m.base.ncell, count = cols * layers;
  const double bytes = 8.0 * m.base.nnode * (layers + 1) + 8.0 * count + 24.0 * cols;
  tri_mesh_free(&m.base);
  free(m.c2n6);
  free(m.x);
  double best = 1e30;
  for (int it = 0; it < iters; it++) {
    const double t0 = xcol_now();
#pragma loom par_loop(xcol_mean) over(prisms) \
    args(read: p_x[p2v[0]], p_x[p2v[1]], p_x[p2v[2]], p_x[p2v[3]], p_x[p2v[4]], p_x[p2v[5]], \
         write: p_q)
    const double t = xcol_now() - t0;
    best = t < best ? t : best;
  }
  double *q = malloc(sizeof(double) * (size_t)count);
  if (!q || loom_dat_fetch(p_q, q, sizeof(double) * (size_t)count) != LOOM_OK)
    return 1;
  xcol_report(best, count, bytes, q);
  free(q);
  loom_exit();
  return 0;
}
