/*
 * mpi/fail.c — an error on one rank, when the user's handler returns,
 * fails the session on every rank instead of leaving the others waiting
 * (see loom.h, "Errors", and dsl-spec/mpi.md).
 *
 * Design
 * ------
 * With the default handler an error ends the job (MPI_Abort).  A handler
 * that returns lets the failing call return its status on that rank only;
 * the other ranks go on into the next exchange, reduction, fetch or
 * partitioning step and would wait there forever for a rank that is not
 * coming.  So:
 *   - the failing rank marks the session failed and posts a notice (its
 *     message) to every other rank on a communicator of its own, without
 *     waiting for it to be received;
 *   - every wait of the runtime (loomrt_mpi_wait: halo ends, reduction
 *     ends, the agreements of collective steps, fetch's gather) tests its
 *     requests and, while they are not complete, probes for a notice; a
 *     notice fails the wait, and the session, on that rank too, with a
 *     message naming the failed rank and its message;
 *   - in a failed session every call that would communicate fails at
 *     once (loomrt_mpi_usable), so no rank enters a collective again;
 *     loom_exit frees what no pending request may still touch, leaves the
 *     rest (and the communicators) to the process's end.
 * A rank blocked in a library's collective (METIS, PT-Scotch) is not
 * reached; the partitioning steps agree on their status before each one.
 *
 * With the default handler an error one rank finds alone ends the job the
 * same way, so that every rank stops within seconds with the one message
 * of the rank that failed and no MPI_Abort:
 *   - the failing rank prints its message, posts its notice, and waits for
 *     every other rank to say it stopped (loomrt_mpi_end_together), at most
 *     END_WAIT seconds (less when LOOM_COLLECTIVE_TIMEOUT is shorter); a
 *     notice from a rank that failed too counts as its word;
 *   - a rank whose wait meets the notice reports it to its handler; the
 *     default one says it stopped, silently (loomrt_mpi_stop_quietly);
 *   - then each finalises MPI and exits with status 1.  A rank that does
 *     not answer in time (busy outside the runtime, blocked in a library's
 *     collective) is named, and the job aborted as before.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"

enum { NOTICE_TAG = 7001, STOPPED_TAG = 7002 };

static MPI_Comm notices = MPI_COMM_NULL; /* the notices' own communicator */
static int failed;                       /* the session failed on some rank */
static int failed_rank = -1;             /* the rank it failed on first */
static char failed_message[4096];
static char *sent;                       /* the notice this rank sent */
static MPI_Request *sent_req;
static int reporting;                    /* reporting a peer's failure */

int loomrt_mpi_fail_init(void) {
  failed = 0;
  failed_rank = -1;
  failed_message[0] = '\0';
  return loomrt_mpi_check(MPI_Comm_dup(loomrt_mpi_comm(), &notices),
                          "loom_init: MPI_Comm_dup (error notices)");
}

int loomrt_mpi_failed(void) { return failed; }

void loomrt_mpi_fail_exit(void) {
  if (!failed && notices != MPI_COMM_NULL)
    MPI_Comm_free(&notices); /* collective: only when no rank failed */
  notices = MPI_COMM_NULL;
  /* a failed session's notice may still be in flight: its buffer and
   * requests stay for the process's end */
  if (!failed) {
    free(sent);
    free(sent_req);
  }
  sent = NULL;
  sent_req = NULL;
}

static void remember(int rank, const char *message) {
  failed = 1;
  failed_rank = rank;
  snprintf(failed_message, sizeof failed_message, "%s", message);
}

/* Called by loom_error_ after the user's handler returned. */
void loomrt_mpi_error_raised(const char *message) {
  int n = loomrt_mpi_size(), me = loomrt_mpi_rank();
  if (reporting || failed || n < 2 || notices == MPI_COMM_NULL)
    return;
  remember(me, message);
  size_t len = strlen(message) + 1;
  sent = malloc(len);
  sent_req = malloc((size_t)n * sizeof *sent_req);
  if (!sent || !sent_req)
    return; /* the others learn of it at the next agreement, if any */
  memcpy(sent, message, len);
  for (int r = 0; r < n; r++)
    if (r == me || MPI_Isend(sent, (int)len, MPI_CHAR, r, NOTICE_TAG, notices,
                             &sent_req[r]) != MPI_SUCCESS)
      sent_req[r] = MPI_REQUEST_NULL;
}

enum { END_WAIT = 10 }; /* seconds the failing rank waits for the others */

/* The ranks but this one that have not stopped, "1, 3" (at most 12). */
static void not_stopped(char *buf, size_t size, const MPI_Request *req, int n, int me) {
  size_t len = 0;
  int listed = 0;
  buf[0] = '\0';
  for (int r = 0; r < n && len + 16 < size && listed < 12; r++)
    if (r != me && req[r] != MPI_REQUEST_NULL)
      len += (size_t)snprintf(buf + len, size - len, "%s%d", listed++ ? ", " : "", r);
}

/* A notice from rank r while waiting for the others: r failed too, and
 * stops as this rank does. */
static void stopped_by_notice(MPI_Request *req, int n) {
  int flag = 0;
  MPI_Status st;
  while (MPI_Iprobe(MPI_ANY_SOURCE, NOTICE_TAG, notices, &flag, &st) == MPI_SUCCESS && flag) {
    int len = 0;
    MPI_Get_count(&st, MPI_CHAR, &len);
    char *msg = malloc((size_t)len + 1);
    if (!msg || MPI_Recv(msg, len, MPI_CHAR, st.MPI_SOURCE, NOTICE_TAG, notices,
                         MPI_STATUS_IGNORE) != MPI_SUCCESS) {
      free(msg);
      return;
    }
    free(msg);
    if (st.MPI_SOURCE < n && req[st.MPI_SOURCE] != MPI_REQUEST_NULL) {
      MPI_Cancel(&req[st.MPI_SOURCE]);
      MPI_Request_free(&req[st.MPI_SOURCE]);
    }
  }
}

int loomrt_mpi_end_together(const char *message) {
  int n = loomrt_mpi_size(), me = loomrt_mpi_rank();
  if (n < 2 || notices == MPI_COMM_NULL)
    return n < 2;
  loomrt_mpi_error_raised(message); /* the notice to every other rank */
  MPI_Request *req = malloc((size_t)n * sizeof *req);
  int *word = malloc((size_t)n * sizeof *word);
  if (!req || !word || !sent_req)
    return 0;
  for (int r = 0; r < n; r++)
    if (r == me || MPI_Irecv(&word[r], 1, MPI_INT, r, STOPPED_TAG, notices, &req[r]) !=
                       MPI_SUCCESS)
      req[r] = MPI_REQUEST_NULL;
  double t = loomrt_mpi_timeout(), wait = t > 0 && t < END_WAIT ? t : END_WAIT;
  double deadline = MPI_Wtime() + wait;
  int done = 0;
  while (!done && MPI_Wtime() < deadline) {
    stopped_by_notice(req, n);
    if (MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      return 0;
    if (!done)
      sched_yield();
  }
  if (!done) {
    char who[128];
    not_stopped(who, sizeof who, req, n, me);
    fprintf(stderr, "loom: rank %d: rank(s) %s did not stop within %.0f s: aborting\n", me,
            who, wait);
    return 0;
  }
  MPI_Waitall(n, sent_req, MPI_STATUSES_IGNORE); /* every notice was received */
  return 1;
}

void loomrt_mpi_stop_quietly(void) {
  int stopped = 1;
  if (reporting && failed_rank >= 0 && failed_rank != loomrt_mpi_rank())
    MPI_Send(&stopped, 1, MPI_INT, failed_rank, STOPPED_TAG, notices);
}

int loomrt_mpi_reporting_peer(void) {
  return reporting && failed_rank >= 0 && failed_rank != loomrt_mpi_rank();
}

/* A failure already known: report it for `call`. */
static int report(const char *call) {
  reporting = 1;
  int status = failed_rank == loomrt_mpi_rank()
                   ? loom_error_(LOOM_ESTATE, "%s: the session failed earlier on this rank: %s",
                                 call, failed_message)
                   : loom_error_(LOOM_ESTATE, "%s: rank %d failed: %s", call, failed_rank,
                                 failed_message);
  reporting = 0;
  return status;
}

int loomrt_mpi_usable(const char *call) { return failed ? report(call) : LOOM_OK; }

/* A notice from another rank, if one arrived. */
static int notice_arrived(void) {
  int flag = 0;
  MPI_Status st;
  if (notices == MPI_COMM_NULL ||
      MPI_Iprobe(MPI_ANY_SOURCE, NOTICE_TAG, notices, &flag, &st) != MPI_SUCCESS || !flag)
    return 0;
  int len = 0;
  MPI_Get_count(&st, MPI_CHAR, &len);
  char *msg = malloc((size_t)len + 1);
  if (msg && MPI_Recv(msg, len, MPI_CHAR, st.MPI_SOURCE, NOTICE_TAG, notices,
                      MPI_STATUS_IGNORE) == MPI_SUCCESS) {
    msg[len > 0 ? len - 1 : 0] = '\0';
    remember(st.MPI_SOURCE, msg);
  } else {
    remember(st.MPI_SOURCE, "(its message could not be received)");
  }
  free(msg);
  return 1;
}

int loomrt_mpi_wait(int n, MPI_Request *req, const char *what) {
  return loomrt_mpi_wait_until(n, req, what, -1.0);
}

int loomrt_mpi_wait_until(int n, MPI_Request *req, const char *what, double deadline) {
  if (failed)
    return report(what);
  for (long spin = 0;; spin++) {
    int done = 0;
    int rc = MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS)
      return loomrt_mpi_check(rc, "%s", what);
    if (done)
      return LOOM_OK;
    if (notice_arrived())
      return report(what);
    if (deadline >= 0 && (spin & 1023) == 0 && MPI_Wtime() > deadline)
      return LOOM_ETIMEOUT_;
    sched_yield();
  }
}
