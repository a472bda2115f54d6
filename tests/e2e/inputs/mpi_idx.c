/* tests/e2e/mpi.sh: idx under --target=mpi is the declared element number
 * (on every rank, for the rank's own elements), as in seq.  Prints OK. */
#include <loom.h>
#include <stdio.h>

static void number(const int *i, double *y) { y[0] = (double)*i; }

int main(int argc, char **argv) {
  enum { N = 97 };
  static int e2c[2 * (N - 1)];
  static double y0[N];
  for (int e = 0; e < N - 1; e++) {
    e2c[2 * e] = e;
    e2c[2 * e + 1] = e + 1;
  }
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(N, "cells");
  loom_set edges = loom_decl_set(N - 1, "edges");
  loom_map ecell = loom_decl_map(edges, cells, 2, e2c, "ecell");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
  (void)ecell;
#pragma loom par_loop(number) over(cells) args(idx, write: y)
  int bad = loom_dat_fetch(y, y0, sizeof y0) != LOOM_OK;
  for (int i = 0; i < N; i++)
    bad |= y0[i] != (double)i;
  if (loom_rank() == 0)
    puts(bad ? "BAD" : "OK");
  loom_exit();
  return bad;
}
