/*
 * Found by the differential tester (seed 1200166; 1200070 under MPI): a
 * loop rotated though a loop after the tail reads, through a map, the
 * temporary the head writes (pin_cse keeps head and tail apart).  The
 * head of the next iteration, run at the end of this one, came before
 * it: it read the next iteration's values.  Nothing reached the head
 * directly from that loop — the path goes through this iteration's free of
 * the temporary and the next one's allocation — so rotation now follows
 * every path into the head; and it keeps pin_cse's producer apart from
 * its consumers, as fusion does.
 */
#include <loom.h>
#include <stdio.h>

static void fill(const double *a, double *t) { t[0] = 0.5 * a[0] + 1.0; }
static void pull(const double *t, double *a) { a[0] += t[0]; }
static void spread(const double *t0, const double *t1, double *e) { e[0] += t0[0] - t1[0]; }

int main(int argc, char **argv) {
  static double as[6] = {1, 2, 4, 8, 16, 32};
  static const int e2c[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(6, "cells");
  loom_set edges = loom_decl_set(5, "edges");
  loom_map ec = loom_decl_map(edges, cells, 2, e2c, "ec");
  loom_dat a = loom_decl_dat(cells, 1, double, as, "a");
  loom_dat e = loom_decl_dat(edges, 1, double, as, "e");
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
  for (int it = 0; it < 3; it++) {
#pragma loom pin_cse(t)
#pragma loom par_loop(fill) over(cells) args(read: a, write: t)
#pragma loom par_loop(pull) over(cells) args(read: t, rw: a)
#pragma loom par_loop(spread) over(edges) args(read: t[ec[0]], t[ec[1]], inc: e)
  }
  double out[5];
  loom_dat_fetch(e, out, sizeof out);
  if (loom_rank() == 0)
    printf("%g %g %g %g %g\n", out[0], out[1], out[2], out[3], out[4]);
  loom_exit();
  return 0;
}
