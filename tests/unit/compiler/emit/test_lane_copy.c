/*
 * test_lane_copy.c — unit tests of a kernel's lane copy
 * (frontend/lanes.c finds the uses, emit/lane_copy.c rewrites them).
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "emit/lane_copy.h"
#include "fuse_harness.h"

#define LANE_KERNELS                                                           \
  "enum { ONE = 1 };\n"                                                        \
  "static void k_lane(const double *a, const double *b, double *n,\n"        \
  "                   const double *g) {\n"                                   \
  "  double d = a[0] - b[ONE] + *g;\n"                                         \
  "  for (int k = 0; k < 2; k++)\n"                                            \
  "    d += a[k] * g[k];\n"                                                    \
  "  n[0] += d;\n"                                                             \
  "  n[1] -= (*a) * d;\n"                                                      \
  "}\n"

Test(lane_copy, uses_become_base_and_offset_by_stride) {
  fused f;
  static char src[4096];
  snprintf(src, sizeof src, "%s",
           PROGRAM("#include <math.h>\n" LANE_KERNELS,
                   "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                   "#pragma loom par_loop(k_lane) over(edges) args(read: x[e2n_map[0]], "
                   "x[e2n_map[1]], inc: y[e2n_map[0]], read: garr)\n"));
  cr_assert_eq(run_to_fusion(&f, src, 0), 0, "%s", f.r.diags);
  const loop *lp = loop_n(&f, 1);
  cr_assert_not_null(lp->lanes, "%s", lp->lanes_why ? lp->lanes_why : "");
  cr_assert_eq(lp->lanes->nuses, 8);
  cr_assert_str_eq(lp->lanes->uses[1].subscript, "ONE");
  int strides[4] = {1, 1, 16, 0}; /* rows of the mesh, a strip local, a global */
  const char *copy = lane_copy(f.r.arena, lp, "loom_lanes_k_lane", strides);
  cr_assert_str_eq(copy,
                   "static inline void loom_lanes_k_lane(const double *a, const double *b, "
                   "double *n,\n"
                   "                   const double *g, int loom_o_a, int loom_o_b, "
                   "int loom_o_n) {\n"
                   "  double d = a[loom_o_a] - b[loom_o_b + (ONE)] + *g;\n"
                   "  for (int k = 0; k < 2; k++)\n"
                   "    d += a[loom_o_a + (k)] * g[k];\n"
                   "  n[loom_o_n] += d;\n"
                   "  n[loom_o_n + 16 * 1] -= (a[loom_o_a]) * d;\n"
                   "}");
  cr_assert_eq(lp->lanes->line, 4, "the name's line, for #line");
  cr_assert(lane_copy_offset(lp, strides, 0) && !lane_copy_offset(lp, strides, 3));
  run_free(&f.r);
}
