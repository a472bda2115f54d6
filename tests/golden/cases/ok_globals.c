/* OK: global arguments: a scalar read (broadcast), an array reduced with
 * inc (double g[3]), and scalars reduced with min and max. */
#include <loom.h>

static void stats(const double *v, const double *scale, double *sums,
                  double *lo, double *hi) {
  double s = *scale * v[0];
  sums[0] += s;
  sums[1] += s * s;
  sums[2] += 1.0;
  if (s < *lo)
    *lo = s;
  if (s > *hi)
    *hi = s;
}

int main(int argc, char **argv) {
  double data[4] = {1, -2, 3, 4};
  double scale = 0.5;
  double g[3] = {0.0, 0.0, 0.0};
  double vmin = 1e300, vmax = -1e300;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
#pragma loom par_loop(stats) over(cells) \
    args(read: v, scale, inc: g, min: vmin, max: vmax)
  loom_exit();
  return g[2] == 4.0 && vmin < vmax ? 0 : 1;
}
