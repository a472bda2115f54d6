/*
 * arena.c — chunked bump allocator (see arena.h).
 */
#include "util/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 64 * 1024 };

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  _Alignas(max_align_t) unsigned char data[];
} chunk;

struct arena {
  chunk *head;
};

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("loomc: fatal: out of memory\n", stderr);
    exit(1);
  }
  return p;
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
    free(c);
  }
  free(a);
}

void *arena_alloc(arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  chunk *c = a->head;
  if (!c || c->size - c->used < size) {
    size_t cap = size > CHUNK ? size : CHUNK;
    c = xmalloc(sizeof *c + cap);
    c->size = cap;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
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

void vec_push(arena *a, vec *v, void *item) {
  if (v->len == v->cap) {
    int cap = v->cap ? 2 * v->cap : 8;
    void **items = arena_alloc(a, sizeof *items * (size_t)cap);
    if (v->len)
      memcpy(items, v->items, sizeof *items * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = item;
}
