/* A loop compiled for two dats under handles loomc cannot prove distinct
 * (parameters), one written and one read through a map: called with one
 * dat for both, the result would depend on the order of the elements, so
 * the loop reports a named run-time error instead of running. */
#include <loom.h>
#include <stdio.h>

static void pull(const double *n, double *c) { c[0] = n[0] + 1; }

static void step(loom_set cells, loom_set nodes, loom_map pc LOOM_MAP_FACTS(cells, nodes, 1),
                 loom_dat from LOOM_DAT_FACTS(nodes, 1, double),
                 loom_dat to LOOM_DAT_FACTS(cells, 1, double)) {
#pragma loom par_loop(pull) over(cells) args(read: from[pc[0]], write: to)
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  double v[4] = {1, 2, 3, 4}, out[4];
  int next[4] = {1, 2, 3, 0};
  loom_set s = loom_decl_set(4, "s");
  loom_map m = loom_decl_map(s, s, 1, next, "next");
  loom_dat a = loom_decl_dat(s, 1, double, v, "a");
  loom_dat b = loom_decl_dat(s, 1, double, v, "b");
  step(s, s, m, a, b); /* two dats: runs */
  loom_dat_fetch(b, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  fflush(stdout);
  step(s, s, m, a, a); /* one dat: refused */
  loom_exit();
  return 0;
}
