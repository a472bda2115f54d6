/* With MPI, a loop whose halo exchange is in flight (k1 reads t0 over its
 * executed halo) is not fused with a later loop (k3) across a nested
 * statement that exchanges the same dat (k2 reads t0 through a map):
 * the fused call would stand after the nested statement, whose exchange
 * of t0 would begin while k1's was still in flight (difftest seed 207735:
 * "loom__halo_begin: dat 't0' already has an exchange in flight"). */
#include <loom.h>
#include <stdio.h>

static void k1(const double *a, double *b) { b[0] += a[0]; }
static void k2(double *g, const double *a) { g[0] += a[0]; }
static void k3(double *c) { c[0] = 3; }

int main(int argc, char **argv) {
  int c2n[16], c2c[16], self[8];
  double v[8], t1v[9], t2v[8];
  for (int i = 0; i < 8; i++) {
    c2n[2 * i] = i, c2n[2 * i + 1] = i + 1;
    c2c[2 * i] = (i + 7) % 8, c2c[2 * i + 1] = (i + 1) % 8;
    self[i] = i;
    v[i] = i + 1;
  }
  double g0 = 0;
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(9, "nodes");
  loom_set cells = loom_decl_set(8, "cells");
  loom_map m0 = loom_decl_map(cells, nodes, 2, c2n, "m0");
  loom_map m1 = loom_decl_map(cells, cells, 2, c2c, "m1");
  loom_map m2 = loom_decl_map(cells, cells, 1, self, "m2");
  loom_dat t0 = loom_decl_dat(cells, 1, double, v, "t0");
  loom_dat t1 = loom_decl_temp(nodes, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(cells, 1, double, "t2");
#pragma loom par_loop(k1) over(cells) args(read: t0, inc: t1[m0[1]])
  for (int it = 0; it < 1; it++) {
#pragma loom par_loop(k2) over(cells) args(inc: g0, read: t0[m1[1]])
  }
#pragma loom par_loop(k3) over(cells) args(write: t2[m2[0]])
  loom_dat_fetch(t1, t1v, sizeof t1v);
  loom_dat_fetch(t2, t2v, sizeof t2v);
  double s1 = 0, s2 = 0;
  for (int i = 0; i < 9; i++)
    s1 += t1v[i];
  for (int i = 0; i < 8; i++)
    s2 += t2v[i];
  if (loom_rank() == 0)
    printf("g0 %g t1 %g t2 %g\n", g0, s1, s2);
  loom_exit();
  return 0;
}
