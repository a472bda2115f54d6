/*
 * plan/cache.c — the plans' session, the block size (loom_set_block_size,
 * loom_block_size) and the cache of colouring plans (loom__plan_get,
 * loom__plan_get_range); dropping every plan (loomrt_plan_drop_all).
 *
 * Design
 * ------
 * A plan covers a range [lo, hi) of the iteration set: the whole set
 * (loom__plan_get is loom__plan_get_range(.., 0, size, ..)), or with MPI
 * one section of the local numbering (core | owned | executed halo |
 * non-executed halo), e.g. [0, core) then [core, exec).  How a plan is
 * built and coloured is colour.c's; how it is checked, check.c's.
 *
 * Session.  plan/ takes the session's block size at its first call in a
 * session (loomrt_plan_session) and installs loomrt_plan_drop_all for the
 * session's end.
 *
 * Cache.  A linked list of plans keyed by (set, range lo and hi, block
 * size, the argument list compared entry by entry): two ranges of one
 * loop are two plans, and loom__plan_get hits the plan of
 * loom__plan_get_range(.., 0, size, ..).  What a plan holds follows from
 * its key alone, so loops of one set writing through the same maps share
 * it, whatever their labels (Airfoil's update groups): one build and one
 * copy per rank; the plan keeps the label of the loop that built it, for
 * messages.  Lookups move the hit to the front.  loom_set_block_size()
 * with a new size, a renumbering (renumber.c) and loom_exit() drop every
 * plan; a pointer to a dropped plan must not be used any more (generated
 * code asks for the plan at every loop).  The owner-computes plans
 * (ocplan.c) and what the loop-start checks remember (loopstart.c) are
 * dropped with them; the owner-computes cache shares the key comparison
 * and the range a lookup asks for (loomrt_plan_args_equal,
 * loomrt_plan_lookup_range).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hooks.h"
#include "plan/plan.h"
#include "plan/plan_internal.h"

/* ---- block size -------------------------------------------------------- */

static int block_size = LOOM_DEFAULT_BLOCK_SIZE;
static unsigned plans_session; /* the session the plans are of */

void loomrt_plan_session(void) {
  unsigned s = loomrt_session();
  if (!s || s == plans_session)
    return;
  plans_session = s;
  loomrt_plan_drop_all(); /* none: the last session's end dropped them */
  block_size = loomrt_session_block_size();
  loomrt_at_session_exit(loomrt_plan_drop_all);
}

int loom_block_size(void) {
  loomrt_plan_session();
  return block_size;
}

int loom_set_block_size(int size) {
  loomrt_plan_session();
  int status = loomrt_require_active("loom_set_block_size");
  if (status != LOOM_OK)
    return status;
  if (size < 1)
    return loom_error_(LOOM_EINVAL,
                       "loom_set_block_size: size is %d, must be >= 1", size);
  if (size != block_size) {
    loomrt_plan_drop_all();
    block_size = size;
  }
  return LOOM_OK;
}

/* ---- the cache --------------------------------------------------------- */

typedef struct plan_entry {
  struct plan_entry *next;
  plan_key key;     /* its args an owned copy */
  loom__plan plan;  /* value */
  plan_arrays own;  /* what the plan points into */
} plan_entry;

static plan_entry *plans = NULL;

static void entry_free(plan_entry *p) {
  loomrt_free(p->key.args);
  loomrt_free(p->own.per_block);
  loomrt_free(p->own.per_elem);
  loomrt_free(p->own.per_colour);
  loomrt_free(p);
}

void loomrt_plan_drop_all(void) {
  loomrt_ocplan_drop_all();
  loomrt_uniques_drop_all();
  while (plans) {
    plan_entry *next = plans->next;
    entry_free(plans);
    plans = next;
  }
}

int loomrt_plan_args_equal(const loom__plan_arg *a, const loom__plan_arg *b,
                           int n) {
  for (int i = 0; i < n; i++)
    if (a[i].map != b[i].map || a[i].slot != b[i].slot)
      return 0;
  return 1;
}

static int key_matches(const plan_key *k, loom_set set, int lo, int hi, int nargs,
                       const loom__plan_arg *args) {
  return k->set == set && k->lo == lo && k->hi == hi &&
         k->block_size == block_size && k->nargs == nargs &&
         loomrt_plan_args_equal(k->args, args, nargs);
}

const char *loomrt_range_note(char *buf, size_t size, loom_set set, int lo,
                              int hi) {
  if (lo == 0 && hi == set->size)
    buf[0] = '\0';
  else
    snprintf(buf, size, " [%d, %d) of %d", lo, hi, set->size);
  return buf;
}

/* The $LOOM_DIAG line of a plan built in t seconds. */
static void diag_built(const plan_entry *p, double t) {
  const loom__plan *pl = &p->plan;
  loom_set set = p->key.set;
  char range[64];
  fprintf(stderr,
          "loom: plan %s: set '%s' %d elements%s, %d blocks of %d, %d block "
          "colours, up to %d element colours, built in %.3f ms\n",
          loomrt_loop_label(p->key.loop), set->name, pl->nelems,
          loomrt_range_note(range, sizeof range, set, pl->lo, pl->hi),
          pl->nblocks, pl->block_size, pl->ncolours, pl->max_elem_colours,
          t * 1e3);
  fflush(stderr);
}

/* A cache entry for the key, its args copied, no plan yet; NULL after
 * reporting. */
static plan_entry *entry_new(const char *loop, loom_set set, int lo, int hi,
                             int nargs, const loom__plan_arg *args) {
  plan_entry *p = loomrt_calloc(LOOM_MEM_PLANS, 1, sizeof *p);
  if (p && nargs > 0) {
    p->key.args = loomrt_alloc(LOOM_MEM_PLANS, (size_t)nargs * sizeof *p->key.args);
    if (p->key.args)
      memcpy(p->key.args, args, (size_t)nargs * sizeof *p->key.args);
  }
  if (!p || (nargs > 0 && !p->key.args)) {
    if (p)
      entry_free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory for the plan of set '%s'",
                loomrt_loop_label(loop), set->name);
    return NULL;
  }
  p->key = (plan_key){loop, set, lo, hi, block_size, nargs, p->key.args};
  return p;
}

/* A new plan for the key, in the cache; NULL after reporting. */
static plan_entry *plan_new(const char *loop, loom_set set, int lo, int hi,
                            int nargs, const loom__plan_arg *args) {
  double t0, t1;
  loom_timers(NULL, &t0);
  plan_entry *p = entry_new(loop, set, lo, hi, nargs, args);
  if (!p)
    return NULL;
  if (loomrt_plan_build(&p->key, &p->plan, &p->own) != LOOM_OK) {
    entry_free(p);
    loom_error_(LOOM_ENOMEM,
                "loop %s: out of memory building the plan of set '%s' (%d "
                "elements)",
                loomrt_loop_label(loop), set->name, hi - lo);
    return NULL;
  }
  p->next = plans;
  plans = p;
  loom_timers(NULL, &t1);
  if (loomrt_diag())
    diag_built(p, t1 - t0);
  return p;
}

int loomrt_plan_lookup_range(const char *call, const char *loop, loom_set set,
                             int whole, int *lo, int *hi) {
  if (whole) {
    *lo = 0;
    *hi = set->size;
  }
  int status = loomrt_check_range(call, loop, set, *lo, *hi);
  return status != LOOM_OK ? status : loomrt_renumber_lazy();
}

/* The cached plan for the key, moved to the front of the list, or NULL. */
static plan_entry *cache_find(loom_set set, int lo, int hi, int nargs,
                              const loom__plan_arg *args) {
  for (plan_entry **link = &plans; *link; link = &(*link)->next) {
    plan_entry *p = *link;
    if (key_matches(&p->key, set, lo, hi, nargs, args)) {
      *link = p->next; /* move to the front */
      p->next = plans;
      plans = p;
      return p;
    }
  }
  return NULL;
}

/* The plan for [lo, hi) of `set` (the whole set when `whole`, after the
 * set was checked), from the cache or built; `call` names the entry point
 * for messages.  NULL after reporting. */
static const loom__plan *plan_lookup(const char *call, const char *loop,
                                     loom_set set, int whole, int lo, int hi,
                                     int nargs, const loom__plan_arg *args) {
  loomrt_plan_session();
  const char *label = loomrt_loop_label(loop);
  if (loomrt_require_active(call) != LOOM_OK ||
      loomrt_plan_check_args(call, label, set, nargs, args) != LOOM_OK ||
      loomrt_plan_lookup_range(call, label, set, whole, &lo, &hi) != LOOM_OK)
    return NULL;
  plan_entry *p = cache_find(set, lo, hi, nargs, args);
  if (p)
    return &p->plan;
  p = plan_new(loop, set, lo, hi, nargs, args);
  if (p && loomrt_check_plans() &&
      loom__plan_check(&p->plan, set, nargs, args) != LOOM_OK)
    return NULL;
  return p ? &p->plan : NULL;
}

const loom__plan *loom__plan_get(const char *loop, loom_set set, int nargs,
                                 const loom__plan_arg *args) {
  return plan_lookup("loom__plan_get", loop, set, 1, 0, 0, nargs, args);
}

const loom__plan *loom__plan_get_range(const char *loop, loom_set set, int lo,
                                       int hi, int nargs,
                                       const loom__plan_arg *args) {
  return plan_lookup("loom__plan_get_range", loop, set, 0, lo, hi, nargs,
                     args);
}
