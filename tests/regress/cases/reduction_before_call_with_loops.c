/* A reduction in main, then a call of a function whose loop reduces the
 * same file-scope global (difftest seed 503663).  Under MPI a reduction
 * ends where host code first needs its variable; the call's summary did
 * not say that the loop inside reads and writes g, so main's reduction
 * ended after the call and its fold overwrote the callee's result
 * (g = 3, from main's loop alone, instead of 1).  A function that runs
 * loops now reads and writes the file-scope variables its loops name. */
#include <loom.h>
#include <stdio.h>

static double g;

static void low_first(const int *i, double *m) {
  double v = 3.0 + (double)(*i % 5);
  if (v < *m)
    *m = v;
}

static void low_second(const double *x, double *m) {
  if (*x < *m)
    *m = *x;
}

typedef struct mesh {
  loom_set cells;
  loom_dat x LOOM_DAT_FACTS(cells, 1, double);
} mesh;

static void second(mesh *m) {
#pragma loom par_loop(low_second) over(m->cells) args(read: m->x, min: g)
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  double x0[12];
  for (int i = 0; i < 12; i++)
    x0[i] = 1.0 + (double)((7 * i) % 12);
  loom_set cells = loom_decl_set(12, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, x0, "x");
  mesh m = {cells, x};
  g = 100.0;
#pragma loom par_loop(low_first) over(cells) args(read: idx, min: g)
  second(&m);
  if (loom_rank() == 0)
    printf("g %g\n", g);
  loom_exit();
  return 0;
}
