/*
 * mat/mat.c — matrices: declaration, element values, assembly, zeroing,
 * Dirichlet rows and columns, single entries, and their PETSc Mat.
 *
 * Design
 * ------
 * A matrix is a PETSc MATAIJ (on loomrt_mat_comm(): PETSC_COMM_SELF in
 * libloom, the runtime's communicator in libloom_mpi; SEQAIJ on one
 * process, MPIAIJ on more; block sizes rdim and cdim recorded for the
 * preconditioners; AIJ for every block size, as PETSc's COO assembly is
 * native to AIJ) and an array of element values laid out like its
 * sparsity's entries (mat/sparsity.c): pair after pair, element after
 * element (every local element), each element's block row-major, then the
 * diagonal blocks (which stay 0).  Loops add into the array through
 * loom__mat_values; loops writing the matrix replace entries in it
 * (mat/write.c: the slots of an entry set to sum to the written value);
 * nothing else writes it but loom_mat_zero.
 *
 * Assembly is PETSc's COO interface, deterministic and thread-free: at the
 * declaration MatSetPreallocationCOO gets every entry's row and column
 * (repeated ones are summed; negative ones, other ranks' rows, ignored),
 * once, and builds the pattern (PETSc 3.18's SeqAIJ and MPIAIJ build it
 * from the entries themselves: the count of entries they allocate on each
 * rank is checked against the sparsity's exact count of its owned rows);
 * from then on loom_mat_assemble is one MatSetValuesCOO(values,
 * INSERT_VALUES), so the Mat always equals the sum of every contribution
 * since the last loom_mat_zero.  The Mat refuses new nonzeros
 * (MAT_NEW_NONZERO_ALLOCATION_ERR), keeps its pattern when rows are zeroed
 * (MAT_KEEP_NONZERO_PATTERN: the COO entries index it), and is told that
 * no rank sets another's rows (MAT_NO_OFF_PROC_ENTRIES: owner-computes,
 * every contribution to a row is computed on its owner, so assembly sends
 * nothing).  loom__mat_values marks the matrix pending; every call that
 * reads the Mat assembles first.
 *
 * Numbering: rows, columns and elements are in storage order (so dats are
 * PETSc vectors as they are, mat/solve.c); calls taking node numbers take
 * declared ones and translate them (the set's new_of_old; under MPI, the
 * inverse of its gid, a table built once per sparsity, then PETSc's
 * global number, the sparsity's rnum and cnum).  A renumbering after the declaration (plan/
 * renumber.c counts them) is caught at the matrix's next use: each pair's
 * element values move to their elements' new places (the matrix kept the
 * order it laid them out in), the COO entries are given again from the
 * renumbered maps (MatSetPreallocationCOO on the same Mat, whose handle
 * stays valid), and the values are assembled; conditions set by
 * loom_mat_zero_rows_columns are lost, as at any assembly.
 *
 * MPI (libloom_mpi, any number of ranks; mat/sparsity.c for the rows
 * each rank holds): every call but the loops' (loom__mat_values,
 * loom__mat_write_values and loom__mat_write_end) is collective — every
 * rank makes it, with the same arguments — since PETSc's are (assembly,
 * zeroing rows, solves).  Each checks its arguments, agrees with the
 * other ranks on the outcome before its first collective PETSc call
 * (petsc.c's loomrt_mat_agree) and again at its end, so that an error on
 * one rank is one on all (LOOM_ESTATE "... failed on another rank" where
 * the rank itself was fine) rather than a hang.  loom_mat_get: the owner
 * of the row reads the entry, every rank returns it (loomrt_mat_share).
 * loom_mat_zero_rows_columns: each rank zeroes the nodes of the list it
 * owns (PETSc's MatZeroRowsColumns zeroes their columns on every rank);
 * b's halo is then stale (loom__dat_dirty), as after a loop writing it.
 * loom__mat_values is local, like the loop that calls it; its failure
 * fails the session (loomrt_leave), as a loop's checks do.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mat/mat.h"
#include "plan/plan.h"

#define PETSC(A, fn, args) LOOMRT_PETSC(fn, args, "matrix", (A)->name)

/* ---- handles -------------------------------------------------------------- */

const char *loomrt_mat_problem(loom_mat A) {
  static char buf[LOOMRT_STALE_MAX];
  static const loomrt_handle_kind kind = {
      LOOMRT_MAGIC_MATRIX, LOOMRT_RETIRED_MATRIX, "matrix",
      "is not a live matrix (freed by loom_exit, or not a loom_mat)"};
  return loomrt_handle_problem(buf, &kind, A, A ? A->magic : 0, A ? A->name : NULL);
}

/* At the first retirement the sparsity is still live (it is older). */
static void order_free(loom_mat A) {
  if (A->order)
    for (int p = 0; p < A->sp->npairs; p++)
      free(A->order[p]);
  free(A->order);
  A->order = NULL;
}

void loomrt_mat_retire(void *object) {
  loom_mat A = object;
  if (A->magic == LOOMRT_MAGIC_MATRIX) { /* PETSc runs: mat/petsc.c ends it after */
    PetscBool up = PETSC_FALSE;
    PetscInitialized(&up);
    if (up && A->ksp)
      PETSC(A, KSPDestroy, (&A->ksp));
    if (up && A->A)
      PETSC(A, MatDestroy, (&A->A));
  }
  A->magic = LOOMRT_RETIRED_MATRIX;
  A->ksp = NULL;
  A->A = NULL;
  order_free(A); /* the sparsity is retired after its matrices */
  loomrt_mat_write_free(A);
  free(A->values);
  A->values = NULL;
}

void loomrt_mat_release(void *object) {
  loom_mat A = object;
  loomrt_mat_retire(A);
  A->magic = 0;
  free(A->name);
  free(A);
}

int loomrt_mat_usable(loom_mat A, const char *call) {
  int status = loomrt_require_active(call);
  if (status != LOOM_OK)
    return status;
  const char *problem = loomrt_mat_problem(A);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: matrix handle %s", call, problem);
  return LOOM_OK;
}

/* ---- element order, kept to follow renumberings ----------------------------- */

/* A copy of set s's new_of_old, or NULL when s is in declared order. */
static int copy_order(loom_set s, int **out) {
  *out = NULL;
  if (!s->new_of_old)
    return LOOM_OK;
  *out = malloc(((size_t)s->size + 1) * sizeof **out);
  if (!*out)
    return LOOM_ENOMEM;
  memcpy(*out, s->new_of_old, (size_t)s->size * sizeof **out);
  return LOOM_OK;
}

/* Pair p's element blocks from the order they were laid out in to their
 * elements' current places; then that order is the current one. */
static int move_values(loom_mat A, int p, PetscScalar *tmp) {
  loom_sparsity sp = A->sp;
  loom_set s = sp->rmaps[p]->from;
  const int *was = A->order[p], *now = s->new_of_old;
  size_t b = (size_t)(sp->start[p + 1] - sp->start[p]) /
             (s->size ? (size_t)s->size : 1);
  PetscScalar *seg = A->values + sp->start[p];
  memcpy(tmp, seg, (size_t)s->size * b * sizeof *seg);
  for (int d = 0; d < s->size; d++) {
    size_t from = (size_t)(was ? was[d] : d), to = (size_t)(now ? now[d] : d);
    memcpy(seg + to * b, tmp + from * b, b * sizeof *seg);
  }
  int *order;
  if (copy_order(s, &order) != LOOM_OK)
    return LOOM_ENOMEM;
  free(A->order[p]);
  A->order[p] = order;
  return LOOM_OK;
}

/* ---- the PETSc matrix ------------------------------------------------------- */

/* The COO entries of the sparsity in the current numbering, given to the
 * Mat (collective); its options (set again: a new COO pattern resets
 * them); a check of the pattern's size on this rank against the
 * sparsity's counts of its owned rows.  Ends agreed (mat/mat.c's design:
 * the same status on every rank). */
static int preallocate_coo(loom_mat A, const char *call) {
  loom_sparsity sp = A->sp;
  PetscInt *ri = NULL, *ci = NULL;
  int status = loomrt_mat_agree(loomrt_sparsity_coo(sp, A->name, &ri, &ci), call);
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetPreallocationCOO, (A->A, sp->start[sp->npairs + 1], ri, ci));
  free(ri);
  free(ci);
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  MatInfo info;
  if (status == LOOM_OK)
    status = PETSC(A, MatGetInfo, (A->A, MAT_LOCAL, &info));
  double counted = 0;
  for (size_t r = 0; status == LOOM_OK && r < (size_t)sp->rows->owned * sp->rdim; r++)
    counted += (double)sp->nnz[r];
  /* nz_used: the pattern's entries (MPIAIJ's COO leaves nz_allocated 0) */
  if (status == LOOM_OK && info.nz_used != counted)
    status = loom_error_(LOOM_EPETSC,
                         "matrix '%s': PETSc's pattern has %.0f entries on this rank, "
                         "sparsity '%s' counted %.0f (a bug in Loom)",
                         A->name, info.nz_used, sp->name, counted);
  return loomrt_mat_agree(status, call);
}

/* The values into the Mat (repeated entries summed): the Mat is then their
 * sum, assembled.  Collective, agreed on. */
static int insert_values(loom_mat A, const char *call) {
  int status = PETSC(A, MatSetValuesCOO, (A->A, A->values, INSERT_VALUES));
  status = loomrt_mat_agree(status, call);
  if (status == LOOM_OK)
    A->pending = 0;
  return status;
}

/* Collective: this rank's rows are its owned row nodes', its columns (the
 * vectors' layout) its owned column nodes'.  Ends agreed. */
static int mat_create(loom_mat A, const char *call) {
  loom_sparsity sp = A->sp;
  PetscInt m = (PetscInt)sp->rows->owned * sp->rdim;
  PetscInt n = (PetscInt)sp->cols->owned * sp->cdim;
  PetscInt M = (PetscInt)sp->rows->gsize * sp->rdim;
  PetscInt N = (PetscInt)sp->cols->gsize * sp->cdim;
  int status = PETSC(A, MatCreate, (loomrt_mat_comm(), &A->A));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetSizes, (A->A, m, n, M, N));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetType, (A->A, MATAIJ));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetBlockSizes, (A->A, sp->rdim, sp->cdim));
  if (status == LOOM_OK)
    status = PETSC(A, PetscObjectSetName, ((PetscObject)A->A, A->name));
  status = loomrt_mat_agree(status, call);
  if (status == LOOM_OK)
    status = preallocate_coo(A, call);
  return status == LOOM_OK ? insert_values(A, call) : status; /* all zero, assembled */
}

/* After a renumbering: values moved, entries and counts of the new
 * numbering, the values assembled (mat/mat.c's design).  Never under MPI
 * after partitioning (renumbering is refused then), so local in practice
 * wherever it is called; ends agreed all the same. */
static int mat_sync(loom_mat A, const char *call) {
  unsigned epoch = loomrt_renumber_epoch();
  if (A->epoch == epoch)
    return LOOM_OK;
  loom_sparsity sp = A->sp;
  size_t most = 1;
  for (int p = 0; p < sp->npairs; p++)
    if ((size_t)(sp->start[p + 1] - sp->start[p]) > most)
      most = (size_t)(sp->start[p + 1] - sp->start[p]);
  PetscScalar *tmp = malloc(most * sizeof *tmp);
  int status = tmp ? LOOM_OK : LOOM_ENOMEM;
  for (int p = 0; p < sp->npairs && status == LOOM_OK; p++)
    status = move_values(A, p, tmp);
  free(tmp);
  if (status != LOOM_OK)
    status = loom_error_(status, "matrix '%s': out of memory following a "
                                 "renumbering", A->name);
  if (status == LOOM_OK)
    status = loomrt_sparsity_sync(sp);
  status = loomrt_mat_agree(status, call);
  if (status == LOOM_OK)
    status = preallocate_coo(A, call);
  if (status == LOOM_OK)
    status = insert_values(A, call);
  if (status == LOOM_OK)
    A->epoch = epoch;
  return status;
}

/* Collective (the assembly of pending values), ends agreed; A usable on
 * every rank (agreed on by the caller). */
int loomrt_mat_ready(loom_mat A, const char *call) {
  int status = mat_sync(A, call);
  if (status == LOOM_OK && A->pending)
    status = insert_values(A, call);
  return status;
}

const char *loomrt_mat_step(char *buf, size_t size, loom_mat A, const char *call) {
  if (loomrt_mat_problem(A))
    return call;
  snprintf(buf, size, "matrix '%s': %s", A->name, call);
  return buf;
}

/* ---- declaration ------------------------------------------------------------- */

/* Local: the struct and its values (the PETSc Mat is mat_create's). */
static loom_mat mat_new(loom_sparsity sp, const char *name) {
  loom_mat A = calloc(1, sizeof *A);
  size_t n = (size_t)sp->start[sp->npairs + 1];
  int status = A ? LOOM_OK : LOOM_ENOMEM;
  if (A) {
    A->magic = LOOMRT_MAGIC_MATRIX;
    A->sp = sp;
    A->name = loomrt_strdup(name);
    A->values = calloc(n + 1, sizeof *A->values);
    A->order = calloc((size_t)sp->npairs + 1, sizeof *A->order);
    if (!A->name || !A->values || !A->order)
      status = LOOM_ENOMEM;
    for (int p = 0; p < sp->npairs && status == LOOM_OK; p++)
      status = copy_order(sp->rmaps[p]->from, &A->order[p]);
  }
  if (status != LOOM_OK) {
    if (A)
      loomrt_mat_release(A);
    loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory for %zu values", name, n);
    return NULL;
  }
  A->epoch = loomrt_renumber_epoch();
  return A;
}

/* The matrix is registered before its PETSc Mat is made, so that a
 * failure agreed on later leaves it to loom_exit on every rank alike (its
 * Mat, if any, destroyed there by all). */
loom_mat loom_decl_mat(loom_sparsity sp, const char *name) {
  static const char call[] = "loom_decl_mat";
  if (loomrt_require_active(call) != LOOM_OK)
    return NULL;
  int status = loomrt_check_name(name, "matrix");
  const char *problem = status == LOOM_OK ? loomrt_sparsity_problem(sp) : NULL;
  if (problem)
    status = loom_error_(LOOM_EINVAL, "matrix '%s': sparsity %s", name, problem);
  if (status == LOOM_OK)
    status = loomrt_petsc_start(call);
  if (status == LOOM_OK)
    status = loomrt_sparsity_sync(sp);
  loom_mat A = status == LOOM_OK ? mat_new(sp, name) : NULL;
  if (status == LOOM_OK && !A)
    status = LOOM_ENOMEM;
  if (status == LOOM_OK)
    status = loomrt_register(LOOMRT_KIND_MAT, A, name);
  if (status != LOOM_OK && A) {
    loomrt_mat_release(A); /* not registered */
    A = NULL;
  }
  status = loomrt_mat_agree(status, call);
  if (status == LOOM_OK)
    status = mat_create(A, call);
  return status == LOOM_OK ? A : NULL;
}

/* ---- element values, assembly, zero ---------------------------------------- */

static int check_mat_body(loom_mat A, int rdim, int cdim, const char *loop, int arg) {
  int status = loomrt_require_active("loom__check_mat");
  if (status != LOOM_OK)
    return status;
  loop = loomrt_loop_label(loop);
  const char *problem = loomrt_mat_problem(A);
  if (problem)
    return loom_error_(LOOM_EMISMATCH, "loop %s (argument %d): matrix %s", loop, arg, problem);
  if (A->sp->rdim != rdim || A->sp->cdim != cdim)
    return loom_error_(LOOM_EMISMATCH,
                       "loop %s (argument %d): matrix '%s' has %dx%d blocks, but the loop was "
                       "compiled for %dx%d", loop, arg, A->name, A->sp->rdim, A->sp->cdim, rdim,
                       cdim);
  return LOOM_OK;
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_mat(loom_mat A, int rdim, int cdim, const char *loop, int arg) {
  return loomrt_leave(check_mat_body(A, rdim, cdim, loop, arg));
}

double *loomrt_mat_pair_values(loom_mat A, loom_map rmap, loom_map cmap, const char *call) {
  if (loomrt_mat_usable(A, call) != LOOM_OK || loomrt_renumber_lazy() != LOOM_OK ||
      mat_sync(A, call) != LOOM_OK)
    return NULL;
  loom_sparsity sp = A->sp;
  int p = loomrt_sparsity_pair(sp, rmap, cmap);
  if (p < 0) {
    const char *rp = loomrt_map_problem(rmap), *cp = loomrt_map_problem(cmap);
    loom_error_(LOOM_EINVAL, /* in a loop: after the loop's label (site.c) */
                "matrix '%s': maps %s%s%s and %s%s%s are not a "
                "pair of its sparsity '%s' (%d pair%s)",
                A->name, rp ? "(" : "'", rp ? rp : rmap->name, rp ? ")" : "'",
                cp ? "(" : "'", cp ? cp : cmap->name, cp ? ")" : "'", sp->name,
                sp->npairs, sp->npairs == 1 ? "" : "s");
    return NULL;
  }
  A->pending = 1;
  return A->values + sp->start[p];
}

/* On failure (NULL), the caller (a loop) leaves the communication
 * (loomrt_leave), as after its checks. */
double *loom__mat_values(loom_mat A, loom_map rmap, loom_map cmap) {
  double *values = loomrt_mat_pair_values(A, rmap, cmap, "loom__mat_values");
  if (!values)
    loomrt_leave(LOOM_EINVAL);
  return values;
}

/* A collective call on A with no arguments but A: agreed on (a failure
 * returns at once, on every rank), `body` run (A is usable), agreed on
 * again. */
static int collective(loom_mat A, const char *call, int (*body)(loom_mat, const char *)) {
  char buf[320];
  const char *step = loomrt_mat_step(buf, sizeof buf, A, call);
  int status = loomrt_mat_agree(loomrt_mat_usable(A, call), step);
  if (status != LOOM_OK)
    return status;
  return loomrt_mat_agree(body(A, call), step);
}

int loom_mat_assemble(loom_mat A) {
  if (loomrt_require_active("loom_mat_assemble") != LOOM_OK)
    return LOOM_ESTATE;
  return collective(A, "loom_mat_assemble", loomrt_mat_ready);
}

static int zero_body(loom_mat A, const char *call) {
  int status = mat_sync(A, call);
  if (status != LOOM_OK)
    return status;
  memset(A->values, 0, (size_t)A->sp->start[A->sp->npairs + 1] * sizeof *A->values);
  A->pending = 0;
  return PETSC(A, MatZeroEntries, (A->A));
}

int loom_mat_zero(loom_mat A) {
  if (loomrt_require_active("loom_mat_zero") != LOOM_OK)
    return LOOM_ESTATE;
  return collective(A, "loom_mat_zero", zero_body);
}

Mat loom_mat_petsc(loom_mat A) {
  if (loomrt_require_active("loom_mat_petsc") != LOOM_OK)
    return NULL;
  return collective(A, "loom_mat_petsc", loomrt_mat_ready) == LOOM_OK ? A->A : NULL;
}

/* ---- declared numbers -------------------------------------------------------- */

static int check_node(loom_mat A, const char *call, const char *which, loom_set s,
                      int node, int comp, int dim) {
  if (node < 0 || node >= s->gsize)
    return loom_error_(LOOM_EINVAL,
                       "matrix '%s': %s: %s node %d is outside [0, %d) of set '%s'",
                       A->name, call, which, node, s->gsize, s->name);
  if (comp < 0 || comp >= dim)
    return loom_error_(LOOM_EINVAL,
                       "matrix '%s': %s: %s component %d is outside [0, %d)",
                       A->name, call, which, comp, dim);
  return LOOM_OK;
}

/* Collective: the owner of the row reads the entry (every column coupled
 * to its rows is local there: owned or halo), every rank returns it.  The
 * arguments are part of the step the ranks agree on. */
double loom_mat_get(loom_mat A, int row_node, int rcomp, int col_node, int ccomp) {
  static const char call[] = "loom_mat_get";
  if (loomrt_require_active(call) != LOOM_OK)
    return NAN;
  char args[120], buf[320];
  snprintf(args, sizeof args, "%s(%d, %d, %d, %d)", call, row_node, rcomp, col_node,
           ccomp);
  const char *step = loomrt_mat_step(buf, sizeof buf, A, args);
  int status = loomrt_mat_usable(A, call);
  loom_sparsity sp = status == LOOM_OK ? A->sp : NULL;
  if (status == LOOM_OK)
    status = check_node(A, call, "row", sp->rows, row_node, rcomp, sp->rdim);
  if (status == LOOM_OK)
    status = check_node(A, call, "column", sp->cols, col_node, ccomp, sp->cdim);
  int r = -1, c = -1;
  if (status == LOOM_OK)
    status = loomrt_sparsity_local(sp, 0, row_node, &r);
  if (status == LOOM_OK)
    status = loomrt_sparsity_local(sp, 1, col_node, &c);
  status = loomrt_mat_agree(status, step);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  if (status != LOOM_OK)
    return NAN; /* agreed on: every rank returns */
  PetscScalar v = 0; /* also where the column is not local: not coupled */
  if (status == LOOM_OK && r >= 0 && r < sp->rows->owned && c >= 0) {
    PetscInt pr = sp->rnum[r] * sp->rdim + rcomp;
    PetscInt pc = sp->cnum[c] * sp->cdim + ccomp;
    status = PETSC(A, MatGetValues, (A->A, 1, &pr, 1, &pc, &v));
  }
  double value = (double)v;
  status = loomrt_mat_share(&value, status, step);
  return status == LOOM_OK ? value : NAN;
}

/* ---- dats as vectors ---------------------------------------------------------- */

int loomrt_mat_check_dat(loom_mat A, loom_dat d, loom_set set, int dim,
                         const char *role, const char *call) {
  const char *problem = loomrt_dat_problem(d);
  if (problem)
    return loom_error_(LOOM_EINVAL, "matrix '%s': %s: dat %s %s", A->name, call,
                       role, problem);
  if (d->type != LOOM_DOUBLE || d->dim != dim || d->set != set)
    return loom_error_(LOOM_EINVAL,
                       "matrix '%s': %s: dat %s ('%s') must hold %d double%s per "
                       "element of set '%s' (it holds %d of %zu bytes on set '%s')",
                       A->name, call, role, d->name, dim, dim == 1 ? "" : "s",
                       set->name, d->dim, d->elem_size, d->set->name);
  if (loomrt_dat_viewed(d))
    return loom_error_(LOOM_ESTATE,
                       "matrix '%s': %s: dat %s ('%s') is viewed as a PETSc Vec "
                       "(loom_dat_vec): restore it first (loom_dat_vec_restore)",
                       A->name, call, role, d->name);
  return LOOM_OK;
}

int loomrt_mat_view(loom_mat A, loom_dat d, Vec *v) {
  /* [size][dim] doubles from d->values, contiguous (core/dat.c), the owned
   * rows first (mpi/migrate.c): a view of those */
  PetscInt n = (PetscInt)d->set->owned * d->dim;
  PetscInt N = (PetscInt)d->set->gsize * d->dim;
  *v = NULL;
  if (loomrt_mat_nranks() > 1)
    return PETSC(A, VecCreateMPIWithArray,
                 (loomrt_mat_comm(), d->dim, n, N, (PetscScalar *)d->values, v));
  return PETSC(A, VecCreateSeqWithArray,
               (loomrt_mat_comm(), d->dim, n, (PetscScalar *)d->values, v));
}

/* ---- Dirichlet conditions ------------------------------------------------------ */

static int check_square(loom_mat A, const char *call) {
  loom_sparsity sp = A->sp;
  if (sp->rows == sp->cols && sp->rdim == sp->cdim)
    return LOOM_OK;
  return loom_error_(LOOM_EINVAL,
                     "matrix '%s': %s needs a square matrix (its rows are set "
                     "'%s' x %d, its columns set '%s' x %d)",
                     A->name, call, sp->rows->name, sp->rdim, sp->cols->name,
                     sp->cdim);
}

static int zrc_args(loom_mat A, int n, const int *nodes, loom_dat x, loom_dat b,
                    const char *call) {
  loom_sparsity sp = A->sp;
  int status = check_square(A, call);
  if (status == LOOM_OK && (n < 0 || (n > 0 && !nodes)))
    status = loom_error_(LOOM_EINVAL, "matrix '%s': %s: %d nodes at %p", A->name,
                         call, n, (const void *)nodes);
  for (int i = 0; i < n && status == LOOM_OK; i++)
    status = check_node(A, call, "row", sp->rows, nodes[i], 0, 1);
  if (status == LOOM_OK && (!x) != (!b))
    status = loom_error_(LOOM_EINVAL,
                         "matrix '%s': %s: give both dats x and b, or neither "
                         "(%s is NULL)",
                         A->name, call, x ? "b" : "x");
  if (status == LOOM_OK && x)
    status = loomrt_mat_check_dat(A, x, sp->rows, sp->rdim, "x", call);
  if (status == LOOM_OK && b)
    status = loomrt_mat_check_dat(A, b, sp->rows, sp->rdim, "b", call);
  return status;
}

/* The global scalar rows (every component) of the nodes this rank owns,
 * malloc'ed into *rows, their number into *count. */
static int zrc_rows(loom_mat A, int n, const int *nodes, PetscInt **rows,
                    PetscInt *count) {
  loom_sparsity sp = A->sp;
  *count = 0;
  *rows = malloc(((size_t)n * sp->rdim + 1) * sizeof **rows);
  if (!*rows)
    return loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory", A->name);
  int status = LOOM_OK;
  for (int i = 0; i < n && status == LOOM_OK; i++) {
    int local = -1;
    status = loomrt_sparsity_local(sp, 0, nodes[i], &local);
    if (status == LOOM_OK && local >= 0 && local < sp->rows->owned)
      for (int r = 0; r < sp->rdim; r++)
        (*rows)[(*count)++] = sp->rnum[local] * sp->rdim + r;
  }
  return status;
}

int loom_mat_zero_rows_columns(loom_mat A, int n, const int *nodes, double diag,
                               loom_dat x, loom_dat b) {
  static const char call[] = "loom_mat_zero_rows_columns";
  if (loomrt_require_active(call) != LOOM_OK)
    return LOOM_ESTATE;
  char args[120], buf[320];
  snprintf(args, sizeof args, "%s(%d nodes)", call, n);
  const char *step = loomrt_mat_step(buf, sizeof buf, A, args);
  int status = loomrt_mat_usable(A, call);
  if (status == LOOM_OK)
    status = zrc_args(A, n, nodes, x, b, call);
  PetscInt *rows = NULL, count = 0;
  if (status == LOOM_OK)
    status = zrc_rows(A, n, nodes, &rows, &count);
  status = loomrt_mat_agree(status, step);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  if (status != LOOM_OK) { /* agreed on: every rank returns */
    free(rows);
    return status;
  }
  Vec vx = NULL, vb = NULL;
  if (status == LOOM_OK && x)
    status = loomrt_mat_view(A, x, &vx);
  if (status == LOOM_OK && b)
    status = loomrt_mat_view(A, b, &vb);
  if (status == LOOM_OK)
    status = PETSC(A, MatZeroRowsColumns, (A->A, count, rows, diag, vx, vb));
  if (vx)
    PETSC(A, VecDestroy, (&vx));
  if (vb)
    PETSC(A, VecDestroy, (&vb));
  free(rows);
  if (status == LOOM_OK && b)
    loom__dat_dirty(b); /* its owned rows changed: the halo is stale */
  return loomrt_mat_agree(status, step);
}
