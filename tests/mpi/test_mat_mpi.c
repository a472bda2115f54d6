/*
 * tests/mpi/test_mat_mpi.c — matrices in libloom_mpi (runtime/src/mat/) on
 * any number of ranks.  Not Criterion (MPI); run by `make mpi-test`
 * (tests/mpi/run.sh) at 1, 2, 3 and 4 ranks with each partitioner
 * ($LOOM_PARTITIONER), with $LOOM_RENUMBER=1, on the distributed path
 * ($LOOM_DISTRIBUTE=1) and with OpenMP threads ($OMP_NUM_THREADS).
 *
 * Element matrices are filled by C loops written as loomc's generated code
 * writes them (tests/golden/cases/ok_mat_mass.mpi.c): the loop's checks,
 * loom__mat_values, loom__mpi_ready, then every element of [0, exec) of
 * the cells (local indices; coordinates read through the local map), each
 * into its own slot (an `omp parallel for` when built with OpenMP).  Every
 * result is compared on every rank with a dense reference computed from
 * the whole declared mesh in declared numbering.  Three sessions, one
 * after the other (PETSc ends and starts again with each):
 *
 *   1. the Laplace patch of tests/unit/runtime/test_mat.c: 3 x 3 nodes, 8
 *      triangles, P1 stiffness against hand-computed entries, u = 1 on
 *      y = 0 and 2 on y = 1 by loom_mat_zero_rows_columns: u is 1, 1.5, 2
 *      by rows;
 *   2. PyOP2's mass matrix (nodes (0,0), (2,0), (1,1), (0,1.5); elements
 *      [0,1,3], [2,3,1]) against PyOP2's values and the reference, and a
 *      solve (at 3 and 4 ranks some ranks own nothing);
 *   3. an N x N triangle mesh of the unit square, nodes moved by a fixed
 *      hash (not a grid), diagonals chosen by the hash, nodes and cells
 *      declared in a scrambled order: P1 stiffness + mass (1x1 blocks), the
 *      same times a 2x2 SPD matrix (2x2 blocks), and a rectangular nodes x
 *      cells matrix; every entry of the pattern (and pairs outside it) by
 *      loom_mat_get, norm-wise to 1e-12; CG solves of -lap u + u = f
 *      against dense Gaussian elimination (1e-8), x fetched in declared
 *      order on every rank, its halo stale after the solve and right after
 *      an exchange; Dirichlet conditions on the boundary
 *      (loom_mat_zero_rows_columns: matrix, b and the solution against the
 *      reference); products y = A x (loom_mat_mult: the three matrices, x
 *      with a stale halo) against the dense product, y fetched on every
 *      rank, its halo stale after the product and right after an
 *      exchange; dats viewed as PETSc vectors (loom_dat_vec: sizes, the
 *      storage in place, a dot product against the fetched values, PETSc's
 *      MatMult on the views against loom_mat_mult, a write through the
 *      view, the halo stale after the restore); loom_mat_zero and a
 *      second assembly (the pattern survives the zeroed rows); an argument
 *      wrong on one rank only, and different matrix calls on different
 *      ranks: an error on every rank (no hang), after which the session
 *      goes on.
 *
 * Session 1 also views a dat before anything partitioned the mesh
 * (loom_dat_vec partitions it, as a loop would).
 *
 * The KSP options (CG, Jacobi, rtol 1e-12) are added to the command line
 * that loom_init receives.  Prints "PASS: mat_mpi (N ranks)" on rank 0 and
 * exits 0, or prints each failure (every rank its own) and exits 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <loom_gen.h>
#include <loom_petsc.h>

static int failures = 0, rank = 0, nranks = 1, errors_seen = 0;
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

/* ---- element kernels --------------------------------------------------------- */

static double area_of(const double *p[3]) {
  return 0.5 * fabs((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                    (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
}

/* P1 stiffness (scaled by ks) plus mass (scaled by km), [3][3]. */
static void p1(const double *p[3], double ks, double km, double *block) {
  double b[3], c[3], a = area_of(p);
  for (int i = 0; i < 3; i++) {
    const double *q = p[(i + 1) % 3], *r = p[(i + 2) % 3];
    b[i] = q[1] - r[1];
    c[i] = r[0] - q[0];
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      block[3 * i + j] += ks * (b[i] * b[j] + c[i] * c[j]) / (4.0 * a) +
                          km * a / 12.0 * (i == j ? 2.0 : 1.0);
}

static void stiffness(const double *p[3], double *block) { p1(p, 1, 0, block); }
static void mass(const double *p[3], double *block) { p1(p, 0, 1, block); }
static void helmholtz(const double *p[3], double *block) { p1(p, 1, 1, block); }

/* The 2x2 blocks: helmholtz (x) C, [6][6], rows i * 2 + r. */
static const double C2[2][2] = {{2, 1}, {1, 3}};
static void helmholtz2(const double *p[3], double *block) {
  double k[9] = {0};
  helmholtz(p, k);
  for (int i = 0; i < 3; i++)
    for (int r = 0; r < 2; r++)
      for (int j = 0; j < 3; j++)
        for (int c = 0; c < 2; c++)
          block[(2 * i + r) * 6 + 2 * j + c] += k[3 * i + j] * C2[r][c];
}

/* Nodes x cells: each cell's area shared by its three nodes, [3][1]. */
static void share(const double *p[3], double *block) {
  for (int i = 0; i < 3; i++)
    block[i] += area_of(p) / 3.0 * (i + 1);
}

typedef void kernel_fn(const double *p[3], double *block);

/* ---- loops, as loomc generates them -------------------------------------------- */

/* par_loop(kernel) over(cells) args(read: x[c2n[0..2]], inc: A[rmap, cmap]),
 * rmap and cmap of arities ra and ca; A has rdim x cdim blocks. */
static void loop(const char *label, loom_set cells, loom_map c2n, loom_dat x,
                 loom_mat A, loom_map rmap, loom_map cmap, int ra, int ca,
                 int rdim, int cdim, kernel_fn *kernel) {
  if (loom__check_set(cells, label) != LOOM_OK ||
      loom__check_map(c2n, cells, NULL, 3, label, 1) != LOOM_OK ||
      loom__check_dat(x, loom__map_to(c2n), 2, LOOM_DOUBLE, label, 1) != LOOM_OK ||
      loom__check_mat(A, rdim, cdim, label, 4) != LOOM_OK) {
    CHECK(0, "loop %s: %s", label, last);
    return;
  }
  double *const mv = loom__mat_values(A, rmap, cmap);
  const int *const map = loom__map_values(c2n);
  const double *const xy = loom__dat_values(x);
  CHECK(mv && map && xy, "loop %s: %s", label, last);
  if (!mv || !map || !xy || loom__mpi_ready() != LOOM_OK)
    return;
  const int end = loom__set_exec(cells);
  loom__halo_begin(x); /* clean (never written): no message */
  loom__halo_end(x);
  const size_t slot = (size_t)ra * rdim * ca * cdim;
#ifdef _OPENMP
#pragma omp parallel for
#endif
  for (int e = 0; e < end; e++) {
    const double *p[3] = {xy + 2 * map[3 * e], xy + 2 * map[3 * e + 1],
                          xy + 2 * map[3 * e + 2]};
    kernel(p, mv + slot * (size_t)e);
  }
}

/* ---- the dense reference ---------------------------------------------------------- */

/* A[rows][cols] += every cell's block, in declared numbering: row nodes of
 * cell e are rn[ra * e ..], column nodes cn[ca * e ..]. */
static void reference(double *A, int ncols, int ncells, const int *c2n,
                      const double *xy, const int *rn, int ra, const int *cn,
                      int ca, int rdim, int cdim, kernel_fn *kernel) {
  int R = ra * rdim, Cc = ca * cdim;
  double *block = malloc(sizeof(double) * (size_t)R * (size_t)Cc);
  for (int e = 0; e < ncells; e++) {
    const double *p[3] = {xy + 2 * c2n[3 * e], xy + 2 * c2n[3 * e + 1],
                          xy + 2 * c2n[3 * e + 2]};
    memset(block, 0, sizeof(double) * (size_t)R * (size_t)Cc);
    kernel(p, block);
    for (int i = 0; i < ra; i++)
      for (int r = 0; r < rdim; r++)
        for (int j = 0; j < ca; j++)
          for (int c = 0; c < cdim; c++)
            A[(size_t)(rn[ra * e + i] * rdim + r) * ncols * cdim +
              (size_t)cn[ca * e + j] * cdim + c] +=
                block[(i * rdim + r) * Cc + j * cdim + c];
  }
  free(block);
}

/* x = A^-1 b by Gaussian elimination with partial pivoting (A, b copied). */
static void dense_solve(const double *A0, const double *b0, double *x, int n) {
  double *A = malloc(sizeof(double) * (size_t)n * n), *b = malloc(sizeof(double) * n);
  memcpy(A, A0, sizeof(double) * (size_t)n * n);
  memcpy(b, b0, sizeof(double) * n);
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[(size_t)i * n + k]) > fabs(A[(size_t)piv * n + k]))
        piv = i;
    if (piv != k) {
      for (int j = 0; j < n; j++) {
        double t = A[(size_t)k * n + j];
        A[(size_t)k * n + j] = A[(size_t)piv * n + j];
        A[(size_t)piv * n + j] = t;
      }
      double t = b[k];
      b[k] = b[piv];
      b[piv] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = A[(size_t)i * n + k] / A[(size_t)k * n + k];
      for (int j = k; j < n; j++)
        A[(size_t)i * n + j] -= f * A[(size_t)k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++)
      s -= A[(size_t)i * n + j] * x[j];
    x[i] = s / A[(size_t)i * n + i];
  }
  free(A);
  free(b);
}

/* max |x - y| / max |y| over n values. */
static double rel_diff(const double *x, const double *y, int n) {
  double d = 0, m = 0;
  for (int i = 0; i < n; i++) {
    if (isnan(x[i]))
      return INFINITY;
    d = fmax(d, fabs(x[i] - y[i]));
    m = fmax(m, fabs(y[i]));
  }
  return m > 0 ? d / m : d;
}

/* Entries of A (nr x nc nodes, rdim x cdim blocks) against the dense ref
 * (row-major, nc * cdim columns) by loom_mat_get (collective: the same
 * calls on every rank), norm-wise: rows every `step`-th node, at the
 * pattern's columns (pat: nr x nc nodes) and a few outside it. */
static void check_entries(const char *what, loom_mat A, const double *ref,
                          const unsigned char *pat, int nr, int nc, int rdim,
                          int cdim, int step) {
  double diff = 0, norm = 0;
  int count = 0, nan = 0, outside = 0;
  for (int i = 0; i < nr; i += step)
    for (int j = 0; j < nc; j++) {
      int in = pat[(size_t)i * nc + j];
      if (!in && (long)nr * nc > 64 && (j * 7 + i * 3) % 11 != 0)
        continue; /* a few pairs outside the pattern (all of a small one): 0 */
      outside += !in;
      for (int r = 0; r < rdim; r++)
        for (int c = 0; c < cdim; c++) {
          double v = loom_mat_get(A, i, r, j, c);
          double w = ref[(size_t)(i * rdim + r) * nc * cdim + (size_t)j * cdim + c];
          nan += isnan(v);
          diff += (v - w) * (v - w);
          norm += w * w;
          count++;
        }
    }
  CHECK(nan == 0 && sqrt(diff) <= 1e-12 * sqrt(norm) && outside > 0,
        "%s: %d entries (%d node pairs outside the pattern): |get - ref| = %g, "
        "|ref| = %g, %d NaN (%s)",
        what, count, outside, sqrt(diff), sqrt(norm), nan, nan ? last : "");
}

/* The halo of a dat after an exchange: every local row (owned and halo)
 * holds the fetched value of its declared element. */
static void check_halo(const char *what, loom_dat d, loom_set s, const double *all,
                       int dim) {
  CHECK(loom__halo_begin(d) == LOOM_OK && loom__halo_end(d) == LOOM_OK, "%s: %s",
        what, last);
  const int *gid = loom__set_global(s);
  const double *v = loom__dat_values(d);
  int bad = 0, total = loom__set_total(s);
  for (int i = 0; i < total && gid; i++)
    for (int c = 0; c < dim; c++)
      bad += v[(size_t)i * dim + c] != all[(size_t)gid[i] * dim + c];
  CHECK(gid && bad == 0, "%s: %d local values (of %d rows, %d owned) differ from "
        "the fetched ones after the exchange", what, bad, total, loom__set_owned(s));
}

/* ---- session 1: the Laplace patch ------------------------------------------------- */

static const double patch_xy[] = {0, 0, 0.5, 0, 1, 0, 0, 0.5, 0.5, 0.5, 1, 0.5, 0, 1, 0.5, 1, 1, 1};
static const int patch_cn[] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7};

static void patch(void) {
  loom_set nodes = loom_decl_set(9, "nodes");
  loom_set cells = loom_decl_set(8, "cells");
  loom_map cell_nodes = loom_decl_map(cells, nodes, 3, patch_cn, "cell_nodes");
  loom_dat coords = loom_decl_dat(nodes, 2, double, patch_xy, "coords");
  /* a view before any loop: the mesh is partitioned first */
  Vec vc = loom_dat_vec(coords);
  PetscInt gsize = 0, lsize = 0;
  PetscScalar sum = 0;
  CHECK(vc && VecGetSize(vc, &gsize) == 0 && VecGetLocalSize(vc, &lsize) == 0 &&
            VecSum(vc, &sum) == 0,
        "a view before partitioning: %s", last);
  CHECK(gsize == 18 && lsize == 2 * loom__set_owned(nodes) && fabs(sum - 9.0) < 1e-14,
        "the coordinates' view: %d of %d entries here (%d owned nodes), sum %g",
        (int)lsize, (int)gsize, loom__set_owned(nodes), (double)sum);
  CHECK(loom_dat_vec_restore(coords, &vc) == LOOM_OK && !vc, "%s", last);
  loom_sparsity sp =
      loom_decl_sparsity(nodes, nodes, 1, 1, 1, &cell_nodes, &cell_nodes, "patch");
  loom_mat K = loom_decl_mat(sp, "K");
  CHECK(sp && K && errors_seen == 0, "%s", last);
  if (!K)
    return;
  loop("stiffness", cells, cell_nodes, coords, K, cell_nodes, cell_nodes, 3, 3, 1, 1,
       stiffness);
  /* hand-computed: the centre node 4 has 4 on the diagonal, -1 to 1, 3, 5,
   * 7 and 0 to the diagonal neighbours 0 and 8 (right angles) */
  double k44 = loom_mat_get(K, 4, 0, 4, 0);
  CHECK(fabs(k44 - 4.0) < 1e-14, "K44 %g", k44);
  for (int j = 1; j < 8; j += 2) {
    double k4j = loom_mat_get(K, 4, 0, j, 0);
    CHECK(fabs(k4j + 1.0) < 1e-14, "K4%d %g", j, k4j);
  }
  double k40 = loom_mat_get(K, 4, 0, 0, 0), k08 = loom_mat_get(K, 0, 0, 8, 0);
  CHECK(k40 == 0.0 && k08 == 0.0, "K40 %g K08 %g", k40, k08);
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

/* ---- session 2: PyOP2's mass matrix ------------------------------------------------- */

static void pyop2_mass(void) {
  static const double xy[8] = {0, 0, 2, 0, 1, 1, 0, 1.5};
  static const int tri[6] = {0, 1, 3, 2, 3, 1};
  /* PyOP2's test_matrices.py, expected mass matrix (6 digits) */
  static const double pyop2[16] = {0.25,      0.125,     0.0,       0.125,
                                   0.125,     0.291667,  0.0208333, 0.145833,
                                   0.0,       0.0208333, 0.0416667, 0.0208333,
                                   0.125,     0.145833,  0.0208333, 0.291667};
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set cells = loom_decl_set(2, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, tri, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, xy, "x");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_mat M = loom_decl_mat(sp, "M");
  CHECK(sp && M && errors_seen == 0, "%s", last);
  if (!M)
    return;
  loop("mass", cells, c2n, x, M, c2n, c2n, 3, 3, 1, 1, mass);
  double ref[16] = {0};
  reference(ref, 4, 2, tri, xy, tri, 3, tri, 3, 1, 1, mass);
  unsigned char pat[16];
  for (int k = 0; k < 16; k++)
    pat[k] = k != 2 && k != 8; /* nodes 0 and 2 share no cell */
  check_entries("PyOP2 mass", M, ref, pat, 4, 4, 1, 1, 1);
  double got[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      got[4 * i + j] = loom_mat_get(M, i, 0, j, 0);
  for (int k = 0; k < 16; k++)
    CHECK(fabs(got[k] - pyop2[k]) < 1e-6, "M[%d][%d] = %.9g, PyOP2 %.9g", k / 4, k % 4,
          got[k], pyop2[k]);
  /* M x = M (1, 2, 3, 4) */
  double want[4] = {1, 2, 3, 4}, rhs[4] = {0}, sol[4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      rhs[i] += ref[4 * i + j] * want[j];
  loom_dat b = loom_decl_dat(nodes, 1, double, rhs, "b");
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  CHECK(loom_solve(M, u, b) == LOOM_OK, "%s", last);
  CHECK(loom_dat_fetch(u, sol, sizeof sol) == LOOM_OK, "%s", last);
  CHECK(rel_diff(sol, want, 4) < 1e-8, "mass solve: %g %g %g %g", sol[0], sol[1], sol[2],
        sol[3]);
}

/* ---- session 3: a perturbed triangle mesh -------------------------------------------- */

enum { N = 12, NN = (N + 1) * (N + 1), NC = 2 * N * N };

static uint32_t hash(uint32_t k) {
  k ^= k >> 16;
  k *= 0x7feb352dU;
  k ^= k >> 15;
  k *= 0x846ca68bU;
  k ^= k >> 16;
  return k;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* A multiplier near n / 3 prime to n: k -> k * m % n scrambles [0, n). */
static int scramble(int n) {
  int m = n / 3;
  while (gcd(m, n) != 1)
    m++;
  return m;
}

typedef struct mesh {
  double xy[2 * NN];
  int c2n[3 * NC], c2c[NC];
  int bc[4 * N], nbc;
} mesh;

static void mesh_build(mesh *m) {
  int an = scramble(NN), ac = scramble(NC);
  for (int j = 0; j <= N; j++)
    for (int i = 0; i <= N; i++) {
      int k = j * (N + 1) + i, d = k * an % NN;
      double dx = 0, dy = 0;
      if (i > 0 && i < N)
        dx = 0.3 / N * ((double)(hash(2 * k) % 2001) / 1000.0 - 1.0);
      if (j > 0 && j < N)
        dy = 0.3 / N * ((double)(hash(2 * k + 1) % 2001) / 1000.0 - 1.0);
      m->xy[2 * d] = (double)i / N + dx;
      m->xy[2 * d + 1] = (double)j / N + dy;
    }
  m->nbc = 0;
  for (int k = 0; k < NN; k++) {
    int i = k % (N + 1), j = k / (N + 1);
    if (i == 0 || i == N || j == 0 || j == N)
      m->bc[m->nbc++] = k * an % NN;
  }
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      int v00 = j * (N + 1) + i, v10 = v00 + 1, v01 = v00 + N + 1, v11 = v01 + 1;
      int t[2][3];
      if (hash(7919u + (unsigned)v00) & 1) { /* diagonal v00 - v11 */
        int a[2][3] = {{v00, v10, v11}, {v00, v11, v01}};
        memcpy(t, a, sizeof t);
      } else { /* diagonal v10 - v01 */
        int a[2][3] = {{v00, v10, v01}, {v10, v11, v01}};
        memcpy(t, a, sizeof t);
      }
      for (int h = 0; h < 2; h++) {
        int c = (2 * (j * N + i) + h) * ac % NC;
        for (int s = 0; s < 3; s++)
          m->c2n[3 * c + s] = t[h][s] * an % NN;
      }
    }
  for (int c = 0; c < NC; c++)
    m->c2c[c] = c;
}

/* pat[i][j]: nodes i and j share a cell (square, nn x nn). */
static unsigned char *pattern_nodes(const int *c2n) {
  unsigned char *pat = calloc((size_t)NN * NN, 1);
  for (int e = 0; e < NC; e++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        pat[(size_t)c2n[3 * e + a] * NN + c2n[3 * e + b]] = 1;
  for (int i = 0; i < NN; i++)
    pat[(size_t)i * NN + i] = 1;
  return pat;
}

/* The solution of A u = f checked against the dense one; u fetched on every
 * rank, its halo stale after the solve, right after an exchange. */
static void check_solve(const char *what, loom_mat A, loom_dat u, loom_dat f,
                        loom_set nodes, const double *ref, const double *fv, int dim,
                        double *got) {
  int n = NN * dim;
  CHECK(loom_solve(A, u, f) == LOOM_OK, "%s: %s", what, last);
  CHECK(loom__dat_is_dirty(u) == 1, "%s: x's halo not marked stale after the solve",
        what);
  double *want = malloc(sizeof(double) * n);
  dense_solve(ref, fv, want, n);
  CHECK(loom_dat_fetch(u, got, sizeof(double) * n) == LOOM_OK, "%s: %s", what, last);
  double d = rel_diff(got, want, n);
  CHECK(d < 1e-8, "%s: the solution differs from the dense one by %g (relative)", what,
        d);
  check_halo(what, u, nodes, got, dim);
  free(want);
}

/* y = A x against the dense product (ref: nr x nc scalars, declared
 * numbering), x fetched on every rank; y fetched into got, its halo stale
 * after the product, right after an exchange (ydim: y's dim, on rows). */
static void check_mult(const char *what, loom_mat A, loom_dat x, loom_dat y, loom_set rows,
                       const double *ref, int nr, int nc, int ydim, double *got) {
  double *xv = malloc(sizeof(double) * nc), *want = calloc((size_t)nr, sizeof *want);
  CHECK(loom_dat_fetch(x, xv, sizeof(double) * nc) == LOOM_OK, "%s: %s", what, last);
  CHECK(loom_mat_mult(A, x, y) == LOOM_OK, "%s: %s", what, last);
  CHECK(loom__dat_is_dirty(y) == 1, "%s: y's halo not marked stale after the product",
        what);
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++)
      want[i] += ref[(size_t)i * nc + j] * xv[j];
  CHECK(loom_dat_fetch(y, got, sizeof(double) * nr) == LOOM_OK, "%s: %s", what, last);
  double d = rel_diff(got, want, nr);
  CHECK(d < 1e-12, "%s: the product differs from the dense one by %g (relative)", what, d);
  check_halo(what, y, rows, got, ydim);
  free(xv);
  free(want);
}

/* Views of x and y = A x (dim 2 on `nodes`): sizes, in place, their dot
 * product against the fetched values, PETSc's MatMult on the views
 * against y, a write through y's view seen by the dat and its halo. */
static void check_views(loom_mat A, loom_dat x, loom_dat y, loom_set nodes) {
  int n = 2 * NN;
  double *xv = malloc(sizeof(double) * n), *yv = malloc(sizeof(double) * n);
  double *zv = malloc(sizeof(double) * n);
  CHECK(loom_dat_fetch(x, xv, sizeof(double) * n) == LOOM_OK &&
            loom_dat_fetch(y, yv, sizeof(double) * n) == LOOM_OK,
        "views: %s", last);
  loom_dat z = loom_decl_temp(nodes, 2, double, "z");
  Vec vx = loom_dat_vec(x), vy = loom_dat_vec(y), vz = loom_dat_vec(z);
  CHECK(vx && vy && vz, "views: %s", last);
  if (!vx || !vy || !vz)
    return;
  PetscInt gsize = 0, lsize = 0, bs = 0;
  const PetscScalar *a = NULL;
  CHECK(VecGetSize(vy, &gsize) == 0 && VecGetLocalSize(vy, &lsize) == 0 &&
            VecGetBlockSize(vy, &bs) == 0 && VecGetArrayRead(vy, &a) == 0,
        "views: PETSc failed");
  CHECK(gsize == n && lsize == 2 * loom__set_owned(nodes) && bs == 2 &&
            (const void *)a == loom__dat_values(y),
        "y's view: %d of %d entries here (%d owned nodes), block size %d, %s", (int)lsize,
        (int)gsize, loom__set_owned(nodes), (int)bs,
        (const void *)a == loom__dat_values(y) ? "in place" : "not the dat's storage");
  VecRestoreArrayRead(vy, &a);
  PetscScalar dot = 0;
  double want = 0;
  for (int i = 0; i < n; i++)
    want += xv[i] * yv[i];
  CHECK(VecDot(vx, vy, &dot) == 0 && fabs(dot - want) <= 1e-12 * fabs(want),
        "views: x.y is %.17g, the fetched values' %.17g", (double)dot, want);
  Mat P = loom_mat_petsc(A);
  CHECK(P && MatMult(P, vx, vz) == 0, "views: MatMult: %s", last);
  CHECK(VecScale(vy, 0.5) == 0, "views: VecScale");
  CHECK(loom_dat_vec_restore(z, &vz) == LOOM_OK && loom_dat_vec_restore(y, &vy) == LOOM_OK &&
            loom_dat_vec_restore(x, &vx) == LOOM_OK && !vx && !vy && !vz,
        "views: restore: %s", last);
  CHECK(loom__dat_is_dirty(y) == 1, "y's halo not marked stale after the restore");
  CHECK(loom_dat_fetch(z, zv, sizeof(double) * n) == LOOM_OK &&
            rel_diff(zv, yv, n) < 1e-14,
        "views: MatMult on the views differs from loom_mat_mult by %g", rel_diff(zv, yv, n));
  for (int i = 0; i < n; i++)
    yv[i] *= 0.5;
  CHECK(loom_dat_fetch(y, zv, sizeof(double) * n) == LOOM_OK && rel_diff(zv, yv, n) == 0,
        "views: a write through the view: %g", rel_diff(zv, yv, n));
  check_halo("y after a write through its view", y, nodes, zv, 2);
  free(xv);
  free(yv);
  free(zv);
}

static void perturbed(void) {
  static mesh m;
  mesh_build(&m);
  loom_set nodes = loom_decl_set(NN, "nodes");
  loom_set cells = loom_decl_set(NC, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, m.c2n, "c2n");
  loom_map c2c = loom_decl_map(cells, cells, 1, m.c2c, "c2c");
  loom_dat x = loom_decl_dat(nodes, 2, double, m.xy, "x");
  double f[NN], f2[2 * NN];
  for (int i = 0; i < NN; i++) {
    f[i] = 1.0 + m.xy[2 * i] * m.xy[2 * i + 1];
    f2[2 * i] = f[i];
    f2[2 * i + 1] = 1.0 - m.xy[2 * i];
  }
  loom_dat fd = loom_decl_dat(nodes, 1, double, f, "f");
  loom_dat fd2 = loom_decl_dat(nodes, 2, double, f2, "f2");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &c2n, &c2n, "sp");
  loom_sparsity sp2 = loom_decl_sparsity(nodes, nodes, 2, 2, 1, &c2n, &c2n, "sp2");
  loom_sparsity spr = loom_decl_sparsity(nodes, cells, 1, 1, 1, &c2n, &c2c, "spr");
  loom_mat K = loom_decl_mat(sp, "K");
  loom_mat B = loom_decl_mat(sp2, "B");
  loom_mat R = loom_decl_mat(spr, "R");
  CHECK(K && B && R && errors_seen == 0, "%s", last);
  if (!K || !B || !R)
    return;
  loop("helmholtz", cells, c2n, x, K, c2n, c2n, 3, 3, 1, 1, helmholtz);
  loop("helmholtz2", cells, c2n, x, B, c2n, c2n, 3, 3, 2, 2, helmholtz2);
  loop("share", cells, c2n, x, R, c2n, c2c, 3, 1, 1, 1, share);

  double *kref = calloc((size_t)NN * NN, sizeof *kref);
  double *bref = calloc((size_t)4 * NN * NN, sizeof *bref);
  double *rref = calloc((size_t)NN * NC, sizeof *rref);
  reference(kref, NN, NC, m.c2n, m.xy, m.c2n, 3, m.c2n, 3, 1, 1, helmholtz);
  reference(bref, NN, NC, m.c2n, m.xy, m.c2n, 3, m.c2n, 3, 2, 2, helmholtz2);
  reference(rref, NC, NC, m.c2n, m.xy, m.c2n, 3, m.c2c, 1, 1, 1, share);
  unsigned char *pat = pattern_nodes(m.c2n);
  unsigned char *patr = calloc((size_t)NN * NC, 1);
  for (int e = 0; e < NC; e++)
    for (int a = 0; a < 3; a++)
      patr[(size_t)m.c2n[3 * e + a] * NC + e] = 1;

  check_entries("K (1x1 blocks)", K, kref, pat, NN, NN, 1, 1, 1);
  check_entries("B (2x2 blocks)", B, bref, pat, NN, NN, 2, 2, 3);
  check_entries("R (nodes x cells)", R, rref, patr, NN, NC, 1, 1, 2);

  double *got = malloc(sizeof(double) * 2 * NN);
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  check_solve("K u = f", K, u, fd, nodes, kref, f, 1, got);
  loom_dat u2 = loom_decl_temp(nodes, 2, double, "u2");
  check_solve("B u2 = f2", B, u2, fd2, nodes, bref, f2, 2, got);

  /* products; x = the solutions, whose halos are stale */
  loom_dat y = loom_decl_temp(nodes, 1, double, "y");
  loom_dat y2 = loom_decl_temp(nodes, 2, double, "y2");
  CHECK(loom_solve(K, u, fd) == LOOM_OK && loom__dat_is_dirty(u) == 1, "%s", last);
  check_mult("y = K u", K, u, y, nodes, kref, NN, NN, 1, got);
  CHECK(rel_diff(got, f, NN) < 1e-8, "K u is not f: %g", rel_diff(got, f, NN));
  check_mult("y2 = B u2", B, u2, y2, nodes, bref, 2 * NN, 2 * NN, 2, got);
  double xc[NC];
  for (int c = 0; c < NC; c++)
    xc[c] = 1.0 + 0.01 * c - 1e-4 * c * c;
  loom_dat xcd = loom_decl_dat(cells, 1, double, xc, "xc");
  check_mult("y = R xc (nodes x cells)", R, xcd, y, nodes, rref, NN, NC, 1, got);
  check_views(B, u2, y2, nodes);

  /* Dirichlet: u = g on the boundary */
  double g[NN] = {0}, fb[NN], *kd = malloc(sizeof(double) * NN * NN);
  unsigned char isbc[NN] = {0};
  for (int k = 0; k < m.nbc; k++) {
    int i = m.bc[k];
    isbc[i] = 1;
    g[i] = 1.0 + m.xy[2 * i] + 2.0 * m.xy[2 * i + 1];
  }
  memcpy(kd, kref, sizeof(double) * NN * NN);
  for (int i = 0; i < NN; i++) {
    fb[i] = f[i];
    for (int j = 0; j < NN; j++)
      if (isbc[j] && !isbc[i])
        fb[i] -= kref[(size_t)i * NN + j] * g[j];
    if (isbc[i])
      fb[i] = g[i];
  }
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++)
      if (isbc[i] || isbc[j])
        kd[(size_t)i * NN + j] = i == j ? 1.0 : 0.0;
  loom_dat ud = loom_decl_dat(nodes, 1, double, g, "ud");
  loom_dat fdir = loom_decl_dat(nodes, 1, double, f, "fdir");
  CHECK(loom_mat_zero_rows_columns(K, m.nbc, m.bc, 1.0, ud, fdir) == LOOM_OK, "%s", last);
  CHECK(loom__dat_is_dirty(fdir) == 1, "b's halo not marked stale by the conditions");
  CHECK(loom_dat_fetch(fdir, got, sizeof(double) * NN) == LOOM_OK, "%s", last);
  CHECK(rel_diff(got, fb, NN) < 1e-12, "b after the conditions differs by %g",
        rel_diff(got, fb, NN));
  check_halo("b after the conditions", fdir, nodes, got, 1);
  check_entries("K with Dirichlet rows and columns", K, kd, pat, NN, NN, 1, 1, 2);
  check_solve("Dirichlet K u = f", K, ud, fdir, nodes, kd, fb, 1, got);
  double bcerr = 0;
  for (int k = 0; k < m.nbc; k++)
    bcerr = fmax(bcerr, fabs(got[m.bc[k]] - g[m.bc[k]]));
  CHECK(bcerr < 1e-10, "the Dirichlet values are off by %g", bcerr);

  /* zero, assemble again: the matrix without conditions, its pattern kept */
  CHECK(loom_mat_zero(K) == LOOM_OK, "%s", last);
  double z = loom_mat_get(K, m.c2n[0], 0, m.c2n[0], 0);
  CHECK(z == 0.0, "K after loom_mat_zero: %g on the diagonal", z);
  loop("helmholtz again", cells, c2n, x, K, c2n, c2n, 3, 3, 1, 1, helmholtz);
  CHECK(loom_mat_assemble(K) == LOOM_OK, "%s", last);
  check_entries("K assembled again", K, kref, pat, NN, NN, 1, 1, 2);

  /* misuse on some ranks only: an error on every rank, no hang, and the
   * session goes on.  An argument wrong on the last rank (its own error;
   * the others see a different call there, or its failure); different
   * calls on rank 0 and on the others. */
  if (nranks > 1) {
    int before = errors_seen, bad = rank == nranks - 1;
    double v = loom_mat_get(K, bad ? NN : 0, 0, 0, 0);
    CHECK(isnan(v) && errors_seen == before + 1 &&
              strstr(last, bad ? "row node 169 is outside [0, 169)"
                               : "matrix 'K': loom_mat_get(0, 0, 0, 0): the ranks are "
                                 "not all making this call"),
          "one rank's bad loom_mat_get: %g, %d errors, last: %s", v,
          errors_seen - before, last);
    const int one[1] = {bad ? -1 : 0};
    CHECK(loom_mat_zero_rows_columns(K, 1, one, 1.0, NULL, NULL) != LOOM_OK &&
              errors_seen == before + 2 &&
              strstr(last, bad ? "row node -1 is outside"
                               : "loom_mat_zero_rows_columns(1 nodes) failed on another "
                                 "rank"),
          "one rank's bad loom_mat_zero_rows_columns: %d errors, last: %s",
          errors_seen - before, last);
    if (rank == 0)
      CHECK(isnan(loom_mat_get(K, 0, 0, 0, 0)), "a lone loom_mat_get returned a value");
    else
      CHECK(loom_mat_assemble(K) != LOOM_OK, "loom_mat_assemble beside a lone "
                                             "loom_mat_get succeeded");
    CHECK(errors_seen == before + 3 && strstr(last, "the ranks are not all making this call"),
          "different calls: %d errors, last: %s", errors_seen - before, last);
    errors_seen = before;
    /* a product, and a view, wrong on the last rank only */
    CHECK(loom_mat_mult(K, bad ? fd2 : fd, u) != LOOM_OK && errors_seen == before + 1 &&
              strstr(last, bad ? "dat x ('f2') must hold 1 double"
                               : "matrix 'K': loom_mat_mult failed on another rank"),
          "one rank's bad loom_mat_mult: %d errors, last: %s", errors_seen - before, last);
    errors_seen = before;
    loom_dat ints = loom_decl_dat(cells, 1, int, m.c2c, "ints");
    Vec bad_view = loom_dat_vec(bad ? ints : fd);
    CHECK(!bad_view && errors_seen == before + 1 &&
              strstr(last, bad ? "dat 'ints': loom_dat_vec: a PETSc Vec views doubles"
                               : "the ranks are not all making this call"),
          "one rank's bad loom_dat_vec: %d errors, last: %s", errors_seen - before, last);
    errors_seen = before;
    Vec good = loom_dat_vec(fd);
    CHECK(good && loom_dat_vec_restore(fd, &good) == LOOM_OK && errors_seen == before,
          "a view after the errors: %s", last);
    double k = loom_mat_get(K, 0, 0, 0, 0);
    CHECK(fabs(k - kref[0]) <= 1e-12 * fabs(kref[0]) && errors_seen == before,
          "after the errors: K00 %g (want %g): %s", k, kref[0], last);
  }
  free(kref);
  free(bref);
  free(rref);
  free(pat);
  free(patr);
  free(got);
  free(kd);
}

/* ---- sessions --------------------------------------------------------------------- */

static void session(int *argc, char ***argv, void (*body)(void), const char *name) {
  int before = failures;
  if (loom_init(argc, argv) != LOOM_OK) {
    CHECK(0, "%s: loom_init: %s", name, last);
    return;
  }
  rank = loom_rank();
  nranks = loom_nranks();
  body();
  CHECK(errors_seen == 0, "%s: %d errors, last: %s", name, errors_seen, last);
  CHECK(loom_exit() == LOOM_OK, "%s: %s", name, last);
  if (failures > before)
    fprintf(stderr, "rank %d: session '%s' failed\n", rank, name);
  errors_seen = 0;
}

int main(int argc, char **argv) {
  /* the KSP options, after the program's own arguments */
  static const char *ksp[] = {"-ksp_type", "cg", "-pc_type", "jacobi", "-ksp_rtol",
                              "1e-12", "-ksp_max_it", "5000"};
  int nk = (int)(sizeof ksp / sizeof *ksp), n = argc + nk;
  char **args = calloc((size_t)n + 1, sizeof *args);
  for (int i = 0; i < argc; i++)
    args[i] = argv[i];
  for (int i = 0; i < nk; i++)
    args[argc + i] = (char *)ksp[i];
  loom_set_error_handler(handler, NULL);
  session(&n, &args, patch, "Laplace patch");
  session(&n, &args, pyop2_mass, "PyOP2 mass matrix");
  session(&n, &args, perturbed, "perturbed mesh");
  if (rank == 0 && failures == 0)
    printf("PASS: mat_mpi (%d rank%s)\n", nranks, nranks > 1 ? "s" : "");
  free(args);
  return failures != 0;
}
