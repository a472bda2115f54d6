/*
 * loom_petsc.h — the PETSc objects behind Loom's matrices, and dats as
 * PETSc vectors, for programs that need more of PETSc than loom.h's
 * matrix calls give (their own preconditioner, a view of the matrix,
 * vector operations: norms, dot products, AXPY).  Defined in
 * libloom_petsc (libloom_mpi_petsc) built with PETSc; compile with PETSc's
 * and MPI's flags and link as for loom.h's matrix calls (loom.h,
 * "matrices"): pkg-config loom-petsc (loom-mpi-petsc), CMake
 * Loom::loom_petsc (Loom::loom_mpi_petsc).
 *
 * The matrices' objects are the runtime's: never destroy them; loom_exit
 * does.  They are valid until loom_exit (also across a renumbering: the
 * matrix keeps its handle, its pattern and values are rebuilt in the new
 * numbering).  A dat's Vec is a view the program takes and gives back
 * (loom_dat_vec, loom_dat_vec_restore).
 */
#ifndef LOOM_PETSC_H
#define LOOM_PETSC_H

#include <petscksp.h>

#include "loom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A's PETSc matrix, assembled: pending element values are assembled
 * first.  MATAIJ on PETSC_COMM_SELF (libloom) or on the runtime's
 * communicator (libloom_mpi: MPIAIJ on several ranks, each holding the
 * rows of its owned nodes, numbered after the lower ranks' in local
 * order), rows and columns in the runtime's storage order.  Values changed
 * in it directly (within its pattern: new nonzeros are refused; rows of
 * this rank only) last until the next assembly, which starts again from
 * the element values.  NULL after an error was reported.  Under MPI
 * collective, like loom_mat_ksp. */
Mat loom_mat_petsc(loom_mat A);

/* The KSP loom_solve uses for A (its operators A, A; options from the
 * command line and $PETSC_OPTIONS), created at its first use.  Settings
 * made on it hold for the following loom_solve calls.  NULL after an
 * error was reported. */
KSP loom_mat_ksp(loom_mat A);

/* A PETSc Vec viewing dat d's owned elements in place (no copy): d's
 * storage is the Vec's array, block size d's dim, global size the set's
 * declared size times dim; a dat of doubles on any set.  Its order is the
 * runtime's storage order, the one the matrices' rows and columns have
 * (loom_mat_petsc): under MPI each rank holds its owned elements, after
 * the lower ranks' (MPI vector on the runtime's communicator; sequential
 * on PETSC_COMM_SELF in libloom).  Taken as a loop takes the dat: a
 * pending $LOOM_RENUMBER=1 is applied first and, under MPI, the mesh is
 * partitioned first if no loop did; PETSc is started if no matrix did.
 *
 * Until loom_dat_vec_restore gives it back, the Vec holds the dat's
 * values: read and write them through PETSc (VecGetArray, VecAXPY,
 * VecDot, VecNorm, as KSPSolve's or MatMult's vectors, ...), and nothing
 * else touches the dat: no loop names it, loom_mat_mult, loom_solve and
 * loom_mat_zero_rows_columns refuse it (LOOM_ESTATE), and no renumbering
 * happens (loom_renumber).  Never destroy it, place or replace its array
 * (VecPlaceArray, VecReplaceArray) or change its layout; a Vec duplicated
 * from it (VecDuplicate) is the program's own.  One view of a dat at a
 * time.  NULL after an error was reported (LOOM_EINVAL: not a live dat
 * of doubles; LOOM_ESTATE: viewed already).  libloom_mpi: collective. */
Vec loom_dat_vec(loom_dat d);

/* Gives back d's view (v points at the Vec loom_dat_vec returned): the
 * Vec is destroyed and *v set to NULL; the values written through it stay
 * in the dat.  Under MPI d's halo is then stale (the next loop reading it
 * through a map exchanges it), as after loom_solve.  LOOM_OK, or
 * LOOM_EINVAL when v is not d's view or its array was replaced (the view
 * is then kept).  Views not given back are destroyed by loom_exit.
 * libloom_mpi: collective. */
int loom_dat_vec_restore(loom_dat d, Vec *v);

/* All four are collective calls: macros that record the caller's line, as
 * loom.h's (its "call sites"). */
#ifndef LOOM_NO_CALL_SITES
#define loom_mat_petsc(...) LOOM__CALL_AT_PTR(Mat, loom_mat_petsc(__VA_ARGS__))
#define loom_mat_ksp(...) LOOM__CALL_AT_PTR(KSP, loom_mat_ksp(__VA_ARGS__))
#define loom_dat_vec(...) LOOM__CALL_AT_PTR(Vec, loom_dat_vec(__VA_ARGS__))
#define loom_dat_vec_restore(...) LOOM__CALL_AT(loom_dat_vec_restore(__VA_ARGS__))
#endif

#ifdef __cplusplus
}
#endif

#endif /* LOOM_PETSC_H */
