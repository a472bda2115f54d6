/*
 * mpi/agree.c — the ranks agree at every collective step: on the outcome,
 * on the step they are at, and that they all came (see mpi.h).
 *
 * Design
 * ------
 * A collective call of the API (a declaration under MPI, partitioning,
 * loom_dat_fetch, HDF5 I/O, checkpoints, matrices, loom_exit) starts with
 * an agreement and agrees again after each of its collective steps, before
 * any other communication of the step.  An agreement is one
 * MPI_Iallreduce (MAX) of the rank's status and of its step's key (a hash
 * of the step's name) and the key negated: equal keys on every rank mean
 * one step.  So a rank that calls loom_dat_fetch while the others call
 * loom_exit meets them in this reduction, and every rank learns that the
 * ranks are not making the same call, instead of entering different MPI
 * collectives and waiting forever.
 *
 * A rank that makes no collective call at all would still leave the
 * others waiting.  So beside the reduction each rank sends rank 0 its
 * arrival (its count of agreements and its step's name) on a communicator
 * of its own, and every wait has a deadline, $LOOM_COLLECTIVE_TIMEOUT
 * seconds (default 60; 0: wait forever): rank 0, when it passes, names the
 * ranks whose arrival it has not received and fails the session (the
 * message reaches every rank through fail.c's notices, or the job ends
 * with the default handler); the other ranks wait a little longer for
 * that message and otherwise report rank 0 as missing.  When the steps
 * differ, rank 0 says where each rank is, from the arrivals.  Arrivals are
 * received at every agreement (one Irecv per rank on rank 0), so none is
 * left over in a session that succeeds.
 *
 * A wait that was long for good reasons (one rank reading a large mesh
 * before a collective the others already reached) needs a larger
 * $LOOM_COLLECTIVE_TIMEOUT; the default fits meshes read in well under a
 * minute.  Agreements happen at collective calls only, not in loops.
 *
 * Ranks at different steps all learn it from the same reduction, every
 * request of the agreement complete: with the default handler the job
 * then ends cleanly (loomrt_mpi_agreed_error: rank 0 prints the message,
 * which says where each rank is, every rank finalises MPI and exits 1)
 * rather than through MPI_Abort.
 *
 * Where: the messages name the user's source line of each call.  The
 * collective calls of loom.h are macros of their own names that record
 * __FILE__ and __LINE__ while the call runs (loom.h, "call sites";
 * core/site.c): a macro, because only the caller's own text knows its
 * line, and loomc's output keeps the user's text under #line directives,
 * so a translated program names the user's file too; loomc parses with
 * the macros off (LOOM_NO_CALL_SITES), so it recognises the calls as
 * before.  The location travels in the arrival, beside the step's name,
 * and stays out of the key: the same call made from different lines on
 * different ranks (`if (rank == 0) fetch ... else fetch ...`) is one step
 * and agrees.  Rank 0's own location prefixes its messages ("prog.c:118:
 * loom_dat_fetch: the ranks are not all making this call (rank 0 is at
 * it; rank 1 is at loom_exit, prog.c:124)"); a rank that did not arrive
 * sent nothing, so a deadline's message has rank 0's location only; the
 * other ranks prefix theirs with their own.  An agreement a loop starts
 * (the first loop's partitioning) has the loop's directive line (core/
 * site.c); one that neither started (a call through a function pointer)
 * has no location, and its messages read as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"

enum { ARRIVAL_TAG = 7002, STEP_MAX = 160, WHERE_MAX = 200, GRACE_SECONDS = 3 };

typedef struct arrival {
  long long count; /* the sender's agreements so far, this one included */
  char step[STEP_MAX];
  char where[WHERE_MAX]; /* the sender's call site, "FILE:LINE", or "" */
} arrival;

static MPI_Comm arrivals = MPI_COMM_NULL;
static long long count; /* agreements this session */

int loomrt_mpi_agree_init(void) {
  count = 0;
  return loomrt_mpi_check(MPI_Comm_dup(loomrt_mpi_comm(), &arrivals),
                          "loom_init: MPI_Comm_dup (arrivals at collective calls)");
}

void loomrt_mpi_agree_exit(int failed) {
  if (arrivals != MPI_COMM_NULL && !failed) /* collective: not after a failure */
    MPI_Comm_free(&arrivals);
  arrivals = MPI_COMM_NULL;
}

/* A step's key: FNV-1a of its name, in [0, 2^62). */
static long long step_key(const char *step) {
  unsigned long long h = 1469598103934665603ULL;
  for (const unsigned char *p = (const unsigned char *)step; *p; p++)
    h = (h ^ *p) * 1099511628211ULL;
  return (long long)(h >> 2);
}

/* $LOOM_COLLECTIVE_TIMEOUT: seconds (> 0), or 0 for no deadline. */
double loomrt_mpi_timeout(void) {
  const char *s = getenv("LOOM_COLLECTIVE_TIMEOUT");
  char *end = NULL;
  double t = s && *s ? strtod(s, &end) : 60.0;
  return s && *s && (*end || t < 0) ? 60.0 : t;
}

double loomrt_mpi_deadline(void) {
  double t = loomrt_mpi_timeout();
  return t > 0 ? MPI_Wtime() + t : -1.0;
}

/* "1, 3 and 4" for the ranks whose flag is set (at most 12 named). */
static const char *rank_list(char *buf, size_t size, const int *flag, int n) {
  size_t len = 0;
  int listed = 0, total = 0;
  buf[0] = '\0';
  for (int r = 0; r < n; r++)
    total += flag[r] != 0;
  for (int r = 0; r < n && len < size; r++) {
    if (!flag[r])
      continue;
    if (listed == 12) {
      snprintf(buf + len, size - len, " and %d more", total - listed);
      break;
    }
    const char *sep = !listed ? "" : listed + 1 == total ? " and " : ", ";
    len += (size_t)snprintf(buf + len, size - len, "%s%d", sep, r);
    listed++;
  }
  return buf;
}

/* ": " after a call site, nothing after none: messages read "FILE:LINE:
 * STEP: ..." or "STEP: ...". */
static const char *sep(const char *where) { return *where ? ": " : ""; }

/* Rank 0, all arrived but at different steps: where each rank is (each
 * rank's step and call site; rank 0's site prefixes the message). */
static int report_steps(const char *step, const char *at, const arrival *in, int n) {
  char where[2048];
  size_t len = 0;
  for (int r = 1; r < n && len < sizeof where; r++)
    if (strcmp(in[r].step, step) != 0)
      len += (size_t)snprintf(where + len, sizeof where - len, "%srank %d is at %s%s%s",
                              len ? "; " : "", r, in[r].step, *in[r].where ? ", " : "",
                              in[r].where);
  return loom_error_(LOOM_ESTATE,
                     "%s%s%s: the ranks are not all making this call (rank 0 is at it; %s): "
                     "collective calls are made by every rank, in the same order "
                     "(dsl-spec/mpi.md)", at, sep(at), step,
                     len ? where : "another rank differs");
}

/* Rank 0 at the deadline: the ranks whose arrival did not come (where
 * they are is unknown: rank 0's call site prefixes the message). */
static int report_missing(const char *step, const char *at, MPI_Request *req, int n,
                          double t) {
  int *missing = calloc((size_t)n + 1, sizeof *missing);
  char who[256] = "?";
  for (int r = 1; missing && r < n; r++) {
    int done = 0;
    MPI_Test(&req[r], &done, MPI_STATUS_IGNORE);
    missing[r] = !done;
  }
  if (missing)
    rank_list(who, sizeof who, missing, n);
  free(missing);
  return loom_error_(LOOM_ESTATE,
                     "%s%s%s: rank(s) %s did not make this call within %g s: a collective "
                     "call is made by every rank (dsl-spec/mpi.md; "
                     "LOOM_COLLECTIVE_TIMEOUT sets the wait)", at, sep(at), step, who, t);
}

/* What a wait of the agreement is, for the messages of a failed session:
 * "FILE:LINE: agreeing on STEP". */
static const char *agreeing(char *what, size_t size, const char *step, const char *at) {
  snprintf(what, size, "%s%sagreeing on %s", at, sep(at), step);
  return what;
}

/* Another rank at the deadline: rank 0's verdict, or rank 0 itself is
 * missing. */
static int report_late(const char *step, const char *at, MPI_Request *req, int nreq,
                       double t) {
  char what[STEP_MAX + WHERE_MAX + 40];
  int rc = loomrt_mpi_wait_until(nreq, req, agreeing(what, sizeof what, step, at),
                                 MPI_Wtime() + GRACE_SECONDS);
  if (rc != LOOM_ETIMEOUT_)
    return rc; /* it completed late, or rank 0's verdict came */
  return loom_error_(LOOM_ESTATE,
                     "%s%s%s: not every rank made this call within %g s (rank 0, which "
                     "names them, did not answer): a collective call is made by every "
                     "rank (dsl-spec/mpi.md; LOOM_COLLECTIVE_TIMEOUT sets the wait)",
                     at, sep(at), step, t);
}

/* The reduction and the arrivals (this rank's step and call site `at`),
 * waited for until the deadline. */
static int exchange(const char *step, const char *at, long long *mine, long long *all,
                    arrival *in, MPI_Request *req, int n) {
  int me = loomrt_mpi_rank(), nreq = 1;
  arrival out = {count, "", ""};
  snprintf(out.step, sizeof out.step, "%s", step);
  snprintf(out.where, sizeof out.where, "%s", at);
  int rc = loomrt_mpi_check(MPI_Iallreduce(mine, all, 3, MPI_LONG_LONG, MPI_MAX,
                                           loomrt_mpi_comm(), &req[0]),
                            "MPI_Iallreduce (agreeing on %s)", step);
  if (rc == LOOM_OK && me != 0)
    rc = loomrt_mpi_check(MPI_Isend(&out, (int)sizeof out, MPI_BYTE, 0, ARRIVAL_TAG,
                                    arrivals, &req[nreq++]),
                          "MPI_Isend (arriving at %s)", step);
  for (int r = 1; rc == LOOM_OK && me == 0 && r < n; r++, nreq++)
    rc = loomrt_mpi_check(MPI_Irecv(&in[r], (int)sizeof in[r], MPI_BYTE, r, ARRIVAL_TAG,
                                    arrivals, &req[r]),
                          "MPI_Irecv (rank %d arriving at %s)", r, step);
  if (rc != LOOM_OK)
    return rc;
  double t = loomrt_mpi_timeout();
  char what[STEP_MAX + WHERE_MAX + 40];
  rc = loomrt_mpi_wait_until(nreq, req, agreeing(what, sizeof what, step, at),
                             loomrt_mpi_deadline());
  if (rc != LOOM_ETIMEOUT_)
    return rc;
  return me == 0 ? report_missing(step, at, req, n, t)
                 : report_late(step, at, req, nreq, t);
}

int loomrt_mpi_agree(int status, const char *step) {
  if (loomrt_mpi_failed())
    return loomrt_mpi_usable(step); /* no collective in a failed session */
  int n = loomrt_mpi_size();
  char at[WHERE_MAX]; /* this rank's call site, or "" */
  loomrt_call_site(at, sizeof at);
  count++;
  long long key = step_key(step), mine[3] = {status, key, -key}, all[3] = {0, 0, 0};
  arrival *in = loomrt_mpi_rank() == 0 ? calloc((size_t)n, sizeof *in) : NULL;
  MPI_Request *req = malloc(((size_t)n + 1) * sizeof *req);
  int rc = req && (in || loomrt_mpi_rank() != 0) ? LOOM_OK : LOOM_ENOMEM;
  if (rc != LOOM_OK)
    rc = loom_error_(rc, "out of memory agreeing on %s", step);
  else
    rc = exchange(step, at, mine, all, in, req, n);
  /* ranks at different steps: every rank learns it here, at once */
  loomrt_mpi_agreed_error(rc == LOOM_OK && status == LOOM_OK && all[1] != -all[2] &&
                          all[0] == LOOM_OK);
  if (rc == LOOM_OK && status == LOOM_OK && all[1] != -all[2])
    rc = in ? report_steps(step, at, in, n)
            : loom_error_(LOOM_ESTATE, "%s%s%s: the ranks are not all making this call "
                          "(rank 0's message says where each rank is): collective calls "
                          "are made by every rank, in the same order (dsl-spec/mpi.md)",
                          at, sep(at), step);
  else if (rc == LOOM_OK && status == LOOM_OK && all[0] != LOOM_OK)
    rc = loom_error_(LOOM_ESTATE, "%s%s%s failed on another rank (see its message)", at,
                     sep(at), step);
  else if (rc == LOOM_OK)
    rc = status;
  loomrt_mpi_agreed_error(0);
  /* after a deadline the requests may still be pending: left to the
   * process's end with the failed session, as fail.c's are */
  if (!loomrt_mpi_failed()) {
    free(in);
    free(req);
  }
  return status != LOOM_OK ? status : rc;
}
