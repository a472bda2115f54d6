/* Error: _Pragma("loom ...") in a macro of an included file. */
#include <loom.h>

static void total(const double *v, double *sum) { *sum += *v; }

int main(int argc, char **argv) {
  double data[2] = {1, 2}, sum = 0;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(2, "cells");
  loom_dat v = loom_decl_dat(cells, 1, double, data, "v");
#include "err_pragma_in_include_macro.h"
  loom_exit();
  return sum > 0.0;
}
