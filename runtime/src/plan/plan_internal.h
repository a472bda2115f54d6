/*
 * plan/plan_internal.h — what the files of plan/ share among themselves
 * and nothing above plan/ sees (that is plan/plan.h): the plans' session,
 * the target views every walk over a loop's writes uses, the building of
 * a colouring plan, the checks of a plan's arguments and range, and the
 * caches dropped with the colouring plans.
 *
 * Included by plan/cache.c, plan/colour.c, plan/check.c, plan/loopstart.c
 * and plan/ocplan.c.
 */
#ifndef LOOM_PLAN_PLAN_INTERNAL_H
#define LOOM_PLAN_PLAN_INTERNAL_H

#include <stddef.h>

#include "loom_gen.h"

/* ---- the session and the caches (cache.c, ocplan.c, loopstart.c) ------- */

/* cache.c: the plans' session: at the first call of plan/ in a session,
 * its block size ($LOOM_BLOCK_SIZE) taken and loomrt_plan_drop_all
 * installed for its end (core/hooks.h, loomrt_at_session_exit).  Every
 * entry of plan/ that reads the plans or the block size calls it. */
void loomrt_plan_session(void);

/* cache.c: whether the plan arguments a[0..n) and b[0..n) are the same,
 * entry by entry (map and slot): the last part of a cache key. */
int loomrt_plan_args_equal(const loom__plan_arg *a, const loom__plan_arg *b,
                           int n);

/* cache.c: the range a lookup of `call` asks for: [0, set->size) when
 * `whole`, else [*lo, *hi), checked (loomrt_check_range) and written back
 * to *lo and *hi; then a pending renumbering applied.  LOOM_OK or a
 * reported status. */
int loomrt_plan_lookup_range(const char *call, const char *loop, loom_set set,
                             int whole, int *lo, int *hi);

/* cache.c: for the $LOOM_DIAG line of a plan: "" when [lo, hi) is the
 * whole set, otherwise " [lo, hi) of SIZE", written into buf; returns
 * buf. */
const char *loomrt_range_note(char *buf, size_t size, loom_set set, int lo,
                              int hi);

/* ocplan.c: frees the owner-computes plans (with the colouring plans,
 * loomrt_plan_drop_all). */
void loomrt_ocplan_drop_all(void);

/* loopstart.c: frees what loom__check_unique and loom__write_winners
 * remember (with the colouring plans, loomrt_plan_drop_all). */
void loomrt_uniques_drop_all(void);

/* ---- target views (colour.c) -------------------------------------------- */

/* One plan argument, ready for the inner loops. */
typedef struct target_view {
  const int *values; /* the map's entries; NULL: the element itself */
  int dim;
  int lo, hi;   /* the slots written: [lo, hi) */
  size_t base;  /* where the target set's elements start in the masks */
  loom_map map; /* NULL for the element itself */
  loom_set to;  /* the target set */
} target_view;

/* The target element e writes through slot s of view v. */
static inline int target_of(const target_view *v, int e, int s) {
  return v->values ? v->values[(size_t)e * (size_t)v->dim + (size_t)s] : e;
}

/* Fills views[0..nargs) and returns the number of target elements (the
 * sizes of the distinct target sets, added): the distinct target sets
 * laid end to end, view by view at its set's `base`.  A plan argument
 * without a map is the loop's own element, of the iteration set `set`. */
size_t loomrt_plan_views(loom_set set, int nargs, const loom__plan_arg *args,
                         target_view *views);

/* ---- building a colouring plan (colour.c) -------------------------------- */

/* What a colouring plan is built for: its cache key (cache.c). */
typedef struct plan_key {
  const char *loop;
  loom_set set;
  int lo, hi; /* the range of elements */
  int block_size;
  int nargs;
  loom__plan_arg *args; /* NULL when nargs == 0 */
} plan_key;

/* The arrays a colouring plan points into. */
typedef struct plan_arrays {
  int *per_block;  /* block_start, block_colour, block_elem_colours */
  int *per_elem;   /* elem_colour */
  int *per_colour; /* colour_start, blocks_by_colour */
} plan_arrays;

/* Builds the plan for `key` into *pl (zeroed by the caller) and its
 * arrays into *own, which the caller frees, on failure too.  LOOM_OK or
 * LOOM_ENOMEM (not reported). */
int loomrt_plan_build(const plan_key *key, loom__plan *pl, plan_arrays *own);

/* ---- checks (check.c; ocplan.c shares them) ------------------------------ */

/* LOOM_OK when the iteration set is live; otherwise reports LOOM_EINVAL
 * naming `call` and the loop, and returns it. */
int loomrt_check_iteration_set(const char *call, const char *loop,
                               loom_set set);

/* The iteration set and the plan arguments of `call` (a colouring plan, a
 * loop's start): each a map from the set, or the element itself (no map,
 * slot 0), and its slot in [-1, dim).  LOOM_OK or a reported status. */
int loomrt_plan_check_args(const char *call, const char *loop, loom_set set,
                           int nargs, const loom__plan_arg *args);

/* Whether 0 <= lo <= hi <= set->size: [lo, hi) is a range of the set's
 * elements.  In long long, so that a corrupt plan's lo + nelems cannot
 * overflow. */
int loomrt_range_within(loom_set set, long long lo, long long hi);

/* LOOM_OK when [lo, hi) is a range of the set's elements (the set is
 * live); otherwise reports LOOM_EINVAL naming `call` and the loop, and
 * returns it. */
int loomrt_check_range(const char *call, const char *loop, loom_set set,
                       int lo, int hi);

/* The start of a plan checker `call`: a session active and a plan given.
 * LOOM_OK or a reported status. */
int loomrt_plan_check_start(const char *call, const void *plan);

#endif /* LOOM_PLAN_PLAN_INTERNAL_H */
