/* tests/e2e/mpi.sh: idx under --target=mpi is the declared element number
 * (on every rank, for the rank's own elements), as in seq; and a loop that
 * increments through a map and reduces counts each edge once (its
 * executed halo's contributions to the reduction are discarded) while
 * every cell gets the increments of all its edges.  Prints OK. */
#include <loom.h>
#include <stdio.h>

static void number(const int *i, double *y) { y[0] = (double)*i; }

static void degree(const int *i, double *a, double *b, int *edges, int *maxid) {
  a[0] += 1.0;
  b[0] += 1.0;
  *edges += 1;
  *maxid = *i > *maxid ? *i : *maxid;
}

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
#pragma loom par_loop(number) over(cells) args(idx, write: y)
  int bad = loom_dat_fetch(y, y0, sizeof y0) != LOOM_OK;
  for (int i = 0; i < N; i++)
    bad |= y0[i] != (double)i;
  int nedges = 0, maxid = -1;
  loom_dat deg = loom_decl_temp(cells, 1, double, "deg");
#pragma loom par_loop(degree) over(edges) \
    args(idx, inc: deg[ecell[0]], deg[ecell[1]], inc: nedges, max: maxid)
  bad |= nedges != N - 1 || maxid != N - 2;
  bad |= loom_dat_fetch(deg, y0, sizeof y0) != LOOM_OK;
  for (int i = 0; i < N; i++)
    bad |= y0[i] != (i == 0 || i == N - 1 ? 1.0 : 2.0);
  if (loom_rank() == 0)
    puts(bad ? "BAD" : "OK");
  loom_exit();
  return bad;
}
