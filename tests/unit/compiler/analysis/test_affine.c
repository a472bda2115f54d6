/*
 * test_affine.c — unit tests of affine loops as resolved and seen by isl
 * (frontend/affine.c, analysis/affine_isl.c): the domain and access
 * relations built from a directive, footprints, dependences and the
 * outermost loop's parallelism.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "affine_harness.h"

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
