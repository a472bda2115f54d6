/*
 * An exchange hoisted out of a time loop (x is never written in it) is
 * begun before the loop statement; when the loop runs no iteration, no
 * loop of it ends that exchange.  loomc also ends it after the loop
 * statement, so the later exchange of x (after x is written) begins
 * afresh instead of finding one still in flight, and reads the new values.
 */
#include <loom.h>
#include <stdio.h>

static void spread(const double *a, const double *b, double *e) { e[0] = a[0] + b[0]; }
static void bump(double *x) { x[0] += 1.0; }

int main(int argc, char **argv) {
  static double xs[6] = {1, 2, 3, 4, 5, 6};
  static const int e2n[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, xs, "x");
  loom_dat e = loom_decl_dat(edges, 1, double, xs, "e");
  int steps = argc - 1; /* 0: no argument is given */
  for (int s = 0; s < steps; s++) {
#pragma loom par_loop(spread) over(edges) args(read: x[en[0]], x[en[1]], write: e)
  }
#pragma loom par_loop(bump) over(nodes) args(rw: x)
#pragma loom par_loop(spread) over(edges) args(read: x[en[0]], x[en[1]], write: e)
  double out[5];
  loom_dat_fetch(e, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4]);
  loom_exit();
  return 0;
}
