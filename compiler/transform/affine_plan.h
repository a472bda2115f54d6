/*
 * affine_plan.h — the temporaries of affine loops, and the pin / pin_cse
 * hints on them.
 *
 * Takes the resolved affine loops (frontend/affine.h) and the regions
 * (analysis/region.h: what stands between a producer and its consumers);
 * gives each temporary — an array written by one affine loop, the
 * producer, and read by later affine loops of the same block, the
 * consumers — a choice:
 *   store    the producer runs as written; consumers read memory;
 *   pin      evaluated inside each consumer, per use, into a local;
 *   pin_cse  computed once per needed element, in its own loop nest.
 * A hint that cannot be honoured is an error that says why; without one
 * loomc chooses, and --report says why.
 */
#ifndef LOOMC_AFFINE_PLAN_H
#define LOOMC_AFFINE_PLAN_H

#include <stdio.h>

#include <isl/ctx.h>
#include <isl/set.h>

#include "analysis/affine_isl.h"
#include "analysis/region.h"

typedef enum temp_choice {
  TEMP_STORE,  /* the producer runs as written; consumers read memory */
  TEMP_PIN,    /* evaluated inside each consumer, per use, into a local */
  TEMP_PIN_CSE /* computed once per needed element, in its own loop nest */
} temp_choice;

typedef struct affine_temp affine_temp;

struct affine_temp {
  const char *name;
  sym *array;
  loop *producer;
  int prod_arg;   /* index of the producer's argument that writes it */
  loop_list consumers; /* in file order */
  temp_choice choice;
  const hint *hint; /* NULL when loomc chose */
  srcloc hint_loc;
  const char *why;  /* the reason for the choice */
  const char *dup;  /* pin_cse: the duplicated domain (isl text) */
};

/* Temporaries of affine loops and the hints on them (after check); what
 * may stand in the way of moving a producer comes from the effects of the
 * regions' items (effects.h). */
void affine_plan(const frontend *fe, const symtab *st, program *prog, const region_list *regions,
                 arena *a);

/* --report: affine loops and the choice for each temporary. */
void affine_write_report(FILE *f, const program *prog);

/* pin_cse: the producer's iterations that write the elements the
 * consumers read — its domain, restricted to the preimage of their
 * footprints. */
__isl_give isl_set *affine_dup_domain(isl_ctx *ctx, const affine_temp *t);

#endif
