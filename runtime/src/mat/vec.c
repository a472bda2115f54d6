/*
 * mat/vec.c — dats as PETSc vectors: the matrix-vector product
 * (loom_mat_mult, loom.h).
 *
 * Design
 * ------
 * The dats are viewed in place, as loom_solve views them (mat/solve.c):
 * a dat's owned rows are its first owned * dim doubles, contiguous, so
 * VecCreateSeqWithArray (one process) or VecCreateMPIWithArray (several:
 * each rank's owned rows, numbered as the matrices number them, rank
 * after rank) wraps them without a copy, with block size dim.
 *
 * loom_mat_mult(A, x, y) is PETSc's MatMult on two such views, made for
 * the call and destroyed after it; y's owned rows are written, so under
 * MPI its halo is then stale and y is marked so (loom__dat_dirty), as a
 * loop writing y would be.  MatMult gathers the column values it needs
 * from x's owned rows on their owners: x's halo is never read.
 *
 * MPI: collective, like the other matrix calls: the ranks agree on the
 * outcome of the checks before the first collective PETSc call (MatMult)
 * and again at the end (petsc.c's loomrt_mat_agree), so that an error on
 * one rank is an error on every rank and the session goes on.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"
#include "mat/mat.h"

/* ---- the product --------------------------------------------------------------- */

static int mult_args(loom_mat A, loom_dat x, loom_dat y) {
  static const char call[] = "loom_mat_mult";
  int status = loomrt_mat_check_dat(A, x, A->sp->cols, A->sp->cdim, "x", call);
  if (status == LOOM_OK)
    status = loomrt_mat_check_dat(A, y, A->sp->rows, A->sp->rdim, "y", call);
  if (status == LOOM_OK && x == y)
    status = loom_error_(LOOM_EINVAL,
                         "matrix '%s': loom_mat_mult: x and y are one dat, '%s' "
                         "(the product is not computed in place)",
                         A->name, x->name);
  else if (status == LOOM_OK && x->values == y->values)
    status = loom_error_(LOOM_EINVAL,
                         "matrix '%s': loom_mat_mult: x '%s' and y '%s' share their "
                         "storage (temporaries loomc placed in one buffer)",
                         A->name, x->name, y->name);
  return status;
}

int loom_mat_mult(loom_mat A, loom_dat x, loom_dat y) {
  static const char call[] = "loom_mat_mult";
  if (loomrt_require_active(call) != LOOM_OK)
    return LOOM_ESTATE;
  char buf[320];
  const char *step = loomrt_mat_step(buf, sizeof buf, A, call);
  int status = loomrt_mat_usable(A, call);
  if (status == LOOM_OK)
    status = mult_args(A, x, y);
  status = loomrt_mat_agree(status, step);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  if (status != LOOM_OK)
    return status; /* agreed on: every rank returns */
  Vec vx = NULL, vy = NULL;
  status = loomrt_mat_view(A, x, &vx);
  if (status == LOOM_OK)
    status = loomrt_mat_view(A, y, &vy);
  int written = 0;
  if (status == LOOM_OK) {
    status = LOOMRT_PETSC(MatMult, (A->A, vx, vy), "matrix", A->name);
    written = 1;
  }
  if (vx)
    LOOMRT_PETSC(VecDestroy, (&vx), "matrix", A->name);
  if (vy)
    LOOMRT_PETSC(VecDestroy, (&vy), "matrix", A->name);
  if (written)
    loom__dat_dirty(y); /* its owned rows changed: the halo is stale */
  return loomrt_mat_agree(status, step);
}
