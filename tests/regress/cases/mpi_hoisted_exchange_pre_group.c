/*
 * A loop statement whose first loop (spread, over edges) reads x through
 * a map fuses, for its first iteration, into the group before the loop
 * statement (rotate.h).  Nothing in the loop writes x, so x's exchange is
 * hoisted before the loop statement (hoist.h) — but spread now runs
 * earlier, in the group before it: the exchange must begin before that
 * group (it once began after it, and spread's end found no begin: an
 * exchange not overlapped).
 */
#include <loom.h>
#include <stdio.h>

static void set1(double *x) { x[0] = 2.0 * x[0]; }
static void zero(double *e) { e[0] = 0.0; }
static void spread(const double *a, const double *b, double *e) { e[0] += a[0] + b[0]; }

int main(int argc, char **argv) {
  static double xs[6] = {1, 2, 3, 4, 5, 6};
  static const int e2n[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, xs, "x");
  loom_dat e = loom_decl_dat(edges, 1, double, xs, "e");
#pragma loom par_loop(set1) over(nodes) args(rw: x)
#pragma loom par_loop(zero) over(edges) args(write: e)
  for (int s = 0; s < 3; s++) {
#pragma loom par_loop(spread) over(edges) args(read: x[en[0]], x[en[1]], rw: e)
  }
  double out[5];
  loom_dat_fetch(e, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4]);
  loom_exit();
  return 0;
}
