/*
 * strtab.h — a table from strings to pointers (open addressing, FNV-1a).
 *
 * For what a pass asks of a library many times with the same text (isl
 * reading a relation, printing a loop): the answer is kept by its text.
 * The table owns copies of its keys; the values are the caller's, freed
 * through strtab_free's callback.  Allocation failures are reported as a
 * NULL slot: the caller then works without the table.
 */
#ifndef LOOMC_STRTAB_H
#define LOOMC_STRTAB_H

#include <stddef.h>

typedef struct strtab_slot {
  char *key;
  void *value;
} strtab_slot;

typedef struct strtab {
  strtab_slot *slots;
  size_t cap, used;
} strtab;

/* The slot of key in t, created (value NULL, *fresh 1) when it was not
 * there; NULL when memory runs out. */
strtab_slot *strtab_slot_of(strtab *t, const char *key, int *fresh);

/* Frees t's keys, and each value through free_value (NULL: left). */
void strtab_free(strtab *t, void (*free_value)(void *));

#endif
