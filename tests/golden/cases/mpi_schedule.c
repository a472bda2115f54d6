/* OK: --target=mpi lays the region's schedule onto the code: the send of
 * x's halo moves up, above the host statement and the loop that do not
 * touch x; the fold of the reduction into `norm` moves down to the host
 * statement that reads it; in the time loop, a `break` is a barrier that
 * nothing moves across, and the fold of `err` waits for the end of the
 * block; a dat declared in the block is exchanged after its declaration. */
#include <loom.h>
#include <stdio.h>

static void smooth(const double *xa, const double *xb, double *ya, double *yb) {
  ya[0] += 0.25 * (xb[0] - xa[0]);
  yb[0] -= 0.25 * (xb[0] - xa[0]);
}

static void update(const double *y, double *x, double *norm) {
  x[0] += y[0];
  *norm += x[0] * x[0];
}

static void scale(double *z) { z[0] *= 0.5; }

static void diff(const double *za, const double *zb, double *err) {
  *err += (za[0] - zb[0]) * (za[0] - zb[0]);
}

int main(int argc, char **argv) {
  double xv[4] = {0.0, 1.0, 4.0, 9.0};
  int edge_cells[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  double norm = 0.0, err = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, edge_cells, "ecell");
  loom_dat x = loom_decl_dat(cells, 1, double, xv, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
  for (int it = 0; it < 10; it++) {
    norm = 0.0;
#pragma loom par_loop(scale) over(cells) args(rw: y)
    printf("step %d\n", it);
#pragma loom par_loop(smooth) over(edges) \
    args(read: x[ecell[0]], x[ecell[1]], inc: y[ecell[0]], y[ecell[1]])
#pragma loom par_loop(update) over(cells) args(read: y, rw: x, inc: norm)
    printf("scaled\n");
    if (norm > 1e6)
      break;
    loom_dat z = loom_decl_temp(cells, 1, double, "z");
#pragma loom par_loop(scale) over(cells) args(rw: z)
#pragma loom par_loop(diff) over(edges) args(read: z[ecell[0]], z[ecell[1]], inc: err)
  }
  printf("%g %g\n", norm, err);
  loom_exit();
  return 0;
}
