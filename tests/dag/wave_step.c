/* One time step of seed 001's explicit wave example: the seven par_loops,
 * with stand-in kernels; for the DAG tests (--emit-dag, --report). */
#include <loom.h>

static const double dt = 0.001;

static void phi_expr(const double *p, double *phi) { *phi -= dt / 2 * *p; }
static void zero(double *t) { *t = 0.0; }
static void assemble1(const double **v, const double **phi, double **t1) {
  for (int i = 0; i < 3; i++)
    t1[i][0] += dt * v[i][0] * (phi[0][0] + phi[1][0] + phi[2][0]);
}
static void assemble2(const double **v, double **t2) {
  for (int i = 0; i < 3; i++)
    t2[i][0] += (v[0][0] + v[1][0] + v[2][0]) / 3.0;
}
static void expr(const double *t1, const double *t2, double *p) { *p += *t1 / *t2; }

int main(int argc, char **argv) {
  int c2n[6] = {0, 1, 2, 1, 3, 2};
  double zeros[4] = {0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map cn = loom_decl_map(cells, nodes, 3, c2n, "cn");
  loom_dat v = loom_decl_dat(nodes, 1, double, zeros, "v");
  loom_dat p = loom_decl_dat(nodes, 1, double, zeros, "p");
  loom_dat phi = loom_decl_dat(nodes, 1, double, zeros, "phi");
  loom_dat t1 = loom_decl_temp(nodes, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(nodes, 1, double, "t2");
  for (int step = 0; step < 10; step++) {
#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)
#pragma loom par_loop(zero) over(nodes) args(write: t1)
#pragma loom par_loop(assemble1) over(cells) args(read: v[cn[*]], phi[cn[*]], inc: t1[cn[*]])
#pragma loom par_loop(zero) over(nodes) args(write: t2)
#pragma loom par_loop(assemble2) over(cells) args(read: v[cn[*]], inc: t2[cn[*]])
#pragma loom par_loop(expr) over(nodes) args(read: t1, t2, rw: p)
#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)
  }
  loom_exit();
  return 0;
}
