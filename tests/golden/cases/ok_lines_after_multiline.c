/* #line numbers into the output stay right after a directive that spans
 * several lines, for the loop functions of a later function. */
#include <loom.h>

static void k(double *y) { y[0] = 1.0; }

static void f(void) {
  loom_set s = loom_decl_set(1, "s");
  loom_dat y = loom_decl_temp(s, 1, double, "y");
#pragma loom par_loop(k) over(s) \
    args(write: y)
}

static void g(void) {
  loom_set s = loom_decl_set(1, "s");
  loom_dat y = loom_decl_temp(s, 1, double, "y");
#pragma loom par_loop(k) over(s) args(write: y)
}

int main(void) {
  f();
  g();
  return 0;
}
