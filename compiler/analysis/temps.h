/*
 * temps.h — what becomes of each temporary (loom_decl_temp) of a region.
 *
 * A temporary's fate is a fact the analyses consult: the effects model
 * (effects.h) sees a loop reading a pinned temporary evaluate its
 * producer, and the DAG (dag.h) gives a pinned producer no computation of
 * its own.  The transformations decide the fates — the pin and pin_cse
 * hints first (transform/pin.h), then fusion (transform/fuse.h) contracts
 * or stores the others and lets stored ones share storage — and code
 * generation follows them.  A list of fates is a temp_info_list, in
 * the order they were decided; an analysis given none (NULL) sees every
 * temporary stored.
 */
#ifndef LOOMC_TEMPS_H
#define LOOMC_TEMPS_H

#include "ir/ir.h"

typedef enum temp_fate {
  TEMP_STORED,     /* a whole array: pin_cse(t), or read through a map, by
                      another set or by code outside one region */
  TEMP_CONTRACTED, /* a local of the element loop of its producer's group:
                      producer and consumers fused, each reading the
                      element it computes */
  TEMP_PINNED      /* `pin(t)`: never stored; each consumer evaluates the
                      producer's kernel at every element it reads */
} temp_fate;

typedef struct temp_info {
  const obj *t;
  temp_fate fate;
  const loop *producer; /* the loop that writes it (pinned, contracted) */
  const obj *shares;    /* stored: the temporary whose storage it reuses */
  const loop *first;    /* stored with sharing: the loop writing it first */
  srcloc hint_loc;      /* pin, pin_cse: the temporary's name in the hint */
  const struct region *r; /* pin, pin_cse: the region the hint was decided in */
  srcloc note_loc;      /* pin, pin_cse: the hint, and what it means for */
  const char *note;     /* --report (the region's DAG starts with it) */
} temp_info;

typedef LIST(temp_info *) temp_info_list;

/* The fate of t in temps (temp_info*), or NULL: not decided there. */
const temp_info *temps_find(const temp_info_list *temps, const obj *t);

/* Whether lp is the producer of a temporary pinned in temps (NULL: none):
 * it has no code of its own, and its effects happen inside the loops that
 * evaluate it. */
int temps_pinned_away(const temp_info_list *temps, const loop *lp);

#endif
