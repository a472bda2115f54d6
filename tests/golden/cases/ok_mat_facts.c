/*
 * ok_mat_facts.c — a matrix reached through a struct of handles and a
 * parameter, with LOOM_MAT_FACTS (tests/e2e/poisson.sh also runs it: seq,
 * openmp, mpi at 1-3 ranks): PyOP2's mass matrix assembled twice by a function that
 * takes the struct, then once more by a function taking the handles as
 * parameters (loomc sees through both calls); each entry must be three times
 * sum over elements of |T|/12 (1 + δij).  Exits 1 when one is not.
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>

typedef struct mesh {
  loom_set nodes, cells;
  loom_map c2n LOOM_MAP_FACTS(cells, nodes, 3);
  loom_dat x LOOM_DAT_FACTS(nodes, 2, double);
  loom_mat M LOOM_MAT_FACTS(nodes, nodes, 1, 1);
} mesh;

static void mass(const double *x0, const double *x1, const double *x2, double A[3][3]) {
  double area = 0.5 * ((x1[0] - x0[0]) * (x2[1] - x0[1]) - (x2[0] - x0[0]) * (x1[1] - x0[1]));
  area = fabs(area);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] += area / 12.0 * (i == j ? 2.0 : 1.0);
}

static void assemble(mesh *m) {
#pragma loom par_loop(mass) over(m->cells) \
    args(read: m->x[m->c2n[0]], m->x[m->c2n[1]], m->x[m->c2n[2]], inc: m->M[m->c2n, m->c2n])
}

static int assemble_into(loom_set cells, loom_set nodes, loom_map c2n LOOM_MAP_FACTS(cells, nodes, 3),
                         loom_dat x LOOM_DAT_FACTS(nodes, 2, double),
                         loom_mat A LOOM_MAT_FACTS(nodes, nodes, 1, 1)) {
  (void)nodes; /* named by the facts only */
#pragma loom par_loop(mass) over(cells) args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], inc: A[c2n, c2n])
  return 0;
}

int main(int argc, char **argv) {
  double xy[8] = {0, 0, 2, 0, 1, 1, 0, 1.5};
  int tri[6] = {0, 1, 3, 2, 3, 1};
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  mesh m;
  m.nodes = loom_decl_set(4, "nodes");
  m.cells = loom_decl_set(2, "cells");
  m.c2n = loom_decl_map(m.cells, m.nodes, 3, tri, "c2n");
  m.x = loom_decl_dat(m.nodes, 2, double, xy, "x");
  loom_sparsity sp = loom_decl_sparsity(m.nodes, m.nodes, 1, 1, 1, &m.c2n, &m.c2n, "sp");
  m.M = loom_decl_mat(sp, "M");
  assemble(&m);
  assemble(&m);
  int rc = assemble_into(m.cells, m.nodes, m.c2n, m.x, m.M);
  const double t0 = 1.5 / 12.0, t1 = 0.25 / 12.0;
  const double want[4][4] = {{2 * t0, t0, 0, t0},
                             {t0, 2 * t0 + 2 * t1, t1, t0 + t1},
                             {0, t1, 2 * t1, t1},
                             {t0, t0 + t1, t1, 2 * t0 + 2 * t1}};
  double worst = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      worst = fmax(worst, fabs(loom_mat_get(m.M, i, 0, j, 0) - 3.0 * want[i][j]));
  const int ok = rc == 0 && worst < 1e-15;
  if (loom_rank() == 0)
    printf("modular: largest entry error %.3g: %s\n", worst, ok ? "ok" : "FAIL");
  loom_exit();
  return ok ? 0 : 1;
}
