/*
 * mat/solve.c — loom_solve: A x = b with PETSc's KSP, dats as vectors.
 *
 * Design
 * ------
 * Each matrix has one KSP, created at its first use (loom_solve or
 * loom_mat_ksp) on PETSC_COMM_SELF with operators (A, A), a nonzero
 * initial guess (x's values) and KSPSetFromOptions: the command line that
 * loom_init received and $PETSC_OPTIONS choose the method
 * (-ksp_type cg -pc_type gamg -ksp_rtol 1e-12 ...), for every matrix
 * alike (no options prefix).  PETSc notices a matrix whose values changed
 * since the last solve and sets the preconditioner up again.
 *
 * The dats are viewed in place: a dat's storage is [size][dim] contiguous
 * doubles (core/dat.c: aligned and staggered, never padded between rows),
 * so VecCreateSeqWithArray wraps it without a copy, with block size dim;
 * the views live for one call.  x is written in place by the solve.
 *
 * A solve that does not converge (KSPConvergedReason < 0) is an error
 * naming the matrix, the reason, the iterations and the residual; x then
 * holds the last iterate.  MPI: one rank only (mat/petsc.c).
 */
#include <stdlib.h>

#include "core/core.h"
#include "mat/mat.h"

#define PETSC(A, fn, args) LOOMRT_PETSC(fn, args, "matrix", (A)->name)

/* A's KSP, created at its first use. */
static int ksp_get(loom_mat A) {
  if (A->ksp)
    return LOOM_OK;
  KSP ksp = NULL;
  int status = PETSC(A, KSPCreate, (PETSC_COMM_SELF, &ksp));
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
  if (loomrt_mat_ready(A, "loom_mat_ksp") != LOOM_OK || ksp_get(A) != LOOM_OK)
    return NULL;
  return A->ksp;
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
  int status = loomrt_mat_ready(A, "loom_solve");
  if (status == LOOM_OK)
    status = solve_args(A, x, b);
  if (status == LOOM_OK)
    status = ksp_get(A);
  Vec vx = NULL, vb = NULL;
  if (status == LOOM_OK)
    status = loomrt_mat_view(A, x, &vx);
  if (status == LOOM_OK)
    status = loomrt_mat_view(A, b, &vb);
  if (status == LOOM_OK)
    status = PETSC(A, KSPSolve, (A->ksp, vb, vx));
  if (status == LOOM_OK)
    status = converged(A, x, b);
  if (vx)
    PETSC(A, VecDestroy, (&vx));
  if (vb)
    PETSC(A, VecDestroy, (&vb));
  return status;
}
