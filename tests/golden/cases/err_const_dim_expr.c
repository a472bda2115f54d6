/* ERROR: loom_decl_const's dim is not an integer constant expression. */
#include <loom.h>

static double qinf[4] = {1, 2, 3, 4};
static double gam = 1.4;

int main(int argc, char **argv) {
  double local = 2.0;
  int n = 4;
  (void)local;
  (void)n;
  loom_init(&argc, &argv);
  loom_decl_const(n, double, qinf, "qinf");
  loom_exit();
  return 0;
}
