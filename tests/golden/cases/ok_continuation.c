/* OK: an indented directive continued over several lines with backslashes;
 * the generated call stands on the directive's first line, and '#line'
 * resynchronises the lines after it. */
#include <loom.h>

static void update(const double *qold, double *q, double *res,
                   const double *adt, double *rms) {
  double del = *adt * res[0];
  q[0] = qold[0] - del;
  res[0] = 0.0;
  *rms += del * del;
}

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4};
  double rms = 0.0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat qold = loom_decl_dat(cells, 1, double, data, "qold");
  loom_dat q = loom_decl_temp(cells, 1, double, "q");
  loom_dat res = loom_decl_dat(cells, 1, double, data, "res");
  loom_dat adt = loom_decl_dat(cells, 1, double, data, "adt");
  #pragma loom par_loop(update) over(cells) \
      args(read: qold,                       \
           write: q,                         \
           rw: res, read: adt,               \
           inc: rms)
  loom_exit();
  return rms > 0.0 ? 0 : 1;
}
