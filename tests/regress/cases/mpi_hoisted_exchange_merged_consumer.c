/*
 * A loop statement whose second loop (low) reads x through a map, as its
 * first (total) does, fuses for its first iteration into the group before
 * the loop statement (rotate.h: total reduces a global, so it stays; low
 * depends on nothing before it, and count, like it, writes through a
 * map).  Nothing in the loop writes x, so x's exchange is hoisted before
 * the loop statement (hoist.h): the first consumer's, low's merged into
 * it.  The exchange must begin before the group low runs in: it once
 * began after it, as only the first consumer was looked for there, and
 * low's end found no begin (an exchange not overlapped).
 */
#include <loom.h>
#include <stdio.h>
static void set1(double *x) { x[0] = 2.0 * x[0]; }
static void count(double *c) { c[0] += 1.0; }
static void total(const double *a, const double *b, double *sum) { *sum += a[0] + b[0]; }
static void low(const double *a, const double *b, double *m) { double v = a[0] - b[0]; if (v < *m) *m = v; }
int main(int argc, char **argv) {
  static double xs[6] = {1, 2, 3, 4, 5, 6};
  static double big[6] = {9, 9, 9, 9, 9, 9};
  static const int e2n[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, xs, "x");
  static double zeros[6] = {0};
  loom_dat c = loom_decl_dat(nodes, 1, double, zeros, "c");
  loom_dat m = loom_decl_dat(nodes, 1, double, big, "m");
  double sum = 0.0;
#pragma loom par_loop(set1) over(nodes) args(rw: x)
#pragma loom par_loop(count) over(edges) args(inc: c[en[0]])
  for (int s = 0; s < 3; s++) {
#pragma loom par_loop(total) over(edges) args(read: x[en[0]], x[en[1]], inc: sum)
#pragma loom par_loop(low) over(edges) args(read: x[en[0]], x[en[1]], min: m[en[1]])
  }
  double out[6], cs[6];
  loom_dat_fetch(m, out, sizeof out);
  loom_dat_fetch(c, cs, sizeof cs);
  if (loom_rank() == 0)
    printf("%g %g %g %g %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4], out[5], cs[0] + cs[4], sum);
  loom_exit();
  return 0;
}
