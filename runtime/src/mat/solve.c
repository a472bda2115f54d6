/*
 * mat/solve.c — loom_solve: A x = b with PETSc's KSP, dats as vectors.
 *
 * Design
 * ------
 * Each matrix has one KSP, created at its first use (loom_solve or
 * loom_mat_ksp) on the matrix's communicator with operators (A, A), a nonzero
 * initial guess (x's values) and KSPSetFromOptions: the command line that
 * loom_init received and $PETSC_OPTIONS choose the method
 * (-ksp_type cg -pc_type gamg -ksp_rtol 1e-12 ...), for every matrix
 * alike (no options prefix).  PETSc notices a matrix whose values changed
 * since the last solve and sets the preconditioner up again.
 *
 * The dats are viewed in place: a dat's storage is [size][dim] contiguous
 * doubles (core/dat.c: aligned and staggered, never padded between rows),
 * its owned rows first, so VecCreateSeqWithArray (one process) or
 * VecCreateMPIWithArray (several: each rank's owned rows) wraps them
 * without a copy, with block size dim; the views live for one call.  x is
 * written in place by the solve; under MPI its halo rows are then stale,
 * and x is marked so (loom__dat_dirty), as a loop writing it would be, so
 * that the next loop reading it through a map exchanges it.
 *
 * A solve that does not converge (KSPConvergedReason < 0) is an error
 * naming the matrix, the reason, the iterations and the residual; x then
 * holds the last iterate.  MPI: loom_solve and loom_mat_ksp are collective,
 * agreed on before the first PETSc call and at the end (mat/mat.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"
#include "mat/mat.h"

#define PETSC(A, fn, args) LOOMRT_PETSC(fn, args, "matrix", (A)->name)

/* A's KSP, created at its first use. */
static int ksp_get(loom_mat A) {
  if (A->ksp)
    return LOOM_OK;
  KSP ksp = NULL;
  int status = PETSC(A, KSPCreate, (loomrt_mat_comm(), &ksp));
  if (status == LOOM_OK)
    status = PETSC(A, KSPSetOperators, (ksp, A->A, A->A));
  if (status == LOOM_OK)
    status = PETSC(A, KSPSetInitialGuessNonzero, (ksp, PETSC_TRUE));
  if (status == LOOM_OK)
    status = PETSC(A, KSPSetFromOptions, (ksp));
  if (status == LOOM_OK)
    A->ksp = ksp;
  else if (ksp)
    PETSC(A, KSPDestroy, (&ksp));
  return status;
}

KSP loom_mat_ksp(loom_mat A) {
  static const char call[] = "loom_mat_ksp";
  if (loomrt_require_active(call) != LOOM_OK)
    return NULL;
  char buf[320];
  const char *step = loomrt_mat_step(buf, sizeof buf, A, call);
  int status = loomrt_mat_agree(loomrt_mat_usable(A, call), step);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  if (status != LOOM_OK)
    return NULL; /* agreed on: every rank returns */
  return loomrt_mat_agree(ksp_get(A), step) == LOOM_OK ? A->ksp : NULL;
}

static int solve_args(loom_mat A, loom_dat x, loom_dat b) {
  static const char call[] = "loom_solve";
  int status = loomrt_mat_check_dat(A, x, A->sp->cols, A->sp->cdim, "x", call);
  if (status == LOOM_OK)
    status = loomrt_mat_check_dat(A, b, A->sp->rows, A->sp->rdim, "b", call);
  if (status == LOOM_OK && x == b)
    status = loom_error_(LOOM_EINVAL,
                         "matrix '%s': loom_solve: x and b are one dat, '%s'",
                         A->name, x->name);
  else if (status == LOOM_OK && x->values == b->values)
    status = loom_error_(LOOM_EINVAL,
                         "matrix '%s': loom_solve: x '%s' and b '%s' share their "
                         "storage (temporaries loomc placed in one buffer)",
                         A->name, x->name, b->name);
  return status;
}

/* The solve's outcome: LOOM_OK when it converged. */
static int converged(loom_mat A, loom_dat x, loom_dat b) {
  KSPConvergedReason reason;
  PetscInt its = 0;
  PetscReal rnorm = 0;
  int status = PETSC(A, KSPGetConvergedReason, (A->ksp, &reason));
  if (status == LOOM_OK)
    status = PETSC(A, KSPGetIterationNumber, (A->ksp, &its));
  if (status == LOOM_OK)
    status = PETSC(A, KSPGetResidualNorm, (A->ksp, &rnorm));
  if (status != LOOM_OK || reason >= 0)
    return status;
  KSPType type = NULL;
  PC pc = NULL;
  PCFailedReason pcwhy = PC_NOERROR;
  PETSC(A, KSPGetType, (A->ksp, &type));
  if (reason == KSP_DIVERGED_PC_FAILED && PETSC(A, KSPGetPC, (A->ksp, &pc)) == LOOM_OK)
    PETSC(A, PCGetFailedReason, (pc, &pcwhy));
  return loom_error_(LOOM_EPETSC,
                     "matrix '%s': loom_solve(x '%s', b '%s') diverged: "
                     "KSPConvergedReason %s (%d)%s%s%s after %d iterations of %s, "
                     "residual norm %g",
                     A->name, x->name, b->name, KSPConvergedReasons[reason],
                     (int)reason, pcwhy != PC_NOERROR ? " (PCFailedReason " : "",
                     pcwhy != PC_NOERROR ? PCFailedReasons[pcwhy] : "",
                     pcwhy != PC_NOERROR ? ")" : "", (int)its, type ? type : "KSP",
                     (double)rnorm);
}

int loom_solve(loom_mat A, loom_dat x, loom_dat b) {
  static const char call[] = "loom_solve";
  if (loomrt_require_active(call) != LOOM_OK)
    return LOOM_ESTATE;
  char buf[320];
  const char *step = loomrt_mat_step(buf, sizeof buf, A, call);
  int status = loomrt_mat_usable(A, call);
  if (status == LOOM_OK)
    status = solve_args(A, x, b);
  status = loomrt_mat_agree(status, step);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  if (status != LOOM_OK)
    return status; /* agreed on: every rank returns */
  status = ksp_get(A);
  Vec vx = NULL, vb = NULL;
  if (status == LOOM_OK)
    status = loomrt_mat_view(A, x, &vx);
  if (status == LOOM_OK)
    status = loomrt_mat_view(A, b, &vb);
  int solved = 0;
  if (status == LOOM_OK) {
    status = PETSC(A, KSPSolve, (A->ksp, vb, vx));
    solved = 1;
  }
  if (status == LOOM_OK)
    status = converged(A, x, b);
  if (vx)
    PETSC(A, VecDestroy, (&vx));
  if (vb)
    PETSC(A, VecDestroy, (&vb));
  if (solved)
    loom__dat_dirty(x); /* its owned rows changed: the halo is stale */
  return loomrt_mat_agree(status, step);
}
