/* OK: 'idx' passes the iteration index as 'const int *'; it may stand
 * before the first mode label. */
#include <loom.h>

static void number(const int *i, int *id, double *half) {
  id[0] = *i;
  half[0] = 0.5 * *i;
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat id = loom_decl_temp(cells, 1, int, "id");
  loom_dat half = loom_decl_temp(cells, 1, double, "half");
#pragma loom par_loop(number) over(cells) args(idx, write: id, half)
  loom_exit();
  return 0;
}
