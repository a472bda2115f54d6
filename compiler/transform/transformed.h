/*
 * transformed.h — what the transformations made, side by side: each
 * stage's own record, as it returned it (main.c: transform).  Emit reads
 * them; none amends another's.
 */
#ifndef LOOMC_TRANSFORMED_H
#define LOOMC_TRANSFORMED_H

#include "transform/fuse.h"
#include "transform/narrow.h"
#include "transform/place.h"
#include "transform/rotate.h"
#include "transform/vectorize.h"

typedef struct transformed {
  const fusion *fu;        /* fuse.h: the groups, the temporaries' fates */
  narrowing_list narrowed; /* narrow.h */
  const staging *staged;   /* vectorize.h: the loops staged */
  const rotations *rots;   /* rotate.h: the loops rotated, their groups */
  insertion_list insertions; /* place.h: the communication placed */
} transformed;

/* The groups whose functions the output holds: fusion's, then the
 * rotations' (numbered in that order). */
static inline int transformed_ngroups(const transformed *tr) {
  return tr->fu->groups.len + tr->rots->groups.len;
}
static inline const group *transformed_group(const transformed *tr, int i) {
  return i < tr->fu->groups.len ? tr->fu->groups.items[i]
                                : tr->rots->groups.items[i - tr->fu->groups.len];
}

#endif
