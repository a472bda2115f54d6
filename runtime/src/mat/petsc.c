/*
 * mat/petsc.c — PETSc's lifetime for Loom's matrices, and PETSc's errors
 * turned into Loom's.
 *
 * Design
 * ------
 * PETSc starts lazily, at the first sparsity or matrix of a session
 * (loomrt_petsc_start), unless the program started it itself (then Loom
 * neither starts nor ends it).  PetscInitialize gets the argc and argv
 * that loom_init received (core keeps them), so the KSP options of the
 * command line and of $PETSC_OPTIONS apply.  Before it, Loom sets
 * -no_signal_handler: a crash in a kernel is then reported as without
 * PETSc (and the sanitizers keep their handlers); the command line may
 * still say -no_signal_handler false.
 *
 * The end: loom_exit retires every object first (the matrices' Mat and KSP
 * are destroyed then, newest first), then runs the hook installed here,
 * which calls PetscFinalize — unless PETSc started MPI itself (libloom
 * without MPI: PetscBeganMPI), since MPI cannot be started twice in a
 * process: PETSc then stays up for the next sessions and ends at the
 * process's exit (atexit), as libloom_mpi does with the MPI that loom_init
 * started.  Under libloom_mpi, loom_init started MPI before: PETSc ends
 * with the session, MPI at the process's exit.
 *
 * Core never names these functions (a program without matrices must link
 * without PETSc): loomrt_petsc_start installs the retire and free of
 * sparsities and matrices and the end-of-session hook into core
 * (core/hooks.h) before the first object is registered.
 *
 * Errors: every PETSc call goes through LOOMRT_PETSC (mat/mat.h), which
 * pushes PETSc's return handler for the call (PETSc prints nothing) and
 * reports a failure as a Loom error naming the PETSc function, the object
 * and PETSc's own message (PetscErrorMessage).  PETSc is only ever called
 * from these host-side entry points, never inside a parallel region.
 *
 * Without MPI (libloom), PETSc starts MPI as a singleton; Open MPI would
 * then fork a daemon (orted) for it, slow, and failing at times when
 * several such processes start at once.  Unless a launcher started the
 * process, Loom first sets (where the environment does not)
 * OMPI_MCA_ess_singleton_isolated=1 — one process, no daemon — and
 * OMPI_MCA_orte_create_session_dirs=0, since isolated singletons all use
 * one session directory (job family 0) and race to create and remove it.
 * Nothing matrices need is lost (no MPI_Comm_spawn, no peers); other MPIs
 * ignore the variables.
 *
 * MPI: only one rank for now.  Every object lives on PETSC_COMM_SELF; with
 * more ranks loomrt_petsc_start refuses (the distributed path — parallel
 * COO assembly over the partition's owned rows and halos — is future work).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hooks.h"
#include "mat/mat.h"

static int started = 0;    /* Loom's PetscInitialize is in force */
static int at_exit = 0;    /* petsc_end is registered with atexit */

static void petsc_end(void) {
  if (!started)
    return;
  started = 0;
  PetscErrorCode ierr = PetscFinalize();
  if (ierr) /* the session is over: stderr is all that is left */
    fprintf(stderr, "loom: PetscFinalize failed (PETSc error %d)\n", (int)ierr);
}

/* loom_exit's hook: PETSc ends with the session unless it began MPI. */
static void session_end(void) {
  if (started && !PetscBeganMPI)
    petsc_end();
}

#ifndef LOOM_MPI
/* Open MPI's singleton without a daemon or session directory (design). */
static int singleton_setup(void) {
  if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK"))
    return 0; /* started by mpirun: not a singleton */
  if (setenv("OMPI_MCA_ess_singleton_isolated", "1", 0) != 0)
    return -1;
  return setenv("OMPI_MCA_orte_create_session_dirs", "0", 0);
}
#endif

static int petsc_init(const char *call) {
  int *argc;
  char ***argv;
  loomrt_args(&argc, &argv);
  if (!argc || !argv || !*argv)
    argc = NULL, argv = NULL;
#ifndef LOOM_MPI
  if (singleton_setup() != 0)
    return loom_error_(LOOM_ENOMEM, "%s: out of memory setting the environment",
                       call);
#endif
  PetscErrorCode ierr = PetscOptionsSetValue(NULL, "-no_signal_handler", "true");
  if (!ierr)
    ierr = PetscInitialize(argc, argv, NULL, NULL);
  if (ierr)
    return loom_error_(LOOM_EPETSC, "%s: PetscInitialize failed (PETSc error %d)",
                       call, (int)ierr);
  started = 1;
  if (PetscBeganMPI && !at_exit) {
    if (atexit(petsc_end) != 0)
      return loom_error_(LOOM_EPETSC, "%s: cannot register PetscFinalize at the "
                                      "process's exit", call);
    at_exit = 1;
  }
  return LOOM_OK;
}

int loomrt_petsc_start(const char *call) {
  if (loom_nranks() > 1)
    return loom_error_(LOOM_EINVAL,
                       "%s: matrices under MPI with more than one rank are not "
                       "supported yet (this job has %d ranks)",
                       call, loom_nranks());
  loomrt_kind_ops(LOOMRT_KIND_SPARSITY, loomrt_sparsity_retire,
                  loomrt_sparsity_release);
  loomrt_kind_ops(LOOMRT_KIND_MAT, loomrt_mat_retire, loomrt_mat_release);
  PetscBool up = PETSC_FALSE;
  PetscInitialized(&up);
  int status = up ? LOOM_OK : petsc_init(call);
  if (status == LOOM_OK && started)
    status = loomrt_at_session_exit(session_end);
  return status;
}

/* ---- errors --------------------------------------------------------------- */

void loomrt_petsc_quiet(void) {
  /* if the push fails, PETSc prints its message too: no harm */
  (void)PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
}

int loomrt_petsc_done(PetscErrorCode ierr, const char *fn, const char *what,
                      const char *name) {
  (void)PetscPopErrorHandler();
  if (!ierr)
    return LOOM_OK;
  const char *text = NULL;
  char *specific = NULL;
  if (PetscErrorMessage(ierr, &text, &specific) != 0)
    text = NULL, specific = NULL;
  /* PETSc's message: its first line (the rest is advice on options) */
  char first[512] = "";
  if (specific && specific[0]) {
    size_t n = strcspn(specific, "\n");
    snprintf(first, sizeof first, "%.*s", (int)(n < 500 ? n : 500), specific);
  }
  return loom_error_(ierr == PETSC_ERR_MEM ? LOOM_ENOMEM : LOOM_EPETSC,
                     "%s '%s': %s failed: %s%s%s (PETSc error %d)", what, name, fn,
                     text ? text : "unknown PETSc error", first[0] ? ": " : "",
                     first, (int)ierr);
}
