/*
 * tests/mpi/test_mat_mpi.c — matrices in libloom_mpi (runtime/src/mat/):
 * on one rank they work as in libloom (the sparsity partitions the mesh
 * first, as a loop would), in two sessions one after the other; on more
 * ranks loom_decl_sparsity refuses, on
 * every rank, saying that it is not supported yet.  Not Criterion (MPI);
 * run by `make mpi-test` (mk/mpi.mk) at 1 and 2 ranks, and at 1 rank with
 * LOOM_RENUMBER=1.
 *
 * The mesh is the Laplace patch of tests/unit/runtime/test_mat.c: 3 x 3
 * nodes on the unit square, 8 triangles, P1 stiffness (checked against
 * hand-computed entries), u = 1 on y = 0 and 2 on y = 1 by
 * loom_mat_zero_rows_columns; the solution is 1, 1.5, 2 by rows.
 *
 * Prints "PASS: mat_mpi (N ranks)" on rank 0 and exits 0, or prints each
 * failure and exits 1.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <loom.h>

static int failures = 0, rank = 0, errors_seen = 0;
static char last[4096];

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__);           \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

static void handler(int status, const char *message, void *ctx) {
  (void)status, (void)ctx;
  errors_seen++;
  snprintf(last, sizeof last, "%s", message);
}

static const double xy[] = {0, 0, 0.5, 0, 1, 0, 0, 0.5, 0.5, 0.5, 1, 0.5, 0, 1, 0.5, 1, 1, 1};
static const int cn[] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7};

static void stiffness(const double *p[3], double *block) {
  double b[3], c[3];
  double a = 0.5 * fabs((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                        (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
  for (int i = 0; i < 3; i++) {
    const double *q = p[(i + 1) % 3], *r = p[(i + 2) % 3];
    b[i] = q[1] - r[1];
    c[i] = r[0] - q[0];
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      block[3 * i + j] += (b[i] * b[j] + c[i] * c[j]) / (4.0 * a);
}

/* On one rank: assemble, check entries, Dirichlet conditions, solve. */
static void one_rank(loom_set nodes, loom_set cells, loom_map cell_nodes,
                     loom_dat coords, loom_mat K) {
  CHECK(loom__check_set(cells, "stiffness") == LOOM_OK, "%s", last);
  double *values = loom__mat_values(K, cell_nodes, cell_nodes);
  const int *map = loom__map_values(cell_nodes);
  const double *x = loom__dat_values(coords);
  CHECK(values && map && x, "%s", last);
  if (!values || !map || !x)
    return;
  for (int e = 0; e < loom__set_size(cells); e++) {
    const double *p[3] = {x + 2 * map[3 * e], x + 2 * map[3 * e + 1],
                          x + 2 * map[3 * e + 2]};
    stiffness(p, values + 9 * e);
  }
  /* hand-computed: the centre node 4 has 4 on the diagonal, -1 to 1, 3, 5,
   * 7 and 0 to the diagonal neighbours 0 and 8 (right angles) */
  CHECK(fabs(loom_mat_get(K, 4, 0, 4, 0) - 4.0) < 1e-14, "K44 %g",
        loom_mat_get(K, 4, 0, 4, 0));
  for (int j = 1; j < 8; j += 2)
    CHECK(fabs(loom_mat_get(K, 4, 0, j, 0) + 1.0) < 1e-14, "K4%d %g", j,
          loom_mat_get(K, 4, 0, j, 0));
  CHECK(loom_mat_get(K, 4, 0, 0, 0) == 0.0 && loom_mat_get(K, 0, 0, 8, 0) == 0.0,
        "K40 %g K08 %g", loom_mat_get(K, 4, 0, 0, 0), loom_mat_get(K, 0, 0, 8, 0));
  const double u0[] = {1, 1, 1, 0, 0, 0, 2, 2, 2};
  loom_dat u = loom_decl_dat(nodes, 1, double, u0, "u");
  loom_dat b = loom_decl_temp(nodes, 1, double, "b");
  const int bc[] = {0, 1, 2, 6, 7, 8};
  CHECK(loom_mat_zero_rows_columns(K, 6, bc, 1.0, u, b) == LOOM_OK, "%s", last);
  CHECK(loom_solve(K, u, b) == LOOM_OK, "%s", last);
  double got[9];
  CHECK(loom_dat_fetch(u, got, sizeof got) == LOOM_OK, "%s", last);
  for (int i = 0; i < 9; i++)
    CHECK(fabs(got[i] - (i < 3 ? 1.0 : i < 6 ? 1.5 : 2.0)) < 1e-8, "u[%d] = %.17g", i,
          got[i]);
}

/* One session; returns the number of ranks. */
static int session(int *argc, char ***argv) {
  if (loom_init(argc, argv) != LOOM_OK)
    return 0;
  rank = loom_rank();
  loom_set nodes = loom_decl_set(9, "nodes");
  loom_set cells = loom_decl_set(8, "cells");
  loom_map cell_nodes = loom_decl_map(cells, nodes, 3, cn, "cell_nodes");
  loom_dat coords = loom_decl_dat(nodes, 2, double, xy, "coords");
  CHECK(errors_seen == 0, "%s", last);
  loom_sparsity sp =
      loom_decl_sparsity(nodes, nodes, 1, 1, 1, &cell_nodes, &cell_nodes, "patch");
  if (loom_nranks() > 1) {
    CHECK(!sp && errors_seen == 1 &&
              strstr(last, "matrices under MPI with more than one rank are not "
                           "supported yet"),
          "expected the refusal, got %s (%d errors)", last, errors_seen);
  } else {
    loom_mat K = loom_decl_mat(sp, "K");
    CHECK(sp && K && errors_seen == 0, "%s", last);
    if (K)
      one_rank(nodes, cells, cell_nodes, coords, K);
  }
  int nranks = loom_nranks();
  CHECK(loom_exit() == LOOM_OK, "%s", last);
  return nranks;
}

/* On one rank, two sessions: PETSc ends with the first and starts again
 * in the second (MPI lives on). */
int main(int argc, char **argv) {
  loom_set_error_handler(handler, NULL);
  int nranks = session(&argc, &argv);
  if (nranks == 1)
    session(&argc, &argv);
  CHECK(nranks > 0, "loom_init failed: %s", last);
  if (rank == 0 && failures == 0)
    printf("PASS: mat_mpi (%d rank%s)\n", nranks, nranks > 1 ? "s" : "");
  return failures != 0;
}
