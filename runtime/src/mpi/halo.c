/*
 * mpi/halo.c — halo exchanges with dirty bits, and loom_dat_fetch, on a
 * partitioned mesh (step 3 of partition.h).
 *
 * Design
 * ------
 * A dat's halo is its rows at the set's executed and non-executed halo
 * elements.  loom__dat_dirty marks it stale; loom__halo_begin on a stale
 * dat posts one MPI_Irecv per neighbour that sends to this rank and one
 * MPI_Isend per neighbour that receives from it (the set's halo plan),
 * after packing the owned rows into the send buffer; loom__halo_end waits
 * for all of them, unpacks the receive buffer into the halo rows and marks
 * the dat clean.  On a clean dat both do nothing (no message): that is the
 * dirty bit's whole point, counted by loom__halo_messages.  An end without
 * a begin makes a stale halo current on the spot (no overlap; counted by
 * loom__halo_unscheduled), so a loop always reads a current halo.
 *
 * Per dat, an exchange record holds the send and receive buffers (sized
 * once, from the plan, at the first exchange, and reused), the requests,
 * the message tag (the record's number, so several dats can be in flight
 * at once) and whether an exchange is in flight.  Records are found by a
 * linear search (a program has tens of dats) and freed by loom_exit.
 *
 * loom_dat_fetch: MPI_Allgatherv of every rank's owned rows (a contiguous
 * datatype of one row), then each row is stored at its declared index.
 *
 * loomrt_halo_fill: the same exchange, blocking, for an array of the
 * runtime's own that is no dat (mat/petsc.c: PETSc's global number of
 * every halo node, from its owner), with buffers of its own and a tag
 * outside the dats' range, so that it never meets a dat's exchange in
 * flight.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

typedef struct exchange {
  loom_dat dat;
  char *sendbuf, *recvbuf;
  MPI_Request *req; /* nreq = the plan's nsend + nrecv */
  int nreq;         /* kept here: loom_exit frees the dats before this */
  int tag;
  int in_flight; /* between begin and end */
  int depth;     /* further begins while in flight: one dat under two
                    handles loomc could not prove distinct (each handle
                    has its begin and end; the first end completes) */
  int written;   /* marked dirty while in flight */
  int active;    /* messages were posted by begin */
  long begins;   /* for LOOM_DIAG=1: loom__halo_begin calls, */
  long done;     /* exchanges that sent anything, */
  long now;      /* of those, exchanged in a halo end (no begin) */
  struct exchange *next;
} exchange;

static exchange *exchanges = NULL;
static int nexchanges = 0;
static long messages = 0;
static long ended = 0;     /* exchanges ended that sent anything */
static long unscheduled = 0; /* of those, exchanged in a halo end (no begin) */
static double waited = 0;  /* seconds spent in MPI_Waitall of halo ends */

static int sync_exchanges(void);

/* Under LOOM_DIAG=1, at exit: what this rank's halo ends cost, and per
 * dat, how often its exchange was begun and how often it had anything to
 * send (a clean halo sends nothing). */
static void report_waits(void) {
  if (!loomrt_diag() || (!ended && !exchanges))
    return;
  fprintf(stderr, "loom: rank %d: halo: %ld exchanges (%ld without a scheduled begin), "
          "%ld messages, %.3f s waiting %s\n",
          loomrt_mpi_rank(), ended, unscheduled, messages, waited,
          sync_exchanges() ? "for them in halo begins (LOOM_HALO_SYNC=1: no overlap)"
                           : "in halo ends");
  for (const exchange *x = exchanges; x; x = x->next)
    fprintf(stderr, "loom: rank %d: halo of dat '%s': %ld begun, %ld exchanged (%ld "
            "without a scheduled begin)\n", loomrt_mpi_rank(), x->dat->name, x->begins,
            x->done, x->now);
  fflush(stderr);
}

double loom__halo_wait(void) { return waited; }

void loomrt_halo_state_free(void) {
  report_waits();
  ended = 0;
  unscheduled = 0;
  waited = 0;
  if (loomrt_mpi_failed()) {
    /* a failed session: messages may still arrive into these buffers, so
     * they are left to the process's end */
    exchanges = NULL;
    return;
  }
  while (exchanges) {
    exchange *x = exchanges;
    exchanges = x->next;
    if (x->in_flight && x->active) /* never ended: its buffers are MPI's */
      MPI_Waitall(x->nreq, x->req, MPI_STATUSES_IGNORE);
    loomrt_free(x->sendbuf);
    loomrt_free(x->recvbuf);
    loomrt_free(x->req);
    loomrt_free(x);
  }
  nexchanges = 0;
  messages = 0;
}

long loom__halo_messages(void) { return messages; }


void loom__dat_dirty(loom_dat dat) {
  if (loomrt_dat_usable(dat, "loom__dat_dirty") != LOOM_OK)
    return;
  dat->halo_dirty = 1;
  for (exchange *x = exchanges; x; x = x->next)
    if (x->dat == dat && x->in_flight)
      x->written = 1;
}

int loom__dat_is_dirty(loom_dat dat) {
  return loomrt_dat_usable(dat, "loom__dat_is_dirty") == LOOM_OK ? dat->halo_dirty : -1;
}

/* The exchange record of a dat, created (with its buffers) if needed. */
static exchange *exchange_of(loom_dat dat, const loomrt_halo_plan *p) {
  for (exchange *x = exchanges; x; x = x->next)
    if (x->dat == dat)
      return x;
  size_t row = (size_t)dat->dim * dat->elem_size;
  size_t nsend = (size_t)p->send_start[p->nsend];
  size_t nrecv = (size_t)p->recv_start[p->nrecv];
  exchange *x = loomrt_calloc(LOOM_MEM_HALOS, 1, sizeof *x);
  if (x) {
    x->sendbuf = loomrt_alloc(LOOM_MEM_HALOS, nsend * row + 1);
    x->recvbuf = loomrt_alloc(LOOM_MEM_HALOS, nrecv * row + 1);
    x->req = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)p->nsend + (size_t)p->nrecv + 1) *
                    sizeof *x->req);
  }
  if (!x || !x->sendbuf || !x->recvbuf || !x->req) {
    if (x) {
      loomrt_free(x->sendbuf);
      loomrt_free(x->recvbuf);
      loomrt_free(x->req);
    }
    loomrt_free(x);
    loom_error_(LOOM_ENOMEM, "dat '%s': out of memory for halo buffers",
                dat->name);
    return NULL;
  }
  x->dat = dat;
  x->nreq = p->nsend + p->nrecv;
  x->tag = 1 + nexchanges++ % 30000; /* MPI guarantees tags up to 32767 */
  x->next = exchanges;
  exchanges = x;
  return x;
}

static void pack(const loomrt_halo_plan *p, const loom_dat dat, char *buf) {
  size_t row = (size_t)dat->dim * dat->elem_size;
  const char *v = dat->values;
  for (int i = 0; i < p->send_start[p->nsend]; i++)
    memcpy(buf + (size_t)i * row, v + (size_t)p->send_idx[i] * row, row);
}

static void unpack(const loomrt_halo_plan *p, loom_dat dat, const char *buf) {
  size_t row = (size_t)dat->dim * dat->elem_size;
  char *v = dat->values;
  for (int i = 0; i < p->recv_start[p->nrecv]; i++)
    memcpy(v + (size_t)p->recv_idx[i] * row, buf + (size_t)i * row, row);
}

/* Posts the receives and the sends of one exchange. */
static int post(const loomrt_halo_plan *p, exchange *x) {
  loom_dat dat = x->dat;
  MPI_Comm comm = loomrt_mpi_comm();
  int row = dat->dim * (int)dat->elem_size;
  int status = LOOM_OK;
  for (int k = 0; k < p->nrecv + p->nsend; k++)
    x->req[k] = MPI_REQUEST_NULL;
  for (int k = 0; status == LOOM_OK && k < p->nrecv; k++) {
    int n = p->recv_start[k + 1] - p->recv_start[k];
    status = loomrt_mpi_check(
        MPI_Irecv(x->recvbuf + (size_t)p->recv_start[k] * row, n * row,
                  MPI_BYTE, p->recv_rank[k], x->tag, comm, &x->req[k]),
        "MPI_Irecv of the halo of dat '%s' from rank %d", dat->name,
        p->recv_rank[k]);
  }
  pack(p, dat, x->sendbuf);
  for (int k = 0; status == LOOM_OK && k < p->nsend; k++) {
    int n = p->send_start[k + 1] - p->send_start[k];
    status = loomrt_mpi_check(
        MPI_Isend(x->sendbuf + (size_t)p->send_start[k] * row, n * row,
                  MPI_BYTE, p->send_rank[k], x->tag, comm,
                  &x->req[p->nrecv + k]),
        "MPI_Isend of the halo of dat '%s' to rank %d", dat->name,
        p->send_rank[k]);
    messages++;
  }
  return status;
}

int loom__halo_progress(void) {
  int status = LOOM_OK;
  for (exchange *x = exchanges; x && status == LOOM_OK; x = x->next) {
    if (!x->in_flight || !x->active)
      continue;
    int done = 0; /* the requests stay for loom__halo_end's MPI_Waitall */
    status = loomrt_mpi_check(
        MPI_Testall(x->nreq, x->req, &done, MPI_STATUSES_IGNORE),
        "MPI_Testall of the halo exchange of dat '%s'", x->dat->name);
  }
  return status;
}

/* Whether exchanges complete in loom__halo_begin ($LOOM_HALO_SYNC=1):
 * the measure of what the overlap saves. */
static int sync_exchanges(void) {
  static int mode = -1;
  if (mode < 0) {
    const char *v = getenv("LOOM_HALO_SYNC");
    mode = v && strcmp(v, "1") == 0;
  }
  return mode;
}

/* At the deadline: the neighbours whose message did not come, and those
 * that did not take this rank's (a rank that skipped the loop). */
static int report_late(const loomrt_halo_plan *p, exchange *x, loom_dat dat) {
  char from[200] = "", to[200] = "";
  size_t nf = 0, nt = 0;
  for (int k = 0; k < p->nrecv + p->nsend; k++) {
    int done = 0;
    MPI_Test(&x->req[k], &done, MPI_STATUS_IGNORE);
    int in = k < p->nrecv, rank = in ? p->recv_rank[k] : p->send_rank[k - p->nrecv];
    char *buf = in ? from : to;
    size_t *len = in ? &nf : &nt;
    if (!done && *len < sizeof from - 16)
      *len += (size_t)snprintf(buf + *len, sizeof from - *len, "%s%d", *len ? ", " : "", rank);
  }
  return loom_error_(LOOM_ESTATE,
                     "the halo exchange of dat '%s' did not complete within %g s: %s%s%s%s%s "
                     "(every rank runs every loop, in the same order: a loop skipped on "
                     "some ranks? LOOM_COLLECTIVE_TIMEOUT sets the wait)", dat->name,
                     loomrt_mpi_timeout(), nf ? "nothing came from rank(s) " : "", from,
                     nf && nt ? "; " : "", nt ? "nothing was taken by rank(s) " : "", to);
}

/* Waits for x's messages (timed), and unpacks what arrived. */
static int complete(const loomrt_halo_plan *p, exchange *x, loom_dat dat) {
  double t0 = MPI_Wtime();
  char what[160];
  snprintf(what, sizeof what, "the halo exchange of dat '%s'", dat->name);
  int status = loomrt_mpi_wait_until(x->nreq, x->req, what, loomrt_mpi_deadline());
  if (status == LOOM_ETIMEOUT_)
    status = report_late(p, x, dat);
  waited += MPI_Wtime() - t0;
  ended++;
  x->done++;
  if (status != LOOM_OK)
    return status;
  unpack(p, dat, x->recvbuf);
  dat->halo_dirty = 0;
  return LOOM_OK;
}

static int loom__halo_begin_body(loom_dat dat);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__halo_begin(loom_dat dat) {
  return loomrt_leave(loom__halo_begin_body(dat));
}

static int loom__halo_begin_body(loom_dat dat) {
  int status = loomrt_dat_usable(dat, "loom__halo_begin");
  if (status == LOOM_OK)
    status = loom__mpi_ready(); /* partitions if no loop did yet */
  if (status != LOOM_OK)
    return status;
  const loomrt_halo_plan *p = loomrt_halo_plan_of(dat->set);
  if (!p)
    return loom_error_(LOOM_ESTATE, "dat '%s': set '%s' has no halo plan",
                       dat->name, dat->set->name);
  exchange *x = exchange_of(dat, p);
  if (!x)
    return LOOM_ENOMEM;
  x->begins++;
  if (x->in_flight && !x->written) {
    x->depth++; /* the same dat under another handle: the exchange posted serves */
    return LOOM_OK;
  }
  if (x->in_flight)
    return loom_error_(LOOM_ESTATE,
                       "loom__halo_begin: dat '%s' already has an exchange "
                       "in flight (loom__halo_end was not called)",
                       dat->name);
  x->in_flight = 1;
  x->written = 0;
  x->active = dat->halo_dirty;
  if (!x->active)
    return LOOM_OK; /* clean halo: nothing to send */
  status = post(p, x);
  if (status != LOOM_OK || !sync_exchanges())
    return status;
  /* LOOM_HALO_SYNC=1: no overlap, the exchange completes here (its time
   * is the message time the overlap hides) */
  status = complete(p, x, dat);
  x->active = 0;
  return status;
}

/* A halo end with no begin (the region's schedule found the halo up to
 * date, or control reached the loop another way): a stale halo is
 * exchanged here, without overlap, and counted (LOOM_DIAG=1). */
static int exchange_now(loom_dat dat) {
  unscheduled++;
  int status = loom__halo_begin(dat);
  if (status != LOOM_OK)
    return status;
  exchange *x = exchange_of(dat, loomrt_halo_plan_of(dat->set));
  if (x) { /* counted as the end's, not as a begin */
    x->begins--;
    x->now++;
  }
  return loom__halo_end(dat);
}

static int loom__halo_end_body(loom_dat dat);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__halo_end(loom_dat dat) {
  return loomrt_leave(loom__halo_end_body(dat));
}

static int loom__halo_end_body(loom_dat dat) {
  int status = loomrt_dat_usable(dat, "loom__halo_end");
  if (status != LOOM_OK)
    return status;
  exchange *x = exchanges;
  while (x && x->dat != dat)
    x = x->next;
  if (!x || !x->in_flight)
    return dat->halo_dirty ? exchange_now(dat) : LOOM_OK;
  if (x->depth > 0)
    x->depth--;
  else
    x->in_flight = 0;
  if (!x->active)
    return LOOM_OK;
  x->active = 0;
  status = complete(loomrt_halo_plan_of(dat->set), x, dat);
  if (x->written)
    dat->halo_dirty = 1; /* written since the send: stale again */
  return status;
}

long loom__halo_unscheduled(void) { return unscheduled; }

/* ---- halo rows of an array that is no dat ------------------------------- */

/* Tag of these exchanges: above the dats' (1 .. 30000), so that a dat's
 * exchange in flight (begun, not yet ended) never matches them. */
enum { ROWS_TAG = 32001 };

static int halo_fill_body(loom_set set, void *rows, size_t row_bytes,
                          const char *what) {
  const loomrt_halo_plan *p = loomrt_halo_plan_of(set);
  if (!p)
    return loom_error_(LOOM_ESTATE, "%s: set '%s' has no halo plan", what,
                       set->name);
  size_t nsend = (size_t)p->send_start[p->nsend];
  size_t nrecv = (size_t)p->recv_start[p->nrecv];
  char *sendbuf = loomrt_alloc(LOOM_MEM_HALOS, nsend * row_bytes + 1);
  char *recvbuf = loomrt_alloc(LOOM_MEM_HALOS, nrecv * row_bytes + 1);
  MPI_Request *req =
      loomrt_alloc(LOOM_MEM_HALOS, ((size_t)p->nsend + (size_t)p->nrecv + 1) * sizeof *req);
  int status = sendbuf && recvbuf && req ? LOOM_OK : LOOM_ENOMEM;
  if (status != LOOM_OK)
    loom_error_(status, "%s: out of memory for the halo of set '%s'", what, set->name);
  if (status == LOOM_OK && row_bytes > (size_t)INT_MAX / (nsend + nrecv + 1))
    status = loom_error_(LOOM_EINVAL, "%s: the halo of set '%s' is too large "
                                      "for one message", what, set->name);
  if (status != LOOM_OK) {
    loomrt_free(sendbuf);
    loomrt_free(recvbuf);
    loomrt_free(req);
    return status;
  }
  int row = (int)row_bytes, nreq = 0;
  MPI_Comm comm = loomrt_mpi_comm();
  char *v = rows;
  for (int k = 0; status == LOOM_OK && k < p->nrecv; k++, nreq++)
    status = loomrt_mpi_check(
        MPI_Irecv(recvbuf + (size_t)p->recv_start[k] * row_bytes,
                  (p->recv_start[k + 1] - p->recv_start[k]) * row, MPI_BYTE,
                  p->recv_rank[k], ROWS_TAG, comm, &req[nreq]),
        "%s: MPI_Irecv of the halo of set '%s' from rank %d", what, set->name,
        p->recv_rank[k]);
  for (size_t i = 0; status == LOOM_OK && i < nsend; i++)
    memcpy(sendbuf + i * row_bytes, v + (size_t)p->send_idx[i] * row_bytes, row_bytes);
  for (int k = 0; status == LOOM_OK && k < p->nsend; k++, nreq++)
    status = loomrt_mpi_check(
        MPI_Isend(sendbuf + (size_t)p->send_start[k] * row_bytes,
                  (p->send_start[k + 1] - p->send_start[k]) * row, MPI_BYTE,
                  p->send_rank[k], ROWS_TAG, comm, &req[nreq]),
        "%s: MPI_Isend of the halo of set '%s' to rank %d", what, set->name,
        p->send_rank[k]);
  if (status == LOOM_OK) {
    char step[200];
    snprintf(step, sizeof step, "%s: the halo of set '%s'", what, set->name);
    status = loomrt_mpi_wait(nreq, req, step);
  } else if (nreq > 0) {
    return status; /* a post failed: its buffers stay for the process's end */
  }
  if (status == LOOM_OK)
    for (size_t i = 0; i < nrecv; i++)
      memcpy(v + (size_t)p->recv_idx[i] * row_bytes, recvbuf + i * row_bytes, row_bytes);
  if (status == LOOM_OK) {
    loomrt_free(sendbuf);
    loomrt_free(recvbuf);
    loomrt_free(req);
  } /* else a failed session: messages may still arrive (as for dats) */
  return status;
}

/* A failure leaves the communication (loomrt_leave): the peers wait for
 * this rank's messages, and are told instead. */
int loomrt_halo_fill(loom_set set, void *rows, size_t row_bytes,
                     const char *what) {
  return loomrt_leave(halo_fill_body(set, rows, row_bytes, what));
}

/* ---- fetch ------------------------------------------------------------- */

int loomrt_mpi_fetch(loom_dat dat, void *buf, size_t bytes) {
  loom_set set = dat->set;
  size_t row = (size_t)dat->dim * dat->elem_size;
  size_t want = (size_t)set->gsize * row;
  if (bytes != want)
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': loom_dat_fetch buffer is %zu bytes, "
                       "expected %zu (%d elements x %d values of %zu bytes)",
                       dat->name, bytes, want, set->gsize, dat->dim,
                       dat->elem_size);
  if (!buf && bytes > 0)
    return loom_error_(LOOM_EINVAL, "dat '%s': loom_dat_fetch buffer is NULL",
                       dat->name);
  loomrt_halo_plan *p = (loomrt_halo_plan *)loomrt_halo_plan_of(set);
  char *all = loomrt_alloc(LOOM_MEM_HALOS, want + 1);
  int status = p && all ? LOOM_OK : LOOM_ENOMEM;
  if (status != LOOM_OK)
    loom_error_(status, "dat '%s': out of memory fetching it", dat->name);
  status = loomrt_mpi_agree(status, "loom_dat_fetch");
  if (status == LOOM_OK)
    status = loomrt_plan_gather(p);
  status = loomrt_mpi_agree(status, "loom_dat_fetch");
  MPI_Datatype rowtype = MPI_DATATYPE_NULL;
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Type_contiguous((int)row, MPI_BYTE, &rowtype),
                              "MPI_Type_contiguous for dat '%s'", dat->name);
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Type_commit(&rowtype), "MPI_Type_commit");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Allgatherv(dat->values, set->owned, rowtype, all, p->gather_count,
                       p->gather_displ, rowtype, loomrt_mpi_comm()),
        "MPI_Allgatherv of dat '%s' (loom_dat_fetch)", dat->name);
  if (status == LOOM_OK)
    for (int k = 0; k < set->gsize; k++)
      memcpy((char *)buf + (size_t)p->gather_gid[k] * row,
             all + (size_t)k * row, row);
  if (rowtype != MPI_DATATYPE_NULL)
    MPI_Type_free(&rowtype);
  loomrt_free(all);
  return status;
}
