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

/* A growable array of T, allocated in an arena: the lists stages hand
 * each other are typed (`typedef LIST(loop *) loop_list;`, in the header
 * of the layer that owns T); vec is the untyped one a file keeps to
 * itself.  vec_push(a, &list, item) appends to either (item converts to
 * T as in an assignment, and may read the list: it is counted after);
 * list is evaluated more than once. */
#define LIST(T)  \
  struct {       \
    T *items;    \
    int len, cap; \
  }
typedef struct vec {
  void **items;
  int len, cap;
} vec;
typedef LIST(const char *) str_list;
#define vec_push(a, list, item)                                                          \
  (vec_reserve_((a), &(list)->items, &(list)->cap, (list)->len, sizeof *(list)->items), \
   (list)->items[(list)->len] = (item), (void)(list)->len++)
/* Room for one more item in a list whose items are at *items (a T**). */
void vec_reserve_(arena *a, void *items, int *cap, int len, size_t size);

#endif
