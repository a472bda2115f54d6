/*
 * A rotated time loop: the head of step s+1 (scale and zero) runs fused
 * into the tail of step s (settle) when another step follows; a loop of
 * 0, 1, 2 and 5 steps (its bound a variable) and one of a constant 2
 * steps with a group before it that the first step's head joins.  Each
 * prints what plain C prints.
 */
#include <loom.h>
#include <stdio.h>

static void scale(const double *a, double *b) { b[0] = 0.5 * a[0] + 1.0; }
static void zero(double *t) { t[0] = 0.0; }
static void spread(const double *b0, const double *b1, double *t0, double *t1) {
  t0[0] += b1[0];
  t1[0] += 2.0 * b0[0];
}
static void settle(const double *t, double *a) { a[0] = 0.25 * a[0] + 0.125 * t[0]; }
static void total(const double *a, double *s) { *s += a[0]; }

int main(int argc, char **argv) {
  static double as[6] = {1, 2, 3, 4, 5, 6};
  static const int e2n[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat a = loom_decl_dat(nodes, 1, double, as, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, as, "b");
  loom_dat t = loom_decl_temp(nodes, 1, double, "t");
  static const int steps[4] = {0, 1, 2, 5};
  for (int i = 0; i < 4; i++) {
    int n = steps[i] + (argc > 99);
    for (int s = 0; s < n; s++) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#pragma loom par_loop(zero) over(nodes) args(write: t)
#pragma loom par_loop(spread) over(edges) args(read: b[en[0]], b[en[1]], inc: t[en[0]], t[en[1]])
#pragma loom par_loop(settle) over(nodes) args(read: t, rw: a)
    }
    double sum = 0.0;
#pragma loom par_loop(total) over(nodes) args(read: a, inc: sum)
    if (loom_rank() == 0)
      printf("%d steps: %.17g\n", steps[i], sum);
  }
  double sum = 0.0;
  for (int it = 0; it < 3; it++) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(zero) over(nodes) args(write: t)
#pragma loom par_loop(spread) over(edges) args(read: b[en[0]], b[en[1]], inc: t[en[0]], t[en[1]])
#pragma loom par_loop(settle) over(nodes) args(read: t, rw: a)
    }
  }
#pragma loom par_loop(total) over(nodes) args(read: a, inc: sum)
  if (loom_rank() == 0)
    printf("k loop: %.17g\n", sum);
  loom_exit();
  return 0;
}
