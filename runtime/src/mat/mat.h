/*
 * mat/mat.h — matrices, private: the sparsity and matrix structs, PETSc's
 * start and its error checks, and what mat/'s files share.
 *
 * Included by mat/petsc.c, mat/sparsity.c, mat/mat.c, mat/write.c, mat/solve.c and
 * mat/vec.c (the build with PETSc; mat/nopetsc.c stands in for them without it, and
 * needs only core).  Built on core (objects, errors, the registry and the
 * hooks it runs at loom_exit) and plan/ (the renumberings' count); in
 * libloom_mpi on mpi/ too (the communicator, the ranks' agreement, halo
 * rows), named by mat/petsc.c alone, which the others call through the
 * loomrt_mat_* functions below.
 */
#ifndef LOOM_MAT_MAT_H
#define LOOM_MAT_MAT_H

#include <stdint.h>

#include <petscksp.h>

#include "loom_gen.h"
#include "loom_petsc.h" /* loom_mat_petsc, loom_mat_ksp, loom_dat_vec (mat.c, solve.c,
                           vec.c) */
#include "core/core.h"

/* Element values are doubles and dats' storage is viewed as PETSc vectors
 * in place: PETSc must be built with real double scalars. */
#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
#error "Loom's matrices need a PETSc built with real double scalars (Debian's petsc-dev)"
#endif

/* Magic numbers of live and retired sparsities ("LMP1", "LMPX") and
 * matrices ("LMA1", "LMAX"), as for core's objects (core/core.h). */
#define LOOMRT_MAGIC_SPARSITY UINT32_C(0x4c4d5031)
#define LOOMRT_RETIRED_SPARSITY UINT32_C(0x4c4d5058)
#define LOOMRT_MAGIC_MATRIX UINT32_C(0x4c4d4131)
#define LOOMRT_RETIRED_MATRIX UINT32_C(0x4c4d4158)

struct loom_sparsity_s {
  uint32_t magic;  /* LOOMRT_MAGIC_SPARSITY while alive */
  char *name;      /* owned copy */
  loom_set rows, cols; /* borrowed */
  int rdim, cdim;  /* entries per node: a block is rdim x cdim */
  int npairs;
  loom_map *rmaps, *cmaps; /* npairs each (owned arrays of borrowed maps) */
  PetscCount *start; /* npairs + 2: pair p's element values are
                        [start[p], start[p + 1]) of a matrix's values (every
                        local element of its iteration set); the diagonal
                        blocks [start[npairs], start[npairs + 1]) (the owned
                        row nodes') */
  int diag;        /* rows == cols: the diagonal blocks are in the pattern */
  unsigned epoch;  /* the renumbering (plan/renumber.c) nnz counts for */
  PetscInt *nnz;   /* entries of each owned scalar row (owned(rows) * rdim) */
  PetscInt *rnum, *cnum; /* PETSc's block index of each local row node and
                            column node (size(rows), size(cols); cnum ==
                            rnum when rows == cols): petsc.c's
                            loomrt_mat_numbering */
  int *rlocal, *clocal; /* partitioned sets: the local index of each
                           declared node (gsize entries, -1 when not on this
                           rank), built at first use; clocal == rlocal when
                           rows == cols; NULL otherwise */
};

struct loom_mat_s {
  uint32_t magic;  /* LOOMRT_MAGIC_MATRIX while alive */
  char *name;      /* owned copy */
  loom_sparsity sp; /* borrowed */
  Mat A;           /* MATAIJ on loomrt_mat_comm() (MPIAIJ on several ranks),
                      COO-preallocated with the sparsity's entries */
  KSP ksp;         /* loom_solve's, created at its first use; or NULL */
  PetscScalar *values; /* sp->start[npairs + 1] element values (the diagonal
                          segment stays 0) */
  int pending;     /* values were handed out since the last assembly */
  unsigned epoch;  /* the renumbering the COO entries were built for */
  int **order;     /* npairs: a copy of the new_of_old of pair p's iteration
                      set when the values were last laid out (NULL: the
                      declared order), to move them at a renumbering */
  /* loops writing the matrix (mode write: mat/write.c) */
  double **scratch; /* npairs: pair p's written element matrices, or NULL */
  int *entry;      /* start[npairs + 1]: each slot's entry, -1 ignored */
  int *efirst, *eslots; /* nentries + 1; the slots of entry e are
                           eslots[efirst[e] .. efirst[e + 1]) */
  int nentries;
  unsigned entries_epoch; /* the renumbering entry[] is for */
};

/* ---- PETSc (petsc.c) ------------------------------------------------------ */

/* Starts PETSc unless it runs (PetscInitialize with loom_init's argc and
 * argv; under MPI on the runtime's communicator, collective) and installs
 * mat/'s hooks into core; `call` names the caller in messages.  LOOM_OK or
 * a reported status. */
int loomrt_petsc_start(const char *call);

/* The ranks (petsc.c: the only file of mat/ that names mpi/; one process
 * in libloom).  The communicator of every PETSc object, and its size. */
MPI_Comm loomrt_mat_comm(void);
int loomrt_mat_nranks(void);
/* Agrees on a status and on the step across the ranks (collective, as
 * mpi/'s loomrt_mpi_agree): LOOM_OK when every rank passes LOOM_OK at the
 * same step (its name); else this rank's status, or LOOM_ESTATE reported
 * as "STEP failed on another rank" or, when the ranks are at different
 * steps, as "STEP: the ranks are not all making this call".  The result is
 * the same on every rank (OK or not). */
int loomrt_mat_agree(int status, const char *step);
/* *value, held by one rank (every other passes 0), given to every rank,
 * with the same agreement on status (collective). */
int loomrt_mat_share(double *value, int status, const char *step);
/* PETSc's block index of each of s's size local elements into num: the
 * owned ones numbered contiguously in rank order, the halo ones their
 * owners' numbers (collective); the identity without partitioning. */
int loomrt_mat_numbering(loom_set s, PetscInt *num, const char *what);

/* A PETSc call, checked: `fn` is the function, `args` its parenthesised
 * arguments, `what` and `name` the kind and name of the Loom object for
 * the message.  LOOM_OK, or LOOM_EPETSC (LOOM_ENOMEM for PETSc's memory
 * errors) after reporting "WHAT 'NAME': FN failed: PETSc's message".
 * PETSc's own error printing is off during the call (its return handler):
 * the message is in Loom's. */
#define LOOMRT_PETSC(fn, args, what, name)                                     \
  loomrt_petsc_done((loomrt_petsc_quiet(), fn args), #fn, (what), (name))
void loomrt_petsc_quiet(void);
int loomrt_petsc_done(PetscErrorCode ierr, const char *fn, const char *what,
                      const char *name);

/* ---- sparsities (sparsity.c) ---------------------------------------------- */

/* NULL when the handle is a live sparsity; otherwise what is wrong. */
const char *loomrt_sparsity_problem(loom_sparsity sp);
/* The registry's retire and free of a sparsity (installed by petsc.c). */
void loomrt_sparsity_retire(void *sp);
void loomrt_sparsity_release(void *sp);
/* Counts the entries per row again if a renumbering happened since. */
int loomrt_sparsity_sync(loom_sparsity sp);
/* The pair (rmap, cmap) of sp, or -1. */
int loomrt_sparsity_pair(loom_sparsity sp, loom_map rmap, loom_map cmap);
/* The global PETSc row and column of every entry (start[npairs + 1] of
 * them), malloc'ed into *ri and *ci (PETSc sorts them in place): -1 for
 * the rows other ranks own and for elements outside [0, exec).  LOOM_OK or
 * LOOM_ENOMEM, reported naming `name`. */
int loomrt_sparsity_coo(loom_sparsity sp, const char *name, PetscInt **ri,
                        PetscInt **ci);
/* The local index of the row (cols 0) or column (cols 1) node of declared
 * number `declared` into *local (-1: not on this rank).  LOOM_OK or
 * LOOM_ENOMEM (reported). */
int loomrt_sparsity_local(loom_sparsity sp, int cols, int declared, int *local);

/* ---- matrices (mat.c) ----------------------------------------------------- */

const char *loomrt_mat_problem(loom_mat A);
void loomrt_mat_retire(void *A);
void loomrt_mat_release(void *A);
/* LOOM_OK when the runtime is active and A live; otherwise reported, naming
 * `call`. */
int loomrt_mat_usable(loom_mat A, const char *call);
/* Pair (rmap, cmap)'s element values (loom__mat_values's body, `call`
 * named in messages): checked, a pending renumbering applied and A synced
 * with it, A marked pending; NULL after a reported error. */
double *loomrt_mat_pair_values(loom_mat A, loom_map rmap, loom_map cmap, const char *call);
/* LOOM_OK when the runtime is active and A live, its pattern in the current
 * numbering and its pending values assembled (collective: the assembly);
 * otherwise reported, naming `call`. */
int loomrt_mat_ready(loom_mat A, const char *call);
/* The name of a collective step on A for the ranks' agreement, in buf
 * (320 bytes will do): "matrix 'K': CALL", or CALL when A is no live
 * matrix. */
const char *loomrt_mat_step(char *buf, size_t size, loom_mat A, const char *call);
/* A dat of doubles of dim `dim` on `set` (the role, "x" or "b", and
 * `call` for the message), not viewed by the program (loom_dat_vec).
 * LOOM_OK, LOOM_EINVAL or LOOM_ESTATE (viewed), reported. */
int loomrt_mat_check_dat(loom_mat A, loom_dat d, loom_set set, int dim,
                         const char *role, const char *call);
/* A dat's owned rows as a PETSc vector on the matrix's communicator (no
 * copy: its first owned * dim doubles are contiguous; block size dim), *v
 * NULL on failure (reported). */
int loomrt_mat_view(loom_mat A, loom_dat d, Vec *v);

/* ---- dats as vectors (vec.c) ------------------------------------------------ */

/* Nonzero while the program holds a view of d (loom_dat_vec). */
int loomrt_dat_viewed(loom_dat d);
/* Destroys the views still out and forgets them (at loom_exit, before
 * PETSc ends: petsc.c's end of session). */
void loomrt_dat_views_end(void);

/* ---- loops writing a matrix (write.c) -------------------------------------- */

/* Frees what write.c keeps on A (its scratch and the index of its
 * entries). */
void loomrt_mat_write_free(loom_mat A);

#endif /* LOOM_MAT_MAT_H */
