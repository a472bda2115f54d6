/* Successive exchanges of one dat are merged (seed 001, Future Work):
 * grad and lap both read x through a map, and nothing touches x between
 * them, so the exchange for lap is merged into the one for grad, and lap's
 * owned half reads the halo that exchange received. */
#include <loom.h>

static void grad(const double **x, double *g) { *g = x[1][0] - x[0][0]; }
static void lap(const double **x, double *l) { *l = x[0][0] + x[1][0]; }
static void zero(double *t) { *t = 0.0; }

int main(int argc, char **argv) {
  int e2n[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  double zeros[4] = {0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, zeros, "x");
  loom_dat g = loom_decl_temp(edges, 1, double, "g");
  loom_dat l = loom_decl_temp(edges, 1, double, "l");
  loom_dat t = loom_decl_temp(nodes, 1, double, "t");
#pragma loom par_loop(grad) over(edges) args(read: x[en[*]], write: g)
#pragma loom par_loop(zero) over(nodes) args(write: t)
#pragma loom par_loop(lap) over(edges) args(read: x[en[*]], write: l)
  loom_exit();
  return 0;
}
