/*
 * mat/vec.c — dats as PETSc vectors: the matrix-vector product
 * (loom_mat_mult, loom.h) and a program's own view of a dat
 * (loom_dat_vec, loom_dat_vec_restore, loom_petsc.h).
 *
 * Design
 * ------
 * Both view a dat's storage in place, as loom_solve does (mat/solve.c):
 * its owned rows are its first owned * dim doubles, contiguous, so
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
 * loom_dat_vec(d) hands such a view to the program, to keep until
 * loom_dat_vec_restore(d, &v) destroys it and marks d's halo stale (the
 * program may have written it).  The views handed out are listed here,
 * one per dat at most, so that
 *   - a second loom_dat_vec of the same dat, or a restore of a Vec that is
 *     not d's view, is an error;
 *   - the matrix calls refuse a viewed dat (loomrt_mat_check_dat): PETSc
 *     caches a vector's norms until the vector is changed through PETSc,
 *     so a dat written behind the view's back (by loom_solve, say) would
 *     leave them stale;
 *   - loom_exit destroys the views still out (petsc.c's end of session
 *     calls loomrt_dat_views_end before PETSc's end), which the program
 *     must then no longer use.
 * Loops cannot be checked here (the runtime does not see which dats a
 * loop names before it runs): semantics.md §10 says that no loop may
 * name a viewed dat.
 *
 * A view is taken as a loop would take the dat: a pending
 * $LOOM_RENUMBER=1 is applied first (and, under MPI, the mesh is
 * partitioned first if no loop has), so that the view's order is the one
 * the dat keeps; PETSc is started if no matrix has yet.
 *
 * MPI: all three calls are collective, like the other matrix calls: the
 * ranks agree on the outcome of the checks before the first collective
 * PETSc call (VecCreateMPIWithArray, MatMult, VecDestroy) and again at
 * the end (petsc.c's loomrt_mat_agree), so that an error on one rank is
 * an error on every rank and the session goes on.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"
#include "plan/plan.h"
#include "mat/mat.h"

#define PETSC_DAT(d, fn, args) LOOMRT_PETSC(fn, args, "dat", (d)->name)

/* ---- the views handed out -------------------------------------------------- */

typedef struct view {
  loom_dat d;
  Vec v;
} view;

static view *views = NULL;
static int nviews = 0, cap = 0;

/* The index of d's view, or -1. */
static int view_of(loom_dat d) {
  for (int i = 0; i < nviews; i++)
    if (views[i].d == d)
      return i;
  return -1;
}

int loomrt_dat_viewed(loom_dat d) { return view_of(d) >= 0; }

void loomrt_dat_views_end(void) {
  PetscBool up = PETSC_FALSE, down = PETSC_FALSE;
  PetscInitialized(&up);
  PetscFinalized(&down);
  for (int i = 0; i < nviews; i++)
    if (up && !down)
      (void)VecDestroy(&views[i].v); /* the dat's storage is not the Vec's */
  free(views);
  views = NULL;
  nviews = cap = 0;
}

/* "dat 'NAME': CALL", or CALL when d is no live dat (the ranks' step). */
static const char *dat_step(char *buf, size_t size, loom_dat d, const char *call) {
  if (loomrt_dat_problem(d))
    return call;
  snprintf(buf, size, "dat '%s': %s", d->name, call);
  return buf;
}

/* A dat's owned rows as a vector on the matrices' communicator (no copy;
 * block size dim), *v NULL on failure (reported naming the dat). */
static int dat_vec_create(loom_dat d, Vec *v) {
  PetscInt n = (PetscInt)d->set->owned * d->dim;
  PetscInt N = (PetscInt)d->set->gsize * d->dim;
  *v = NULL;
  if (loomrt_mat_nranks() > 1)
    return PETSC_DAT(d, VecCreateMPIWithArray,
                     (loomrt_mat_comm(), d->dim, n, N, (PetscScalar *)d->values, v));
  return PETSC_DAT(d, VecCreateSeqWithArray,
                   (loomrt_mat_comm(), d->dim, n, (PetscScalar *)d->values, v));
}

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

/* ---- the program's view ------------------------------------------------------- */

static int vec_args(loom_dat d, const char *call) {
  int status = loomrt_dat_usable(d, call);
  if (status == LOOM_OK && d->type != LOOM_DOUBLE)
    status = loom_error_(LOOM_EINVAL,
                         "dat '%s': %s: a PETSc Vec views doubles, and the dat holds "
                         "%zu-byte values of another type",
                         d->name, call, d->elem_size);
  if (status == LOOM_OK && loomrt_dat_viewed(d))
    status = loom_error_(LOOM_ESTATE,
                         "dat '%s': %s: the dat is viewed already (restore that view "
                         "first: loom_dat_vec_restore)",
                         d->name, call);
  return status;
}

/* Grows the list for one more view.  LOOM_OK or LOOM_ENOMEM, reported. */
static int views_reserve(loom_dat d) {
  if (nviews < cap)
    return LOOM_OK;
  int more = cap ? 2 * cap : 8;
  view *grown = realloc(views, (size_t)more * sizeof *grown);
  if (!grown)
    return loom_error_(LOOM_ENOMEM, "dat '%s': loom_dat_vec: out of memory", d->name);
  views = grown;
  cap = more;
  return LOOM_OK;
}

Vec loom_dat_vec(loom_dat d) {
  static const char call[] = "loom_dat_vec";
  if (loomrt_require_active(call) != LOOM_OK)
    return NULL;
  char buf[320];
  const char *step = dat_step(buf, sizeof buf, d, call);
  int status = vec_args(d, call);
  if (status == LOOM_OK)
    status = views_reserve(d);
  status = loomrt_mat_agree(status, step);
  if (status == LOOM_OK)
    status = loomrt_mat_agree(loomrt_petsc_start(call), step);
  if (status != LOOM_OK)
    return NULL; /* agreed on: every rank returns */
#ifdef LOOM_MPI
  if (!loomrt_partitioned())
    status = loom__mpi_ready(); /* fails the session on failure (loomrt_leave) */
#else
  status = loomrt_renumber_lazy();
#endif
  Vec v = NULL;
  if (status == LOOM_OK)
    status = dat_vec_create(d, &v);
  status = loomrt_mat_agree(status, step);
  if (status != LOOM_OK) {
    if (v)
      PETSC_DAT(d, VecDestroy, (&v));
    return NULL;
  }
  views[nviews++] = (view){d, v};
  return v;
}

/* v is d's view, its array still the dat's storage. */
static int restore_args(loom_dat d, const Vec *v, int *at, const char *call) {
  int status = loomrt_dat_usable(d, call);
  *at = status == LOOM_OK ? view_of(d) : -1;
  if (status != LOOM_OK)
    return status;
  if (!v)
    return loom_error_(LOOM_EINVAL, "dat '%s': %s: the Vec pointer is NULL", d->name,
                       call);
  if (*at < 0)
    return loom_error_(LOOM_EINVAL, "dat '%s': %s: the dat is not viewed (no "
                                    "loom_dat_vec of it is outstanding)",
                       d->name, call);
  if (*v != views[*at].v)
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': %s: *v is not the Vec loom_dat_vec gave for the dat",
                       d->name, call);
  const PetscScalar *a = NULL;
  status = PETSC_DAT(d, VecGetArrayRead, (*v, &a));
  const int moved = status == LOOM_OK && a != (const PetscScalar *)d->values;
  if (status == LOOM_OK)
    status = PETSC_DAT(d, VecRestoreArrayRead, (*v, &a));
  if (status == LOOM_OK && moved)
    status = loom_error_(LOOM_EINVAL,
                         "dat '%s': %s: the Vec's array is no longer the dat's storage "
                         "(VecPlaceArray or VecReplaceArray: reset it first)",
                         d->name, call);
  return status;
}

int loom_dat_vec_restore(loom_dat d, Vec *v) {
  static const char call[] = "loom_dat_vec_restore";
  if (loomrt_require_active(call) != LOOM_OK)
    return LOOM_ESTATE;
  char buf[320];
  const char *step = dat_step(buf, sizeof buf, d, call);
  int at = -1;
  int status = loomrt_mat_agree(restore_args(d, v, &at, call), step);
  if (status != LOOM_OK)
    return status; /* the view stays out, on every rank */
  status = PETSC_DAT(d, VecDestroy, (&views[at].v));
  views[at] = views[--nviews];
  *v = NULL;
  loom__dat_dirty(d); /* the program may have written its owned rows */
  return loomrt_mat_agree(status, step);
}
