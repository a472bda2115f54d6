/* A halo exchange is removed when the dat's halo is statically up to
 * date: x is exchanged for grad, then only read (by copy) before lap
 * reads it through the map again, so lap's exchange of x is removed.  y
 * is written by relax between its two exchanges, so both stay; the first
 * exchange of each dat stays too (at the region's start the halo's state
 * is only known at run time). */
#include <loom.h>

static void grad(const double **x, const double **y, double *g) {
  *g = x[1][0] - x[0][0] + y[0][0];
}
static void copy(const double *x, double *t) { *t = *x; }
static void relax(const double *t, double *y) { *y = 0.5 * *t; }
static void lap(const double **x, const double **y, double *l) {
  *l = x[0][0] + x[1][0] + y[1][0];
}

int main(int argc, char **argv) {
  int e2n[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  double zeros[4] = {0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, zeros, "x");
  loom_dat y = loom_decl_dat(nodes, 1, double, zeros, "y");
  loom_dat g = loom_decl_temp(edges, 1, double, "g");
  loom_dat l = loom_decl_temp(edges, 1, double, "l");
  loom_dat t = loom_decl_temp(nodes, 1, double, "t");
#pragma loom par_loop(grad) over(edges) args(read: x[en[*]], y[en[*]], write: g)
#pragma loom par_loop(copy) over(nodes) args(read: x, write: t)
#pragma loom par_loop(relax) over(nodes) args(read: t, write: y)
#pragma loom par_loop(lap) over(edges) args(read: x[en[*]], y[en[*]], write: l)
  loom_exit();
  return 0;
}
