/*
 * tests/unit/runtime/test_nopetsc.c — libloom_petsc built without PETSc:
 * every matrix call of loom.h reports what to install (runtime/src/mat/
 * nopetsc.c, all of libloom_petsc.a then), and the rest of the runtime
 * works.
 *
 * The Makefile links this file with runtime/src/mat/nopetsc.c ahead of
 * libloom.a and without PETSc, as a program with matrices links
 * libloom_petsc.a built without PETSc.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loom_gen.h"

static struct {
  int calls, status;
  char message[4096];
} captured;

static void capture_handler(int status, const char *message, void *ctx) {
  (void)ctx;
  captured.calls++;
  captured.status = status;
  snprintf(captured.message, sizeof captured.message, "%s", message);
}

static void expect_no_petsc(const char *call) {
  char want[512];
  snprintf(want, sizeof want,
           "%s: this libloom_petsc was built without PETSc: install Debian's petsc-dev "
           "(scripts/install-deps.sh) and rebuild Loom",
           call);
  cr_assert_eq(captured.calls, 1, "%s: %d errors", call, captured.calls);
  cr_expect_eq(captured.status, LOOM_EINVAL);
  cr_expect_str_eq(captured.message, want);
  memset(&captured, 0, sizeof captured);
}

Test(nopetsc, every_matrix_call_names_what_to_install) {
  loom_set_error_handler(capture_handler, NULL);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set nodes = loom_decl_set(3, "nodes");
  loom_map self = loom_decl_map(nodes, nodes, 1, (int[]){0, 1, 2}, "self");
  loom_dat x = loom_decl_temp(nodes, 1, double, "x");
  cr_assert_eq(captured.calls, 0, "%s", captured.message);

  cr_expect_null(loom_decl_sparsity(nodes, nodes, 1, 1, 1, &self, &self, "s"));
  expect_no_petsc("loom_decl_sparsity");
  cr_expect_null(loom_decl_mat(NULL, "m"));
  expect_no_petsc("loom_decl_mat");
  cr_expect_eq(loom_mat_assemble(NULL), LOOM_EINVAL);
  expect_no_petsc("loom_mat_assemble");
  cr_expect_eq(loom_mat_zero(NULL), LOOM_EINVAL);
  expect_no_petsc("loom_mat_zero");
  cr_expect_eq(loom_mat_zero_rows_columns(NULL, 0, NULL, 1.0, x, x), LOOM_EINVAL);
  expect_no_petsc("loom_mat_zero_rows_columns");
  cr_expect_eq(loom_solve(NULL, x, x), LOOM_EINVAL);
  expect_no_petsc("loom_solve");
  cr_expect_eq(loom_mat_mult(NULL, x, x), LOOM_EINVAL);
  expect_no_petsc("loom_mat_mult");
  cr_expect(isnan(loom_mat_get(NULL, 0, 0, 0, 0)));
  expect_no_petsc("loom_mat_get");
  cr_expect_null(loom__mat_values(NULL, self, self));
  expect_no_petsc("loom__mat_values");

  cr_expect_eq(loom_set_size(nodes), 3); /* the rest works */
  cr_expect_eq(loom_exit(), LOOM_OK);
  cr_expect_eq(captured.calls, 0, "%s", captured.message);
}
