/* A dat that no loop names directly, written by a loop through a struct
 * member (difftest seed 400408): the fetch of d by its own name must wait
 * for that loop.  It did not (the fetch named no object of the effects
 * model): the loop was fused with the later one and ran after the fetch. */
#include <loom.h>
#include <stdio.h>

typedef struct mesh {
  loom_set cells, nodes;
  loom_map pc LOOM_MAP_FACTS(cells, nodes, 1);
  loom_dat d LOOM_DAT_FACTS(nodes, 1, double);
} mesh;

static void set7(double *v) { v[0] = 7; }

int main(int argc, char **argv) {
  double init[3] = {1, 2, 3}, out[3];
  int pc[3] = {2, 0, 1};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(3, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map p = loom_decl_map(cells, nodes, 1, pc, "pc");
  loom_dat d = loom_decl_dat(nodes, 1, double, init, "d");
  loom_dat t = loom_decl_temp(nodes, 1, double, "t");
  mesh m = {cells, nodes, p, d};
#pragma loom par_loop(set7) over(cells) args(write: m.d[p[0]])
  loom_dat_fetch(d, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g\n", out[0], out[1], out[2]);
#pragma loom par_loop(set7) over(cells) args(write: t[p[0]])
  loom_exit();
  return 0;
}
