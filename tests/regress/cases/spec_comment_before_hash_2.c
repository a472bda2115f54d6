#include <loom.h>
#include <stdio.h>
static void one(double *t) { t[0] = 1.0; }
int main(int argc, char **argv) {
  double out[2];
  loom_init(&argc, &argv);
  loom_set s = loom_decl_set(2, "s");
  loom_dat t = loom_decl_temp(s, 1, double, "t");
  /* c */ \
  #pragma loom par_loop(one) over(s) args(write: t)
  loom_dat_fetch(t, out, sizeof out);
  if (loom_rank() == 0) /* under MPI every rank runs main */
    printf("%g %g\n", out[0], out[1]);
  loom_exit();
  return 0;
}
