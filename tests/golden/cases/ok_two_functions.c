/* OK: several loops in two functions.  The loop functions of each function
 * are defined just before it; the kernel 'copy' is shared by loops of both.
 * (Handles passed as parameters cannot be used in a loop: each function
 * declares the objects its loops use.) */
#include <loom.h>

static void copy(const double *a, double *b) { b[0] = a[0]; }
static void axpy(const double *x, double *y) { y[0] += 2.0 * x[0]; }
static void sum_up(const double *y, double *s) { *s += y[0]; }

static double smooth(int n, const double *data) {
  double s = 0.0;
  loom_set cells = loom_decl_set(n, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(copy) over(cells) args(read: x, write: y)
#pragma loom par_loop(axpy) over(cells) args(read: x, rw: y)
#pragma loom par_loop(sum_up) over(cells) args(read: y, inc: s)
  return s;
}

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  double s = smooth(4, data);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_dat u = loom_decl_dat(nodes, 1, double, data, "u");
  loom_dat v = loom_decl_temp(nodes, 1, double, "v");
#pragma loom par_loop(copy) over(nodes) args(read: u, write: v)
  loom_exit();
  return s == 30.0 ? 0 : 1;
}
