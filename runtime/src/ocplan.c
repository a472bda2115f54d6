/*
 * ocplan.c — owner-computes partitions: the second kind of execution plan.
 *
 * A loop whose only writes through maps are increments into one target
 * set (Airfoil's res_calc and bres_calc) can run without colouring: the
 * target set is split into `nparts` contiguous ranges, balanced by the
 * number of increments each receives; part p runs, in increasing order,
 * every element that increments a target in its range, and applies only
 * the increments that land in its range (the generated code sends the
 * others to a scratch local).  Elements on the boundary between two
 * ranges are computed by both parts.
 *
 * Each target element is thus updated by one thread only, by the same
 * elements in the same order as the sequential loop: the results are
 * bit-identical to seq, whatever the number of parts.  Each part sweeps
 * its elements once, in mesh order, instead of once per colour.
 *
 * Plans are cached per (loop, set, nparts, written maps) and freed with
 * the colouring plans (loomrt_plan_drop_all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom_internal.h"

typedef struct oc_entry {
  struct oc_entry *next;
  const char *loop; /* key */
  loom_set set;
  int nparts, nargs;
  loom__plan_arg *args;
  loom__ocplan plan; /* value */
  int *part_lo, *elem_start, *elems;
} oc_entry;

static oc_entry *ocplans = NULL;

static void oc_free(oc_entry *p) {
  free(p->args);
  free(p->part_lo);
  free(p->elem_start);
  free(p->elems);
  free(p);
}

void loomrt_ocplan_drop_all(void) {
  while (ocplans) {
    oc_entry *next = ocplans->next;
    oc_free(ocplans);
    ocplans = next;
  }
}

static int oc_key(const oc_entry *p, const char *loop, loom_set set, int nparts, int nargs,
                  const loom__plan_arg *args) {
  if (p->loop != loop || p->set != set || p->nparts != nparts || p->nargs != nargs)
    return 0;
  for (int i = 0; i < nargs; i++)
    if (p->args[i].map != args[i].map || p->args[i].slot != args[i].slot)
      return 0;
  return 1;
}

static int oc_check_args(const char *loop, loom_set set, int nparts, int nargs,
                         const loom__plan_arg *args) {
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "loom__ocplan_get: loop %s: iteration set %s", loop,
                       problem);
  if (nparts < 1 || nargs < 1 || !args)
    return loom_error_(LOOM_EINVAL, "loom__ocplan_get: loop %s: %d parts, %d maps", loop,
                       nparts, nargs);
  for (int i = 0; i < nargs; i++) {
    problem = loomrt_map_problem(args[i].map);
    if (problem)
      return loom_error_(LOOM_EINVAL, "loom__ocplan_get: loop %s: map %s", loop, problem);
    if (args[i].map->from != set || args[i].map->to != args[0].map->to ||
        args[i].slot < -1 || args[i].slot >= args[i].map->dim)
      return loom_error_(LOOM_EMISMATCH,
                         "loom__ocplan_get: loop %s: map '%s' (slot %d) does not map "
                         "set '%s' into the target set of the others", loop,
                         args[i].map->name, args[i].slot, set->name);
  }
  return LOOM_OK;
}

/* Calls f(target) for every target element element e increments. */
#define FOR_TARGETS(p, e, t, body)                                              \
  for (int a_ = 0; a_ < (p)->nargs; a_++) {                                    \
    const loom__plan_arg *x_ = &(p)->args[a_];                                 \
    int lo_ = x_->slot < 0 ? 0 : x_->slot;                                     \
    int hi_ = x_->slot < 0 ? x_->map->dim : x_->slot + 1;                      \
    for (int s_ = lo_; s_ < hi_; s_++) {                                       \
      int t = x_->map->values[(size_t)(e) * x_->map->dim + s_];                \
      body;                                                                     \
    }                                                                          \
  }

/* Ranges of the target set with about equal numbers of increments;
 * part_of[t] is the part owning target t. */
static void split_targets(oc_entry *p, int ntargets, int *part_of) {
  long *weight = calloc((size_t)ntargets + 1, sizeof *weight);
  long total = 0;
  if (weight)
    for (int e = 0; e < p->set->size; e++)
      FOR_TARGETS(p, e, t, weight[t]++);
  for (int t = 0; t < ntargets; t++)
    total += weight ? weight[t] : 1;
  long acc = 0;
  int part = 0;
  p->part_lo[0] = 0;
  for (int t = 0; t < ntargets; t++) {
    while (part + 1 < p->nparts && acc * p->nparts >= total * (part + 1))
      p->part_lo[++part] = t;
    part_of[t] = part;
    acc += weight ? weight[t] : 1;
  }
  while (part + 1 < p->nparts)
    p->part_lo[++part] = ntargets;
  p->part_lo[p->nparts] = ntargets;
  free(weight);
}

/* The elements of each part, in increasing order. */
static int fill_parts(oc_entry *p, const int *part_of) {
  int n = p->set->size, np = p->nparts;
  int *count = calloc((size_t)np + 1, sizeof *count), *seen = malloc((size_t)np * sizeof *seen);
  if (!count || !seen) {
    free(count);
    free(seen);
    return LOOM_ENOMEM;
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int q = 0; q < np; q++)
      seen[q] = -1;
    for (int e = 0; e < n; e++)
      FOR_TARGETS(p, e, t, {
        int q = part_of[t];
        if (seen[q] != e) {
          seen[q] = e;
          if (pass == 0)
            count[q + 1]++;
          else
            p->elems[count[q]++] = e;
        }
      });
    if (pass == 0) {
      for (int q = 0; q < np; q++)
        count[q + 1] += count[q];
      memcpy(p->elem_start, count, ((size_t)np + 1) * sizeof *count);
      p->elems = malloc(((size_t)count[np] + 1) * sizeof *p->elems);
      if (!p->elems)
        break;
    }
  }
  free(count);
  free(seen);
  return p->elems ? LOOM_OK : LOOM_ENOMEM;
}

static int oc_build(oc_entry *p) {
  int ntargets = p->args[0].map->to->size;
  p->part_lo = malloc(((size_t)p->nparts + 1) * sizeof *p->part_lo);
  p->elem_start = malloc(((size_t)p->nparts + 1) * sizeof *p->elem_start);
  int *part_of = malloc(((size_t)ntargets + 1) * sizeof *part_of);
  int rc = LOOM_ENOMEM;
  if (p->part_lo && p->elem_start && part_of) {
    split_targets(p, ntargets, part_of);
    rc = fill_parts(p, part_of);
  }
  free(part_of);
  p->plan = (loom__ocplan){p->nparts, p->set->size, p->part_lo, p->elem_start, p->elems};
  return rc;
}

static oc_entry *oc_new(const char *loop, loom_set set, int nparts, int nargs,
                        const loom__plan_arg *args) {
  oc_entry *p = calloc(1, sizeof *p);
  if (p)
    p->args = malloc((size_t)nargs * sizeof *p->args);
  if (!p || !p->args) {
    free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory for the plan of set '%s'",
                loomrt_loop_label(loop), set->name);
    return NULL;
  }
  memcpy(p->args, args, (size_t)nargs * sizeof *args);
  *p = (oc_entry){NULL, loop, set, nparts, nargs, p->args, {0}, NULL, NULL, NULL};
  if (oc_build(p) != LOOM_OK) {
    oc_free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory building the owner-computes plan "
                "of set '%s'", loomrt_loop_label(loop), set->name);
    return NULL;
  }
  p->next = ocplans;
  ocplans = p;
  if (loomrt_diag()) {
    int total = p->elem_start[nparts];
    fprintf(stderr, "loom: plan %s: set '%s' %d elements, %d owner-computes parts, %d "
            "elements computed twice or more (%.2f%%)\n", loomrt_loop_label(loop),
            set->name, set->size, nparts, total - set->size,
            set->size ? 100.0 * (total - set->size) / set->size : 0.0);
    fflush(stderr);
  }
  return p;
}

const loom__ocplan *loom__ocplan_get(const char *loop, loom_set set, int nparts, int nargs,
                                     const loom__plan_arg *args) {
  if (loomrt_require_active("loom__ocplan_get") != LOOM_OK ||
      oc_check_args(loomrt_loop_label(loop), set, nparts, nargs, args) != LOOM_OK ||
      loomrt_renumber_lazy() != LOOM_OK)
    return NULL;
  for (oc_entry *p = ocplans; p; p = p->next)
    if (oc_key(p, loop, set, nparts, nargs, args))
      return &p->plan;
  oc_entry *p = oc_new(loop, set, nparts, nargs, args);
  if (p && loomrt_check_plans() && loom__ocplan_check(&p->plan, set, nargs, args) != LOOM_OK)
    return NULL;
  return p ? &p->plan : NULL;
}

/* ---- checking ---------------------------------------------------------- */

/* Every element is in exactly the parts owning one of its targets, each
 * part's list ascending, the ranges a partition of the target set. */
int loom__ocplan_check(const loom__ocplan *plan, loom_set set, int nargs,
                       const loom__plan_arg *args) {
  oc_entry probe = {NULL, NULL, set, plan->nparts, nargs, (loom__plan_arg *)args,
                    {0}, NULL, NULL, NULL};
  int ntargets = args[0].map->to->size, np = plan->nparts;
  if (plan->part_lo[0] != 0 || plan->part_lo[np] != ntargets)
    return loom_error_(LOOM_EMISMATCH, "owner-computes plan: ranges do not cover the "
                       "target set");
  for (int q = 0; q < np; q++) {
    if (plan->part_lo[q] > plan->part_lo[q + 1])
      return loom_error_(LOOM_EMISMATCH, "owner-computes plan: part %d's range is "
                         "reversed", q);
    int at = plan->elem_start[q];
    for (int e = 0; e < set->size; e++) {
      int mine = 0;
      FOR_TARGETS(&probe, e, t, mine |= t >= plan->part_lo[q] && t < plan->part_lo[q + 1]);
      if (mine && (at >= plan->elem_start[q + 1] || plan->elems[at++] != e))
        return loom_error_(LOOM_EMISMATCH, "owner-computes plan: part %d lacks element "
                           "%d (or has it out of order)", q, e);
    }
    if (at != plan->elem_start[q + 1])
      return loom_error_(LOOM_EMISMATCH, "owner-computes plan: part %d has elements it "
                         "does not need", q);
  }
  return LOOM_OK;
}
