/* Handles in a file-scope struct, set and swapped by functions of the file
 * that run no loops and call nothing loomc cannot see: a call that writes
 * the struct orders the loops reaching dats through it (without that, the
 * two loops, direct over one set, would fuse across swap() and the second
 * would run on the handles from before the swap). */
#include <loom.h>
#include <stdio.h>

typedef struct mesh {
  loom_set cells;
  loom_dat a LOOM_DAT_FACTS(cells, 1, double);
  loom_dat b LOOM_DAT_FACTS(cells, 1, double);
} mesh;

static mesh g;
static loom_dat A, B;

static void init(loom_set cells) {
  g.cells = cells;
  g.a = A;
  g.b = B;
}

static void swap(void) {
  loom_dat t = g.a;
  g.a = g.b;
  g.b = t;
}

static void twice(const double *s, double *d) { d[0] = 2 * s[0]; }

int main(int argc, char **argv) {
  double va[4] = {1, 2, 3, 4}, vb[4] = {10, 20, 30, 40}, ra[4], rb[4];
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  A = loom_decl_dat(cells, 1, double, va, "A");
  B = loom_decl_dat(cells, 1, double, vb, "B");
  init(cells);
#pragma loom par_loop(twice) over(g.cells) args(read: g.a, write: g.b)
  swap();
#pragma loom par_loop(twice) over(g.cells) args(read: g.a, write: g.b)
  loom_dat_fetch(A, ra, sizeof ra);
  loom_dat_fetch(B, rb, sizeof rb);
  if (loom_rank() == 0)
    printf("A %g %g %g %g B %g %g %g %g\n", ra[0], ra[1], ra[2], ra[3], rb[0], rb[1], rb[2],
           rb[3]);
  loom_exit();
  return 0;
}
