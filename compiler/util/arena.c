/*
 * arena.c — chunked bump allocator (see arena.h).
 *
 * Chunks are mapped from the kernel, 2 MiB each and aligned to 2 MiB, so
 * that a transparent huge page can back one: a translation touches
 * megabytes of fresh memory, and one fault per chunk costs less than one
 * per 4 KiB page.  Fresh mappings are zero and a chunk is never reused,
 * so an allocation needs no clearing.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include "util/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { CHUNK = 2 * 1024 * 1024 };

typedef struct chunk {
  struct chunk *next;
  size_t used, size; /* size: of data[] */
  size_t mapped;     /* the whole mapping, header included */
  _Alignas(max_align_t) unsigned char data[];
} chunk;

struct arena {
  chunk *head;
};

static void out_of_memory(void) {
  fputs("loomc: fatal: out of memory\n", stderr);
  exit(1);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    out_of_memory();
  return p;
}

/* A zeroed mapping of `size` bytes (a multiple of CHUNK) aligned to CHUNK. */
static void *map_aligned(size_t size) {
  unsigned char *p = mmap(NULL, size + CHUNK, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    out_of_memory();
  size_t head = (CHUNK - (uintptr_t)p % CHUNK) % CHUNK;
  if (head)
    munmap(p, head);
  munmap(p + head + size, CHUNK - head);
#ifdef MADV_HUGEPAGE
  madvise(p + head, size, MADV_HUGEPAGE);
#endif
  return p + head;
}

static chunk *new_chunk(size_t need) {
  size_t mapped = (sizeof(chunk) + need + CHUNK - 1) / CHUNK * CHUNK;
  chunk *c = map_aligned(mapped);
  c->mapped = mapped;
  c->size = mapped - sizeof(chunk);
  return c;
}

arena *arena_new(void) {
  arena *a = xmalloc(sizeof *a);
  a->head = NULL;
  return a;
}

void arena_free(arena *a) {
  if (!a)
    return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    munmap(c, c->mapped);
  }
  free(a);
}

void *arena_alloc(arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  chunk *c = a->head;
  if (!c || c->size - c->used < size) {
    c = new_chunk(size);
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used; /* zero: fresh from the kernel */
  c->used += size;
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

void vec_reserve_(arena *a, void *items, int *cap, int len, size_t size) {
  if (len < *cap)
    return;
  int n = *cap ? 2 * *cap : 8;
  char *fresh = arena_alloc(a, size * (size_t)n), *old;
  memcpy(&old, items, sizeof old); /* a T*, of the same representation */
  if (len)
    memcpy(fresh, old, size * (size_t)len);
  memcpy(items, &fresh, sizeof fresh);
  *cap = n;
}
