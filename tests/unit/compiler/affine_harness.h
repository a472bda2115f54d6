/*
 * affine_harness.h — runs loomc's stages on a function of affine loops up
 * to the plan of their temporaries, for the unit tests of affine loops.
 * Include harness.h first.
 */
#ifndef LOOM_TEST_AFFINE_HARNESS_H
#define LOOM_TEST_AFFINE_HARNESS_H

#include <isl/map.h>
#include <isl/set.h>

#include "analysis/affine_isl.h"
#include "analysis/region.h"
#include "transform/affine_plan.h"

#define AFF_KERNELS                                                            \
  "static void copy(const double *a, double *b) { *b = *a; }\n"                \
  "static void mv(const double *a, const double *x, double *k) { *k += *a * *x; }\n" \
  "static void two(const double *a, const double *b, double *c) { *c = *a * *b; }\n"

#define SQ "domain(\"[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }\")"
#define LINE "domain(\"[n] -> { [i] : 0 <= i < n }\")"

/* Runs the stages and the planner on a function f(n, A, x, k, c, y, z). */
static inline void plan_of(run *r, const char *body) {
  static char src[8192];
  snprintf(src, sizeof src,
           AFF_KERNELS "void f(int n, double (*A)[n], double *x, double *k,\n"
                       "       double (*c)[n], double *y, double *z) {\n%s\n}\n",
           body);
  run_source(r, src, TO_CHECK);
  cr_assert_eq(r->errors, 0, "%s", r->diags);
  region_list regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  affine_plan(&r->fe, &r->st, &r->prog, &regions, r->arena);
  cr_assert_eq(diag_error_count(), 0, "planning failed");
}

static inline const loop *loop_at(run *r, int i) {
  cr_assert(i < r->prog.loops.len);
  const loop *lp = r->prog.loops.items[i];
  cr_assert_not_null(lp->aff);
  return lp;
}

static inline int set_equals(isl_ctx *ctx, isl_set *got, const char *want) {
  isl_set *w = isl_set_read_from_str(ctx, want);
  int eq = isl_set_is_equal(got, w) == isl_bool_true;
  isl_set_free(w);
  isl_set_free(got);
  return eq;
}

static inline int map_equals(isl_ctx *ctx, isl_map *got, const char *want) {
  isl_map *w = isl_map_read_from_str(ctx, want);
  int eq = isl_map_is_equal(got, w) == isl_bool_true;
  isl_map_free(w);
  isl_map_free(got);
  return eq;
}

#define DIAMOND                                                                \
  "#pragma loom par_loop(mv) " SQ " args(read: A[i][j], x[j], inc: k[i])\n"    \
  "#pragma loom par_loop(two) " SQ " args(read: k[i], k[j], write: c[i][j])\n"

#endif
