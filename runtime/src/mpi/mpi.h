/*
 * mpi/mpi.h — the MPI session, private to libloom_mpi: the runtime's
 * communicator, MPI error checks, agreeing on a status across ranks, a
 * failed session's waits, and the all-to-all exchanges by rank that
 * partitioning and the HDF5 I/O share.  Only compiled with -DLOOM_MPI
 * (mpicc).
 *
 * Included by every file of mpi/, through io/hdf5.h by io/, and by
 * mat/petsc.c (under LOOM_MPI: the communicator, agreement, halo rows).
 * Partitioning's own internals (the mesh, owners, migration, halo plans,
 * distributed meshes) are in mpi/partition.h; the calls core/ makes into
 * mpi/ (loom_init's and loom_exit's, fetch, the abort path) are declared
 * in core/hooks.h.
 *
 * Design
 * ------
 * Failures inside a collective step are agreed on (loomrt_mpi_agree) so
 * that every rank returns the error instead of some waiting forever, when
 * a user's error handler returns; the default handler aborts the job.  A
 * rank that fails outside one (its loop's checks, say) and so never comes
 * tells the others, whose waits give up (fail.c).
 */
#ifndef LOOM_MPI_MPI_H
#define LOOM_MPI_MPI_H

#include <mpi.h>

#include "core/core.h"

/* ---- session (session.c) ----------------------------------------------- */

MPI_Comm loomrt_mpi_comm(void); /* the runtime's duplicate of WORLD */
int loomrt_mpi_rank(void);
int loomrt_mpi_size(void);

/* LOOM_OK when rc is MPI_SUCCESS; otherwise reports LOOM_ECOMM with the
 * formatted context ("MPI_Isend of dat 'q' to rank 2") and MPI's message. */
int loomrt_mpi_check(int rc, const char *fmt, ...) LOOMRT_PRINTF(2, 3);

/* ---- agreeing at collective steps (agree.c) ----------------------------- */

/* Agrees on a status and on the step across ranks (collective, at the
 * start of every collective call and after its collective steps):
 * LOOM_OK when every rank passes LOOM_OK at the same step (its name);
 * otherwise this rank's status, or LOOM_ESTATE reported as "STEP failed
 * on another rank", or, when the ranks are at different steps, as "STEP:
 * the ranks are not all making this call" (rank 0 lists each rank's
 * step and call site), or, when some rank does not arrive within
 * $LOOM_COLLECTIVE_TIMEOUT seconds, naming the ranks that did not.  The
 * messages start with this rank's call site, "FILE:LINE: ", when a
 * wrapped API call is in progress (loom.h, "call sites"). */
int loomrt_mpi_agree(int status, const char *step);
int loomrt_mpi_agree_init(void); /* loom_init: the arrivals' communicator */
/* $LOOM_COLLECTIVE_TIMEOUT (seconds, default 60; 0: none), and the
 * MPI_Wtime() deadline of a wait starting now (negative: none): how long
 * a rank waits for others at an agreement, a halo exchange or a
 * reduction before it names those that did not come. */
double loomrt_mpi_timeout(void);
double loomrt_mpi_deadline(void);
/* on: the error about to be reported is known to every rank at once (an
 * agreement's outcome), so the default handler ends the job cleanly, rank
 * 0 printing the one message (session.c); off again once it is reported
 * (a handler that returns leaves the session going). */
void loomrt_mpi_agreed_error(int on);
void loomrt_mpi_agree_exit(int failed);

/* ---- a failed session (fail.c) ----------------------------------------- */

int loomrt_mpi_fail_init(void); /* loom_init: the notices' communicator */
void loomrt_mpi_fail_exit(void);
int loomrt_mpi_failed(void);    /* the session failed on some rank */
/* The default handler's ends (fail.c): whether the error being handled
 * reports another rank's failure; that rank told it stopped; and, on the
 * rank that failed, its notice posted and every other rank's word that it
 * stopped awaited (a few seconds at most): 1 when all stopped (finalise
 * MPI and exit), 0 otherwise (abort; the ranks that did not are named). */
int loomrt_mpi_reporting_peer(void);
void loomrt_mpi_stop_quietly(void);
int loomrt_mpi_end_together(const char *message);
/* LOOM_OK, or, in a failed session, LOOM_ESTATE reported for `call`
 * (naming the rank that failed and its message). */
int loomrt_mpi_usable(const char *call);
/* MPI_Waitall of n requests that gives up, failing the session, when
 * another rank's failure notice arrives first (or the session failed). */
int loomrt_mpi_wait(int n, MPI_Request *req, const char *what);
/* The same, giving up at MPI_Wtime() `deadline` (negative: never) with
 * LOOM_ETIMEOUT_, nothing reported and the requests left pending. */
enum { LOOM_ETIMEOUT_ = -100 };
int loomrt_mpi_wait_until(int n, MPI_Request *req, const char *what, double deadline);

/* ---- halo rows of an array (halo.c; used by mat/petsc.c) --------------- */

/* Blocking halo exchange of an array that is not a dat (collective): rows
 * (set->size rows of row_bytes) get, at every halo element, the row its
 * owner holds, along the set's halo plan (a partitioned set).  `what`
 * names the caller in messages.  Its tag is none of the dats' exchanges',
 * so those may be in flight meanwhile.  A failure leaves the program's
 * communication (loomrt_leave: the peers waiting for this rank's messages
 * are told). */
int loomrt_halo_fill(loom_set set, void *rows, size_t row_bytes,
                     const char *what);

/* ---- exchanges by rank (dist.c; used by io/hdf5.c too) ----------------- */

/* Variable-size all-to-all (collective): scount[q] items of `size` bytes
 * for rank q, packed by rank in sbuf; *rbuf (loomrt_alloc'ed as start-up
 * work, freed with loomrt_free) receives rcount[q] from each rank q, by
 * rank; *rtotal their sum. */
int loomrt_dist_exchange(const void *sbuf, const int *scount, size_t size,
                         void **rbuf, int *rcount, int *rtotal,
                         const char *what);
/* Stable counting sort of n items by destination rank (P of them):
 * order[k] is the k-th item to send, count[q] how many go to rank q. */
void loomrt_dist_by_rank(const int *dest, int n, int P, int *count,
                         int *order);
/* Rows of `row` bytes held in slices (rank r holds [lo[r], lo[r + 1])):
 * out row i = value row gid[i] - lo[holder] of the holder of gid[i]
 * (collective). */
int loomrt_dist_lookup_rows(const int *lo, const void *value, size_t row,
                            const int *gid, int n, void *out, const char *what);

/* ---- the distribution's operations (core/dist.h: loomrt_distribution) -------- */

/* loom_init's and loom_exit's steps (session.c): MPI started; the ranks
 * agree that they all leave (agree.c), before any collective of the end;
 * halo and partition state freed, then MPI_Finalize. */
int loomrt_mpi_init(int *argc, char ***argv);
int loomrt_mpi_exit_agree(void);
void loomrt_mpi_exit(void);
/* The default error handler's end under MPI: prints "loom: rank R: error:
 * MESSAGE" and calls MPI_Abort (exit(1) when MPI is not running;
 * session.c). */
void loomrt_mpi_abort(const char *message);
/* loom_dat_fetch of a partitioned dat: gathers it on every rank
 * (halo.c). */
int loomrt_mpi_fetch(loom_dat dat, void *buf, size_t bytes);
/* LOOM_OK when `bytes` at data are the same on every rank (collective);
 * otherwise LOOM_EMISMATCH on every rank, naming constant `name`
 * (session.c). */
int loomrt_mpi_same(const void *data, size_t bytes, int dim, const char *name);
/* This rank leaves the program's communication after the error `message`
 * (fail.c): the session fails, the other ranks are told. */
void loomrt_mpi_error_raised(const char *message);
/* A slice declaration's status agreed over the ranks, and the slices of
 * set `name` checked to tile [0, gsize) in rank order (collective;
 * dist.c). */
int loomrt_slice_check(int status, int gsize, int offset, int count,
                       const char *name);

#endif /* LOOM_MPI_MPI_H */
