/*
 * arena.h — bump allocation for one translation unit.
 *
 * Every compiler stage allocates its IR, strings and tables from the arena
 * of the run; everything is freed at once by arena_free().  Allocation
 * failure prints a message and exits: the compiler cannot continue without
 * memory, and the output file is written last, so nothing partial is left.
 */
#ifndef LOOMC_ARENA_H
#define LOOMC_ARENA_H

#include <stddef.h>

typedef struct arena arena;

arena *arena_new(void);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size); /* zeroed */
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Growable array of pointers, allocated in an arena. */
typedef struct vec {
  void **items;
  int len, cap;
} vec;
void vec_push(arena *a, vec *v, void *item);

#endif
