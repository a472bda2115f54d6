/*
 * mat/mat.c — matrices: declaration, element values, assembly, zeroing,
 * Dirichlet rows and columns, single entries, and their PETSc Mat.
 *
 * Design
 * ------
 * A matrix is a PETSc MATSEQAIJ (on PETSC_COMM_SELF, block sizes rdim and
 * cdim recorded for the preconditioners; AIJ for every block size, as
 * PETSc's COO assembly is native to AIJ) and an array of element values
 * laid out like its sparsity's entries (mat/sparsity.c): pair after pair,
 * element after element, each element's block row-major, then the
 * diagonal blocks (which stay 0).  Loops add into the array through
 * loom__mat_values; nothing else writes it but loom_mat_zero.
 *
 * Assembly is PETSc's COO interface, deterministic and thread-free: at the
 * declaration the Mat is preallocated exactly (the sparsity's counts per
 * row), then MatSetPreallocationCOO gets every entry's row and column
 * (repeated ones are summed), once; from then on loom_mat_assemble is one
 * MatSetValuesCOO(values, INSERT_VALUES), so the Mat always equals the sum
 * of every contribution since the last loom_mat_zero.  The Mat refuses new
 * nonzeros (MAT_NEW_NONZERO_ALLOCATION_ERR) and keeps its pattern when
 * rows are zeroed (MAT_KEEP_NONZERO_PATTERN: the COO entries index it).
 * (PETSc 3.18's SeqAIJ builds its COO pattern itself; the count of
 * entries it allocates is checked against the sparsity's.)  loom__mat_values
 * marks the matrix pending; every call that reads the Mat assembles first.
 *
 * Numbering: rows, columns and elements are in storage order (so dats are
 * PETSc vectors as they are, mat/solve.c); calls taking node numbers take
 * declared ones and translate them (the set's new_of_old; under MPI, the
 * inverse of its gid).  A renumbering after the declaration (plan/
 * renumber.c counts them) is caught at the matrix's next use: each pair's
 * element values move to their elements' new places (the matrix kept the
 * order it laid them out in), the COO entries are given again from the
 * renumbered maps (MatSetPreallocationCOO on the same Mat, whose handle
 * stays valid), and the values are assembled; conditions set by
 * loom_mat_zero_rows_columns are lost, as at any assembly.
 *
 * MPI: one rank only (mat/petsc.c); every PETSc object is sequential.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hooks.h"
#include "mat/mat.h"
#include "plan/plan.h"

#define PETSC(A, fn, args) LOOMRT_PETSC(fn, args, "matrix", (A)->name)

/* ---- handles -------------------------------------------------------------- */

const char *loomrt_mat_problem(loom_mat A) {
  static char stale[LOOMRT_STALE_MAX];
  if (!A)
    return "is NULL";
  if (A->magic == LOOMRT_RETIRED_MATRIX)
    return loomrt_stale(stale, "matrix", A->name);
  if (A->magic != LOOMRT_MAGIC_MATRIX)
    return "is not a live matrix (freed by loom_exit, or not a loom_mat)";
  return NULL;
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

static int mat_usable(loom_mat A, const char *call) {
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
 * Mat; its options (set again: a new COO pattern resets them); a check of
 * the pattern's size against the sparsity's counts. */
static int preallocate_coo(loom_mat A) {
  loom_sparsity sp = A->sp;
  PetscInt *ri, *ci;
  int status = loomrt_sparsity_coo(sp, A->name, &ri, &ci);
  if (status != LOOM_OK)
    return status;
  status = PETSC(A, MatSetPreallocationCOO, (A->A, sp->start[sp->npairs + 1], ri, ci));
  free(ri);
  free(ci);
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetOption, (A->A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  MatInfo info;
  if (status == LOOM_OK)
    status = PETSC(A, MatGetInfo, (A->A, MAT_LOCAL, &info));
  if (status != LOOM_OK)
    return status;
  double counted = 0;
  for (size_t r = 0; r < (size_t)sp->rows->size * sp->rdim; r++)
    counted += (double)sp->nnz[r];
  if (info.nz_allocated != counted)
    return loom_error_(LOOM_EPETSC,
                       "matrix '%s': PETSc's pattern has %.0f entries, sparsity "
                       "'%s' counted %.0f (a bug in Loom)",
                       A->name, info.nz_allocated, sp->name, counted);
  return LOOM_OK;
}

/* The values into the Mat (repeated entries summed): the Mat is then their
 * sum, assembled. */
static int insert_values(loom_mat A) {
  int status = PETSC(A, MatSetValuesCOO, (A->A, A->values, INSERT_VALUES));
  if (status == LOOM_OK)
    A->pending = 0;
  return status;
}

static int mat_create(loom_mat A) {
  loom_sparsity sp = A->sp;
  PetscInt m = (PetscInt)sp->rows->size * sp->rdim;
  PetscInt n = (PetscInt)sp->cols->size * sp->cdim;
  int status = PETSC(A, MatCreate, (PETSC_COMM_SELF, &A->A));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetSizes, (A->A, m, n, m, n));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetType, (A->A, MATSEQAIJ));
  if (status == LOOM_OK)
    status = PETSC(A, MatSetBlockSizes, (A->A, sp->rdim, sp->cdim));
  if (status == LOOM_OK)
    status = PETSC(A, PetscObjectSetName, ((PetscObject)A->A, A->name));
  if (status == LOOM_OK)
    status = PETSC(A, MatSeqAIJSetPreallocation, (A->A, 0, sp->nnz));
  if (status == LOOM_OK)
    status = preallocate_coo(A);
  return status == LOOM_OK ? insert_values(A) : status; /* all zero, assembled */
}

/* After a renumbering: values moved, entries and counts of the new
 * numbering, the values assembled (mat/mat.c's design). */
static int mat_sync(loom_mat A) {
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
    return loom_error_(status, "matrix '%s': out of memory following a "
                               "renumbering", A->name);
  status = loomrt_sparsity_sync(sp);
  if (status == LOOM_OK)
    status = preallocate_coo(A);
  if (status == LOOM_OK)
    status = insert_values(A);
  if (status == LOOM_OK)
    A->epoch = epoch;
  return status;
}

int loomrt_mat_ready(loom_mat A, const char *call) {
  int status = mat_usable(A, call);
  if (status == LOOM_OK)
    status = mat_sync(A);
  if (status == LOOM_OK && A->pending)
    status = insert_values(A);
  return status;
}

/* ---- declaration ------------------------------------------------------------- */

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
  if (mat_create(A) != LOOM_OK) {
    loomrt_mat_release(A);
    return NULL;
  }
  return A;
}

loom_mat loom_decl_mat(loom_sparsity sp, const char *name) {
  if (loomrt_require_active("loom_decl_mat") != LOOM_OK ||
      loomrt_check_name(name, "matrix") != LOOM_OK)
    return NULL;
  const char *problem = loomrt_sparsity_problem(sp);
  if (problem) {
    loom_error_(LOOM_EINVAL, "matrix '%s': sparsity %s", name, problem);
    return NULL;
  }
  if (loomrt_petsc_start("loom_decl_mat") != LOOM_OK ||
      loomrt_sparsity_sync(sp) != LOOM_OK)
    return NULL;
  loom_mat A = mat_new(sp, name);
  if (A && loomrt_register(LOOMRT_KIND_MAT, A, name) != LOOM_OK) {
    loomrt_mat_release(A);
    return NULL;
  }
  return A;
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

double *loom__mat_values(loom_mat A, loom_map rmap, loom_map cmap) {
  if (mat_usable(A, "loom__mat_values") != LOOM_OK ||
      loomrt_renumber_lazy() != LOOM_OK || mat_sync(A) != LOOM_OK)
    return NULL;
  loom_sparsity sp = A->sp;
  int p = loomrt_sparsity_pair(sp, rmap, cmap);
  if (p < 0) {
    const char *rp = loomrt_map_problem(rmap), *cp = loomrt_map_problem(cmap);
    loom_error_(LOOM_EINVAL,
                "matrix '%s': loom__mat_values: maps %s%s%s and %s%s%s are not a "
                "pair of its sparsity '%s' (%d pair%s)",
                A->name, rp ? "(" : "'", rp ? rp : rmap->name, rp ? ")" : "'",
                cp ? "(" : "'", cp ? cp : cmap->name, cp ? ")" : "'", sp->name,
                sp->npairs, sp->npairs == 1 ? "" : "s");
    return NULL;
  }
  A->pending = 1;
  return A->values + sp->start[p];
}

int loom_mat_assemble(loom_mat A) {
  return loomrt_mat_ready(A, "loom_mat_assemble");
}

int loom_mat_zero(loom_mat A) {
  int status = mat_usable(A, "loom_mat_zero");
  if (status == LOOM_OK)
    status = mat_sync(A);
  if (status != LOOM_OK)
    return status;
  memset(A->values, 0, (size_t)A->sp->start[A->sp->npairs + 1] * sizeof *A->values);
  A->pending = 0;
  return PETSC(A, MatZeroEntries, (A->A));
}

Mat loom_mat_petsc(loom_mat A) {
  return loomrt_mat_ready(A, "loom_mat_petsc") == LOOM_OK ? A->A : NULL;
}

/* ---- declared numbers -------------------------------------------------------- */

/* Storage indices of a set's declared elements: under MPI (one rank) the
 * inverse of its gid, in *inv (malloc'ed); otherwise *inv is NULL and
 * new_of_old (after renumbering) or the identity serves. */
static int storage_table(loom_mat A, loom_set s, int **inv) {
  *inv = NULL;
  if (!s->gid)
    return LOOM_OK;
  *inv = malloc(((size_t)s->gsize + 1) * sizeof **inv);
  if (!*inv)
    return loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory", A->name);
  for (int i = 0; i < s->gsize; i++)
    (*inv)[i] = -1;
  for (int i = 0; i < s->size; i++)
    (*inv)[s->gid[i]] = i;
  return LOOM_OK;
}

static int storage_index(loom_set s, const int *inv, int declared) {
  return inv ? inv[declared] : s->new_of_old ? s->new_of_old[declared] : declared;
}

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

double loom_mat_get(loom_mat A, int row_node, int rcomp, int col_node, int ccomp) {
  static const char call[] = "loom_mat_get";
  int status = mat_usable(A, call);
  loom_sparsity sp = status == LOOM_OK ? A->sp : NULL;
  if (status == LOOM_OK)
    status = check_node(A, call, "row", sp->rows, row_node, rcomp, sp->rdim);
  if (status == LOOM_OK)
    status = check_node(A, call, "column", sp->cols, col_node, ccomp, sp->cdim);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  int *rinv = NULL, *cinv = NULL;
  if (status == LOOM_OK)
    status = storage_table(A, sp->rows, &rinv);
  if (status == LOOM_OK)
    status = storage_table(A, sp->cols, &cinv);
  PetscScalar v = NAN;
  if (status == LOOM_OK) {
    PetscInt r = (PetscInt)storage_index(sp->rows, rinv, row_node) * sp->rdim + rcomp;
    PetscInt c = (PetscInt)storage_index(sp->cols, cinv, col_node) * sp->cdim + ccomp;
    if (PETSC(A, MatGetValues, (A->A, 1, &r, 1, &c, &v)) != LOOM_OK)
      v = NAN;
  }
  free(rinv);
  free(cinv);
  return v;
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
  return LOOM_OK;
}

int loomrt_mat_view(loom_mat A, loom_dat d, Vec *v) {
  /* [size][dim] doubles from d->values, contiguous (core/dat.c): a view */
  PetscInt n = (PetscInt)d->set->size * d->dim;
  *v = NULL;
  return PETSC(A, VecCreateSeqWithArray,
               (PETSC_COMM_SELF, d->dim, n, (PetscScalar *)d->values, v));
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

/* The scalar rows of the nodes (every component), malloc'ed. */
static int zrc_rows(loom_mat A, int n, const int *nodes, PetscInt **rows) {
  loom_sparsity sp = A->sp;
  int *inv;
  *rows = malloc(((size_t)n * sp->rdim + 1) * sizeof **rows);
  if (!*rows)
    return loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory", A->name);
  int status = storage_table(A, sp->rows, &inv);
  for (int i = 0; i < n && status == LOOM_OK; i++)
    for (int r = 0; r < sp->rdim; r++)
      (*rows)[(size_t)i * sp->rdim + r] =
          (PetscInt)storage_index(sp->rows, inv, nodes[i]) * sp->rdim + r;
  free(inv);
  return status;
}

int loom_mat_zero_rows_columns(loom_mat A, int n, const int *nodes, double diag,
                               loom_dat x, loom_dat b) {
  static const char call[] = "loom_mat_zero_rows_columns";
  int status = mat_usable(A, call);
  if (status == LOOM_OK)
    status = zrc_args(A, n, nodes, x, b, call);
  if (status == LOOM_OK)
    status = loomrt_mat_ready(A, call);
  PetscInt *rows = NULL;
  Vec vx = NULL, vb = NULL;
  if (status == LOOM_OK)
    status = zrc_rows(A, n, nodes, &rows);
  if (status == LOOM_OK && x)
    status = loomrt_mat_view(A, x, &vx);
  if (status == LOOM_OK && b)
    status = loomrt_mat_view(A, b, &vb);
  if (status == LOOM_OK)
    status = PETSC(A, MatZeroRowsColumns,
                   (A->A, (PetscInt)n * A->sp->rdim, rows, diag, vx, vb));
  if (vx)
    PETSC(A, VecDestroy, (&vx));
  if (vb)
    PETSC(A, VecDestroy, (&vb));
  free(rows);
  return status;
}
