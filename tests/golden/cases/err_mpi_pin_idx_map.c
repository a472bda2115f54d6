/* Error (--target=mpi): the producer of pinned t numbers elements through
 * a map (idx[next[0]]) and its consumer reads t through a map: at halo
 * elements the producer would read rows of next that no rank holds (found
 * by tests/difftest, seed 1157: the results depended on the partition). */
#include <loom.h>

static void number(const int *n, double *t) { t[0] = *n; }
static void gather(const double *t, double *y) { y[0] = t[0]; }

int main(int argc, char **argv) {
  static const int c2c[4] = {1, 2, 3, 0}, e2c[4] = {0, 1, 2, 3};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map next = loom_decl_map(cells, cells, 1, c2c, "next");
  loom_map ec = loom_decl_map(edges, cells, 1, e2c, "ec");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
  loom_dat y = loom_decl_temp(edges, 1, double, "y");
#pragma loom pin(t)
#pragma loom par_loop(number) over(cells) args(read: idx[next[0]], write: t)
#pragma loom par_loop(gather) over(edges) args(read: t[ec[0]], write: y)
  loom_exit();
  return 0;
}
