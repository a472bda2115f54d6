/*
 * core/mem.c — the ledger: the bytes libloom holds on this rank, by kind
 * (loom_memory, loom.h), and the allocation calls that keep it.
 *
 * Design
 * ------
 * The runtime's storage of any size goes through one seam: loomrt_alloc,
 * loomrt_calloc, loomrt_realloc and loomrt_free, each allocation tagged
 * with its kind (dats, maps, sets' numberings, halo lists and buffers,
 * plans, scratch, start-up's work).  A block carries a header (its size
 * and kind; max_align_t's size, so what follows is aligned as malloc's
 * result), so a free needs neither, and the ledger counts the bytes asked
 * for.  Dat storage, which is mapped rather than allocated
 * from 2 MiB on (dat.c), is counted by loomrt_mem_add / loomrt_mem_sub
 * with its length.  An array made during start-up and then kept (a set's
 * global numbers, a migrated map) moves to its kind with loomrt_mem_kind.
 * Small bookkeeping (object headers, names, messages, MPI requests of
 * collective calls) is left out: the ledger is for what scales with the
 * mesh.
 *
 * Besides the bytes held now, the ledger keeps the largest total since
 * loom_init with each kind's share at that moment (a new largest total
 * copies the kinds: a few words), and the kinds as the start-up left them
 * (loomrt_mem_started, called when MPI partitioning ends: start-up's own
 * work should then be zero).  Under $LOOM_DIAG=1 loom_exit prints the
 * three, per rank, and says so when anything is still counted after
 * loom_exit freed everything (a leak in the runtime).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

typedef union header {
  struct {
    size_t bytes;
    int kind;
  } h;
  max_align_t align; /* what follows is aligned as malloc's result */
} header;

static size_t held[LOOM_MEM_TOTAL], total;
static size_t at_peak[LOOM_MEM_TOTAL], peak;
static size_t at_start[LOOM_MEM_TOTAL], started_total;
static int started;

static int kind_ok(int kind) { return kind >= 0 && kind < LOOM_MEM_TOTAL; }

void loomrt_mem_add(loom_mem_kind kind, size_t bytes) {
  held[kind] += bytes;
  total += bytes;
  if (total > peak) {
    peak = total;
    memcpy(at_peak, held, sizeof held);
  }
}

void loomrt_mem_sub(loom_mem_kind kind, size_t bytes) {
  held[kind] -= bytes;
  total -= bytes;
}

void *loomrt_alloc(loom_mem_kind kind, size_t bytes) {
  if (bytes > SIZE_MAX - sizeof(header))
    return NULL;
  header *h = malloc(sizeof *h + bytes);
  if (!h)
    return NULL;
  h->h.bytes = bytes;
  h->h.kind = kind;
  loomrt_mem_add(kind, bytes);
  return h + 1;
}

void *loomrt_calloc(loom_mem_kind kind, size_t count, size_t size) {
  size_t bytes;
  if (!loomrt_mul_size(count, size, &bytes) || bytes > SIZE_MAX - sizeof(header))
    return NULL;
  header *h = calloc(1, sizeof *h + bytes);
  if (!h)
    return NULL;
  h->h.bytes = bytes;
  h->h.kind = kind;
  loomrt_mem_add(kind, bytes);
  return h + 1;
}

void *loomrt_realloc(loom_mem_kind kind, void *p, size_t bytes) {
  if (!p)
    return loomrt_alloc(kind, bytes);
  if (bytes > SIZE_MAX - sizeof(header))
    return NULL;
  header *h = (header *)p - 1;
  size_t old = h->h.bytes;
  int k = h->h.kind;
  header *grown = realloc(h, sizeof *h + bytes);
  if (!grown)
    return NULL; /* p is unchanged, still counted */
  grown->h.bytes = bytes;
  loomrt_mem_sub(k, old);
  loomrt_mem_add(k, bytes);
  return grown + 1;
}

void loomrt_free(void *p) {
  if (!p)
    return;
  header *h = (header *)p - 1;
  loomrt_mem_sub(h->h.kind, h->h.bytes);
  free(h);
}

void loomrt_mem_kind(void *p, loom_mem_kind kind) {
  if (!p)
    return;
  header *h = (header *)p - 1;
  loomrt_mem_sub(h->h.kind, h->h.bytes);
  h->h.kind = kind;
  loomrt_mem_add(kind, h->h.bytes);
}

void loomrt_mem_begin(void) {
  peak = total;
  memcpy(at_peak, held, sizeof held);
  memset(at_start, 0, sizeof at_start);
  started_total = 0;
  started = 0;
}

void loomrt_mem_started(void) {
  memcpy(at_start, held, sizeof held);
  started_total = total;
  started = 1;
}

size_t loom_memory(loom_mem_kind kind, loom_mem_when when) {
  const size_t *k = when == LOOM_MEM_PEAK ? at_peak : when == LOOM_MEM_STARTED ? at_start : held;
  size_t all = when == LOOM_MEM_PEAK ? peak : when == LOOM_MEM_STARTED ? started_total : total;
  if (kind == LOOM_MEM_TOTAL)
    return all;
  return kind_ok(kind) ? k[kind] : 0;
}

static const char *const kind_names[LOOM_MEM_TOTAL] = {
    "dats", "maps", "sets", "halos", "plans", "scratch", "start-up"};

/* One line, written at once: every rank prints its own table on the
 * same stderr, and a line written in pieces would interleave. */
static void write_row(FILE *f, int rank, const char *when, const size_t *k, size_t all) {
  char line[256];
  int n = snprintf(line, sizeof line, "loom: rank %d: memory %-14s", rank, when);
  for (int i = 0; i < LOOM_MEM_TOTAL; i++)
    n += snprintf(line + n, sizeof line - (size_t)n, " %9.2f", k[i] / 1048576.0);
  snprintf(line + n, sizeof line - (size_t)n, " %9.2f\n", all / 1048576.0);
  fputs(line, f);
}

void loomrt_mem_write(FILE *f, int rank) {
  char line[256];
  int n = snprintf(line, sizeof line, "loom: rank %d: memory (MB)      ", rank);
  for (int i = 0; i < LOOM_MEM_TOTAL; i++)
    n += snprintf(line + n, sizeof line - (size_t)n, " %9s", kind_names[i]);
  snprintf(line + n, sizeof line - (size_t)n, " %9s\n", "total");
  fputs(line, f);
  write_row(f, rank, "at the peak", at_peak, peak);
  if (started)
    write_row(f, rank, "after start-up", at_start, started_total);
  write_row(f, rank, "at loom_exit", held, total);
  fflush(f);
}

void loomrt_mem_check_freed(FILE *f, int rank) {
  if (total == 0)
    return;
  fprintf(f, "loom: rank %d: %zu bytes still counted after loom_exit:", rank, total);
  for (int i = 0; i < LOOM_MEM_TOTAL; i++)
    if (held[i])
      fprintf(f, " %s %zu", kind_names[i], held[i]);
  fprintf(f, " (a leak in libloom, unless the session failed: a failed exchange's buffers\n"
             "stay with MPI until the process ends)\n");
  fflush(f);
}
