/*
 * loom_petsc.h — the PETSc objects behind Loom's matrices, for programs
 * that need more of PETSc than loom.h's matrix calls give (a matrix-vector
 * product, their own preconditioner, a view of the matrix).  Defined in
 * libloom_petsc (libloom_mpi_petsc) built with PETSc; compile with PETSc's
 * and MPI's flags and link as for loom.h's matrix calls (loom.h,
 * "matrices"): pkg-config loom-petsc (loom-mpi-petsc), CMake
 * Loom::loom_petsc (Loom::loom_mpi_petsc).
 *
 * The objects are the runtime's: never destroy them; loom_exit does.  They
 * are valid until loom_exit (also across a renumbering: the matrix keeps
 * its handle, its pattern and values are rebuilt in the new numbering).
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

/* Both are collective calls: macros that record the caller's line, as
 * loom.h's (its "call sites"). */
#ifndef LOOM_NO_CALL_SITES
#define loom_mat_petsc(...) LOOM__CALL_AT_PTR(Mat, loom_mat_petsc(__VA_ARGS__))
#define loom_mat_ksp(...) LOOM__CALL_AT_PTR(KSP, loom_mat_ksp(__VA_ARGS__))
#endif

#ifdef __cplusplus
}
#endif

#endif /* LOOM_PETSC_H */
