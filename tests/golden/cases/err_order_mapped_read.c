/* Error: a loop that updates r and reads r through a map: an element could
 * read a value another element already updated, so the result would depend
 * on the order of the elements (seq, a colouring, a strip each give
 * another). */
#include <loom.h>

static void smooth(const double *n, double *r) { r[0] = 0.5 * (r[0] + n[0]); }

int main(int argc, char **argv) {
  static double ones[4] = {1, 1, 1, 1};
  static const int c2c[4] = {1, 2, 3, 0};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_map cnext = loom_decl_map(cells, cells, 1, c2c, "cnext");
  loom_dat r = loom_decl_dat(cells, 1, double, ones, "r");
#pragma loom par_loop(smooth) over(cells) args(read: r[cnext[0]], rw: r)
  loom_exit();
  return 0;
}
