/* A loop writing element matrices (mode write) into a matrix a loop
 * incremented: every entry it reaches takes the value plain C leaves (the
 * last element in declared order, the last slot within one), the others
 * keep theirs; a loop incrementing it afterwards adds to both.  A 6x6-node
 * triangle mesh; the written "edges" are each cell's three edges, so
 * interior edges come twice (in both directions), plus one edge whose two
 * nodes are one.  Self-checking (every entry, against the same arithmetic
 * in plain C): tests/e2e/poisson.sh runs it on every target. */
#include <loom.h>
#include <math.h>
#include <stdio.h>

#define N 6 /* nodes per side */
#define NN (N * N)
#define NC (2 * (N - 1) * (N - 1))
#define NE (3 * NC + 1)

static void ones(const double *w, double A[3][3]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i][j] += *w * (i == j ? 2.0 : 1.0);
}

/* Edge e's element matrix: 10, 20, 30, 40 (row-major) plus e. */
static void put(const int *e, double W[2][2]) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      W[i][j] = 10.0 * (2 * i + j + 1) + *e;
}

static int tri[3 * NC], edge[2 * NE];
static double weight[NC], want[NN][NN];

static void mesh(void) {
  int t = 0;
  for (int j = 0; j + 1 < N; j++)
    for (int i = 0; i + 1 < N; i++) {
      const int a = N * j + i, q[6] = {a, a + 1, a + N + 1, a, a + N + 1, a + N};
      for (int k = 0; k < 6; k++)
        tri[t++] = q[k];
    }
  for (int c = 0; c < NC; c++) {
    weight[c] = 1.0 + c % 7;
    for (int k = 0; k < 3; k++) {
      edge[2 * (3 * c + k)] = tri[3 * c + k];
      edge[2 * (3 * c + k) + 1] = tri[3 * c + (k + 1) % 3];
    }
  }
  edge[2 * (NE - 1)] = edge[2 * (NE - 1) + 1] = N + 1;
}

/* Plain C: the cells' sum, then the edges' writes in order; `again` adds
 * the cells' sum once more. */
static void expected(int again) {
  for (int pass = 0; pass < 1 + again; pass++) {
    for (int c = 0; c < NC; c++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          want[tri[3 * c + i]][tri[3 * c + j]] += weight[c] * (i == j ? 2.0 : 1.0);
    for (int e = 0; e < NE && !pass; e++)
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
          want[edge[2 * e + i]][edge[2 * e + j]] = 10.0 * (2 * i + j + 1) + e;
  }
}

static double worst(loom_mat M) {
  double w = 0.0;
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++)
      w = fmax(w, fabs(loom_mat_get(M, i, 0, j, 0) - want[i][j]));
  return w;
}

int main(int argc, char **argv) {
  if (loom_init(&argc, &argv) != LOOM_OK)
    return 1;
  mesh();
  loom_set nodes = loom_decl_set(NN, "nodes");
  loom_set cells = loom_decl_set(NC, "cells");
  loom_set edges = loom_decl_set(NE, "edges");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_map e2n = loom_decl_map(edges, nodes, 2, edge, "e2n");
  loom_dat w = loom_decl_dat(cells, 1, double, weight, "w");
  const loom_map maps[2] = {c2n, e2n};
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 2, maps, maps, "sp");
  loom_mat M = loom_decl_mat(sp, "M");
#pragma loom par_loop(ones) over(cells) args(read: w, inc: M[c2n, c2n])
#pragma loom par_loop(put) over(edges) args(idx, write: M[e2n, e2n])
  expected(0);
  const double written = worst(M);
  const double w22 = loom_mat_get(M, N + 1, 0, N + 1, 0);
#pragma loom par_loop(ones) over(cells) args(read: w, inc: M[c2n, c2n])
  expected(1);
  const double added = worst(M);
  const int ok = written == 0.0 && added < 1e-12;
  printf("write: M(%d,%d) = %g; largest entry error %.3g, after adding %.3g: %s\n", N + 1,
         N + 1, w22, written, added, ok ? "ok" : "FAIL");
  loom_exit();
  return ok ? 0 : 1;
}
