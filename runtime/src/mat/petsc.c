/*
 * mat/petsc.c — PETSc's lifetime for Loom's matrices, PETSc's errors
 * turned into Loom's, and the ranks as matrices see them (MPI).
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
 * which destroys the views of dats the program did not restore (mat/vec.c;
 * also when the program started PETSc) and calls PetscFinalize — unless PETSc started MPI itself (libloom
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
 * MPI (libloom_mpi): every PETSc object lives on the runtime's own
 * communicator (loomrt_mat_comm: mpi/session.c's duplicate of
 * MPI_COMM_WORLD; PETSC_COMM_SELF in libloom), and when Loom starts PETSc
 * it makes that communicator PETSC_COMM_WORLD first, so that PETSc's own
 * output (-ksp_view, -log_view) speaks for the same ranks.  This file also
 * holds what mat/ needs of mpi/, so that no other file of mat/ names it
 * (each is a no-op, or the one-process answer, in libloom):
 *   - loomrt_mat_agree: the ranks agree on a status and on the step they
 *     are at (mpi/agree.c: a failed rank's notice ends the wait, a rank
 *     that does not come is named after $LOOM_COLLECTIVE_TIMEOUT), which
 *     every collective matrix call
 *     does after its local checks, before its first collective PETSc
 *     call, after each collective step and at its end (mat/mat.c), so that
 *     a failure on one rank, or ranks making different matrix calls (one
 *     loom_mat_get on rank 0 alone, say, while the others solve), is an
 *     error on every rank, not a hang; a PETSc collective that fails on
 *     one rank only may still hang the others inside PETSc: that is not
 *     avoidable from here;
 *   - loomrt_mat_share: a value only one rank has, given to every rank,
 *     with the same agreement (loom_mat_get);
 *   - loomrt_mat_numbering: PETSc's global numbering of a set's local
 *     elements: rank r's owned elements are the contiguous range after
 *     those of ranks < r (a prefix sum of the owned counts), in local
 *     order; each halo element gets its owner's number through the set's
 *     halo plan (mpi/halo.c's loomrt_halo_fill).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hooks.h"
#include "mat/mat.h"
#ifdef LOOM_MPI
#include "mpi/mpi.h"
#endif

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

/* loom_exit's hook: the views of dats go; PETSc ends with the session
 * unless it began MPI (or the program started it). */
static void session_end(void) {
  loomrt_dat_views_end();
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
#ifdef LOOM_MPI
  PETSC_COMM_WORLD = loomrt_mpi_comm(); /* before PetscInitialize (design) */
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
  loomrt_kind_ops(LOOMRT_KIND_SPARSITY, loomrt_sparsity_retire,
                  loomrt_sparsity_release);
  loomrt_kind_ops(LOOMRT_KIND_MAT, loomrt_mat_retire, loomrt_mat_release);
  PetscBool up = PETSC_FALSE;
  PetscInitialized(&up);
  int status = up ? LOOM_OK : petsc_init(call);
  if (status == LOOM_OK)
    status = loomrt_at_session_exit(session_end);
  return status;
}

/* ---- the ranks ------------------------------------------------------------ */

MPI_Comm loomrt_mat_comm(void) {
#ifdef LOOM_MPI
  return loomrt_mpi_comm();
#else
  return PETSC_COMM_SELF;
#endif
}

int loomrt_mat_nranks(void) {
#ifdef LOOM_MPI
  return loomrt_mpi_size();
#else
  return 1;
#endif
}

int loomrt_mat_agree(int status, const char *step) {
#ifdef LOOM_MPI
  return loomrt_mpi_agree(status, step); /* the status, the step, every rank there */
#else
  (void)step;
  return status;
#endif
}

int loomrt_mat_share(double *value, int status, const char *step) {
#ifdef LOOM_MPI
  if (loomrt_mpi_failed())
    return loomrt_mpi_usable(step); /* no collective in a failed session */
  /* the sum of the value (0 on every rank but one) and of the failures */
  double mine[2] = {status == LOOM_OK ? *value : 0.0, status != LOOM_OK};
  double all[2] = {0, 0};
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = loomrt_mpi_check(MPI_Iallreduce(mine, all, 2, MPI_DOUBLE, MPI_SUM,
                                           loomrt_mpi_comm(), &req),
                            "MPI_Iallreduce (%s)", step);
  if (rc == LOOM_OK)
    rc = loomrt_mpi_wait(1, &req, step);
  if (rc != LOOM_OK)
    return status != LOOM_OK ? status : rc;
  if (status != LOOM_OK)
    return status;
  if (all[1] != 0)
    return loom_error_(LOOM_ESTATE, "%s failed on another rank (see its message)",
                       step);
  *value = all[0];
  return LOOM_OK;
#else
  (void)value, (void)step;
  return status;
#endif
}

int loomrt_mat_numbering(loom_set s, PetscInt *num, const char *what) {
#ifdef LOOM_MPI
  if (s->gid) { /* partitioned: owned ranges in rank order, halos from owners */
    int owned = s->owned, first = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    int status = loomrt_mpi_check(MPI_Iexscan(&owned, &first, 1, MPI_INT, MPI_SUM,
                                              loomrt_mpi_comm(), &req),
                                  "%s: MPI_Iexscan", what);
    if (status == LOOM_OK)
      status = loomrt_mpi_wait(1, &req, what);
    if (status != LOOM_OK)
      return status;
    if (loomrt_mpi_rank() == 0)
      first = 0; /* MPI_Exscan leaves rank 0's undefined */
    for (int i = 0; i < s->owned; i++)
      num[i] = (PetscInt)first + i;
    for (int i = s->owned; i < s->size; i++)
      num[i] = -1;
    return loomrt_halo_fill(s, num, sizeof *num, what);
  }
#else
  (void)what;
#endif
  for (int i = 0; i < s->size; i++) /* one process: the storage order */
    num[i] = i;
  return LOOM_OK;
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
