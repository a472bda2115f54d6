/* A temporary read by a pinned producer lives until the last loop that
 * evaluates the producer (found by tests/difftest, seed 5003).  t1 is read
 * by k2, pinned, whose consumers k3 and k4 evaluate it: t1's lifetime once
 * ended at k2's directive, so t3 (of t1's shape, first written by k3)
 * reused t1's storage, and k4 evaluated k2 on t3's values. */
#include <loom.h>
#include <stdio.h>

static void k1(double *t1) { t1[0] = 5.0; }
static void k2(const double *t1, double *t2) { t2[0] = t1[0] + 1.0; }
static void k3(double *t3, const double *t2) { t3[0] = 10.0 * t2[0]; }
static void k4(double *t0, const double *t2) { t0[0] = t2[0] + 100.0; }

int main(int argc, char **argv) {
  double out[3];
  loom_init(&argc, &argv);
  loom_set s = loom_decl_set(3, "s");
  loom_dat t0 = loom_decl_temp(s, 1, double, "t0");
  loom_dat t1 = loom_decl_temp(s, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(s, 1, double, "t2");
  loom_dat t3 = loom_decl_temp(s, 1, double, "t3");
#pragma loom pin(t2)
#pragma loom par_loop(k1) over(s) args(write: t1)
#pragma loom par_loop(k2) over(s) args(read: t1, write: t2)
#pragma loom par_loop(k3) over(s) args(write: t3, read: t2)
#pragma loom par_loop(k4) over(s) args(write: t0, read: t2)
  loom_dat_fetch(t0, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g\n", out[0], out[1], out[2]);
  loom_exit();
  return 0;
}
