/*
 * test_isl_loops.c — unit tests of the element loops isl's AST generator
 * writes for the backends (emit/isl_loops.c): the loop over strips, and
 * ranges of one shape with bounds of their own.
 */
#include <criterion/criterion.h>

#include "emit/isl_loops.h"

Test(isl_loops, strips_loop) {
  arena *a = arena_new();
  isl_loop_text t;
  cr_assert_eq(isl_loop_strips(a, "0", "loom_n", "loom_s", 16, &t), 0);
  cr_assert_eq(t.head.len, 1);
  cr_assert_str_eq(t.head.items[0], "for (int loom_s = 0; loom_s < loom_n; loom_s += 16) {");
  cr_assert_eq(isl_loop_strips(a, "loom_lo", "loom_hi", "loom_s", 16, &t), 0);
  cr_assert_str_eq(t.head.items[0],
                   "for (int loom_s = loom_lo; loom_s < loom_hi; loom_s += 16) {");
  cr_assert_eq(t.order.len, 1);
  isl_loops_done();
  arena_free(a);
}

/* One shape of range, asked with a constant and with named bounds (one
 * AST, the bounds written in after): each text has its own bounds, whole
 * words only (a bound named like the iterator's prefix stays apart). */
Test(isl_loops, range_bounds_written_in) {
  arena *a = arena_new();
  isl_loop_text t;
  cr_assert_eq(isl_loop_range(a, "0", "loom_n", "loom_i", 2, &t), 0);
  cr_assert_eq(t.head.len, 1);
  cr_assert_str_eq(t.head.items[0], "for (int loom_i = 0; loom_i < loom_n; loom_i += 1) {");
  cr_assert_eq(t.order.len, 2);
  cr_assert_eq(isl_loop_range(a, "loom_s", "loom_e", "loom_i", 2, &t), 0);
  cr_assert_str_eq(t.head.items[0],
                   "for (int loom_i = loom_s; loom_i < loom_e; loom_i += 1) {");
  cr_assert_eq(isl_loop_range(a, "loom_i0", "loom_i1", "loom_i", 1, &t), 0);
  cr_assert_str_eq(t.head.items[0],
                   "for (int loom_i = loom_i0; loom_i < loom_i1; loom_i += 1) {");
  cr_assert_eq(t.order.len, 1);
  isl_loops_done();
  arena_free(a);
}
