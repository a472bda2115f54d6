/*
 * plan/ocplan.c — owner-computes partitions: the second kind of execution plan.
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
 * A part's elements are also given as runs of consecutive ones, which
 * its loop walks with the element itself as index (strips and all, as
 * seq's loop): a part's elements are mostly a few long runs, with the
 * elements straddling its boundary between them.
 *
 * Each target element is thus updated by one thread only, by the same
 * elements in the same order as the sequential loop: the results are
 * bit-identical to seq, whatever the number of parts.  Each part sweeps
 * its elements once, in mesh order, instead of once per colour.
 *
 * Like a colouring plan (cache.c), a plan covers a range [lo, hi) of the
 * iteration set (loom__ocplan_get: the whole set), e.g. one section of an
 * MPI partition: only the map rows of elements in [lo, hi) are read (the
 * rows of non-executed halo elements hold -1), the ranges are balanced by
 * the increments of those elements only, and elems[] lists absolute
 * indices from [lo, hi).  The parts still split the whole target set.
 *
 * Plans are cached per (set, lo, hi, nparts, written maps) and freed with
 * the colouring plans (loomrt_plan_drop_all); the key's maps are
 * compared, and the range a lookup asks for is taken, as for those
 * (loomrt_plan_args_equal, loomrt_plan_lookup_range: cache.c).  Loops
 * that increment through the same maps share a plan, whatever their
 * labels (Airfoil's two res_calc: one plan of 1.44M edges, not two).
 *
 * Checker.  For each part, it walks the range and recomputes which
 * elements increment a target in the part's range: the part's list must
 * be exactly those, ascending, and its runs the same elements; every
 * listed element must lie in the range.
 * The range is [lo, lo + nelems), within the set, and hi must agree with
 * it: checked last, so that a plan built by a positional initializer that
 * predates lo and hi (both then 0) is still judged by its elements.  The
 * checker starts as the colouring plans' does, and judges the iteration
 * set and the range with its helpers (check.c: loomrt_plan_check_start,
 * loomrt_check_iteration_set, loomrt_range_within).
 * Cost: O(nparts * entries of the range).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "plan/plan.h"
#include "plan/plan_internal.h"

typedef struct oc_entry {
  struct oc_entry *next;
  const char *loop; /* the label of the loop that built it (messages) */
  loom_set set;
  int lo, hi; /* the range of elements */
  int nparts, nargs;
  loom__plan_arg *args;
  loom__ocplan plan; /* value */
  int *part_lo, *elem_start, *elems, *run_start, *runs;
} oc_entry;

static oc_entry *ocplans = NULL;

static void oc_free(oc_entry *p) {
  loomrt_free(p->args);
  loomrt_free(p->part_lo);
  loomrt_free(p->elem_start);
  loomrt_free(p->elems);
  loomrt_free(p->run_start);
  loomrt_free(p->runs);
  loomrt_free(p);
}

void loomrt_ocplan_drop_all(void) {
  while (ocplans) {
    oc_entry *next = ocplans->next;
    oc_free(ocplans);
    ocplans = next;
  }
}

static int oc_key(const oc_entry *p, loom_set set, int lo, int hi, int nparts, int nargs,
                  const loom__plan_arg *args) {
  return p->set == set && p->lo == lo && p->hi == hi &&
         p->nparts == nparts && p->nargs == nargs &&
         loomrt_plan_args_equal(p->args, args, nargs);
}

/* Checks the iteration set and the written maps of `call`. */
static int oc_check_args(const char *call, const char *loop, loom_set set, int nparts,
                         int nargs, const loom__plan_arg *args) {
  int status = loomrt_check_iteration_set(call, loop, set);
  if (status != LOOM_OK)
    return status;
  if (nparts < 1 || nargs < 1 || !args)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: %d parts, %d maps", call, loop, nparts,
                       nargs);
  for (int i = 0; i < nargs; i++) {
    const char *problem = loomrt_map_problem(args[i].map);
    if (problem)
      return loom_error_(LOOM_EINVAL, "%s: loop %s: map %s", call, loop, problem);
    if (args[i].map->from != set || args[i].map->to != args[0].map->to ||
        args[i].slot < -1 || args[i].slot >= args[i].map->dim)
      return loom_error_(LOOM_EMISMATCH,
                         "%s: loop %s: map '%s' (slot %d) does not map set '%s' into "
                         "the target set of the others", call, loop,
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

/* Ranges of the target set with about equal numbers of increments from
 * the elements in [lo, hi); part_of[t] is the part owning target t. */
static void split_targets(oc_entry *p, int ntargets, int *part_of) {
  long *weight = loomrt_calloc(LOOM_MEM_PLANS, (size_t)ntargets + 1, sizeof *weight);
  long total = 0;
  if (weight)
    for (int e = p->lo; e < p->hi; e++)
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
  loomrt_free(weight);
}

/* The elements of [lo, hi) of each part, in increasing order. */
static int fill_parts(oc_entry *p, const int *part_of) {
  int np = p->nparts;
  int *count = loomrt_calloc(LOOM_MEM_PLANS, (size_t)np + 1, sizeof *count);
  int *seen = loomrt_alloc(LOOM_MEM_PLANS, (size_t)np * sizeof *seen);
  if (!count || !seen) {
    loomrt_free(count);
    loomrt_free(seen);
    return LOOM_ENOMEM;
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int q = 0; q < np; q++)
      seen[q] = -1;
    for (int e = p->lo; e < p->hi; e++)
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
      p->elems = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)count[np] + 1) * sizeof *p->elems);
      if (!p->elems)
        break;
    }
  }
  loomrt_free(count);
  loomrt_free(seen);
  return p->elems ? LOOM_OK : LOOM_ENOMEM;
}

/* Whether elems[k] starts a run of the part whose list starts at elems[first]. */
static int run_starts(const int *elems, int first, int k) {
  return k == first || elems[k] != elems[k - 1] + 1;
}

/* The parts' elements as runs of consecutive ones. */
static int fill_runs(oc_entry *p) {
  int np = p->nparts, n = 0;
  p->run_start = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)np + 1) * sizeof *p->run_start);
  for (int q = 0; p->run_start && q < np; q++) {
    p->run_start[q] = n;
    for (int k = p->elem_start[q]; k < p->elem_start[q + 1]; k++)
      n += run_starts(p->elems, p->elem_start[q], k);
  }
  if (!p->run_start)
    return LOOM_ENOMEM;
  p->run_start[np] = n;
  p->runs = loomrt_alloc(LOOM_MEM_PLANS, (2 * (size_t)n + 1) * sizeof *p->runs);
  if (!p->runs)
    return LOOM_ENOMEM;
  for (int q = 0, r = -1; q < np; q++)
    for (int k = p->elem_start[q]; k < p->elem_start[q + 1]; k++) {
      if (run_starts(p->elems, p->elem_start[q], k))
        p->runs[2 * ++r] = p->elems[k];
      p->runs[2 * r + 1] = p->elems[k] + 1;
    }
  return LOOM_OK;
}

static int oc_build(oc_entry *p) {
  int ntargets = p->args[0].map->to->size;
  p->part_lo = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)p->nparts + 1) * sizeof *p->part_lo);
  p->elem_start = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)p->nparts + 1) * sizeof *p->elem_start);
  int *part_of = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)ntargets + 1) * sizeof *part_of);
  int rc = LOOM_ENOMEM;
  if (p->part_lo && p->elem_start && part_of) {
    split_targets(p, ntargets, part_of);
    rc = fill_parts(p, part_of);
  }
  if (rc == LOOM_OK)
    rc = fill_runs(p);
  loomrt_free(part_of);
  p->plan = (loom__ocplan){.nparts = p->nparts, .nelems = p->hi - p->lo,
                           .part_lo = p->part_lo, .elem_start = p->elem_start,
                           .elems = p->elems, .lo = p->lo, .hi = p->hi,
                           .run_start = p->run_start, .runs = p->runs};
  return rc;
}

static oc_entry *oc_new(const char *loop, loom_set set, int lo, int hi, int nparts,
                        int nargs, const loom__plan_arg *args) {
  oc_entry *p = loomrt_calloc(LOOM_MEM_PLANS, 1, sizeof *p);
  if (p)
    p->args = loomrt_alloc(LOOM_MEM_PLANS, (size_t)nargs * sizeof *p->args);
  if (!p || !p->args) {
    loomrt_free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory for the plan of set '%s'",
                loomrt_loop_label(loop), set->name);
    return NULL;
  }
  memcpy(p->args, args, (size_t)nargs * sizeof *args);
  *p = (oc_entry){.loop = loop, .set = set, .lo = lo, .hi = hi, .nparts = nparts,
                  .nargs = nargs, .args = p->args};
  if (oc_build(p) != LOOM_OK) {
    oc_free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory building the owner-computes plan "
                "of set '%s'", loomrt_loop_label(loop), set->name);
    return NULL;
  }
  p->next = ocplans;
  ocplans = p;
  if (loomrt_diag()) {
    int total = p->elem_start[nparts], n = hi - lo;
    char range[64];
    fprintf(stderr, "loom: plan %s: set '%s' %d elements%s, %d owner-computes parts, %d "
            "elements computed twice or more (%.2f%%), in %d run%s\n", loomrt_loop_label(loop),
            set->name, n, loomrt_range_note(range, sizeof range, set, lo, hi), nparts,
            total - n, n ? 100.0 * (total - n) / n : 0.0, p->run_start[nparts],
            p->run_start[nparts] == 1 ? "" : "s");
    fflush(stderr);
  }
  return p;
}

/* The plan for [lo, hi) of `set` (the whole set when `whole`, after the
 * set was checked), from the cache or built; `call` names the entry point
 * for messages.  NULL after reporting. */
static const loom__ocplan *oc_lookup(const char *call, const char *loop, loom_set set,
                                     int whole, int lo, int hi, int nparts, int nargs,
                                     const loom__plan_arg *args) {
  loomrt_plan_session(); /* dropped with the colouring plans */
  const char *label = loomrt_loop_label(loop);
  if (loomrt_require_active(call) != LOOM_OK ||
      oc_check_args(call, label, set, nparts, nargs, args) != LOOM_OK ||
      loomrt_plan_lookup_range(call, label, set, whole, &lo, &hi) != LOOM_OK)
    return NULL;
  for (oc_entry *p = ocplans; p; p = p->next)
    if (oc_key(p, set, lo, hi, nparts, nargs, args))
      return &p->plan;
  oc_entry *p = oc_new(loop, set, lo, hi, nparts, nargs, args);
  if (p && loomrt_check_plans() && loom__ocplan_check(&p->plan, set, nargs, args) != LOOM_OK)
    return NULL;
  return p ? &p->plan : NULL;
}

const loom__ocplan *loom__ocplan_get(const char *loop, loom_set set, int nparts, int nargs,
                                     const loom__plan_arg *args) {
  return oc_lookup("loom__ocplan_get", loop, set, 1, 0, 0, nparts, nargs, args);
}

const loom__ocplan *loom__ocplan_get_range(const char *loop, loom_set set, int lo, int hi,
                                           int nparts, int nargs,
                                           const loom__plan_arg *args) {
  return oc_lookup("loom__ocplan_get_range", loop, set, 0, lo, hi, nparts, nargs, args);
}

/* ---- checking ---------------------------------------------------------- */

#define OC_VIOLATION(...) loom_error_(LOOM_EMISMATCH, __VA_ARGS__)

/* The range [lo, lo + nelems) lies in the set; the parts' ranges are a
 * partition of the target set and their element lists are well formed
 * (counts ascending, every listed element in the range). */
static int oc_check_layout(const loom__ocplan *plan, loom_set set, int ntargets) {
  int np = plan->nparts, lo = plan->lo;
  if (!loomrt_range_within(set, lo, (long long)lo + plan->nelems))
    return OC_VIOLATION("owner-computes plan: its %d elements from %d are not a range "
                        "of the %d elements of set '%s'", plan->nelems, lo, set->size,
                        set->name);
  if (plan->part_lo[0] != 0 || plan->part_lo[np] != ntargets)
    return OC_VIOLATION("owner-computes plan: ranges do not cover the target set");
  if (plan->elem_start[0] != 0)
    return OC_VIOLATION("owner-computes plan: part 0's elements start at %d, not 0",
                        plan->elem_start[0]);
  for (int q = 0; q < np; q++) {
    if (plan->part_lo[q] > plan->part_lo[q + 1])
      return OC_VIOLATION("owner-computes plan: part %d's range is reversed", q);
    if (plan->elem_start[q] > plan->elem_start[q + 1])
      return OC_VIOLATION("owner-computes plan: part %d's element list is reversed", q);
    for (int k = plan->elem_start[q]; k < plan->elem_start[q + 1]; k++)
      if (plan->elems[k] < lo || plan->elems[k] >= lo + plan->nelems)
        return OC_VIOLATION("owner-computes plan: part %d lists element %d, outside "
                            "the plan's range [%d, %d)", q, plan->elems[k], lo,
                            lo + plan->nelems);
  }
  return LOOM_OK;
}

/* Part q lists exactly the elements of the range with an increment into
 * its targets, ascending (rows of the range only). */
static int oc_check_part(const loom__ocplan *plan, const oc_entry *probe, int q) {
  int at = plan->elem_start[q], tlo = plan->part_lo[q], thi = plan->part_lo[q + 1];
  for (int e = plan->lo; e < plan->lo + plan->nelems; e++) {
    int mine = 0;
    FOR_TARGETS(probe, e, t, mine |= t >= tlo && t < thi);
    if (mine && (at >= plan->elem_start[q + 1] || plan->elems[at++] != e))
      return OC_VIOLATION("owner-computes plan: part %d lacks element %d (or has it out "
                          "of order)", q, e);
  }
  if (at != plan->elem_start[q + 1])
    return OC_VIOLATION("owner-computes plan: part %d has elements it does not need", q);
  return LOOM_OK;
}

/* Part q's runs hold its listed elements, in order (a plan without runs,
 * run_start NULL, has none to check). */
static int oc_check_runs(const loom__ocplan *plan, int q) {
  if (!plan->run_start)
    return LOOM_OK;
  if (!plan->runs && plan->run_start[q + 1] > plan->run_start[q])
    return OC_VIOLATION("owner-computes plan: part %d has runs but no array of them", q);
  int at = plan->elem_start[q];
  for (int r = plan->run_start[q]; r < plan->run_start[q + 1]; r++)
    for (int e = plan->runs[2 * r]; e < plan->runs[2 * r + 1]; e++)
      if (at >= plan->elem_start[q + 1] || plan->elems[at++] != e)
        return OC_VIOLATION("owner-computes plan: run %d of part %d has element %d, which "
                            "its list does not have there", r, q, e);
  if (at != plan->elem_start[q + 1])
    return OC_VIOLATION("owner-computes plan: the runs of part %d lack elements of its list", q);
  return LOOM_OK;
}

/* Every element of the range is in exactly the parts owning one of its
 * targets, each part's list ascending, the ranges a partition of the
 * target set; then hi agrees with lo + nelems. */
int loom__ocplan_check(const loom__ocplan *plan, loom_set set, int nargs,
                       const loom__plan_arg *args) {
  int status = loomrt_plan_check_start("loom__ocplan_check", plan);
  if (status != LOOM_OK)
    return status;
  if (!plan->part_lo || !plan->elem_start || (plan->nparts < 1) ||
      (!plan->elems && plan->elem_start[plan->nparts] > 0))
    return OC_VIOLATION("owner-computes plan: %d parts, or an array is NULL",
                        plan->nparts);
  status = oc_check_args("loom__ocplan_check", loomrt_loop_label(NULL), set, plan->nparts,
                         nargs, args);
  if (status == LOOM_OK)
    status = oc_check_layout(plan, set, args[0].map->to->size);
  if (status != LOOM_OK)
    return status;
  oc_entry probe = {.set = set, .lo = plan->lo, .hi = plan->lo + plan->nelems,
                    .nparts = plan->nparts, .nargs = nargs, .args = (loom__plan_arg *)args};
  for (int q = 0; q < plan->nparts && status == LOOM_OK; q++) {
    status = oc_check_part(plan, &probe, q);
    if (status == LOOM_OK)
      status = oc_check_runs(plan, q);
  }
  if (status == LOOM_OK && plan->hi != plan->lo + plan->nelems)
    status = OC_VIOLATION("owner-computes plan: covers [%d, %d) but has %d elements",
                          plan->lo, plan->hi, plan->nelems);
  return status;
}
