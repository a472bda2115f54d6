/*
 * test_affine_plan.c — unit tests of the plan of affine loops'
 * temporaries (transform/affine_plan.c): pin_cse's duplicated domain, and
 * the choice made for a temporary without a hint.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "affine_harness.h"

Test(affine_plan, diamond_without_hint_is_pin_cse) {
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

Test(affine_plan, dup_domain_is_the_image_of_the_footprint) {
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

Test(affine_plan, single_use_is_pinned_host_use_is_stored) {
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
