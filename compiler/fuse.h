/*
 * fuse.h — stage 8 (transformation): loops fused into groups, and the fate
 * of each temporary.
 *
 * Within a region, loops over the same set are fused, element by element,
 * into one loop function (a group) when isl finds every dependence between
 * them within one element (domains.h) and every computation between them
 * in the region is independent of the loops that move past it.  A group
 * runs where its last loop stood.
 *
 * A temporary (loom_decl_temp) is, after fusion:
 *   - contracted: its producer and every consumer run in one group and each
 *     reads the element it computes: a local of the element loop;
 *   - pinned (`#pragma loom pin(t)`): never stored; each consumer evaluates
 *     the producer's kernel at every element it reads, into a local;
 *   - stored: a whole array (pin_cse(t), or when it is read through a map,
 *     by another set, or by code outside one region).  A stored temporary
 *     whose lifetime in its region is disjoint from an earlier one's, of
 *     the same set, dim and type, reuses that one's storage.
 * Every decision is recorded, with its reason, as a note of the region's
 * DAG (--report).
 */
#ifndef LOOMC_FUSE_H
#define LOOMC_FUSE_H

#include "dag.h"

typedef struct group {
  int id;           /* 1-based, in file order of the anchors */
  vec loops;        /* loop*: fused element by element, in order */
  const loop *anchor; /* the loop whose directive becomes the call */
  vec staged;       /* loop*: those whose reads through maps are gathered
                       per strip (vectorize.h); when there are any, the
                       group runs strip by strip */
} group;

typedef enum temp_fate { TEMP_STORED, TEMP_CONTRACTED, TEMP_PINNED } temp_fate;

typedef struct temp_info {
  const obj *t;
  temp_fate fate;
  const loop *producer; /* the loop that writes it (pinned, contracted) */
  const obj *shares;    /* stored: the temporary whose storage it reuses */
  const loop *first;    /* stored with sharing: the loop writing it first */
  srcloc hint_loc;      /* pin, pin_cse: the temporary's name in the hint */
} temp_info;

typedef struct fusion {
  vec groups; /* group* */
  vec temps;  /* temp_info* */
  group **by_loop; /* by loop id: its group (NULL: none yet, or pinned) */
  int nloops;      /* length of by_loop */
} fusion;

/* Decides the pinned and pin_cse temporaries (the hints, checked against
 * the regions' DAGs in program order), builds the regions' DAGs for the
 * target knowing them, into *dags, then groups the loops and decides the
 * other temporaries.  The DAGs receive the notes (--report).  Hints that
 * cannot be honoured are reported as errors. */
fusion *fuse(const program *prog, const vec *regions, const char *target, int no_fuse,
             vec *dags, arena *a);

/* The group of a loop; NULL for a pinned producer (no code of its own). */
const group *fusion_group(const fusion *f, const loop *lp);
/* The kernels of a group, "a + b" (for messages). */
const char *fusion_group_kernels(arena *a, const group *g);
/* What became of a temporary; NULL when it is not one a region decides. */
const temp_info *fusion_temp(const fusion *f, const obj *t);

#endif
