/*
 * vectorize.c — which loops are staged (see vectorize.h).
 *
 * Per region, for each loop of a group that reads through a map: the
 * first reason it may not be staged, or none; a staged loop is marked in
 * the staging, by loop id, with whether it runs as lanes.  Both are noted
 * in the region's DAG.
 */
#include "transform/vectorize.h"

#include "analysis/region.h"
#include "transform/narrow.h"

enum { STAGED = 1, LANES = 2 };

struct staging {
  unsigned char *by_loop; /* by loop id: STAGED, LANES */
  int nloops;
};

typedef struct stager {
  const fusion *fu;
  const narrowing_list *narrowed;
  staging *st;
  arena *a;
} stager;

static int reads_through_map(const loop_arg *a) {
  return a->kind == ARG_MAPPED && a->mode == MODE_READ;
}

static int increments_through_map(const loop_arg *a) {
  return a->kind == ARG_MAPPED && a->mode == MODE_INC;
}

/* An argument of lp other than increments through maps naming x's dat:
 * the deferred increments would then change the order of its accesses. */
static const loop_arg *other_access(const loop *lp, const loop_arg *x) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == x->obj && !increments_through_map(&lp->args[i]))
      return &lp->args[i];
  return NULL;
}

static int pinned(const fusion *fu, const loop_arg *a) {
  const temp_info *ti = a->obj && a->obj->kind == OBJ_DAT ? temps_find(&fu->temps, a->obj) : NULL;
  return ti && ti->fate == TEMP_PINNED;
}

/* Why lp's elements may not run as a strip on gathered values (NULL: they
 * may).  lp reads through a map. */
static const char *problem(const fusion *fu, const loop *lp, arena *a) {
  int writes = 0;
  if (obj_extruded(lp->set))
    return arena_printf(a, "it runs over extruded set %s, whose columns the C compiler "
                        "vectorizes along the layers", obj_label(lp->set));
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    if (x->kind == ARG_MAT)
      return arena_printf(a, "it adds element matrices into %s (staged kernels do not "
                          "take them)", obj_label(x->obj));
    if (arg_is_reduction(x))
      return arena_printf(a, "it reduces %s (a vector loop would add in another order)",
                          obj_label(x->obj));
    if (arg_writes_indirectly(x) && !increments_through_map(x))
      return arena_printf(a, "it %s %s through map %s (elements of one strip may "
                          "update the same target)",
                          mode_verb(x->mode), obj_label(x->obj),
                          obj_label(x->map));
    if (increments_through_map(x) && !x->updated_once)
      return arena_printf(a, "its kernel updates %s (argument %d) more than once per "
                          "element or inside a loop (summed from 0 in a local, then "
                          "added, it would round otherwise than added in place)",
                          x->param_name, x->pos);
    if (increments_through_map(x) && other_access(lp, x))
      return arena_printf(a, "it increments %s through map %s and accesses it otherwise "
                          "(deferred increments would change the order)", obj_label(x->obj),
                          obj_label(x->map));
    writes |= increments_through_map(x);
    if (x->kind == ARG_MAPPED_ALL)
      return arena_printf(a, "it reads %s through %s[*] (its pointer arrays are not "
                          "gathered)", obj_label(x->obj), obj_label(x->map));
    if (pinned(fu, x))
      return arena_printf(a, "it evaluates the pinned temporary %s", obj_label(x->obj));
    writes |= x->mode != MODE_READ && x->kind == ARG_DAT;
  }
  if (!writes)
    return "it writes no dat";
  return NULL;
}

/* Why lp, staged, may not run as lanes (NULL: it may): its kernel's text
 * (frontend/lanes.h), and arguments a lane copy takes as base and offset
 * (reads through maps, increments through maps, the element's own dats)
 * or as they are (globals it reads). */
static const char *lanes_problem(const stager *x0, const loop *lp, arena *a) {
  if (!lp->lanes)
    return lp->lanes_why;
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    if (x->kind == ARG_DAT && narrow_find(x0->narrowed, x->obj)) /* (pinned: not staged) */
      return !a ? "" : arena_printf(a, "argument %d is the narrowed temporary %s", x->pos,
                                    obj_label(x->obj));
    if (x->kind == ARG_GLOBAL && !arg_is_reduction(x))
      continue;
    if (x->kind != ARG_DAT && !reads_through_map(x) && !increments_through_map(x))
      return !a ? "" : arena_printf(a, "argument %d is of a kind a lane copy does not take",
                                    x->pos);
  }
  return NULL;
}

static int candidate(const loop *lp) {
  for (int i = 0; !lp->domain && i < lp->nargs; i++)
    if (reads_through_map(&lp->args[i]) || increments_through_map(&lp->args[i]))
      return 1;
  return 0;
}

/* "p_x through pcell (4 reads)", for each dat and map of the arguments
 * `is` picks (`what`: "read" or "increment"). */
static const char *through(const loop *lp, int (*is)(const loop_arg *), const char *what,
                           arena *a) {
  const char *s = "";
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    int n = 0, first = 1;
    for (int k = 0; k < lp->nargs; k++)
      if (is(&lp->args[k]) && lp->args[k].obj == x->obj && lp->args[k].map == x->map) {
        first &= k >= i;
        n++;
      }
    if (is(x) && first)
      s = arena_printf(a, "%s%s%s through %s%s", s, *s ? ", " : "", obj_label(x->obj),
                       obj_label(x->map),
                       n > 1 ? arena_printf(a, " (%d %ss)", n, what) : "");
  }
  return s;
}

/* What staging does to lp, for its note. */
static const char *staging_text(const loop *lp, arena *a) {
  const char *reads = through(lp, reads_through_map, "read", a);
  const char *incs = through(lp, increments_through_map, "increment", a);
  const char *s = *reads ? arena_printf(a, "%s gathered per strip of %d elements", reads,
                                        STRIP_WIDTH)
                         : arena_printf(a, "strips of %d elements", STRIP_WIDTH);
  if (*incs)
    s = arena_printf(a, "%s, %s incremented in a local per element and added after the "
                     "strip's kernels, in element order", s, incs);
  return s;
}

static void decide(stager *x, const loop *lp, dag *notes) {
  arena *a = x->a;
  if (!fusion_group(x->fu, lp))
    return; /* a pinned producer: it runs inside its consumers */
  const char *why = problem(x->fu, lp, a);
  if (why) {
    dag_note(notes, a, lp->loc, "%s not staged: %s", lp->kernel, why);
    return;
  }
  const char *no_lanes = lanes_problem(x, lp, a);
  if (lp->id > 0 && lp->id < x->st->nloops)
    x->st->by_loop[lp->id] = STAGED | (no_lanes ? 0 : LANES);
  dag_note(notes, a, lp->loc, "%s staged: %s; %s; each call runs staged or element by "
           "element, as timed over its first calls (LOOM_VECTOR)", lp->kernel,
           staging_text(lp, a),
           no_lanes ? arena_printf(a, "its kernel runs over the strip's rows (not as lanes: "
                                   "%s)", no_lanes)
                    : "its kernel runs as lanes: a copy takes each argument as base and "
                      "offset");
}

const staging *vectorize(const translation *t, const fusion *fu, const narrowing_list *narrowed,
                         arena *a) {
  staging *st = arena_alloc(a, sizeof *st);
  st->nloops = fu->nloops;
  st->by_loop = arena_alloc(a, (size_t)(st->nloops > 0 ? st->nloops : 1)); /* zeroed */
  stager x = {fu, narrowed, st, a};
  for (int r = 0; !t->opt->no_vectorize && r < t->regions.len; r++) {
    const region *reg = t->regions.items[r];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      if (it->kind == ITEM_LOOP && candidate(it->lp))
        decide(&x, it->lp, t->dags.items[r]);
    }
  }
  return st;
}

static int marks(const staging *st, const loop *lp) {
  return st && lp->id > 0 && lp->id < st->nloops ? st->by_loop[lp->id] : 0;
}

int vectorize_staged(const staging *st, const loop *lp) { return marks(st, lp) & STAGED; }

int vectorize_lanes(const staging *st, const loop *lp) { return (marks(st, lp) & LANES) != 0; }

int vectorize_strips(const staging *st, const group *gr) {
  for (int i = 0; i < gr->loops.len; i++)
    if (vectorize_staged(st, gr->loops.items[i]))
      return 1;
  return 0;
}

int vectorize_gathers(const staging *st, const loop *lp, const loop_arg *a) {
  return vectorize_staged(st, lp) && reads_through_map(a);
}

int vectorize_scatters(const staging *st, const loop *lp, const loop_arg *a) {
  return vectorize_staged(st, lp) && increments_through_map(a);
}
