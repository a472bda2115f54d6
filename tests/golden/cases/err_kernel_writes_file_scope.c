/* Error: a kernel that writes a file-scope variable (a counter), which
 * kernels may only read. */
#include <loom.h>

static double gamma_ = 1.4;
static int calls;

static void pressure(const double *rho, double *p) {
  calls++;
  *p = (gamma_ - 1.0) * *rho;
}

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat rho = loom_decl_dat(cells, 1, double, data, "rho");
  loom_dat p = loom_decl_temp(cells, 1, double, "p");
#pragma loom par_loop(pressure) over(cells) args(read: rho, write: p)
  loom_exit();
  return calls == 4 ? 0 : 1;
}
