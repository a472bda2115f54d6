/* Communication overlaps computation (--target=mpi): the exchange of x,
 * which nothing in the region writes, is sent at the region's start,
 * before the direct loop init; its receive completes right before flux's
 * owned half.  The reduction of rms begins right after flux's owned half
 * and ends as late as possible: after the independent loop init2, right
 * before the printf that reads rms. */
#include <stdio.h>

#include <loom.h>

static void init(double *w) { *w = 1.0; }
static void flux(const double **x, const double *w, double *f, double *rms) {
  *f = (x[1][0] - x[0][0]) * *w;
  *rms += *f * *f;
}

int main(int argc, char **argv) {
  int e2n[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  double zeros[4] = {0};
  double rms = 0.0;
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, zeros, "x");
  loom_dat w = loom_decl_temp(edges, 1, double, "w");
  loom_dat w2 = loom_decl_temp(edges, 1, double, "w2");
  loom_dat f = loom_decl_temp(edges, 1, double, "f");
#pragma loom par_loop(init) over(edges) args(write: w)
#pragma loom par_loop(flux) over(edges) args(read: x[en[*]], w, write: f, inc: rms)
#pragma loom par_loop(init) over(edges) args(write: w2)
  printf("rms %g\n", rms);
  loom_exit();
  return 0;
}
