/*
 * mat/nopetsc.c — loom.h's matrix calls in a libloom_petsc built without
 * PETSc (the Makefile makes libloom_petsc.a, and mk/mpi.mk
 * libloom_mpi_petsc.a, of this file alone instead of mat/'s others when
 * `pkg-config --exists petsc` fails).  It needs nothing but core.
 *
 * Design
 * ------
 * Every call reports one error, LOOM_EINVAL, naming itself and what to do
 * about it (install PETSc and rebuild Loom), whatever the runtime's state,
 * and returns its failure value: a program with matrices links as it
 * would with PETSc, and learns why they are missing at its first matrix
 * call.  loom_petsc.h's calls (they need PETSc's types: loom_mat_petsc,
 * loom_mat_ksp, loom_dat_vec, ...) do not exist in this build.
 */
#include <math.h>

#include "core/core.h"

static int no_petsc(const char *call) {
  return loom_error_(LOOM_EINVAL,
                     "%s: this libloom_petsc was built without PETSc: install Debian's "
                     "petsc-dev (scripts/install-deps.sh) and rebuild Loom",
                     call);
}

loom_sparsity loom_decl_sparsity(loom_set rows, loom_set cols, int rdim,
                                 int cdim, int npairs, const loom_map *rmaps,
                                 const loom_map *cmaps, const char *name) {
  (void)rows, (void)cols, (void)rdim, (void)cdim, (void)npairs, (void)rmaps;
  (void)cmaps, (void)name;
  no_petsc("loom_decl_sparsity");
  return NULL;
}

loom_mat loom_decl_mat(loom_sparsity sp, const char *name) {
  (void)sp, (void)name;
  no_petsc("loom_decl_mat");
  return NULL;
}

int loom_mat_assemble(loom_mat A) {
  (void)A;
  return no_petsc("loom_mat_assemble");
}

int loom_mat_zero(loom_mat A) {
  (void)A;
  return no_petsc("loom_mat_zero");
}

int loom_mat_zero_rows_columns(loom_mat A, int n, const int *nodes, double diag,
                               loom_dat x, loom_dat b) {
  (void)A, (void)n, (void)nodes, (void)diag, (void)x, (void)b;
  return no_petsc("loom_mat_zero_rows_columns");
}

int loom_solve(loom_mat A, loom_dat x, loom_dat b) {
  (void)A, (void)x, (void)b;
  return no_petsc("loom_solve");
}

int loom_mat_mult(loom_mat A, loom_dat x, loom_dat y) {
  (void)A, (void)x, (void)y;
  return no_petsc("loom_mat_mult");
}

double loom_mat_get(loom_mat A, int row_node, int rcomp, int col_node,
                    int ccomp) {
  (void)A, (void)row_node, (void)rcomp, (void)col_node, (void)ccomp;
  no_petsc("loom_mat_get");
  return NAN;
}

double *loom__mat_values(loom_mat A, loom_map rmap, loom_map cmap) {
  (void)A, (void)rmap, (void)cmap;
  no_petsc("loom__mat_values");
  return NULL;
}

double *loom__mat_write_values(loom_mat A, loom_map rmap, loom_map cmap) {
  (void)A, (void)rmap, (void)cmap;
  no_petsc("loom__mat_write_values");
  return NULL;
}

int loom__mat_write_end(loom_mat A, loom_map rmap, loom_map cmap) {
  (void)A, (void)rmap, (void)cmap;
  return no_petsc("loom__mat_write_end");
}

int loom__check_mat(loom_mat A, int rdim, int cdim, const char *loop, int arg) {
  (void)A, (void)rdim, (void)cdim, (void)loop, (void)arg;
  return no_petsc("loom__check_mat");
}
