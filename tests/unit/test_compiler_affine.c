/*
 * test_compiler_affine.c — unit tests of affine loops (affine.c): the isl
 * domain and access relations built from a directive, footprints,
 * dependences and the outermost loop's parallelism, pin_cse's duplicated
 * domain, and the choice made for a temporary without a hint.
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler_harness.h"

#include <criterion/criterion.h>

#include "affine.h"
#include "region.h"

#define AFF_KERNELS                                                            \
  "static void copy(const double *a, double *b) { *b = *a; }\n"                \
  "static void mv(const double *a, const double *x, double *k) { *k += *a * *x; }\n" \
  "static void two(const double *a, const double *b, double *c) { *c = *a * *b; }\n"

#define SQ "domain(\"[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }\")"
#define LINE "domain(\"[n] -> { [i] : 0 <= i < n }\")"

/* Runs the stages and the planner on a function f(n, A, x, k, c, y, z). */
static void plan_of(run *r, const char *body) {
  static char src[8192];
  snprintf(src, sizeof src,
           AFF_KERNELS "void f(int n, double (*A)[n], double *x, double *k,\n"
                       "       double (*c)[n], double *y, double *z) {\n%s\n}\n",
           body);
  run_source(r, src, TO_CHECK);
  cr_assert_eq(r->errors, 0, "%s", r->diags);
  vec regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  affine_plan(&r->fe, &r->st, &r->prog, &regions, r->arena);
  cr_assert_eq(diag_error_count(), 0, "planning failed");
}

static const loop *loop_at(run *r, int i) {
  cr_assert(i < r->prog.loops.len);
  const loop *lp = r->prog.loops.items[i];
  cr_assert_not_null(lp->aff);
  return lp;
}

static int set_equals(isl_ctx *ctx, isl_set *got, const char *want) {
  isl_set *w = isl_set_read_from_str(ctx, want);
  int eq = isl_set_is_equal(got, w) == isl_bool_true;
  isl_set_free(w);
  isl_set_free(got);
  return eq;
}

static int map_equals(isl_ctx *ctx, isl_map *got, const char *want) {
  isl_map *w = isl_map_read_from_str(ctx, want);
  int eq = isl_map_is_equal(got, w) == isl_bool_true;
  isl_map_free(w);
  isl_map_free(got);
  return eq;
}

#define DIAMOND                                                                \
  "#pragma loom par_loop(mv) " SQ " args(read: A[i][j], x[j], inc: k[i])\n"    \
  "#pragma loom par_loop(two) " SQ " args(read: k[i], k[j], write: c[i][j])\n"

Test(affine, domain_and_accesses) {
  run r;
  plan_of(&r, DIAMOND);
  const loop *mv = loop_at(&r, 0);
  cr_assert_str_eq(mv->aff->stmt, "mv_1");
  cr_assert_eq(mv->aff->ndims, 2);
  cr_assert_str_eq(mv->aff->dims[1], "j");
  cr_assert_str_eq(mv->aff->params[0], "n");
  isl_ctx *ctx = affine_ctx_new();
  cr_assert(set_equals(ctx, affine_domain(ctx, mv),
                       "[n] -> { mv_1[i, j] : 0 <= i < n and 0 <= j < n }"));
  cr_assert(map_equals(ctx, affine_access(ctx, mv, 0),
                       "[n] -> { mv_1[i, j] -> A[i, j] : 0 <= i < n and 0 <= j < n }"));
  cr_assert(map_equals(ctx, affine_access(ctx, mv, 1),
                       "[n] -> { mv_1[i, j] -> x[j] : 0 <= i < n and 0 <= j < n }"));
  isl_ctx_free(ctx);
  run_free(&r);
}

Test(affine, offset_subscripts_and_footprint) {
  run r;
  plan_of(&r, "#pragma loom par_loop(two) " LINE " args(read: x[2 * i + 1], x[i], write: y[n - 1 - i])");
  const loop *lp = loop_at(&r, 0);
  isl_ctx *ctx = affine_ctx_new();
  cr_assert(map_equals(ctx, affine_access(ctx, lp, 2),
                       "[n] -> { two_1[i] -> y[n - 1 - i] : 0 <= i < n }"));
  /* both reads of x: 0..n-1 and the odd ones up to 2n-1 */
  cr_assert(set_equals(ctx, affine_footprint(ctx, lp, lp->aff->args[0].array),
                       "[n] -> { x[e] : 0 <= e < n or (exists (q : e = 2q + 1) and 0 < e < 2n) }"));
  cr_assert_null(affine_footprint(ctx, lp, lp->aff->args[2].array)); /* y is only written */
  isl_ctx_free(ctx);
  run_free(&r);
}

Test(affine, dependences_and_parallelism) {
  run r;
  plan_of(&r, "#pragma loom par_loop(copy) " LINE " args(read: y[i], write: y[i + 1])\n"
              "#pragma loom par_loop(mv) " SQ " args(read: A[i][j], x[j], inc: z[j])\n"
              "#pragma loom par_loop(copy) " SQ " args(read: A[i][j], write: c[i][j])");
  isl_ctx *ctx = affine_ctx_new();
  const loop *prefix = loop_at(&r, 0), *colsum = loop_at(&r, 1), *cp = loop_at(&r, 2);
  /* y[i + 1] written at i, read at i + 1: the pair at distance 1, both ways
   * (the relation pairs the iterations; it does not orient them) */
  isl_map *deps = affine_dependences(ctx, prefix);
  cr_assert(map_equals(ctx, isl_map_copy(deps),
                       "[n] -> { copy_1[i] -> copy_1[o] : (o = i + 1 or o = i - 1) and "
                       "0 <= i < n and 0 <= o < n }"));
  isl_set *dom = affine_domain(ctx, prefix);
  cr_assert_eq(affine_outer_parallel(ctx, dom, deps), 0);
  isl_set_free(dom);
  isl_map_free(deps);
  /* z[j] incremented for every i: the outer i carries it */
  deps = affine_dependences(ctx, colsum);
  dom = affine_domain(ctx, colsum);
  cr_assert_eq(affine_outer_parallel(ctx, dom, deps), 0);
  isl_set_free(dom);
  isl_map_free(deps);
  /* an element-wise copy has no dependence at all */
  deps = affine_dependences(ctx, cp);
  cr_assert_eq(isl_map_is_empty(deps), isl_bool_true);
  dom = affine_domain(ctx, cp);
  cr_assert_eq(affine_outer_parallel(ctx, dom, deps), 1);
  isl_set_free(dom);
  isl_map_free(deps);
  isl_ctx_free(ctx);
  run_free(&r);
}

Test(affine, diamond_without_hint_is_pin_cse) {
  run r;
  plan_of(&r, DIAMOND);
  const loop *mv = loop_at(&r, 0), *two = loop_at(&r, 1);
  cr_assert_eq(mv->aff->temps.len, 1);
  const affine_temp *t = mv->aff->temps.items[0];
  cr_assert_str_eq(t->name, "k");
  cr_assert_eq(t->choice, TEMP_PIN_CSE);
  cr_assert_null(t->hint);
  cr_assert(strstr(t->why, "more than once (k[i], k[j] over [i, j])"), "%s", t->why);
  cr_assert_eq(mv->aff->moved, t);
  cr_assert_eq(two->aff->uses.len, 1);
  isl_ctx *ctx = affine_ctx_new();
  cr_assert(set_equals(ctx, isl_set_read_from_str(ctx, t->dup),
                       "[n] -> { mv_1[i, j] : 0 <= i < n and 0 <= j < n }"));
  isl_ctx_free(ctx);
  run_free(&r);
}

Test(affine, dup_domain_is_the_image_of_the_footprint) {
  run r;
  plan_of(&r, "#pragma loom pin_cse(k)\n"
              "#pragma loom par_loop(mv) " SQ " args(read: A[i][j], x[j], inc: k[i])\n"
              "#pragma loom par_loop(copy) domain(\"[n] -> { [i] : 0 <= 3i < n }\") "
              "args(read: k[3 * i], write: y[i])");
  const affine_temp *t = loop_at(&r, 0)->aff->temps.items[0];
  cr_assert_eq(t->choice, TEMP_PIN_CSE);
  cr_assert_not_null(t->hint);
  isl_ctx *ctx = affine_ctx_new();
  cr_assert(set_equals(ctx, affine_dup_domain(ctx, t),
                       "[n] -> { mv_1[i, j] : i mod 3 = 0 and 0 <= i < n and 0 <= j < n }"));
  isl_ctx_free(ctx);
  run_free(&r);
}

Test(affine, single_use_is_pinned_host_use_is_stored) {
  run r;
  plan_of(&r, "#pragma loom par_loop(copy) " LINE " args(read: x[i], write: k[i])\n"
              "#pragma loom par_loop(copy) " LINE " args(read: k[i], write: y[i])\n"
              "#pragma loom par_loop(copy) " LINE " args(read: y[i], write: z[i])\n"
              "  k[0] = z[0];");
  const affine_temp *k = loop_at(&r, 0)->aff->temps.items[0];
  cr_assert_eq(k->choice, TEMP_STORE);
  cr_assert(strstr(k->why, "host code at line"), "%s", k->why);
  const affine_temp *y = loop_at(&r, 1)->aff->temps.items[0];
  cr_assert_eq(y->choice, TEMP_PIN, "%s", y->why);
  run_free(&r);
}
