/*
 * fuse.h — loops fused into groups, and the fate of each temporary.
 *
 * Takes the regions, their DAGs in program order (the dependences) and
 * for the target (notes; with MPI, the exchanges a fusion must not cross),
 * and the fates the hints decided (pin.h); gives the groups and every
 * temporary's fate (analysis/temps.h).
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

#include "analysis/dag.h"
#include "analysis/temps.h"
#include "transform/translation.h"

/* The budgets of one loop (transformations.md §2): the nearest groups
 * over its set it is tried with, the isl checks among them, the loops of
 * a group.  A refusal a budget makes says so (--report). */
enum { FUSE_CANDIDATES = 8, FUSE_TRIES = 4, FUSE_GROUP_LOOPS = 64 };

typedef LIST(int) int_list;

typedef struct group {
  int id;           /* 1-based, in file order of the anchors */
  loop_list loops;  /* fused element by element, in order */
  const loop *anchor; /* the loop whose directive becomes the call */
  int_list layers;  /* over an extruded set: per loop, the index of the
                       first loop of its layer run, the loops that run
                       layer by layer together (every dependence between
                       them from a cell to it or above it:
                       domains_layer_fusable); empty: each loop runs its
                       layers in turn */
} group;

typedef LIST(group *) group_list;

typedef struct fusion {
  group_list groups;
  temp_info_list temps; /* the hints' fates, then the others' */
  group **by_loop; /* by loop id: its group (NULL: none yet, or pinned) */
  int nloops;      /* length of by_loop */
} fusion;

/* Groups the loops of every region of t and decides the temporaries the
 * hints left (t's pins).  The dependences are those of t's DAGs with
 * loops whole (a distributed target's `whole` view: computation i is item
 * i); t's DAGs, for the target, receive the notes (--report).
 * --no-fuse: every loop is a group of its own. */
fusion *fuse(const translation *t, arena *a);

/* The group of a loop; NULL for a pinned producer (no code of its own). */
const group *fusion_group(const fusion *f, const loop *lp);
/* The kernels of a group, "a + b" (for messages). */
const char *fusion_group_kernels(arena *a, const group *g);

#endif
