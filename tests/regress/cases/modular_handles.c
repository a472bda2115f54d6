/* Loops in functions on handles loomc cannot see declared: parameters, struct
 * members and a file-scope handle, with LOOM_*_FACTS; the same dat under two
 * names (in one loop, through maps: one halo exchange serves both; in two
 * loops: ordered as one dat); a declared dat stored in the struct and used
 * by a function's loops between two loops of main (which must not fuse
 * across that call). */
#include <loom.h>
#include <stdio.h>

typedef struct mesh {
  loom_set cells, nodes;
  loom_map pcell LOOM_MAP_FACTS(cells, nodes, 2);
  loom_dat a LOOM_DAT_FACTS(cells, 1, double);
  loom_dat x LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat extra LOOM_DAT_FACTS(nodes, 1, double);
} mesh;

static loom_set nodes_of_g;
static loom_dat g_x LOOM_DAT_FACTS(nodes_of_g, 1, double);

static void copy(const double *s, double *d) { d[0] = s[0]; }
static void add2(const double *p, const double *q, double *d) { d[0] += p[0] + q[0]; }
static void bump(double *v) { v[0] += 1; }
static void scatter(const double *a, double *n0, double *n1) {
  n0[0] += a[0];
  n1[0] += a[0];
}

/* y may be m->x: the first loop writes it, the second reads it through maps. */
static void smooth(mesh *m, loom_set nodes, loom_dat y LOOM_DAT_FACTS(nodes, 1, double)) {
  (void)nodes;
#pragma loom par_loop(bump) over(m->nodes) args(rw: m->x)
#pragma loom par_loop(add2) over(m->cells) args(read: y[m->pcell[0]], g_x[m->pcell[1]], inc: m->a)
}

/* scatters a into extra */
static void spread(mesh *m) {
#pragma loom par_loop(scatter) over(m->cells) args(read: m->a, inc: m->extra[m->pcell[0]], m->extra[m->pcell[1]])
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  double va[5] = {1, 2, 3, 4, 5}, vx[6] = {0, 10, 20, 30, 40, 50}, z[6] = {0};
  int pc[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
  mesh m;
  m.cells = loom_decl_set(5, "cells");
  m.nodes = loom_decl_set(6, "nodes");
  m.pcell = loom_decl_map(m.cells, m.nodes, 2, pc, "pcell");
  m.a = loom_decl_dat(m.cells, 1, double, va, "a");
  m.x = loom_decl_dat(m.nodes, 1, double, vx, "x");
  loom_dat e = loom_decl_dat(m.nodes, 1, double, z, "e");
  loom_dat out = loom_decl_dat(m.nodes, 1, double, z, "out");
  m.extra = e;
  nodes_of_g = m.nodes;
  g_x = m.x;
  smooth(&m, m.nodes, m.x); /* x+1, then a += x[c] + x[c+1] */
#pragma loom par_loop(bump) over(m.nodes) args(rw: e)
  spread(&m);
#pragma loom par_loop(copy) over(m.nodes) args(read: e, write: out)
  double ra[5], re[6];
  loom_dat_fetch(m.a, ra, sizeof ra);
  loom_dat_fetch(out, re, sizeof re);
  if (loom_rank() == 0) {
    for (int i = 0; i < 5; i++)
      printf("%g ", ra[i]);
    printf("\n");
    for (int i = 0; i < 6; i++)
      printf("%g ", re[i]);
    printf("\n");
  }
  loom_exit();
  return 0;
}
