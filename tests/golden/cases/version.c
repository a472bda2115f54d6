/* Bodies written twice: `relax`'s loops, on handles through p that may be
 * one dat, fuse in the first copy (the handles tested distinct); the other
 * functions' bodies cannot be written twice, and the report says why: one
 * calls a function that could change the handles, one assigns a handle,
 * one has a static variable, one uses p itself. */
#include <loom.h>

typedef struct pair {
  loom_set nodes;
  loom_map next LOOM_MAP_FACTS(nodes, nodes, 1);
  loom_dat a LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat b LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat c LOOM_DAT_FACTS(nodes, 1, double);
} pair;

static inline void twice(const double *x, double *y) { y[0] = 2.0 * x[0]; }
static inline void plus1(const double *x, double *y) { y[0] = x[0] + 1.0; }

void swap(pair *p);

void relax(pair *p) {
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
}

void relax_swapping(pair *p) {
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
  swap(p);
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
}

void relax_assigning(pair *p) {
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
  p->b = p->a;
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
}

void relax_counting(pair *p) {
  static int calls;
  calls++;
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
}

void relax_checking(pair *p) {
  if (!p)
    return;
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
}

void swap(pair *p) {
  loom_dat t = p->a;
  p->a = p->b;
  p->b = t;
}
