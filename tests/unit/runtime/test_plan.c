/*
 * tests/unit/runtime/test_plan.c — unit tests of execution plans
 * (runtime/src/plan/: loom__plan_get, loom__plan_check), the block size
 * and its environment variables, loom__scratch, and renumbering
 * (loom_renumber, $LOOM_RENUMBER).
 *
 * Plans are checked three ways: by loom__plan_check; by an independent
 * brute-force check here (every pair of elements that write a common
 * target element must differ in block colour, or in element colour when
 * they share a block); and by comparing the two verdicts on deliberately
 * corrupted plans, so the checker is shown to fail when it should.
 * Meshes are random maps, a structured quad mesh like Airfoil's (built
 * here), and "star" meshes where every element writes one target element
 * (so n elements need n colours: more than 32 forces further passes).
 *
 * Range plans (loom__plan_get_range, loom__ocplan_get_range) are built on
 * meshes whose map rows outside the range hold -1, as MPI's non-executed
 * halo rows do, and checked by the checkers, by brute force over the
 * range, and against the whole-set plan of the sub-mesh made of the rows
 * in range (the plan must depend on those rows only).
 *
 * Renumbering is checked by simulating loops by hand over the raw
 * storage (loom__dat_values / loom__map_values) before and after, on a
 * randomly numbered grid, and by the bandwidth of the maps.
 *
 * Build and run (or `make unit`):
 *   cc -std=c11 -g -Wall -Wextra -Iruntime/include tests/unit/runtime/test_plan.c \
 *      build/lib/libloom.a $(pkg-config --cflags --libs criterion) \
 *      -o build/tests/test_plan && build/tests/test_plan
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loom_gen.h"

/* ---- capturing error handler ------------------------------------------- */

static struct {
  int calls;
  int status;
  char message[4096];
} captured;

static void capture_handler(int status, const char *message, void *ctx) {
  (void)ctx;
  captured.calls++;
  captured.status = status;
  snprintf(captured.message, sizeof captured.message, "%s", message);
}

static void reset_capture(void) { memset(&captured, 0, sizeof captured); }

static void install_capture(void) {
  reset_capture();
  loom_set_error_handler(capture_handler, NULL);
}

static void expect_no_error(void) {
  cr_assert_eq(captured.calls, 0, "unexpected error: %s", captured.message);
}

static void expect_error_v(int status, const char *const *needles) {
  cr_assert_eq(captured.calls, 1, "expected one error, got %d (last: '%s')",
               captured.calls, captured.message);
  cr_assert_eq(captured.status, status, "status %d, expected %d: '%s'",
               captured.status, status, captured.message);
  for (const char *const *n = needles; *n; n++)
    cr_assert(strstr(captured.message, *n), "message '%s' lacks '%s'",
              captured.message, *n);
  reset_capture();
}

#define expect_error(status, ...)                                              \
  expect_error_v((status), (const char *const[]){__VA_ARGS__, NULL})

static void setup_active(void) {
  install_capture();
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
}

static void teardown_active(void) {
  reset_capture();
  loom_exit();
}

TestSuite(plan, .init = setup_active, .fini = teardown_active);
TestSuite(checker, .init = setup_active, .fini = teardown_active);
TestSuite(cache, .init = setup_active, .fini = teardown_active);
TestSuite(scratch, .init = setup_active, .fini = teardown_active);
TestSuite(renumber, .init = setup_active, .fini = teardown_active);
TestSuite(environment, .init = install_capture);

/* ---- random numbers (deterministic) ------------------------------------ */

static uint64_t rng_state;

static void rng_seed(uint64_t seed) { rng_state = seed * 0x9e3779b97f4a7c15u + 1; }

static uint32_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int rng_below(int n) { return (int)(rng_next() % (uint32_t)n); }

/* A random permutation of 0..n-1 (Fisher–Yates). */
static int *random_perm(int n) {
  int *p = malloc(((size_t)n + 1) * sizeof *p);
  for (int i = 0; i < n; i++)
    p[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = rng_below(i + 1), t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/* ---- brute-force plan verification ------------------------------------- */

/* The plan arguments with the dims the test knows (loom.h has no map dim
 * query). */
typedef struct pargs {
  int nargs;
  loom__plan_arg args[8];
  int dims[8];
} pargs;

/* 1 when elements e and f write a common target element. */
static int conflict(const pargs *pa, int e, int f) {
  for (int a = 0; a < pa->nargs; a++) {
    const int *va = loom__map_values(pa->args[a].map);
    int da = pa->dims[a], sa = pa->args[a].slot;
    for (int b = 0; b < pa->nargs; b++) {
      if (loom__map_to(pa->args[a].map) != loom__map_to(pa->args[b].map))
        continue;
      const int *vb = loom__map_values(pa->args[b].map);
      int db = pa->dims[b], sb = pa->args[b].slot;
      for (int i = sa < 0 ? 0 : sa; i < (sa < 0 ? da : sa + 1); i++)
        for (int j = sb < 0 ? 0 : sb; j < (sb < 0 ? db : sb + 1); j++)
          if (va[(size_t)e * da + i] == vb[(size_t)f * db + j])
            return 1;
    }
  }
  return 0;
}

/* 1 when the plan's colours are race-free, by comparing every pair. */
static int brute_force_ok(const loom__plan *pl, const pargs *pa) {
  int *block_of = malloc(((size_t)pl->nelems + 1) * sizeof *block_of);
  for (int b = 0; b < pl->nblocks; b++)
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      block_of[e] = b;
  int ok = 1;
  for (int e = 0; e < pl->nelems && ok; e++)
    for (int f = e + 1; f < pl->nelems && ok; f++) {
      int be = block_of[e], bf = block_of[f];
      int same = be == bf ? pl->elem_colour[e] == pl->elem_colour[f]
                          : pl->block_colour[be] == pl->block_colour[bf];
      if (same && conflict(pa, e, f))
        ok = 0;
    }
  free(block_of);
  return ok;
}

/* Asserts the documented layout of blocks and the colour index. */
static void assert_layout(const loom__plan *pl, int n, int bs) {
  cr_assert_eq(pl->nelems, n);
  cr_assert_eq(pl->block_size, bs);
  cr_assert_eq(pl->nblocks, (n + bs - 1) / bs);
  int *seen = calloc((size_t)n + 1, sizeof *seen);
  for (int b = 0; b < pl->nblocks; b++) {
    cr_assert_eq(pl->block_start[b], b * bs, "block %d", b);
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      seen[e]++;
  }
  cr_assert_eq(pl->block_start[pl->nblocks], n);
  for (int e = 0; e < n; e++)
    cr_assert_eq(seen[e], 1, "element %d is in %d blocks", e, seen[e]);
  free(seen);
  cr_assert_eq(pl->colour_start[0], 0);
  cr_assert_eq(pl->colour_start[pl->ncolours], pl->nblocks);
  for (int c = 0; c < pl->ncolours; c++)
    for (int k = pl->colour_start[c]; k < pl->colour_start[c + 1]; k++) {
      cr_assert_eq(pl->block_colour[pl->blocks_by_colour[k]], c);
      if (k > pl->colour_start[c])
        cr_assert_lt(pl->blocks_by_colour[k - 1], pl->blocks_by_colour[k]);
    }
  int max = 0;
  for (int b = 0; b < pl->nblocks; b++) {
    int k = pl->block_elem_colours[b];
    max = k > max ? k : max;
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      cr_assert(pl->elem_colour[e] >= 0 && pl->elem_colour[e] < k);
  }
  cr_assert_eq(pl->max_elem_colours, max);
}

/* ---- a mutable copy of a plan ------------------------------------------ */

typedef struct plan_copy {
  loom__plan plan;
  int *block_start, *colour_start, *blocks_by_colour, *block_colour,
      *elem_colour, *block_elem_colours;
} plan_copy;

static int *dup_ints(const int *a, int n) {
  int *c = malloc(((size_t)n + 1) * sizeof *c);
  memcpy(c, a, (size_t)n * sizeof *c);
  return c;
}

static void copy_plan(plan_copy *c, const loom__plan *p) {
  c->plan = *p;
  c->plan.block_start = c->block_start = dup_ints(p->block_start, p->nblocks + 1);
  c->plan.colour_start = c->colour_start =
      dup_ints(p->colour_start, p->ncolours + 1);
  c->plan.blocks_by_colour = c->blocks_by_colour =
      dup_ints(p->blocks_by_colour, p->nblocks);
  c->plan.block_colour = c->block_colour = dup_ints(p->block_colour, p->nblocks);
  c->plan.elem_colour = c->elem_colour = dup_ints(p->elem_colour, p->nelems);
  c->plan.block_elem_colours = c->block_elem_colours =
      dup_ints(p->block_elem_colours, p->nblocks);
}

static void free_copy(plan_copy *c) {
  free(c->block_start);
  free(c->colour_start);
  free(c->blocks_by_colour);
  free(c->block_colour);
  free(c->elem_colour);
  free(c->block_elem_colours);
}

/* Rebuilds colour_start and blocks_by_colour from block_colour, so that a
 * changed block colour leaves the plan structurally consistent. */
static void reindex(plan_copy *c) {
  int nc = c->plan.ncolours, k = 0;
  for (int col = 0; col < nc; col++) {
    c->colour_start[col] = k;
    for (int b = 0; b < c->plan.nblocks; b++)
      if (c->block_colour[b] == col)
        c->blocks_by_colour[k++] = b;
  }
  c->colour_start[nc] = k;
}

/* ---- meshes ------------------------------------------------------------ */

/* A random map of `dim` slots from `from` (n elements) into `to`. */
static loom_map random_map(loom_set from, loom_set to, int dim,
                           const char *name) {
  int n = loom_set_size(from), m = loom_set_size(to);
  int *v = malloc(((size_t)n * dim + 1) * sizeof *v);
  for (int i = 0; i < n * dim; i++)
    v[i] = rng_below(m);
  loom_map map = loom_decl_map(from, to, dim, v, name);
  free(v);
  cr_assert_not_null(map);
  return map;
}

/* A structured I x J quad mesh like Airfoil's: nodes (I+1)(J+1), cells
 * I*J with 4 nodes each, interior edges with 2 nodes and 2 cells,
 * boundary edges with 2 nodes and 1 cell.  With `shuffle`, nodes, cells,
 * edges and boundary edges are numbered at random. */
struct quad {
  int I, J, nnode, ncell, nedge, nbedge;
  int *cell, *edge, *ecell, *bedge, *becell, *bound;
  double *x, *q;
  loom_set nodes, cells, edges, bedges;
  loom_map pcell, pedge, pecell, pbedge, pbecell;
  loom_dat p_x, p_q, p_res, p_bound;
};

static void quad_build(struct quad *m, int I, int J, int shuffle) {
  memset(m, 0, sizeof *m);
  m->I = I;
  m->J = J;
  m->nnode = (I + 1) * (J + 1);
  m->ncell = I * J;
  int maxe = 2 * (I + 1) * (J + 1);
  m->cell = malloc((size_t)m->ncell * 4 * sizeof(int));
  m->edge = malloc((size_t)maxe * 2 * sizeof(int));
  m->ecell = malloc((size_t)maxe * 2 * sizeof(int));
  m->bedge = malloc((size_t)maxe * 2 * sizeof(int));
  m->becell = malloc((size_t)maxe * sizeof(int));
  m->bound = malloc((size_t)maxe * sizeof(int));
  int *pn = shuffle ? random_perm(m->nnode) : NULL;
  int *pc = shuffle ? random_perm(m->ncell) : NULL;
#define NODE(i, j) (pn ? pn[(i) * (J + 1) + (j)] : (i) * (J + 1) + (j))
#define CELL(i, j) (pc ? pc[(i) * J + (j)] : (i) * J + (j))
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++) {
      int *c = m->cell + 4 * CELL(i, j);
      c[0] = NODE(i, j);
      c[1] = NODE(i + 1, j);
      c[2] = NODE(i + 1, j + 1);
      c[3] = NODE(i, j + 1);
    }
  for (int i = 0; i <= I; i++) /* edges between cells (i-1, j), (i, j) */
    for (int j = 0; j < J; j++) {
      int inside = i > 0 && i < I;
      int *e = inside ? m->edge + 2 * m->nedge : m->bedge + 2 * m->nbedge;
      e[0] = NODE(i, j);
      e[1] = NODE(i, j + 1);
      if (inside) {
        m->ecell[2 * m->nedge] = CELL(i - 1, j);
        m->ecell[2 * m->nedge + 1] = CELL(i, j);
        m->nedge++;
      } else {
        m->becell[m->nbedge] = CELL(i == 0 ? 0 : I - 1, j);
        m->bound[m->nbedge++] = 1 + (i == 0);
      }
    }
  for (int i = 0; i < I; i++) /* edges between cells (i, j-1), (i, j) */
    for (int j = 0; j <= J; j++) {
      int inside = j > 0 && j < J;
      int *e = inside ? m->edge + 2 * m->nedge : m->bedge + 2 * m->nbedge;
      e[0] = NODE(i + 1, j);
      e[1] = NODE(i, j);
      if (inside) {
        m->ecell[2 * m->nedge] = CELL(i, j - 1);
        m->ecell[2 * m->nedge + 1] = CELL(i, j);
        m->nedge++;
      } else {
        m->becell[m->nbedge] = CELL(i, j == 0 ? 0 : J - 1);
        m->bound[m->nbedge++] = 1;
      }
    }
#undef NODE
#undef CELL
  if (shuffle) { /* shuffle the order of the edges too */
    int *pe = random_perm(m->nedge);
    int *edge = malloc((size_t)m->nedge * 2 * sizeof(int));
    int *ecell = malloc((size_t)m->nedge * 2 * sizeof(int));
    for (int e = 0; e < m->nedge; e++)
      for (int k = 0; k < 2; k++) {
        edge[2 * pe[e] + k] = m->edge[2 * e + k];
        ecell[2 * pe[e] + k] = m->ecell[2 * e + k];
      }
    memcpy(m->edge, edge, (size_t)m->nedge * 2 * sizeof(int));
    memcpy(m->ecell, ecell, (size_t)m->nedge * 2 * sizeof(int));
    free(edge);
    free(ecell);
    free(pe);
  }
  free(pn);
  free(pc);
  m->x = malloc((size_t)m->nnode * 2 * sizeof(double));
  m->q = malloc((size_t)m->ncell * 4 * sizeof(double));
}

/* Declares the quad mesh: sets, maps, dats p_x (nodes, 2), p_q (cells,
 * 4), p_res (cells, 4, zero) and p_bound (bedges, int).  With `integers`
 * the values are small integers (sums of them are exact in any order),
 * otherwise random reals. */
static void quad_declare(struct quad *m, int integers) {
  for (int i = 0; i < 2 * m->nnode; i++)
    m->x[i] = integers ? (double)rng_below(17) : rng_below(1 << 30) * 0x1p-29 - 1.0;
  for (int i = 0; i < 4 * m->ncell; i++)
    m->q[i] = integers ? (double)rng_below(9) : rng_below(1 << 30) * 0x1p-30 + 0.5;
  m->nodes = loom_decl_set(m->nnode, "nodes");
  m->edges = loom_decl_set(m->nedge, "edges");
  m->bedges = loom_decl_set(m->nbedge, "bedges");
  m->cells = loom_decl_set(m->ncell, "cells");
  m->pedge = loom_decl_map(m->edges, m->nodes, 2, m->edge, "pedge");
  m->pecell = loom_decl_map(m->edges, m->cells, 2, m->ecell, "pecell");
  m->pbedge = loom_decl_map(m->bedges, m->nodes, 2, m->bedge, "pbedge");
  m->pbecell = loom_decl_map(m->bedges, m->cells, 1, m->becell, "pbecell");
  m->pcell = loom_decl_map(m->cells, m->nodes, 4, m->cell, "pcell");
  m->p_x = loom_decl_dat(m->nodes, 2, double, m->x, "p_x");
  m->p_q = loom_decl_dat(m->cells, 4, double, m->q, "p_q");
  m->p_res = loom_decl_temp(m->cells, 4, double, "p_res");
  m->p_bound = loom_decl_dat(m->bedges, 1, int, m->bound, "p_bound");
  cr_assert_not_null(m->p_bound);
  expect_no_error();
}

static void quad_free(struct quad *m) {
  free(m->cell);
  free(m->edge);
  free(m->ecell);
  free(m->bedge);
  free(m->becell);
  free(m->bound);
  free(m->x);
  free(m->q);
}

/* res_calc- and bres_calc-like loops by hand over the raw storage, in
 * storage order: res[cell] += f(x[nodes], q[cells]). */
static void simulate_loops(const struct quad *m) {
  const int *pedge = loom__map_values(m->pedge);
  const int *pecell = loom__map_values(m->pecell);
  const int *pbedge = loom__map_values(m->pbedge);
  const int *pbecell = loom__map_values(m->pbecell);
  const double *x = loom__dat_values(m->p_x);
  const double *q = loom__dat_values(m->p_q);
  const int *bound = loom__dat_values(m->p_bound);
  double *res = loom__dat_values(m->p_res);
  for (int e = 0; e < m->nedge; e++) {
    const double *x1 = x + 2 * pedge[2 * e], *x2 = x + 2 * pedge[2 * e + 1];
    const double *q1 = q + 4 * pecell[2 * e], *q2 = q + 4 * pecell[2 * e + 1];
    double dx = x1[0] - x2[0], dy = x1[1] - x2[1];
    for (int k = 0; k < 4; k++) {
      double f = dx * q1[k] + dy * q2[k];
      res[4 * pecell[2 * e] + k] += f;
      res[4 * pecell[2 * e + 1] + k] -= f;
    }
  }
  for (int b = 0; b < m->nbedge; b++) {
    const double *x1 = x + 2 * pbedge[2 * b], *x2 = x + 2 * pbedge[2 * b + 1];
    for (int k = 0; k < 4; k++)
      res[4 * pbecell[b] + k] += (x1[0] - x2[1]) * bound[b] * (k + 1);
  }
}

static double *fetch_doubles(loom_dat d, size_t count) {
  double *v = malloc((count + 1) * sizeof *v);
  cr_assert_eq(loom_dat_fetch(d, v, count * sizeof *v), LOOM_OK, "%s",
               loom_last_error());
  return v;
}

/* max |a - b| over pairs of slots of each element of a map. */
static int bandwidth(loom_map map, int n, int dim) {
  const int *v = loom__map_values(map);
  int bw = 0;
  for (int e = 0; e < n; e++)
    for (int i = 0; i < dim; i++)
      for (int j = i + 1; j < dim; j++) {
        int d = abs(v[e * dim + i] - v[e * dim + j]);
        bw = d > bw ? d : bw;
      }
  return bw;
}

/* ---- blocks ------------------------------------------------------------ */

Test(plan, blocks_cover_the_set_with_no_args) {
  static const struct {
    int n, bs;
  } cases[] = {{0, 1},   {0, 512}, {1, 1},   {1, 512},  {5, 7},
               {512, 512}, {513, 512}, {1000, 64}, {1000, 7}, {64, 64}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "s%zu", i);
    loom_set s = loom_decl_set(cases[i].n, name);
    cr_assert_eq(loom_set_block_size(cases[i].bs), LOOM_OK);
    const loom__plan *pl = loom__plan_get("direct", s, 0, NULL);
    cr_assert_not_null(pl, "case %zu: %s", i, captured.message);
    assert_layout(pl, cases[i].n, cases[i].bs);
    cr_assert_eq(pl->ncolours, cases[i].n > 0 ? 1 : 0, "case %zu", i);
    cr_assert_eq(pl->max_elem_colours, cases[i].n > 0 ? 1 : 0);
    for (int b = 0; b < pl->nblocks; b++) {
      cr_assert_eq(pl->block_colour[b], 0);
      cr_assert_eq(pl->blocks_by_colour[b], b);
    }
    cr_assert_eq(loom__plan_check(pl, s, 0, NULL), LOOM_OK, "case %zu: %s", i,
                 captured.message);
    cr_assert_str_eq(pl->loop, "direct");
  }
  expect_no_error();
}

Test(plan, empty_set_with_args) {
  loom_set none = loom_decl_set(0, "none");
  loom_set cells = loom_decl_set(3, "cells");
  loom_map m = loom_decl_map(none, cells, 2, NULL, "m");
  loom__plan_arg args[] = {{m, -1}};
  const loom__plan *pl = loom__plan_get("empty", none, 1, args);
  cr_assert_not_null(pl);
  cr_assert_eq(pl->nblocks, 0);
  cr_assert_eq(pl->ncolours, 0);
  cr_assert_eq(loom__plan_check(pl, none, 1, args), LOOM_OK, "%s",
               captured.message);
  expect_no_error();
}

/* ---- colouring on random meshes ---------------------------------------- */

/* Random maps with 2-4 slots into small target sets, several seeds and
 * block sizes, several argument lists: the checker accepts the plan, the
 * layout is as documented, and (small sets) the brute force agrees. */
Test(plan, random_meshes) {
  static const int block_sizes[] = {1, 7, 64, 512};
  static const int sizes[] = {300, 2000};
  for (int seed = 1; seed <= 4; seed++)
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
      rng_seed((uint64_t)seed);
      int n = sizes[si];
      char name[64];
      snprintf(name, sizeof name, "it%d_%d", seed, n);
      loom_set it = loom_decl_set(n, name);
      snprintf(name, sizeof name, "ta%d_%d", seed, n);
      loom_set ta = loom_decl_set(10 + rng_below(200), name);
      snprintf(name, sizeof name, "tb%d_%d", seed, n);
      loom_set tb = loom_decl_set(5 + rng_below(50), name);
      int da = 2 + rng_below(3), db = 2 + rng_below(3);
      loom_map ma = random_map(it, ta, da, "ma");
      loom_map mb = random_map(it, tb, db, "mb");
      loom_map mc = random_map(it, ta, 1, "mc"); /* same target as ma */
      const pargs lists[] = {
          {1, {{ma, -1}}, {da}},
          {1, {{ma, 1}}, {da}},
          {2, {{ma, 0}, {ma, 1}}, {da, da}},
          {2, {{ma, -1}, {mb, -1}}, {da, db}},
          {2, {{ma, 0}, {mc, 0}}, {da, 1}}, /* share ta's masks */
          {3, {{mb, 0}, {mc, 0}, {ma, da - 1}}, {db, 1, da}},
      };
      for (size_t bi = 0; bi < sizeof block_sizes / sizeof block_sizes[0];
           bi++) {
        cr_assert_eq(loom_set_block_size(block_sizes[bi]), LOOM_OK);
        for (size_t li = 0; li < sizeof lists / sizeof lists[0]; li++) {
          const pargs *pa = &lists[li];
          const loom__plan *pl = loom__plan_get("random", it, pa->nargs,
                                                pa->args);
          cr_assert_not_null(pl, "%s", captured.message);
          assert_layout(pl, n, block_sizes[bi]);
          cr_assert_eq(loom__plan_check(pl, it, pa->nargs, pa->args), LOOM_OK,
                       "seed %d n %d bs %d list %zu: %s", seed, n,
                       block_sizes[bi], li, captured.message);
          if (n <= 300)
            cr_assert(brute_force_ok(pl, pa), "seed %d bs %d list %zu", seed,
                      block_sizes[bi], li);
        }
      }
    }
  expect_no_error();
}

/* Two maps into one set conflict through each other (element e writes e
 * through a and e+1 through b); two maps into two sets of the same size
 * with the same entries do not conflict at all. */
Test(plan, conflicts_are_per_target_set_element) {
  enum { N = 50 };
  loom_set it = loom_decl_set(N, "it");
  loom_set t = loom_decl_set(N + 1, "t");
  loom_set u = loom_decl_set(N + 1, "u");
  int same[N], next[N];
  for (int e = 0; e < N; e++) {
    same[e] = e;
    next[e] = e + 1;
  }
  loom_map a = loom_decl_map(it, t, 1, same, "a");
  loom_map b = loom_decl_map(it, t, 1, next, "b");
  loom_map c = loom_decl_map(it, u, 1, next, "c");
  loom_set_block_size(1);
  pargs shared = {2, {{a, 0}, {b, 0}}, {1, 1}};
  const loom__plan *pl = loom__plan_get("shared", it, 2, shared.args);
  cr_assert_eq(pl->ncolours, 2);
  for (int e = 0; e + 1 < N; e++)
    cr_assert_neq(pl->block_colour[e], pl->block_colour[e + 1]);
  cr_assert_eq(loom__plan_check(pl, it, 2, shared.args), LOOM_OK);
  cr_assert(brute_force_ok(pl, &shared));
  pargs apart = {2, {{a, 0}, {c, 0}}, {1, 1}};
  pl = loom__plan_get("apart", it, 2, apart.args);
  cr_assert_eq(pl->ncolours, 1);
  cr_assert_eq(loom__plan_check(pl, it, 2, apart.args), LOOM_OK);
  expect_no_error();
}

/* A dat written directly and through a map in one loop (`inc: x,
 * x[next[0]]`): the element's own values are targets too ({NULL, 0}), so
 * neighbours on the ring never share a colour; through the map alone (a
 * permutation) they may. */
Test(plan, own_element_is_a_target) {
  enum { N = 40 };
  loom_set it = loom_decl_set(N, "it");
  int next[N];
  for (int e = 0; e < N; e++)
    next[e] = (e + 1) % N;
  loom_map nx = loom_decl_map(it, it, 1, next, "next");
  loom_set_block_size(1);
  const loom__plan_arg both[] = {{nx, 0}, {NULL, 0}};
  const loom__plan *pl = loom__plan_get("own", it, 2, both);
  cr_assert_not_null(pl);
  for (int e = 0; e < N; e++)
    cr_assert_neq(pl->block_colour[e], pl->block_colour[(e + 1) % N], "element %d", e);
  cr_assert_eq(loom__plan_check(pl, it, 2, both), LOOM_OK);
  const loom__plan *alone = loom__plan_get("alone", it, 1, both);
  cr_assert_eq(alone->ncolours, 1);
  expect_no_error();
}

/* rw through a map: no two elements may reach one target (the value left
 * would depend on their order); one element through two slots may. */
Test(plan, rw_through_a_map_reaches_each_target_once) {
  loom_set it = loom_decl_set(6, "it");
  loom_set t = loom_decl_set(6, "t");
  static const int perm[6] = {2, 0, 1, 5, 3, 4}, many[6] = {0, 1, 2, 3, 4, 2};
  static const int twice[12] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  loom_map p = loom_decl_map(it, t, 1, perm, "perm");
  loom_map q = loom_decl_map(it, t, 1, many, "many");
  loom_map w = loom_decl_map(it, t, 2, twice, "twice");
  const loom__plan_arg a = {p, 0}, b = {q, 0}, c[] = {{w, 0}, {w, 1}};
  cr_assert_eq(loom__check_unique("perm", it, 1, &a), LOOM_OK);
  cr_assert_eq(loom__check_unique("twice", it, 2, c), LOOM_OK);
  expect_no_error();
  cr_assert_eq(loom__check_unique("many", it, 1, &b), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loop many writes element 2 of set 't'",
               "from elements 2 and 5 of set 'it'", "through map 'many'");
}

/* write through a map: the winner of each target is its writer with the
 * highest declared number, also after renumbering (storage indices
 * returned, declared order compared). */
Test(plan, write_winners_are_the_last_writers_in_declared_order) {
  enum { N = 30, M = 12 };
  rng_seed(11);
  loom_set it = loom_decl_set(N, "it");
  loom_set t = loom_decl_set(M, "t");
  loom_map m = random_map(it, t, 2, "m");
  const loom__plan_arg args[] = {{m, 0}, {m, 1}};
  for (int pass = 0; pass < 2; pass++) {
    if (pass)
      cr_assert_eq(loom_renumber(), LOOM_OK);
    const int *win = loom__write_winners(pass ? "after" : "before", it, 2, args);
    cr_assert_not_null(win);
    const int *v = loom__map_values(m), *gid = loom__set_global(it);
    cr_assert(pass ? gid != NULL : gid == NULL);
    for (int target = 0; target < M; target++) {
      int best = -1;
      for (int e = 0; e < N; e++)
        if ((v[2 * e] == target || v[2 * e + 1] == target) &&
            (best < 0 || (gid ? gid[e] > gid[best] : e > best)))
          best = e;
      cr_assert_eq(win[target], best, "pass %d, target %d", pass, target);
    }
  }
  expect_no_error();
}

/* ---- a structured quad mesh like Airfoil's ----------------------------- */

Test(plan, quad_mesh_res_calc_and_bres_calc) {
  static const int block_sizes[] = {1, 7, 64, 512};
  rng_seed(7);
  struct quad m;
  quad_build(&m, 40, 30, 0);
  quad_declare(&m, 0);
  for (size_t bi = 0; bi < sizeof block_sizes / sizeof block_sizes[0]; bi++) {
    int bs = block_sizes[bi];
    loom_set_block_size(bs);
    pargs res = {2, {{m.pecell, 0}, {m.pecell, 1}}, {2, 2}};
    pargs res_all = {1, {{m.pecell, -1}}, {2}};
    pargs bres = {1, {{m.pbecell, 0}}, {1}};
    const loom__plan *pr = loom__plan_get("res_calc", m.edges, 2, res.args);
    const loom__plan *pa = loom__plan_get("res_calc_all", m.edges, 1,
                                          res_all.args);
    const loom__plan *pb = loom__plan_get("bres_calc", m.bedges, 1, bres.args);
    cr_assert(pr && pa && pb);
    assert_layout(pr, m.nedge, bs);
    assert_layout(pb, m.nbedge, bs);
    cr_assert_eq(loom__plan_check(pr, m.edges, 2, res.args), LOOM_OK, "%s",
                 captured.message);
    cr_assert_eq(loom__plan_check(pa, m.edges, 1, res_all.args), LOOM_OK);
    cr_assert_eq(loom__plan_check(pb, m.bedges, 1, bres.args), LOOM_OK);
    /* slot -1 is both slots: the same colouring */
    cr_assert_eq(pa->ncolours, pr->ncolours);
    cr_assert_arr_eq(pa->block_colour, pr->block_colour,
                     (size_t)pr->nblocks * sizeof(int));
    cr_assert_arr_eq(pa->elem_colour, pr->elem_colour,
                     (size_t)pr->nelems * sizeof(int));
    /* a cell has at most 4 edges: greedy needs at most 7 element colours
     * (each edge conflicts with at most 6 others) */
    cr_assert_leq(pr->max_elem_colours, 7, "bs %d: %d", bs,
                  pr->max_elem_colours);
    cr_assert_leq(pb->max_elem_colours, 2);
    if (bs == 1)
      cr_assert_leq(pr->ncolours, 7);
    if (bs <= 64)
      cr_assert(brute_force_ok(pb, &bres));
    if (bs == 7)
      cr_assert(brute_force_ok(pr, &res));
  }
  quad_free(&m);
  expect_no_error();
}

/* ---- more than 32 colours ---------------------------------------------- */

/* A star: every element writes element 0 of the target set, so every
 * block conflicts with every other. */
static loom_map star(loom_set it, int n) {
  loom_set hub = loom_decl_set(1, "hub");
  int *zero = calloc((size_t)n + 1, sizeof *zero);
  loom_map m = loom_decl_map(it, hub, 1, zero, "spoke");
  free(zero);
  return m;
}

Test(plan, more_than_32_block_colours) {
  static const struct {
    int n, bs, ncolours;
  } cases[] = {{33, 1, 33}, {100, 1, 100}, {70, 2, 35}, {200, 3, 67}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    loom_set it = loom_decl_set(cases[i].n, "it");
    loom__plan_arg args[] = {{star(it, cases[i].n), 0}};
    loom_set_block_size(cases[i].bs);
    const loom__plan *pl = loom__plan_get("star", it, 1, args);
    cr_assert_not_null(pl);
    cr_assert_gt(pl->ncolours, 32);
    cr_assert_eq(pl->ncolours, cases[i].ncolours, "case %zu: %d", i,
                 pl->ncolours);
    for (int b = 0; b < pl->nblocks; b++) /* greedy, ascending: b's colour */
      cr_assert_eq(pl->block_colour[b], b);
    assert_layout(pl, cases[i].n, cases[i].bs);
    cr_assert_eq(loom__plan_check(pl, it, 1, args), LOOM_OK, "%s",
                 captured.message);
    pargs pa = {1, {{args[0].map, 0}}, {1}};
    cr_assert(brute_force_ok(pl, &pa));
  }
  expect_no_error();
}

Test(plan, more_than_32_element_colours) {
  loom_set it = loom_decl_set(100, "it");
  loom__plan_arg args[] = {{star(it, 100), -1}};
  loom_set_block_size(100);
  const loom__plan *pl = loom__plan_get("star", it, 1, args);
  cr_assert_eq(pl->nblocks, 1);
  cr_assert_eq(pl->max_elem_colours, 100);
  for (int e = 0; e < 100; e++)
    cr_assert_eq(pl->elem_colour[e], e);
  cr_assert_eq(loom__plan_check(pl, it, 1, args), LOOM_OK);
  loom_set_block_size(64);
  pl = loom__plan_get("star", it, 1, args);
  cr_assert_eq(pl->nblocks, 2);
  cr_assert_eq(pl->ncolours, 2);
  cr_assert_eq(pl->block_elem_colours[0], 64);
  cr_assert_eq(pl->block_elem_colours[1], 36);
  cr_assert_eq(loom__plan_check(pl, it, 1, args), LOOM_OK);
  pargs pa = {1, {{args[0].map, -1}}, {1}};
  cr_assert(brute_force_ok(pl, &pa));
  expect_no_error();
}

/* Half the blocks in a star, half writing their own target elements: the
 * second pass starts again from a clear mask. */
Test(plan, second_pass_reuses_low_colours_for_others) {
  enum { N = 80 };
  loom_set it = loom_decl_set(N, "it");
  loom_set t = loom_decl_set(N + 1, "t");
  int v[N];
  for (int e = 0; e < N; e++)
    v[e] = e < 40 ? 0 : e; /* 40 elements on element 0, then distinct */
  loom_map m = loom_decl_map(it, t, 1, v, "m");
  loom__plan_arg args[] = {{m, 0}};
  loom_set_block_size(1);
  const loom__plan *pl = loom__plan_get("mixed", it, 1, args);
  cr_assert_eq(pl->ncolours, 40);
  cr_assert_eq(pl->block_colour[32], 32); /* second pass, first colour */
  cr_assert_eq(pl->block_colour[39], 39);
  for (int b = 40; b < N; b++)
    cr_assert_eq(pl->block_colour[b], 0);
  cr_assert_eq(pl->colour_start[1] - pl->colour_start[0], 41);
  cr_assert_eq(loom__plan_check(pl, it, 1, args), LOOM_OK);
  expect_no_error();
}

/* ---- the checker rejects broken plans ---------------------------------- */

/* The first pair of elements (or blocks) of the plan that conflict and
 * have different colours; returns 0 if there is none. */
static int find_conflicting_elements(const loom__plan *pl, const pargs *pa,
                                     int *e_out, int *f_out) {
  for (int b = 0; b < pl->nblocks; b++)
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      for (int f = e + 1; f < pl->block_start[b + 1]; f++)
        if (conflict(pa, e, f)) {
          *e_out = e;
          *f_out = f;
          return 1;
        }
  return 0;
}

static int find_conflicting_blocks(const loom__plan *pl, const pargs *pa,
                                   int *b_out, int *c_out) {
  for (int b = 0; b < pl->nblocks; b++)
    for (int c = b + 1; c < pl->nblocks; c++)
      for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
        for (int f = pl->block_start[c]; f < pl->block_start[c + 1]; f++)
          if (conflict(pa, e, f)) {
            *b_out = b;
            *c_out = c;
            return 1;
          }
  return 0;
}

Test(checker, rejects_a_wrong_element_colour) {
  rng_seed(3);
  struct quad m;
  quad_build(&m, 12, 10, 1);
  quad_declare(&m, 0);
  loom_set_block_size(16);
  pargs pa = {2, {{m.pecell, 0}, {m.pecell, 1}}, {2, 2}};
  const loom__plan *pl = loom__plan_get("res_calc at t.c:1", m.edges, 2,
                                        pa.args);
  int e, f;
  cr_assert(find_conflicting_elements(pl, &pa, &e, &f));
  plan_copy c;
  copy_plan(&c, pl);
  c.elem_colour[f] = c.elem_colour[e];
  cr_assert_eq(loom__plan_check(&c.plan, m.edges, 2, pa.args), LOOM_EMISMATCH);
  char both[64];
  snprintf(both, sizeof both, "both have colour %d", c.elem_colour[e]);
  expect_error(LOOM_EMISMATCH, "loop res_calc at t.c:1", "set 'edges'",
               "elements ", both, "of set 'cells'", "map 'pecell'");
  free_copy(&c);
  quad_free(&m);
}

Test(checker, rejects_a_wrong_block_colour) {
  rng_seed(4);
  struct quad m;
  quad_build(&m, 12, 10, 1);
  quad_declare(&m, 0);
  loom_set_block_size(16);
  pargs pa = {1, {{m.pecell, -1}}, {2}};
  const loom__plan *pl = loom__plan_get("res_calc", m.edges, 1, pa.args);
  int b, c2;
  cr_assert(find_conflicting_blocks(pl, &pa, &b, &c2));
  plan_copy c;
  copy_plan(&c, pl);
  c.block_colour[c2] = c.block_colour[b];
  reindex(&c); /* consistent: only the colour property is broken */
  cr_assert_eq(loom__plan_check(&c.plan, m.edges, 1, pa.args), LOOM_EMISMATCH);
  char blocks[64]; /* the first clash found is at block c2 */
  snprintf(blocks, sizeof blocks, "and %d both have colour %d", c2,
           c.block_colour[b]);
  expect_error(LOOM_EMISMATCH, "loop res_calc", blocks, "of set 'cells'");
  free_copy(&c);
  quad_free(&m);
}

/* Structural corruptions, each rejected with a message naming it. */
Test(checker, rejects_broken_structure) {
  rng_seed(5);
  struct quad m;
  quad_build(&m, 12, 10, 0);
  quad_declare(&m, 0);
  loom_set_block_size(16);
  pargs pa = {1, {{m.pecell, -1}}, {2}};
  const loom__plan *pl = loom__plan_get("res_calc", m.edges, 1, pa.args);
  cr_assert_gt(pl->nblocks, 4);
  cr_assert_gt(pl->ncolours, 1);
  enum { EMPTY, OVERLAP, GAP_AT_END, START, TOO_LONG, NELEMS, BCOL_RANGE, BCOL_INDEX,
         ORDER, ECOL_RANGE, MAX_ECOL, NCASES };
  static const char *const needles[NCASES] = {
      [EMPTY] = "block 2 is [32, 32): empty",
      [OVERLAP] = "block 2 is [32, 31): block 3 starts before it ends",
      [GAP_AT_END] = "the blocks end at element",
      [START] = "block 0 starts",        [TOO_LONG] = "more than the block size",
      [NELEMS] = "has 5 elements",       [BCOL_RANGE] = "outside [0,",
      [BCOL_INDEX] = "blocks_by_colour", [ORDER] = "not after block",
      [ECOL_RANGE] = "element 20 of block 1 has colour",
      [MAX_ECOL] = "max_elem_colours"};
  for (int k = 0; k < NCASES; k++) {
    plan_copy c;
    copy_plan(&c, pl);
    switch (k) {
    case EMPTY:
      c.block_start[3] = c.block_start[2];
      break;
    case OVERLAP:
      c.block_start[3] = c.block_start[2] - 1;
      break;
    case GAP_AT_END:
      c.block_start[c.plan.nblocks]--;
      break;
    case START:
      c.block_start[0] = 1;
      break;
    case TOO_LONG:
      c.plan.block_size = 8;
      break;
    case NELEMS:
      c.plan.nelems = 5;
      break;
    case BCOL_RANGE:
      c.block_colour[2] = c.plan.ncolours;
      break;
    case BCOL_INDEX: /* block_colour changed, the index not */
      c.block_colour[2] = (c.block_colour[2] + 1) % c.plan.ncolours;
      break;
    case ORDER: { /* swap two blocks within one colour */
      int cc = 0;
      while (c.colour_start[cc + 1] - c.colour_start[cc] < 2)
        cc++;
      int k0 = c.colour_start[cc], t = c.blocks_by_colour[k0];
      c.blocks_by_colour[k0] = c.blocks_by_colour[k0 + 1];
      c.blocks_by_colour[k0 + 1] = t;
      break;
    }
    case ECOL_RANGE:
      c.elem_colour[20] = c.block_elem_colours[1];
      break;
    case MAX_ECOL:
      c.plan.max_elem_colours++;
      break;
    }
    cr_assert_eq(loom__plan_check(&c.plan, m.edges, 1, pa.args),
                 LOOM_EMISMATCH, "case %d accepted", k);
    expect_error(LOOM_EMISMATCH, "loop res_calc", "plan for set 'edges'",
                 needles[k]);
    free_copy(&c);
  }
  quad_free(&m);
}

/* Random corruptions of element and block colours on random meshes: the
 * checker's verdict equals the brute force's, both ways. */
Test(checker, agrees_with_brute_force_on_random_corruptions) {
  int rejected = 0, accepted = 0;
  for (int seed = 1; seed <= 6; seed++) {
    rng_seed((uint64_t)seed + 100);
    loom_set it = loom_decl_set(150, "it");
    loom_set t = loom_decl_set(60 + rng_below(100), "t");
    int dim = 2 + rng_below(3);
    loom_map mp = random_map(it, t, dim, "m");
    pargs pa = {1, {{mp, -1}}, {dim}};
    loom_set_block_size(1 + rng_below(20));
    const loom__plan *pl = loom__plan_get("rand", it, 1, pa.args);
    for (int trial = 0; trial < 40; trial++) {
      plan_copy c;
      copy_plan(&c, pl);
      if (trial % 2) {
        int e = rng_below(c.plan.nelems);
        int b = e / c.plan.block_size;
        c.elem_colour[e] = rng_below(c.block_elem_colours[b]);
      } else {
        int b = rng_below(c.plan.nblocks);
        c.block_colour[b] = rng_below(c.plan.ncolours);
        reindex(&c);
      }
      int want = brute_force_ok(&c.plan, &pa);
      int got = loom__plan_check(&c.plan, it, 1, pa.args) == LOOM_OK;
      cr_assert_eq(got, want, "seed %d trial %d: checker %d, brute force %d",
                   seed, trial, got, want);
      if (!got) {
        expect_error(LOOM_EMISMATCH, "both have colour");
        rejected++;
      } else {
        accepted++;
      }
      free_copy(&c);
    }
  }
  cr_assert_gt(rejected, 20, "too few corruptions were conflicts");
  cr_assert_gt(accepted, 20);
}

Test(checker, bad_arguments) {
  loom_set it = loom_decl_set(10, "it");
  loom_set t = loom_decl_set(10, "t");
  loom_map m = random_map(it, t, 2, "m");
  loom__plan_arg args[] = {{m, -1}};
  const loom__plan *pl = loom__plan_get("l", it, 1, args);
  cr_assert_eq(loom__plan_check(NULL, it, 1, args), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom__plan_check", "plan is NULL");
  cr_assert_eq(loom__plan_check(pl, t, 1, args), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "map 'm' maps from set 'it'",
               "not from the iteration set 't'");
  cr_assert_eq(loom__plan_check(pl, NULL, 1, args), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "iteration set is NULL");
}

/* ---- plan_get errors --------------------------------------------------- */

Test(plan, bad_arguments) {
  loom_set it = loom_decl_set(10, "it");
  loom_set other = loom_decl_set(10, "other");
  loom_set t = loom_decl_set(10, "t");
  loom_map m = random_map(it, t, 2, "m");
  loom_map mo = random_map(other, t, 2, "mo");
  const struct {
    loom_set set;
    int nargs;
    loom__plan_arg arg;
    int null_args;
    int status;
    const char *needle1, *needle2;
  } cases[] = {
      {NULL, 0, {m, 0}, 0, LOOM_EINVAL, "loop res_calc", "iteration set is NULL"},
      {it, -1, {m, 0}, 0, LOOM_EINVAL, "nargs is -1", "loom__plan_get"},
      {it, 1, {m, 0}, 1, LOOM_EINVAL, "args is NULL but nargs is 1", "res_calc"},
      {it, 1, {NULL, 1}, 0, LOOM_EINVAL, "plan argument 0: map is NULL",
       "res_calc"},
      {it, 1, {mo, 0}, 0, LOOM_EMISMATCH, "map 'mo' maps from set 'other'",
       "not from the iteration set 'it'"},
      {it, 1, {m, 2}, 0, LOOM_EINVAL, "slot 2 of map 'm' is outside [-1, 2)",
       "plan argument 0"},
      {it, 1, {m, -2}, 0, LOOM_EINVAL, "slot -2", "outside [-1, 2)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_null(loom__plan_get("res_calc", cases[i].set, cases[i].nargs,
                                  cases[i].null_args ? NULL : &cases[i].arg),
                   "case %zu", i);
    expect_error(cases[i].status, cases[i].needle1, cases[i].needle2);
  }
  cr_assert_eq(loom_set_block_size(0), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom_set_block_size", "size is 0, must be >= 1");
  cr_assert_eq(loom_set_block_size(-5), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "size is -5");
  cr_assert_eq(loom_block_size(), LOOM_DEFAULT_BLOCK_SIZE);
}

Test(environment, calls_outside_a_session) {
  cr_assert_null(loom__plan_get("l", NULL, 0, NULL));
  expect_error(LOOM_ESTATE, "loom__plan_get", "before loom_init");
  cr_assert_eq(loom__plan_check(NULL, NULL, 0, NULL), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom__plan_check");
  cr_assert_null(loom__scratch(0, 8));
  expect_error(LOOM_ESTATE, "loom__scratch", "before loom_init");
  cr_assert_eq(loom_renumber(), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_renumber", "before loom_init");
  cr_assert_eq(loom_set_block_size(8), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_set_block_size");
}

/* ---- the cache --------------------------------------------------------- */

Test(cache, hits_return_the_same_plan) {
  rng_seed(11);
  loom_set it = loom_decl_set(500, "it");
  loom_set t = loom_decl_set(40, "t");
  loom_map m = random_map(it, t, 3, "m");
  loom_map m2 = random_map(it, t, 2, "m2");
  static const char loop[] = "res_calc at a.c:1";
  static const char other[] = "res_calc at a.c:9"; /* another loop */
  loom__plan_arg a01[] = {{m, 0}, {m2, 1}}, a10[] = {{m2, 1}, {m, 0}},
                 a02[] = {{m, 0}, {m2, 0}}, a21[] = {{m, 2}, {m2, 1}};
  const loom__plan *p = loom__plan_get(loop, it, 2, a01);
  cr_assert_not_null(p);
  loom__plan_arg copy[] = {{m, 0}, {m2, 1}}; /* equal args, other array */
  cr_assert_eq(loom__plan_get(loop, it, 2, copy), p);
  cr_assert_eq(loom__plan_get(loop, it, 2, a01), p);
  /* a plan is the set's and the maps': another loop's call shares it */
  cr_assert_eq(loom__plan_get(other, it, 2, a01), p);
  cr_assert_eq(p->loop, loop, "it keeps the label of the loop that built it");
  const loom__plan *others[] = {
      loom__plan_get(other, it, 2, a21), loom__plan_get(loop, it, 2, a10),
      loom__plan_get(loop, it, 2, a02), loom__plan_get(loop, it, 1, a01),
      loom__plan_get(loop, it, 0, NULL)};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
    cr_assert_not_null(others[i]);
    cr_assert_neq(others[i], p, "key %zu hit the first plan", i);
    for (size_t j = 0; j < i; j++)
      cr_assert_neq(others[i], others[j]);
  }
  /* all still cached, and hits after other lookups */
  cr_assert_eq(loom__plan_get(loop, it, 2, a01), p);
  cr_assert_eq(loom__plan_get(loop, it, 2, a10), others[1]);
  cr_assert_eq(loom__plan_get(loop, it, 0, NULL), others[4]);
  /* the same size again keeps the cache */
  cr_assert_eq(loom_set_block_size(loom_block_size()), LOOM_OK);
  cr_assert_eq(loom__plan_get(loop, it, 2, a01), p);
  expect_no_error();
}

Test(cache, block_size_change_makes_new_plans) {
  loom_set it = loom_decl_set(1000, "it");
  loom__plan_arg args[] = {{star(it, 1000), 0}};
  const loom__plan *p = loom__plan_get("l", it, 1, args);
  cr_assert_eq(p->block_size, LOOM_DEFAULT_BLOCK_SIZE);
  cr_assert_eq(p->nblocks, 2);
  cr_assert_eq(loom_set_block_size(100), LOOM_OK);
  cr_assert_eq(loom_block_size(), 100);
  p = loom__plan_get("l", it, 1, args);
  cr_assert_eq(p->block_size, 100);
  cr_assert_eq(p->nblocks, 10);
  cr_assert_eq(p->ncolours, 10);
  cr_assert_eq(loom__plan_check(p, it, 1, args), LOOM_OK);
  cr_assert_eq(loom_set_block_size(LOOM_DEFAULT_BLOCK_SIZE), LOOM_OK);
  p = loom__plan_get("l", it, 1, args);
  cr_assert_eq(p->block_size, LOOM_DEFAULT_BLOCK_SIZE);
  cr_assert_eq(p->nblocks, 2);
  expect_no_error();
}

/* Plans of one session are gone after loom_exit; a new session builds
 * them again (run under valgrind / ASan: nothing leaks). */
Test(cache, exit_frees_plans_and_a_new_session_starts_clean) {
  for (int round = 0; round < 3; round++) {
    loom_set it = loom_decl_set(300, "it");
    loom_set t = loom_decl_set(30, "t");
    loom_map m = random_map(it, t, 2, "m");
    loom__plan_arg args[] = {{m, -1}};
    loom_set_block_size(7 + round);
    for (int k = 0; k < 5; k++)
      cr_assert_not_null(loom__plan_get("l", it, 1, args));
    cr_assert_not_null(loom__scratch(round, 1000));
    cr_assert_eq(loom_exit(), LOOM_OK);
    cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
    cr_assert_eq(loom_block_size(), LOOM_DEFAULT_BLOCK_SIZE);
  }
  expect_no_error();
}

/* ---- LOOM_DIAG and the environment ------------------------------------- */

static int run_child(void (*fn)(void), char *err, size_t errsize) {
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    fn();
    _exit(0);
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t n;
  while (used + 1 < errsize &&
         (n = read(fds[0], err + used, errsize - 1 - used)) > 0)
    used += (size_t)n;
  err[used] = '\0';
  close(fds[0]);
  int wstatus;
  cr_assert_eq(waitpid(pid, &wstatus, 0), pid);
  cr_assert(WIFEXITED(wstatus));
  return WEXITSTATUS(wstatus);
}

static void child_diag_plans(void) {
  setenv("LOOM_DIAG", "1", 1);
  setenv("LOOM_BLOCK_SIZE", "64", 1);
  if (loom_init(NULL, NULL) != LOOM_OK)
    _exit(3);
  loom_set it = loom_decl_set(100, "spokes");
  loom_set hub = loom_decl_set(1, "hub");
  int zero[100] = {0};
  loom__plan_arg args[] = {{loom_decl_map(it, hub, 1, zero, "m"), 0}};
  static const char loop[] = "star_calc at s.c:9";
  loom__plan_get(loop, it, 1, args); /* built: a line */
  loom__plan_get(loop, it, 1, args); /* cached: silent */
  loom_set_block_size(64);           /* unchanged: still cached */
  loom__plan_get(loop, it, 1, args);
  loom_set_block_size(10); /* dropped: built again */
  loom__plan_get(loop, it, 1, args);
  loom_exit();
}

Test(environment, diag_prints_one_line_per_plan_built) {
  char err[4096];
  cr_assert_eq(run_child(child_diag_plans, err, sizeof err), 0);
  static const char first[] =
      "loom: plan star_calc at s.c:9: set 'spokes' 100 elements, 2 blocks of "
      "64, 2 block colours, up to 64 element colours, built in ";
  static const char second[] =
      "loom: plan star_calc at s.c:9: set 'spokes' 100 elements, 10 blocks of "
      "10, 10 block colours, up to 10 element colours, built in ";
  cr_assert_eq(strncmp(err, first, sizeof first - 1), 0, "stderr: '%s'", err);
  char *nl = strchr(err, '\n');
  cr_assert_not_null(nl);
  cr_assert_eq(strncmp(nl - 3, " ms", 3), 0, "stderr: '%s'", err);
  cr_assert_eq(strncmp(nl + 1, second, sizeof second - 1), 0, "stderr: '%s'",
               err);
  nl = strchr(nl + 1, '\n');
  cr_assert_not_null(nl);
  /* then only loom_exit's table of loop times, also on stderr */
  cr_assert_eq(strncmp(nl + 1, "loop ", 5), 0, "more lines than plans built: '%s'", err);
}

Test(environment, block_size_from_the_environment) {
  static const struct {
    const char *value;
    int size;
  } cases[] = {{"7", 7}, {"1", 1}, {"100000", 100000}, {"", 512}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    setenv("LOOM_BLOCK_SIZE", cases[i].value, 1);
    cr_assert_eq(loom_init(NULL, NULL), LOOM_OK, "%s", captured.message);
    cr_assert_eq(loom_block_size(), cases[i].size);
    loom_set s = loom_decl_set(20, "s");
    const loom__plan *pl = loom__plan_get("l", s, 0, NULL);
    cr_assert_eq(pl->block_size, cases[i].size);
    cr_assert_eq(loom_exit(), LOOM_OK);
  }
  unsetenv("LOOM_BLOCK_SIZE");
  expect_no_error();
}

/* plan/ takes a session's block size at its first call in the session: a
 * size set in one session does not outlive it, and the plans of the last
 * session are gone (the first plan of the next is built anew). */
Test(environment, each_session_starts_with_its_own_block_size) {
  setenv("LOOM_BLOCK_SIZE", "16", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK, "%s", captured.message);
  cr_assert_eq(loom_set_block_size(9), LOOM_OK);
  loom_set s = loom_decl_set(40, "s");
  const loom__plan *pl = loom__plan_get("l", s, 0, NULL);
  cr_assert_eq(pl->block_size, 9);
  cr_assert_eq(loom_exit(), LOOM_OK);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK, "%s", captured.message);
  cr_assert_eq(loom_block_size(), 16);
  s = loom_decl_set(40, "s");
  pl = loom__plan_get("l", s, 0, NULL);
  cr_assert_eq(pl->block_size, 16);
  cr_assert_eq(pl->nblocks, 3);
  cr_assert_eq(loom_exit(), LOOM_OK);
  unsetenv("LOOM_BLOCK_SIZE");
  expect_no_error();
}

Test(environment, invalid_values_are_rejected_by_name) {
  static const struct {
    const char *var, *value, *expected;
  } cases[] = {
      {"LOOM_BLOCK_SIZE", "abc", "expected an integer >= 1"},
      {"LOOM_BLOCK_SIZE", "0", "expected an integer >= 1"},
      {"LOOM_BLOCK_SIZE", "-3", "expected an integer >= 1"},
      {"LOOM_BLOCK_SIZE", "12x", "expected an integer >= 1"},
      {"LOOM_BLOCK_SIZE", "99999999999", "expected an integer >= 1"},
      {"LOOM_DIAG", "yes", "expected an integer in [0, 1]"},
      {"LOOM_DIAG", "2", "expected an integer in [0, 1]"},
      {"LOOM_RENUMBER", "on", "expected an integer in [0, 1]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    setenv(cases[i].var, cases[i].value, 1);
    cr_assert_eq(loom_init(NULL, NULL), LOOM_EINVAL, "case %zu", i);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "is '%s'", cases[i].value);
    expect_error(LOOM_EINVAL, "environment variable", cases[i].var, quoted,
                 cases[i].expected);
    /* the runtime did not start */
    cr_assert_null(loom_decl_set(1, "s"));
    expect_error(LOOM_ESTATE, "before loom_init");
    unsetenv(cases[i].var);
  }
}

/* ---- scratch ----------------------------------------------------------- */

Test(scratch, slots_grow_and_keep_their_contents) {
  unsigned char *a = loom__scratch(0, 100);
  cr_assert_not_null(a);
  for (int i = 0; i < 100; i++)
    a[i] = (unsigned char)i;
  cr_assert_eq(loom__scratch(0, 50), a, "a smaller request reuses");
  cr_assert_eq(loom__scratch(0, 100), a);
  unsigned char *b = loom__scratch(15, 100);
  cr_assert_not_null(b);
  cr_assert_neq(a, b);
  memset(b, 0xff, 100);
  unsigned char *g = loom__scratch(0, 1 << 20);
  cr_assert_not_null(g);
  for (int i = 0; i < 100; i++)
    cr_assert_eq(g[i], i, "contents lost at %d", i);
  memset(g, 0, 1 << 20); /* all of it is usable */
  void *z = loom__scratch(7, 0);
  cr_assert_not_null(z, "0 bytes still gives a pointer");
  expect_no_error();
}

Test(scratch, bad_slots) {
  static const int slots[] = {-1, 16, 1000};
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
    cr_assert_null(loom__scratch(slots[i], 8));
    char needle[64];
    snprintf(needle, sizeof needle, "slot %d is outside [0, 16)", slots[i]);
    expect_error(LOOM_EINVAL, "loom__scratch", needle);
  }
}

/* ---- renumbering ------------------------------------------------------- */

/* The loops by hand give the same results, fetched in declared order,
 * with and without renumbering: exactly with integer values (any order of
 * the sums is exact), within 1e-12 relative with random reals. */
Test(renumber, loop_results_are_unchanged) {
  for (int integers = 1; integers >= 0; integers--) {
    rng_seed(21 + (uint64_t)integers);
    struct quad m;
    quad_build(&m, 30, 20, 1);
    quad_declare(&m, integers);
    size_t nres = (size_t)m.ncell * 4;
    simulate_loops(&m);
    double *before = fetch_doubles(m.p_res, nres);
    memset(loom__dat_values(m.p_res), 0, nres * sizeof(double));
    cr_assert_eq(loom_renumber(), LOOM_OK);
    simulate_loops(&m);
    double *after = fetch_doubles(m.p_res, nres);
    for (size_t i = 0; i < nres; i++) {
      if (integers)
        cr_assert_eq(after[i], before[i], "res[%zu]: %.17g, expected %.17g", i,
                     after[i], before[i]);
      else
        cr_assert_leq(fabs(after[i] - before[i]),
                      1e-12 * fmax(1.0, fabs(before[i])),
                      "res[%zu]: %.17g, expected %.17g", i, after[i],
                      before[i]);
    }
    free(before);
    free(after);
    quad_free(&m);
    expect_no_error();
    loom_exit();
    loom_init(NULL, NULL);
  }
}

Test(renumber, fetch_returns_the_declared_order) {
  rng_seed(22);
  struct quad m;
  quad_build(&m, 25, 17, 1);
  quad_declare(&m, 0);
  loom_set misc = loom_decl_set(5, "misc"); /* no maps: keeps its order */
  int mv[5] = {5, 4, 3, 2, 1};
  loom_dat p_misc = loom_decl_dat(misc, 1, int, mv, "p_misc");
  cr_assert_eq(loom_renumber(), LOOM_OK);
  double *x = fetch_doubles(m.p_x, (size_t)m.nnode * 2);
  double *q = fetch_doubles(m.p_q, (size_t)m.ncell * 4);
  int bound[2 * (25 + 17)], misc_out[5];
  cr_assert_eq(loom_dat_fetch(m.p_bound, bound, (size_t)m.nbedge * sizeof(int)),
               LOOM_OK);
  cr_assert_eq(loom_dat_fetch(p_misc, misc_out, sizeof misc_out), LOOM_OK);
  cr_assert_arr_eq(x, m.x, (size_t)m.nnode * 2 * sizeof(double));
  cr_assert_arr_eq(q, m.q, (size_t)m.ncell * 4 * sizeof(double));
  cr_assert_arr_eq(bound, m.bound, (size_t)m.nbedge * sizeof(int));
  cr_assert_arr_eq(misc_out, mv, sizeof mv);
  cr_assert_arr_eq(loom__dat_values(p_misc), mv, sizeof mv);
  /* ... while the storage did move */
  cr_assert_neq(memcmp(loom__dat_values(m.p_x), m.x,
                       (size_t)m.nnode * 2 * sizeof(double)),
                0);
  cr_assert_neq(memcmp(loom__dat_values(m.p_q), m.q,
                       (size_t)m.ncell * 4 * sizeof(double)),
                0);
  free(x);
  free(q);
  quad_free(&m);
  expect_no_error();
}

/* The storage pointers generated code holds stay valid (in place). */
Test(renumber, storage_pointers_stay_valid) {
  rng_seed(23);
  struct quad m;
  quad_build(&m, 10, 8, 1);
  quad_declare(&m, 0);
  void *x = loom__dat_values(m.p_x);
  const int *pe = loom__map_values(m.pedge);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  cr_assert_eq(loom__dat_values(m.p_x), x);
  cr_assert_eq(loom__map_values(m.pedge), pe);
  quad_free(&m);
}

Test(renumber, rcm_reduces_the_bandwidth_of_a_shuffled_grid) {
  static const struct {
    int I, J;
  } grids[] = {{40, 30}, {60, 10}, {7, 50}};
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
    rng_seed(30 + g);
    struct quad m;
    quad_build(&m, grids[g].I, grids[g].J, 1);
    quad_declare(&m, 0);
    int ecell0 = bandwidth(m.pecell, m.nedge, 2);
    int edge0 = bandwidth(m.pedge, m.nedge, 2);
    int cell0 = bandwidth(m.pcell, m.ncell, 4);
    cr_assert_eq(loom_renumber(), LOOM_OK);
    int ecell1 = bandwidth(m.pecell, m.nedge, 2);
    int edge1 = bandwidth(m.pedge, m.nedge, 2);
    int cell1 = bandwidth(m.pcell, m.ncell, 4);
    int small = grids[g].I < grids[g].J ? grids[g].I : grids[g].J;
    cr_log_info("grid %dx%d: pecell %d -> %d, pedge %d -> %d, pcell %d -> %d",
                grids[g].I, grids[g].J, ecell0, ecell1, edge0, edge1, cell0,
                cell1);
    /* the primary (cells) graph: about the short side, at most twice */
    cr_assert_leq(ecell1, 2 * small + 2, "pecell %d -> %d", ecell0, ecell1);
    cr_assert_lt(4 * ecell1, ecell0);
    cr_assert_lt(4 * edge1, edge0, "pedge %d -> %d", edge0, edge1);
    cr_assert_lt(4 * cell1, cell0, "pcell %d -> %d", cell0, cell1);
    quad_free(&m);
    loom_exit();
    loom_init(NULL, NULL);
  }
  expect_no_error();
}

/* A path through a set by a map from the set to itself, numbered at
 * random: RCM finds the path (bandwidth 1). */
Test(renumber, a_path_becomes_bandwidth_one) {
  enum { N = 1000 };
  rng_seed(40);
  int *p = random_perm(N);
  int next[N];
  for (int i = 0; i < N; i++) /* element p[i] -> p[i+1]; the last to itself */
    next[p[i]] = p[i + 1 < N ? i + 1 : i];
  loom_set s = loom_decl_set(N, "chain");
  loom_map m = loom_decl_map(s, s, 1, next, "next");
  int bw0 = 0;
  for (int i = 0; i < N; i++)
    bw0 = abs(next[i] - i) > bw0 ? abs(next[i] - i) : bw0;
  cr_assert_gt(bw0, 100);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  const int *v = loom__map_values(m);
  for (int i = 0; i < N; i++)
    cr_assert_leq(abs(v[i] - i), 1, "element %d -> %d", i, v[i]);
  free(p);
  expect_no_error();
}

/* Two meshes with no map between them: each gets its own primary. */
Test(renumber, unlinked_groups_are_each_renumbered) {
  rng_seed(41);
  struct quad a, b;
  quad_build(&a, 20, 15, 1);
  quad_build(&b, 12, 25, 1);
  quad_declare(&a, 0);
  quad_declare(&b, 0);
  int a0 = bandwidth(a.pecell, a.nedge, 2), b0 = bandwidth(b.pecell, b.nedge, 2);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  cr_assert_lt(4 * bandwidth(a.pecell, a.nedge, 2), a0);
  cr_assert_lt(4 * bandwidth(b.pecell, b.nedge, 2), b0);
  quad_free(&a);
  quad_free(&b);
  expect_no_error();
}

/* Maps and dats declared after renumbering are stored renumbered: the
 * same data declared again gives the same storage. */
Test(renumber, later_declarations_are_renumbered_too) {
  rng_seed(42);
  struct quad m;
  quad_build(&m, 15, 12, 1);
  quad_declare(&m, 0);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  loom_map pedge2 = loom_decl_map(m.edges, m.nodes, 2, m.edge, "pedge2");
  loom_map pecell2 = loom_decl_map(m.edges, m.cells, 2, m.ecell, "pecell2");
  loom_dat x2 = loom_decl_dat(m.nodes, 2, double, m.x, "x2");
  cr_assert_arr_eq(loom__map_values(pedge2), loom__map_values(m.pedge),
                   (size_t)m.nedge * 2 * sizeof(int));
  cr_assert_arr_eq(loom__map_values(pecell2), loom__map_values(m.pecell),
                   (size_t)m.nedge * 2 * sizeof(int));
  cr_assert_arr_eq(loom__dat_values(x2), loom__dat_values(m.p_x),
                   (size_t)m.nnode * 2 * sizeof(double));
  double *x = fetch_doubles(x2, (size_t)m.nnode * 2);
  cr_assert_arr_eq(x, m.x, (size_t)m.nnode * 2 * sizeof(double));
  free(x);
  quad_free(&m);
  expect_no_error();
}

/* Renumbering twice, and after loops ran: still consistent. */
Test(renumber, twice_is_harmless) {
  rng_seed(43);
  struct quad m;
  quad_build(&m, 18, 11, 1);
  quad_declare(&m, 1);
  size_t nres = (size_t)m.ncell * 4;
  simulate_loops(&m);
  double *ref = fetch_doubles(m.p_res, nres);
  memset(loom__dat_values(m.p_res), 0, nres * sizeof(double));
  cr_assert_eq(loom_renumber(), LOOM_OK);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  simulate_loops(&m);
  cr_assert_eq(loom_renumber(), LOOM_OK); /* with results in the dats */
  double *res = fetch_doubles(m.p_res, nres);
  cr_assert_arr_eq(res, ref, nres * sizeof(double));
  double *x = fetch_doubles(m.p_x, (size_t)m.nnode * 2);
  cr_assert_arr_eq(x, m.x, (size_t)m.nnode * 2 * sizeof(double));
  free(ref);
  free(res);
  free(x);
  quad_free(&m);
  expect_no_error();
}

/* Plans built before are dropped: the plan after renumbering is valid for
 * the new numbering. */
Test(renumber, plans_follow_the_new_numbering) {
  rng_seed(44);
  struct quad m;
  quad_build(&m, 20, 20, 1);
  quad_declare(&m, 0);
  loom_set_block_size(32);
  loom__plan_arg args[] = {{m.pecell, 0}, {m.pecell, 1}};
  const loom__plan *before = loom__plan_get("res_calc", m.edges, 2, args);
  int ncol_before = before->ncolours;
  cr_assert_eq(loom_renumber(), LOOM_OK);
  const loom__plan *after = loom__plan_get("res_calc", m.edges, 2, args);
  cr_assert_not_null(after);
  cr_assert_eq(loom__plan_check(after, m.edges, 2, args), LOOM_OK, "%s",
               captured.message);
  /* locality: neighbouring blocks touch fewer cells, so fewer conflicts */
  cr_log_info("block colours: %d shuffled, %d renumbered", ncol_before,
              after->ncolours);
  cr_assert_leq(after->ncolours, ncol_before);
  quad_free(&m);
  expect_no_error();
}

Test(renumber, nothing_to_do_without_maps) {
  loom_set s = loom_decl_set(4, "s");
  double v[4] = {1, 2, 3, 4};
  loom_dat d = loom_decl_dat(s, 1, double, v, "d");
  cr_assert_eq(loom_renumber(), LOOM_OK);
  cr_assert_arr_eq(loom__dat_values(d), v, sizeof v);
  expect_no_error();
}

/* $LOOM_RENUMBER=1: applied at the first loop, not before; not again
 * after an explicit loom_renumber. */
Test(environment, renumber_at_the_first_loop) {
  setenv("LOOM_RENUMBER", "1", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  rng_seed(50);
  struct quad m;
  quad_build(&m, 20, 16, 1);
  quad_declare(&m, 0);
  size_t bytes = (size_t)m.nedge * 2 * sizeof(int);
  cr_assert_arr_eq(loom__map_values(m.pecell), m.ecell, bytes,
                   "renumbered before the first loop");
  int bw0 = bandwidth(m.pecell, m.nedge, 2);
  cr_assert_eq(loom__check_set(m.edges, "res_calc"), LOOM_OK);
  int bw1 = bandwidth(m.pecell, m.nedge, 2);
  cr_assert_lt(4 * bw1, bw0, "not renumbered at the first loop: %d -> %d", bw0,
               bw1);
  int *snapshot = malloc(bytes);
  memcpy(snapshot, loom__map_values(m.pecell), bytes);
  cr_assert_eq(loom__check_set(m.cells, "adt_calc"), LOOM_OK);
  cr_assert_arr_eq(loom__map_values(m.pecell), snapshot, bytes,
                   "renumbered again at the second loop");
  double *x = fetch_doubles(m.p_x, (size_t)m.nnode * 2);
  cr_assert_arr_eq(x, m.x, (size_t)m.nnode * 2 * sizeof(double));
  free(x);
  cr_assert_eq(loom_exit(), LOOM_OK);

  /* an explicit call first: the first loop does nothing more */
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  quad_declare(&m, 0);
  cr_assert_eq(loom_renumber(), LOOM_OK);
  memcpy(snapshot, loom__map_values(m.pecell), bytes);
  cr_assert_eq(loom__check_set(m.edges, "res_calc"), LOOM_OK);
  cr_assert_arr_eq(loom__map_values(m.pecell), snapshot, bytes);
  cr_assert_eq(loom_exit(), LOOM_OK);
  unsetenv("LOOM_RENUMBER");
  free(snapshot);
  quad_free(&m);
  expect_no_error();
}

static void child_diag_renumber(void) {
  setenv("LOOM_DIAG", "1", 1);
  loom_init(NULL, NULL);
  struct quad m;
  rng_seed(60);
  quad_build(&m, 10, 10, 1);
  quad_declare(&m, 0);
  loom_renumber();
  quad_free(&m);
  loom_exit();
}

Test(environment, diag_names_the_primary_set) {
  char err[4096];
  install_capture();
  cr_assert_eq(run_child(child_diag_renumber, err, sizeof err), 0);
  cr_assert(strstr(err, "loom: renumber: primary set 'cells' (100 elements): "
                        "bandwidth "),
            "stderr: '%s'", err);
  cr_assert(strstr(err, "loom: renumber: 4 of 4 sets renumbered in "),
            "stderr: '%s'", err);
}

/* ---- owner-computes plans ------------------------------------------------ */

TestSuite(ocplan, .init = setup_active, .fini = teardown_active);

/* Part p holds exactly the elements with an increment into its range. */
static void assert_oc_parts(const loom__ocplan *oc, loom_map map) {
  int n = loom_set_size(loom__map_to(map)), nel = oc->nelems;
  cr_assert_eq(oc->part_lo[0], 0);
  cr_assert_eq(oc->part_lo[oc->nparts], n);
  int total = 0;
  for (int p = 0; p < oc->nparts; p++) {
    for (int k = oc->elem_start[p] + 1; k < oc->elem_start[p + 1]; k++)
      cr_assert_lt(oc->elems[k - 1], oc->elems[k], "part %d is not ascending", p);
    total += oc->elem_start[p + 1] - oc->elem_start[p];
  }
  cr_assert_geq(total, nel, "every element runs at least once");
}

Test(ocplan, random_and_airfoil_meshes_are_exact) {
  for (int seed = 1; seed <= 4; seed++) {
    rng_seed((uint64_t)seed);
    loom_set cells = loom_decl_set(50 + 37 * seed, "cells");
    loom_set edges = loom_decl_set(200 + 91 * seed, "edges");
    loom_map m = random_map(edges, cells, 2, "ecell");
    for (int np = 1; np <= 7; np++) {
      loom__plan_arg args[] = {{m, -1}};
      const loom__ocplan *oc = loom__ocplan_get("flux", edges, np, 1, args);
      cr_assert_not_null(oc);
      cr_assert_eq(oc->nparts, np);
      cr_assert_eq(loom__ocplan_check(oc, edges, 1, args), LOOM_OK);
      assert_oc_parts(oc, m);
    }
  }
  struct quad q;
  quad_build(&q, 40, 30, 0);
  quad_declare(&q, 0);
  loom__plan_arg args[] = {{q.pecell, 0}, {q.pecell, 1}};
  const loom__ocplan *oc = loom__ocplan_get("res_calc", q.edges, 2, 2, args);
  cr_assert_eq(loom__ocplan_check(oc, q.edges, 2, args), LOOM_OK);
  /* a structured mesh split in two ranges of cells: only the edges along
   * the cut run twice */
  int dup = oc->elem_start[2] - oc->nelems;
  cr_assert(dup > 0 && dup <= 2 * 40, "%d edges computed twice", dup);
  quad_free(&q);
}

Test(ocplan, same_key_same_plan_and_checker_rejects_a_missing_element) {
  rng_seed(9);
  loom_set cells = loom_decl_set(60, "cells");
  loom_set edges = loom_decl_set(240, "edges");
  loom_map m = random_map(edges, cells, 2, "ecell");
  loom__plan_arg args[] = {{m, 0}, {m, 1}};
  const loom__ocplan *a = loom__ocplan_get("flux", edges, 3, 2, args);
  cr_assert_eq(loom__ocplan_get("flux", edges, 3, 2, args), a, "cached");
  cr_assert_neq(loom__ocplan_get("flux", edges, 2, 2, args), a, "nparts is in the key");
  int n = a->elem_start[3];
  int *elems = malloc((size_t)n * sizeof *elems);
  memcpy(elems, a->elems, (size_t)n * sizeof *elems);
  int *start = malloc(4 * sizeof *start);
  memcpy(start, a->elem_start, 4 * sizeof *start);
  memmove(elems + 1, elems + 2, (size_t)(n - 2) * sizeof *elems); /* drop one */
  for (int p = 1; p <= 3; p++)
    start[p]--;
  loom__ocplan bad = {a->nparts, a->nelems, a->part_lo, start, elems, a->lo, a->hi};
  install_capture();
  cr_assert_eq(loom__ocplan_check(&bad, edges, 2, args), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "owner-computes plan: part 0 lacks element");
  free(elems);
  free(start);
}

Test(ocplan, rejects_maps_into_different_sets) {
  loom_set a = loom_decl_set(4, "a"), b = loom_decl_set(4, "b"), e = loom_decl_set(4, "e");
  int v[4] = {0, 1, 2, 3};
  loom_map ma = loom_decl_map(e, a, 1, v, "ma"), mb = loom_decl_map(e, b, 1, v, "mb");
  loom__plan_arg args[] = {{ma, 0}, {mb, 0}};
  install_capture();
  cr_assert_null(loom__ocplan_get("k", e, 2, 2, args));
  expect_error(LOOM_EMISMATCH, "map 'mb'", "target set of the others");
}

/* ---- range plans --------------------------------------------------------- */

TestSuite(range, .init = setup_active, .fini = teardown_active);

/* A mesh for range plans: `it` (n elements) with maps[0] (dims[0] slots
 * into ta), maps[1] (dims[1] slots into tb) and maps[2] (1 slot into ta),
 * and their declared rows. */
struct rmesh {
  int n;
  loom_set it, ta, tb;
  loom_map maps[3];
  int dims[3];
  int *orig[3];
};

static void rmesh_build(struct rmesh *r, int seed, int n) {
  rng_seed((uint64_t)seed + 200);
  r->n = n;
  r->it = loom_decl_set(n, "it");
  r->ta = loom_decl_set(10 + rng_below(150), "ta");
  r->tb = loom_decl_set(5 + rng_below(40), "tb");
  r->dims[0] = 2 + rng_below(3);
  r->dims[1] = 2 + rng_below(3);
  r->dims[2] = 1;
  r->maps[0] = random_map(r->it, r->ta, r->dims[0], "ma");
  r->maps[1] = random_map(r->it, r->tb, r->dims[1], "mb");
  r->maps[2] = random_map(r->it, r->ta, 1, "mc");
  for (int k = 0; k < 3; k++)
    r->orig[k] = dup_ints(loom__map_values(r->maps[k]), n * r->dims[k]);
}

static void rmesh_free(struct rmesh *r) {
  for (int k = 0; k < 3; k++)
    free(r->orig[k]);
}

/* The rows of `map` (n rows of dim slots) in [lo, hi) as declared, the
 * others -1, as MPI leaves the rows of non-executed halo elements (the
 * runtime checks entries at declaration only). */
static void poison_outside(loom_map map, const int *orig, int n, int dim,
                           int lo, int hi) {
  int *v = (int *)loom__map_values(map);
  for (int e = 0; e < n; e++)
    for (int s = 0; s < dim; s++)
      v[(size_t)e * dim + s] =
          e >= lo && e < hi ? orig[(size_t)e * dim + s] : -1;
}

static void rmesh_poison(struct rmesh *r, int lo, int hi) {
  for (int k = 0; k < 3; k++)
    poison_outside(r->maps[k], r->orig[k], r->n, r->dims[k], lo, hi);
}

/* The sub-mesh of [lo, hi): a set of hi - lo elements whose maps sub[k]
 * hold the declared rows [lo, hi) of r's maps, into the same targets. */
static loom_set rmesh_slice(const struct rmesh *r, int lo, int hi,
                            loom_map sub[3]) {
  loom_set s = loom_decl_set(hi - lo, "slice");
  for (int k = 0; k < 3; k++) {
    sub[k] = loom_decl_map(s, loom__map_to(r->maps[k]), r->dims[k],
                           r->orig[k] + (size_t)lo * r->dims[k], "slice_map");
    cr_assert_not_null(sub[k], "%s", captured.message);
  }
  return s;
}

/* pa with every map of r replaced by its counterpart in sub. */
static pargs on_slice(const struct rmesh *r, const pargs *pa,
                      const loom_map sub[3]) {
  pargs q = *pa;
  for (int a = 0; a < pa->nargs; a++) {
    int k = 0;
    while (r->maps[k] != pa->args[a].map)
      k++;
    q.args[a].map = sub[k];
  }
  return q;
}

/* The argument lists of the random-mesh tests. */
static int rmesh_lists(const struct rmesh *r, pargs lists[6]) {
  loom_map ma = r->maps[0], mb = r->maps[1], mc = r->maps[2];
  int da = r->dims[0], db = r->dims[1];
  const pargs l[6] = {
      {0, {{NULL, 0}}, {0}},
      {1, {{ma, -1}}, {da}},
      {2, {{ma, 0}, {ma, 1}}, {da, da}},
      {2, {{ma, -1}, {mb, -1}}, {da, db}},
      {2, {{ma, 0}, {mc, 0}}, {da, 1}}, /* share ta's masks */
      {3, {{mb, 0}, {mc, 0}, {ma, da - 1}}, {db, 1, da}},
  };
  memcpy(lists, l, sizeof l);
  return 6;
}

/* The documented layout of a range plan: blocks of bs from lo, every
 * element of [lo, hi) in exactly one block and none of the others, the
 * colour index consistent, element colours (at e - lo) in range. */
static void assert_range_layout(const loom__plan *pl, int n, int lo, int hi,
                                int bs) {
  cr_assert_eq(pl->lo, lo);
  cr_assert_eq(pl->hi, hi);
  cr_assert_eq(pl->nelems, hi - lo);
  cr_assert_eq(pl->block_size, bs);
  cr_assert_eq(pl->nblocks, (hi - lo + bs - 1) / bs);
  int *seen = calloc((size_t)n + 1, sizeof *seen);
  for (int b = 0; b < pl->nblocks; b++) {
    cr_assert_eq(pl->block_start[b], lo + b * bs, "block %d", b);
    cr_assert_lt(pl->block_start[b], pl->block_start[b + 1], "block %d", b);
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++) {
      cr_assert(e >= 0 && e < n, "block %d has element %d", b, e);
      seen[e]++;
    }
  }
  cr_assert_eq(pl->block_start[0], lo);
  cr_assert_eq(pl->block_start[pl->nblocks], hi);
  for (int e = 0; e < n; e++)
    cr_assert_eq(seen[e], e >= lo && e < hi, "element %d is in %d blocks, "
                 "range [%d, %d)", e, seen[e], lo, hi);
  free(seen);
  cr_assert_eq(pl->colour_start[0], 0);
  cr_assert_eq(pl->colour_start[pl->ncolours], pl->nblocks);
  for (int c = 0; c < pl->ncolours; c++)
    for (int k = pl->colour_start[c]; k < pl->colour_start[c + 1]; k++)
      cr_assert_eq(pl->block_colour[pl->blocks_by_colour[k]], c);
  int max = 0;
  for (int b = 0; b < pl->nblocks; b++) {
    int k = pl->block_elem_colours[b];
    max = k > max ? k : max;
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      cr_assert(pl->elem_colour[e - lo] >= 0 && pl->elem_colour[e - lo] < k);
  }
  cr_assert_eq(pl->max_elem_colours, max);
}

/* 1 when the range plan's colours are race-free, comparing every pair of
 * elements of its range (only their rows are read). */
static int brute_force_range_ok(const loom__plan *pl, const pargs *pa) {
  int lo = pl->lo, hi = pl->hi;
  int *block_of = malloc(((size_t)pl->nelems + 1) * sizeof *block_of);
  for (int b = 0; b < pl->nblocks; b++)
    for (int e = pl->block_start[b]; e < pl->block_start[b + 1]; e++)
      block_of[e - lo] = b;
  int ok = 1;
  for (int e = lo; e < hi && ok; e++)
    for (int f = e + 1; f < hi && ok; f++) {
      int be = block_of[e - lo], bf = block_of[f - lo];
      int same = be == bf
                     ? pl->elem_colour[e - lo] == pl->elem_colour[f - lo]
                     : pl->block_colour[be] == pl->block_colour[bf];
      if (same && conflict(pa, e, f))
        ok = 0;
    }
  free(block_of);
  return ok;
}

/* Plans a and b are equal, a's blocks `shift` elements further on. */
static void assert_same_plan(const loom__plan *a, const loom__plan *b,
                             int shift) {
  cr_assert_eq(a->nelems, b->nelems);
  cr_assert_eq(a->nblocks, b->nblocks);
  cr_assert_eq(a->block_size, b->block_size);
  cr_assert_eq(a->ncolours, b->ncolours);
  cr_assert_eq(a->max_elem_colours, b->max_elem_colours);
  for (int k = 0; k <= a->nblocks; k++)
    cr_assert_eq(a->block_start[k], b->block_start[k] + shift, "block %d", k);
  for (int k = 0; k < a->nblocks; k++) {
    cr_assert_eq(a->block_colour[k], b->block_colour[k], "block %d", k);
    cr_assert_eq(a->block_elem_colours[k], b->block_elem_colours[k]);
    cr_assert_eq(a->blocks_by_colour[k], b->blocks_by_colour[k]);
  }
  for (int c = 0; c <= a->ncolours; c++)
    cr_assert_eq(a->colour_start[c], b->colour_start[c]);
  for (int i = 0; i < a->nelems; i++)
    cr_assert_eq(a->elem_colour[i], b->elem_colour[i], "element %d",
                 i + shift);
}

static const int some_ranges[][2] = {{0, 300},  {0, 123},   {123, 300},
                                     {37, 250}, {299, 300}, {5, 6},
                                     {64, 192}};
enum { NRANGES = sizeof some_ranges / sizeof some_ranges[0] };

/* Range plans on random meshes whose rows outside the range are -1: the
 * checker accepts them, the layout is as documented, the brute force
 * agrees, and each equals the whole-set plan of its sub-mesh. */
Test(range, colouring_plans_on_random_meshes) {
  static const int block_sizes[] = {1, 7, 64};
  static const char loop[] = "ranged", sloop[] = "sliced";
  for (int seed = 1; seed <= 3; seed++) {
    struct rmesh r;
    rmesh_build(&r, seed, 300);
    pargs lists[6];
    int nlists = rmesh_lists(&r, lists);
    for (int ri = 0; ri < NRANGES; ri++) {
      int lo = some_ranges[ri][0], hi = some_ranges[ri][1];
      rmesh_poison(&r, lo, hi);
      loom_map sub[3];
      loom_set s = rmesh_slice(&r, lo, hi, sub);
      for (size_t bi = 0; bi < sizeof block_sizes / sizeof *block_sizes; bi++) {
        int bs = block_sizes[bi];
        cr_assert_eq(loom_set_block_size(bs), LOOM_OK);
        for (int li = 0; li < nlists; li++) {
          const pargs *pa = &lists[li];
          const loom__plan *pl =
              loom__plan_get_range(loop, r.it, lo, hi, pa->nargs, pa->args);
          cr_assert_not_null(pl, "%s", captured.message);
          assert_range_layout(pl, r.n, lo, hi, bs);
          cr_assert_eq(loom__plan_check(pl, r.it, pa->nargs, pa->args),
                       LOOM_OK, "seed %d [%d, %d) bs %d list %d: %s", seed, lo,
                       hi, bs, li, captured.message);
          cr_assert(brute_force_range_ok(pl, pa), "seed %d [%d, %d) bs %d "
                    "list %d", seed, lo, hi, bs, li);
          pargs q = on_slice(&r, pa, sub);
          const loom__plan *ps = loom__plan_get(sloop, s, q.nargs, q.args);
          cr_assert_not_null(ps, "%s", captured.message);
          assert_same_plan(pl, ps, lo);
        }
      }
    }
    rmesh_free(&r);
  }
  expect_no_error();
}

/* Owner-computes plans: the parts split the whole target set; every
 * listed element is in [lo, hi), ascending, and increments something in
 * its part's range; every increment of an element of the range (written
 * slots) is applied by exactly one part. */
static void assert_oc_range(const loom__ocplan *oc, const pargs *pa, int lo,
                            int hi, int ntargets) {
  int np = oc->nparts, nslots = 0;
  cr_assert_eq(oc->lo, lo);
  cr_assert_eq(oc->hi, hi);
  cr_assert_eq(oc->nelems, hi - lo);
  cr_assert_eq(oc->part_lo[0], 0);
  cr_assert_eq(oc->part_lo[np], ntargets);
  cr_assert_eq(oc->elem_start[0], 0);
  for (int a = 0; a < pa->nargs; a++)
    nslots += pa->dims[a];
  int *applied = calloc((size_t)(hi - lo) * nslots + 1, sizeof *applied);
  for (int p = 0; p < np; p++) {
    int tlo = oc->part_lo[p], thi = oc->part_lo[p + 1];
    cr_assert_leq(tlo, thi);
    cr_assert_leq(oc->elem_start[p], oc->elem_start[p + 1]);
    for (int k = oc->elem_start[p]; k < oc->elem_start[p + 1]; k++) {
      int e = oc->elems[k], useful = 0;
      cr_assert(e >= lo && e < hi, "part %d lists element %d, range [%d, %d)",
                p, e, lo, hi);
      if (k > oc->elem_start[p])
        cr_assert_lt(oc->elems[k - 1], e, "part %d is not ascending", p);
      for (int a = 0, base = 0; a < pa->nargs; base += pa->dims[a], a++) {
        const int *v = loom__map_values(pa->args[a].map);
        int d = pa->dims[a], sl = pa->args[a].slot;
        for (int sx = sl < 0 ? 0 : sl; sx < (sl < 0 ? d : sl + 1); sx++) {
          int t = v[(size_t)e * d + sx];
          cr_assert(t >= 0 && t < ntargets);
          if (t >= tlo && t < thi) {
            applied[(size_t)(e - lo) * nslots + base + sx]++;
            useful = 1;
          }
        }
      }
      cr_assert(useful, "part %d runs element %d for nothing", p, e);
    }
  }
  for (int e = lo; e < hi; e++)
    for (int a = 0, base = 0; a < pa->nargs; base += pa->dims[a], a++) {
      int d = pa->dims[a], sl = pa->args[a].slot;
      for (int sx = sl < 0 ? 0 : sl; sx < (sl < 0 ? d : sl + 1); sx++)
        cr_assert_eq(applied[(size_t)(e - lo) * nslots + base + sx], 1,
                     "the increment of element %d through argument %d slot "
                     "%d is applied %d times", e, a, sx,
                     applied[(size_t)(e - lo) * nslots + base + sx]);
    }
  free(applied);
}

/* Owner-computes range plans on random meshes with rows outside the range
 * at -1: exact (above), accepted by the checker, and equal to the plan of
 * the sub-mesh (so balanced by the increments in range only). */
Test(range, owner_computes_plans_on_random_meshes) {
  static const char loop[] = "flux", sloop[] = "flux_slice";
  for (int seed = 1; seed <= 3; seed++) {
    struct rmesh r;
    rmesh_build(&r, seed, 300);
    int da = r.dims[0], nta = loom_set_size(r.ta);
    const pargs lists[] = {
        {1, {{r.maps[0], -1}}, {da}},
        {2, {{r.maps[0], 1}, {r.maps[2], 0}}, {da, 1}},
    };
    for (int ri = 0; ri < NRANGES; ri++) {
      int lo = some_ranges[ri][0], hi = some_ranges[ri][1];
      rmesh_poison(&r, lo, hi);
      loom_map sub[3];
      loom_set s = rmesh_slice(&r, lo, hi, sub);
      for (size_t li = 0; li < sizeof lists / sizeof *lists; li++)
        for (int np = 1; np <= 5; np++) {
          const pargs *pa = &lists[li];
          const loom__ocplan *oc = loom__ocplan_get_range(
              loop, r.it, lo, hi, np, pa->nargs, pa->args);
          cr_assert_not_null(oc, "%s", captured.message);
          cr_assert_eq(oc->nparts, np);
          cr_assert_eq(loom__ocplan_check(oc, r.it, pa->nargs, pa->args),
                       LOOM_OK, "seed %d [%d, %d) list %zu np %d: %s", seed,
                       lo, hi, li, np, captured.message);
          assert_oc_range(oc, pa, lo, hi, nta);
          pargs q = on_slice(&r, pa, sub);
          const loom__ocplan *os =
              loom__ocplan_get(sloop, s, np, q.nargs, q.args);
          cr_assert_not_null(os, "%s", captured.message);
          for (int p = 0; p <= np; p++) {
            cr_assert_eq(oc->part_lo[p], os->part_lo[p], "part %d", p);
            cr_assert_eq(oc->elem_start[p], os->elem_start[p], "part %d", p);
          }
          for (int k = 0; k < oc->elem_start[np]; k++)
            cr_assert_eq(oc->elems[k], os->elems[k] + lo);
        }
    }
    rmesh_free(&r);
  }
  expect_no_error();
}

Test(range, two_ranges_are_two_cached_plans) {
  rng_seed(21);
  loom_set it = loom_decl_set(500, "it");
  loom_set t = loom_decl_set(40, "t");
  loom_map m = random_map(it, t, 3, "m");
  loom__plan_arg args[] = {{m, -1}};
  static const char loop[] = "res_calc at r.c:1";
  const loom__plan *core = loom__plan_get_range(loop, it, 0, 200, 1, args);
  const loom__plan *rest = loom__plan_get_range(loop, it, 200, 500, 1, args);
  const loom__plan *whole = loom__plan_get(loop, it, 1, args);
  const loom__plan *others[] = {
      loom__plan_get_range(loop, it, 0, 201, 1, args),
      loom__plan_get_range(loop, it, 1, 200, 1, args),
      loom__plan_get_range(loop, it, 200, 200, 1, args)};
  const loom__plan *all[] = {core, rest, whole, others[0], others[1],
                             others[2]};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    cr_assert_not_null(all[i], "%zu: %s", i, captured.message);
    for (size_t j = 0; j < i; j++)
      cr_assert_neq(all[i], all[j], "plans %zu and %zu are one", j, i);
  }
  cr_assert_eq(core->lo, 0);
  cr_assert_eq(core->hi, 200);
  cr_assert_eq(rest->lo, 200);
  cr_assert_eq(rest->hi, 500);
  cr_assert_eq(loom__plan_get_range(loop, it, 200, 500, 1, args), rest);
  cr_assert_eq(loom__plan_get_range(loop, it, 0, 200, 1, args), core);
  cr_assert_eq(loom__plan_get(loop, it, 1, args), whole);
  cr_assert_eq(loom__plan_get_range(loop, it, 0, 500, 1, args), whole,
               "the whole set is the range [0, size)");

  loom__plan_arg inc[] = {{m, 0}, {m, 2}};
  const loom__ocplan *oc_core =
      loom__ocplan_get_range(loop, it, 0, 200, 3, 2, inc);
  const loom__ocplan *oc_rest =
      loom__ocplan_get_range(loop, it, 200, 500, 3, 2, inc);
  const loom__ocplan *oc_whole = loom__ocplan_get(loop, it, 3, 2, inc);
  cr_assert(oc_core && oc_rest && oc_whole, "%s", captured.message);
  cr_assert_neq(oc_core, oc_rest);
  cr_assert_neq(oc_core, oc_whole);
  cr_assert_neq(oc_rest, oc_whole);
  cr_assert_eq(loom__ocplan_get_range(loop, it, 0, 200, 3, 2, inc), oc_core);
  cr_assert_eq(loom__ocplan_get_range(loop, it, 200, 500, 3, 2, inc), oc_rest);
  cr_assert_eq(loom__ocplan_get_range(loop, it, 0, 500, 3, 2, inc), oc_whole);
  cr_assert_eq(loom__ocplan_get(loop, it, 3, 2, inc), oc_whole);
  expect_no_error();
}

/* loom__plan_get and range(0, size) under two loop names: one plan (so
 * the same blocks and colours, or parts), laid out over the whole set. */
Test(range, the_whole_set_is_the_range_0_size) {
  static const int block_sizes[] = {1, 16, 512};
  struct rmesh r;
  rmesh_build(&r, 7, 1000);
  pargs lists[6];
  int nlists = rmesh_lists(&r, lists);
  for (size_t bi = 0; bi < sizeof block_sizes / sizeof *block_sizes; bi++) {
    cr_assert_eq(loom_set_block_size(block_sizes[bi]), LOOM_OK);
    for (int li = 0; li < nlists; li++) {
      const pargs *pa = &lists[li];
      const loom__plan *w = loom__plan_get("whole", r.it, pa->nargs, pa->args);
      const loom__plan *g =
          loom__plan_get_range("range", r.it, 0, r.n, pa->nargs, pa->args);
      cr_assert(w && g, "%s", captured.message);
      cr_assert_eq(w, g, "another loop's range [0, n) is the same plan");
      cr_assert_eq(w->lo, 0);
      cr_assert_eq(w->hi, r.n);
      assert_layout(w, r.n, block_sizes[bi]);
    }
  }
  loom__plan_arg inc[] = {{r.maps[0], -1}, {r.maps[2], 0}};
  for (int np = 1; np <= 4; np++) {
    const loom__ocplan *w = loom__ocplan_get("whole", r.it, np, 2, inc);
    const loom__ocplan *g =
        loom__ocplan_get_range("range", r.it, 0, r.n, np, 2, inc);
    cr_assert(w && g, "%s", captured.message);
    cr_assert_eq(w, g, "another loop's range [0, n) is the same plan");
    cr_assert_eq(w->lo, 0);
    cr_assert_eq(w->hi, r.n);
    cr_assert_eq(w->nelems, r.n);
  }
  rmesh_free(&r);
  expect_no_error();
}

Test(range, empty_ranges) {
  rng_seed(23);
  loom_set it = loom_decl_set(100, "it");
  loom_set t = loom_decl_set(10, "t");
  loom_map m = random_map(it, t, 2, "m");
  int *orig = dup_ints(loom__map_values(m), 200);
  loom__plan_arg args[] = {{m, -1}};
  static const int los[] = {0, 50, 100};
  for (size_t i = 0; i < sizeof los / sizeof *los; i++) {
    int lo = los[i];
    poison_outside(m, orig, 100, 2, lo, lo); /* every row is -1 */
    for (int nargs = 0; nargs <= 1; nargs++) {
      const loom__plan *pl =
          loom__plan_get_range("empty", it, lo, lo, nargs, args);
      cr_assert_not_null(pl, "%s", captured.message);
      cr_assert_eq(pl->lo, lo);
      cr_assert_eq(pl->hi, lo);
      cr_assert_eq(pl->nelems, 0);
      cr_assert_eq(pl->nblocks, 0);
      cr_assert_eq(pl->ncolours, 0);
      cr_assert_eq(pl->max_elem_colours, 0);
      cr_assert_eq(pl->block_start[0], lo);
      cr_assert_eq(pl->colour_start[0], 0);
      cr_assert_eq(loom__plan_check(pl, it, nargs, args), LOOM_OK, "%s",
                   captured.message);
    }
    const loom__ocplan *oc = loom__ocplan_get_range("empty", it, lo, lo, 3, 1,
                                                    args);
    cr_assert_not_null(oc, "%s", captured.message);
    cr_assert_eq(oc->nelems, 0);
    cr_assert_eq(oc->lo, lo);
    cr_assert_eq(oc->hi, lo);
    cr_assert_eq(oc->part_lo[0], 0);
    cr_assert_eq(oc->part_lo[3], 10);
    for (int p = 0; p < 3; p++) {
      cr_assert_leq(oc->part_lo[p], oc->part_lo[p + 1]);
      cr_assert_eq(oc->elem_start[p + 1], 0);
    }
    cr_assert_eq(loom__ocplan_check(oc, it, 1, args), LOOM_OK, "%s",
                 captured.message);
  }
  free(orig);
  expect_no_error();
}

Test(range, invalid_ranges_are_rejected) {
  rng_seed(24);
  loom_set it = loom_decl_set(10, "it");
  loom_set t = loom_decl_set(10, "t");
  loom_map m = random_map(it, t, 2, "m");
  loom__plan_arg args[] = {{m, -1}};
  static const int bad[][2] = {{-1, 5}, {5, 4}, {0, 11},  {11, 11},
                               {-3, -1}, {10, 9}, {-1, 0}, {3, 2147483647}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int lo = bad[i][0], hi = bad[i][1];
    char range[64];
    snprintf(range, sizeof range, "range [%d, %d)", lo, hi);
    cr_assert_null(loom__plan_get_range("res_calc", it, lo, hi, 1, args));
    expect_error(LOOM_EINVAL, "loom__plan_get_range", "loop res_calc", range,
                 "set 'it'");
    cr_assert_null(loom__plan_get_range("res_calc", it, lo, hi, 0, NULL));
    expect_error(LOOM_EINVAL, "loop res_calc", range);
    cr_assert_null(
        loom__ocplan_get_range("res_calc", it, lo, hi, 2, 1, args));
    expect_error(LOOM_EINVAL, "loom__ocplan_get_range", "loop res_calc", range,
                 "set 'it'");
  }
  /* the set is checked before its size is read */
  cr_assert_null(loom__plan_get_range("res_calc", NULL, 0, 0, 0, NULL));
  expect_error(LOOM_EINVAL, "loom__plan_get_range", "iteration set is NULL");
  cr_assert_null(loom__ocplan_get_range("res_calc", NULL, 0, 0, 2, 1, args));
  expect_error(LOOM_EINVAL, "loom__ocplan_get_range", "iteration set is NULL");
  /* nothing was cached: valid ranges still work */
  cr_assert_not_null(loom__plan_get_range("res_calc", it, 0, 10, 1, args));
  cr_assert_not_null(
      loom__ocplan_get_range("res_calc", it, 10, 10, 2, 1, args));
  expect_no_error();
}

/* The checkers judge a range plan by its own [lo, hi): corruptions inside
 * the range, blocks or elements outside it, and an inconsistent range are
 * rejected, with rows outside the range at -1. */
Test(range, checkers_reject_corrupt_range_plans) {
  rng_seed(25);
  struct quad m;
  quad_build(&m, 12, 10, 1);
  quad_declare(&m, 0);
  int n = m.nedge, lo = n / 3 + 1, hi = 2 * n / 3 + 3;
  cr_assert_neq((hi - lo) % 16, 0);
  int *orig = dup_ints(loom__map_values(m.pecell), 2 * n);
  poison_outside(m.pecell, orig, n, 2, lo, hi);
  loom_set_block_size(16);
  pargs pa = {2, {{m.pecell, 0}, {m.pecell, 1}}, {2, 2}};
  const loom__plan *pl =
      loom__plan_get_range("res_calc", m.edges, lo, hi, 2, pa.args);
  cr_assert_not_null(pl);
  cr_assert_eq(loom__plan_check(pl, m.edges, 2, pa.args), LOOM_OK, "%s",
               captured.message);
  int e, f, b, b2;
  cr_assert(find_conflicting_elements(pl, &pa, &e, &f));
  cr_assert(find_conflicting_blocks(pl, &pa, &b, &b2));
  enum { ECOL, BCOL, START, END, LO_UP, HI_OUT, NELEMS, NCASES };
  char start[96], end[96], lo_up[96];
  snprintf(start, sizeof start, "block 0 starts at element %d, not at the "
           "range's start %d", lo - 1, lo);
  snprintf(end, sizeof end, "the blocks end at element %d, not at the "
           "range's end %d", hi + 1, hi);
  snprintf(lo_up, sizeof lo_up, "block 0 starts at element %d, not at the "
           "range's start %d", lo, lo + 1);
  const char *const needles[NCASES] = {
      [ECOL] = "both have colour", [BCOL] = "both have colour",
      [START] = start, [END] = end, [LO_UP] = lo_up,
      [HI_OUT] = "not a range of the set's", [NELEMS] = "its range"};
  for (int k = 0; k < NCASES; k++) {
    plan_copy c;
    copy_plan(&c, pl);
    switch (k) {
    case ECOL:
      c.elem_colour[f - lo] = c.elem_colour[e - lo];
      break;
    case BCOL:
      c.block_colour[b2] = c.block_colour[b];
      reindex(&c);
      break;
    case START: /* block 0 reaches below the range */
      c.block_start[0] = lo - 1;
      break;
    case END: /* the last block reaches beyond it */
      c.block_start[c.plan.nblocks] = hi + 1;
      break;
    case LO_UP: /* element lo is in a block but not in the range */
      c.plan.lo = lo + 1;
      c.plan.nelems--;
      break;
    case HI_OUT:
      c.plan.hi = n + 1;
      c.plan.nelems = n + 1 - lo;
      break;
    case NELEMS:
      c.plan.nelems++;
      break;
    }
    cr_assert_eq(loom__plan_check(&c.plan, m.edges, 2, pa.args),
                 LOOM_EMISMATCH, "case %d accepted", k);
    expect_error(LOOM_EMISMATCH, "loop res_calc", "plan for set 'edges'",
                 needles[k]);
    free_copy(&c);
  }

  const loom__ocplan *oc =
      loom__ocplan_get_range("res_calc", m.edges, lo, hi, 3, 2, pa.args);
  cr_assert_not_null(oc);
  cr_assert_eq(loom__ocplan_check(oc, m.edges, 2, pa.args), LOOM_OK, "%s",
               captured.message);
  int total = oc->elem_start[3];
  cr_assert_gt(oc->elem_start[1], 1);
  enum { OC_OUTSIDE, OC_MISSING, OC_HI, OC_RANGE, OC_RUNS, OC_NCASES };
  char outside[96];
  snprintf(outside, sizeof outside, "part 0 lists element %d, outside the "
           "plan's range [%d, %d)", lo - 1, lo, hi);
  const char *const oc_needles[OC_NCASES] = {
      [OC_OUTSIDE] = outside, [OC_MISSING] = "part 0 lacks element",
      [OC_HI] = "but has", [OC_RANGE] = "not a range", [OC_RUNS] = "of part 0"};
  for (int k = 0; k < OC_NCASES; k++) {
    int *elems = dup_ints(oc->elems, total), *es = dup_ints(oc->elem_start, 4);
    int *runs = dup_ints(oc->runs, 2 * oc->run_start[3]);
    loom__ocplan c = *oc;
    c.elems = elems;
    c.elem_start = es;
    c.runs = runs;
    switch (k) {
    case OC_OUTSIDE:
      elems[0] = lo - 1;
      break;
    case OC_MISSING: /* the part's second element dropped */
      memmove(elems + 1, elems + 2, (size_t)(total - 2) * sizeof *elems);
      for (int p = 1; p <= 3; p++)
        es[p]--;
      break;
    case OC_HI:
      c.hi = hi + 1;
      break;
    case OC_RANGE:
      c.lo = n - 1;
      c.hi = n - 1 + c.nelems;
      break;
    case OC_RUNS: /* the first run one element short */
      runs[1]--;
      break;
    }
    cr_assert_eq(loom__ocplan_check(&c, m.edges, 2, pa.args), LOOM_EMISMATCH,
                 "case %d accepted", k);
    expect_error(LOOM_EMISMATCH, "owner-computes plan", oc_needles[k]);
    free(elems);
    free(es);
    free(runs);
  }
  free(orig);
  quad_free(&m);
}

Test(environment, range_calls_outside_a_session) {
  cr_assert_null(loom__plan_get_range("l", NULL, 0, 0, 0, NULL));
  expect_error(LOOM_ESTATE, "loom__plan_get_range", "before loom_init");
  cr_assert_null(loom__ocplan_get_range("l", NULL, 0, 0, 1, 0, NULL));
  expect_error(LOOM_ESTATE, "loom__ocplan_get_range", "before loom_init");
}

/* $LOOM_CHECK_PLANS=1 verifies every plan built, range plans included, on
 * rows outside the range at -1 (no false alarm, no row out of range). */
Test(environment, check_plans_verifies_range_plans) {
  setenv("LOOM_CHECK_PLANS", "1", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set_block_size(32);
  struct rmesh r;
  rmesh_build(&r, 9, 400);
  pargs lists[6];
  int nlists = rmesh_lists(&r, lists);
  static const int ranges[][2] = {{0, 150}, {150, 320}, {320, 400}, {200, 200}};
  loom__plan_arg inc[] = {{r.maps[0], -1}, {r.maps[2], 0}};
  for (size_t ri = 0; ri < sizeof ranges / sizeof *ranges; ri++) {
    int lo = ranges[ri][0], hi = ranges[ri][1];
    rmesh_poison(&r, lo, hi);
    for (int li = 0; li < nlists; li++)
      cr_assert_not_null(loom__plan_get_range("checked", r.it, lo, hi,
                                              lists[li].nargs, lists[li].args),
                         "%s", captured.message);
    cr_assert_not_null(
        loom__ocplan_get_range("checked", r.it, lo, hi, 3, 2, inc), "%s",
        captured.message);
  }
  rmesh_free(&r);
  cr_assert_eq(loom_exit(), LOOM_OK);
  unsetenv("LOOM_CHECK_PLANS");
  expect_no_error();
}

static void child_diag_range(void) {
  setenv("LOOM_DIAG", "1", 1);
  setenv("LOOM_BLOCK_SIZE", "64", 1);
  if (loom_init(NULL, NULL) != LOOM_OK)
    _exit(3);
  loom_set it = loom_decl_set(100, "spokes");
  loom_set hub = loom_decl_set(1, "hub");
  int zero[100] = {0};
  loom__plan_arg args[] = {{loom_decl_map(it, hub, 1, zero, "m"), 0}};
  static const char loop[] = "star_calc at s.c:9";
  loom__plan_get_range(loop, it, 25, 75, 1, args);
  loom__plan_get_range(loop, it, 0, 100, 1, args); /* the whole set */
  loom__ocplan_get_range(loop, it, 25, 75, 2, 1, args);
  loom_exit();
}

Test(environment, diag_lines_name_the_range) {
  char err[4096];
  install_capture();
  cr_assert_eq(run_child(child_diag_range, err, sizeof err), 0);
  static const char *const lines[] = {
      "loom: plan star_calc at s.c:9: set 'spokes' 50 elements [25, 75) of "
      "100, 1 blocks of 64, 1 block colours, up to 50 element colours, built "
      "in ",
      "loom: plan star_calc at s.c:9: set 'spokes' 100 elements, 2 blocks of "
      "64, 2 block colours, up to 64 element colours, built in ",
      "loom: plan star_calc at s.c:9: set 'spokes' 50 elements [25, 75) of "
      "100, 2 owner-computes parts, 0 elements computed twice or more "
      "(0.00%), in 1 run\n"};
  const char *at = err;
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    cr_assert_eq(strncmp(at, lines[i], strlen(lines[i])), 0,
                 "line %zu: stderr: '%s'", i, err);
    at = strchr(at, '\n');
    cr_assert_not_null(at);
    at++;
  }
  /* then only loom_exit's table of loop times, also on stderr */
  cr_assert_eq(strncmp(at, "loop ", 5), 0, "more lines than plans built: '%s'", err);
}
