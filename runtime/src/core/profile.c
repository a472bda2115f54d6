/*
 * core/profile.c — per-loop timing (OP2's op_timing_output).
 *
 * Design
 * ------
 * Generated code reads the wall clock when a loop starts and hands the
 * start time to loom__loop_done() when it ends: two clock reads per loop
 * call, nothing per element.  Records are kept per loop name (the address
 * of the generated `loom_loop` string, so each directive is one record) in
 * a list in order of first call, and freed by loom_exit, which prints them
 * under $LOOM_DIAG=1; loom_timing_output() prints them on demand.
 *
 * The roofline columns: generated code also reports, per call, the
 * elements it ran, the bytes the loop moved and the floating-point
 * operations its kernels did
 * (loom__loop_traffic: loomc's count, from the arguments and the kernels'
 * text — a model, not a hardware counter: each element of each dat moved
 * once, caches otherwise ignored); the table gives the bytes per call and
 * the operations per element, and divides the sums by the loop's time:
 * GB/s and GFLOP/s as the loop achieved them, to set against
 * the machine's limits (`make bench` measures them: bench/roofline.sh).
 *
 * Threads: an OpenMP loop's threads each note when their share of a
 * parallel region ended (loom__thread_ends, one slot each); after the
 * region, each one's wait for the last is added to the loop's record
 * (loom__threads_done), and the table gives, per loop, the seconds each
 * thread spent waiting: owner-computes parts or static shares of unequal
 * work show there.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

typedef struct record {
  struct record *next;
  const char *loop;
  long calls;
  double seconds;
  double elems, bytes, flops; /* loom__loop_traffic's sums */
  double *waited; /* per thread: seconds waiting at the end of its regions */
  int nwaited;
} record;

static record *records, **tail = &records;

double loom__wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static record *last; /* the record found last: loom__loop_done follows
                        loom__loop_traffic for the same loop */

static record *find(const char *loop) {
  if (last && last->loop == loop)
    return last;
  for (record *r = records; r; r = r->next)
    if (r->loop == loop)
      return last = r;
  record *r = calloc(1, sizeof *r);
  if (!r)
    return NULL; /* timing is best effort: never fail a loop for it */
  r->loop = loop;
  *tail = r;
  tail = &r->next;
  return last = r;
}

void loom__loop_traffic(const char *loop, double elems, double bytes, double flops) {
  record *r = find(loop);
  if (r) {
    r->elems += elems;
    r->bytes += bytes;
    r->flops += flops;
  }
}

void loom__loop_done(const char *loop, double t0) {
  loomrt_loop_site(NULL);
  double t = loom__wall() - t0;
  record *r = find(loop);
  if (r) {
    r->calls++;
    r->seconds += t;
  }
}

static double *ends; /* loom__thread_ends' slots */
static int nends;

double *loom__thread_ends(int n) {
  if (n > nends) {
    double *more = realloc(ends, (size_t)n * sizeof *more);
    if (!more)
      return NULL; /* timing is best effort */
    ends = more;
    nends = n;
  }
  for (int i = 0; i < n; i++)
    ends[i] = 0.0; /* a thread the region did not start writes none */
  return ends;
}

void loom__threads_done(const char *loop, const double *end, int n) {
  double last = 0.0;
  record *r = find(loop);
  if (!end || !r)
    return;
  for (int i = 0; i < n; i++)
    last = end[i] > last ? end[i] : last;
  if (n > r->nwaited) {
    double *more = realloc(r->waited, (size_t)n * sizeof *more);
    if (!more)
      return;
    memset(more + r->nwaited, 0, (size_t)(n - r->nwaited) * sizeof *more);
    r->waited = more;
    r->nwaited = n;
  }
  for (int i = 0; i < n; i++)
    if (end[i] > 0.0)
      r->waited[i] += last - end[i];
}

/* Each thread's waiting of the loops that noted it. */
static void waits_write(FILE *f) {
  int any = 0;
  for (const record *r = records; r; r = r->next)
    any |= r->nwaited > 0;
  if (!any)
    return;
  fprintf(f, "%-48s %12s  %s\n", "threads waiting for the last of a loop", "seconds",
          "each thread's, in all");
  for (const record *r = records; r; r = r->next) {
    if (!r->nwaited)
      continue;
    double most = 0.0;
    for (int i = 0; i < r->nwaited; i++)
      most = r->waited[i] > most ? r->waited[i] : most;
    fprintf(f, "%-48s %12.4f  %5.1f%% of its time at most:", r->loop, most,
            r->seconds > 0 ? 100.0 * most / r->seconds : 0.0);
    for (int i = 0; i < r->nwaited; i++)
      fprintf(f, " %.4f", r->waited[i]);
    fputc('\n', f);
  }
}

/* x per second in units of 1e9 (0 for no time). */
static double per_second(double x, double seconds) {
  return seconds > 0 ? x / seconds * 1e-9 : 0.0;
}

void loomrt_timing_write(FILE *f) {
  double total = 0.0;
  for (const record *r = records; r; r = r->next)
    total += r->seconds;
  double bytes = 0.0, flops = 0.0;
  fprintf(f, "%-48s %8s %12s %7s %9s %8s %9s %8s\n", "loop", "calls", "seconds", "share",
          "MB/call", "GB/s", "flop/elem", "GFLOP/s");
  for (const record *r = records; r; r = r->next) {
    fprintf(f, "%-48s %8ld %12.4f %6.1f%% %9.2f %8.2f %9.1f %8.2f\n", r->loop, r->calls,
            r->seconds, total > 0 ? 100.0 * r->seconds / total : 0.0,
            r->calls ? r->bytes / (double)r->calls * 1e-6 : 0.0,
            per_second(r->bytes, r->seconds), r->elems > 0 ? r->flops / r->elems : 0.0,
            per_second(r->flops, r->seconds));
    bytes += r->bytes;
    flops += r->flops;
  }
  fprintf(f, "%-48s %8s %12.4f %7s %9s %8.2f %9s %8.2f\n", "total", "", total, "", "",
          per_second(bytes, total), "", per_second(flops, total));
  waits_write(f);
  fflush(f);
}

void loom_timing_output(void) { loomrt_timing_write(stdout); }

void loomrt_profile_free(void) {
  for (record *r = records, *next; r; r = next) {
    next = r->next;
    free(r->waited);
    free(r);
  }
  free(ends);
  ends = NULL;
  nends = 0;
  records = NULL;
  tail = &records;
  last = NULL;
}
