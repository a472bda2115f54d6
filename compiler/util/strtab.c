/*
 * strtab.c — a table from strings to pointers (see strtab.h).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s) {
  size_t h = 14695981039346656037u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static int grow(strtab *t) {
  size_t cap = t->cap ? 2 * t->cap : 64;
  strtab_slot *grown = calloc(cap, sizeof *grown);
  if (!grown)
    return -1;
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].key) {
      size_t h = hash(t->slots[i].key) & (cap - 1);
      while (grown[h].key)
        h = (h + 1) & (cap - 1);
      grown[h] = t->slots[i];
    }
  free(t->slots);
  t->slots = grown;
  t->cap = cap;
  return 0;
}

strtab_slot *strtab_slot_of(strtab *t, const char *key, int *fresh) {
  *fresh = 0;
  if (2 * (t->used + 1) > t->cap && grow(t) != 0)
    return NULL;
  size_t h = hash(key) & (t->cap - 1);
  while (t->slots[h].key && strcmp(t->slots[h].key, key) != 0)
    h = (h + 1) & (t->cap - 1);
  if (!t->slots[h].key) {
    if (!(t->slots[h].key = strdup(key)))
      return NULL;
    t->slots[h].value = NULL;
    t->used++;
    *fresh = 1;
  }
  return &t->slots[h];
}

void strtab_free(strtab *t, void (*free_value)(void *)) {
  for (size_t i = 0; i < t->cap; i++) {
    if (free_value && t->slots[i].key)
      free_value(t->slots[i].value);
    free(t->slots[i].key);
  }
  free(t->slots);
  *t = (strtab){0};
}
