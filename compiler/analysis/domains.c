/*
 * domains.c — isl domains, access relations and fusion legality (see
 * domains.h).
 *
 * Relations are written as isl text and read back, so that what --report
 * and the tests show is what isl decides on.  Ownership follows isl's
 * annotations: each function frees what it gets on its one exit path.
 */
#include "analysis/domains.h"

#include "analysis/effects.h"
#include "util/strtab.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/union_map.h>
#include <string.h>

static isl_ctx *ctx;

static isl_ctx *context(void) {
  if (!ctx) {
    ctx = isl_ctx_alloc();
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  }
  return ctx;
}

/* Relations read once per text: a loop's access relations are compared
 * with those of each loop it is tried with, and reading the text is most
 * of a check's cost.  The table owns its relations. */
static strtab read_once;

/* The relation written as `text`, read once (a copy: the caller owns it). */
static __isl_give isl_union_map *relation(const char *text) {
  int fresh;
  strtab_slot *slot = strtab_slot_of(&read_once, text, &fresh);
  if (!slot)
    return isl_union_map_read_from_str(context(), text);
  if (fresh)
    slot->value = isl_union_map_read_from_str(context(), text);
  return isl_union_map_copy(slot->value);
}

static void free_relation(void *m) { isl_union_map_free(m); }

void domains_done(void) {
  strtab_free(&read_once, free_relation);
  if (ctx)
    isl_ctx_free(ctx);
  ctx = NULL;
}

/* ---- names --------------------------------------------------------------- */

/* The statement of a loop: its kernel and id, `update_4`. */
static const char *stmt(arena *a, const loop *lp) {
  return arena_printf(a, "%s_%d", lp->kernel, lp->id);
}

/* The parameter of a set's executed-halo bound, `x_cells`. */
static const char *bound(arena *a, const obj *set) {
  return arena_printf(a, "x_%s", set->name);
}

/* An object's array in isl: its name, made unique by its declaration's
 * place (two dats of one name in different scopes are different). */
static const char *array(arena *a, const obj *o) {
  return arena_printf(a, "%s_%u_%u", o->name, o->loc.line, o->loc.col);
}

/* The layer parameter of an extruded set, `L_prisms`. */
static const char *layers(arena *a, const obj *set) {
  return arena_printf(a, "L_%s", set->name);
}

/* The constraints of lp's elements: `0 <= e < x_cells`; over an extruded
 * set also its region's layers, `0 <= l < L_prisms - 1` (interior). */
static const char *elements(arena *a, const loop *lp) {
  const char *x = bound(a, lp->set);
  if (!lp->set->base)
    return arena_printf(a, "0 <= e < %s", x);
  const char *L = layers(a, lp->set);
  const char *lo = lp->region == REGION_TOP ? arena_printf(a, "%s - 1", L) : "0";
  const char *hi = lp->region == REGION_BOTTOM     ? "1"
                   : lp->region == REGION_INTERIOR ? arena_printf(a, "%s - 1", L)
                                                   : L;
  return arena_printf(a, "0 <= e < %s and %s <= l < %s", x, lo, hi);
}

/* lp's parameters: its set's bounds, and its layers when extruded. */
static const char *params(arena *a, const loop *lp) {
  const char *s = lp->set->name;
  const char *p = arena_printf(a, "c_%s, o_%s, x_%s", s, s, s);
  return lp->set->base ? arena_printf(a, "%s, %s", p, layers(a, lp->set)) : p;
}

/* lp's statement instance: `update_4[e]`, or `avg_1[e, l]` over the layers
 * of an extruded set's columns. */
static const char *instance(arena *a, const loop *lp) {
  return arena_printf(a, "%s[e%s]", stmt(a, lp), lp->set->base ? ", l" : "");
}

const char *domain_text(arena *a, const loop *lp) {
  return arena_printf(a, "[%s] -> { %s : %s }", params(a, lp), instance(a, lp),
                      elements(a, lp));
}

/* An access of an extruded loop through extruded map m, slot j: the
 * target column's layer l + shift; the column is the element's own for
 * a map over the identity, else any of the target set.  Where either set
 * has columns of their own heights, another column's layers are not the
 * parameter's (the region's top in one column is any layer in another):
 * the layer reached in another column is then any. */
static const char *extruded_slot(arena *a, const loop *lp, const effect *e, int j) {
  const obj *m = e->map;
  const char *col = m->base ? "f" : "e";
  const char *f = m->base ? arena_printf(a, " and 0 <= f < %s", bound(a, e->o->set)) : "";
  if (m->base && (m->from->columns || m->to->columns))
    return arena_printf(a, "%s -> %s[f, g] : %s%s", instance(a, lp), array(a, e->o),
                        elements(a, lp), f);
  return arena_printf(a, "%s -> %s[%s, l + %d] : %s%s", instance(a, lp), array(a, e->o), col,
                      m->shift[j], elements(a, lp), f);
}

/* Parameter list p, with name added unless it is there. */
static const char *with_param(arena *a, const char *p, const char *name) {
  size_t n = strlen(name);
  for (const char *q = strstr(p, name); q; q = strstr(q + 1, name))
    if ((q == p || q[-1] == ' ') && (q[n] == ',' || q[n] == '\0'))
      return p;
  return arena_printf(a, "%s, %s", p, name);
}

/* The access relation of an effect through an extruded map: one piece
 * per slot it reads. */
static const char *extruded_access(arena *a, const loop *lp, const effect *e) {
  const char *y = params(a, lp);
  if (e->map->base)
    y = with_param(a, y, bound(a, e->o->set));
  const char *text = arena_printf(a, "[%s] -> { ", y);
  int first = e->slot < 0 ? 0 : e->slot, last = e->slot < 0 ? e->map->dim - 1 : e->slot;
  for (int j = first; j <= last; j++)
    text = arena_printf(a, "%s%s%s", text, j > first ? "; " : "", extruded_slot(a, lp, e, j));
  return arena_printf(a, "%s }", text);
}

/* The access relation of an effect (effects.h) of lp. */
static const char *effect_access(arena *a, const loop *lp, const effect *e) {
  const char *p = params(a, lp), *in = instance(a, lp), *dom = elements(a, lp);
  if (e->via == VIA_WHOLE)
    return arena_printf(a, "[%s] -> { %s -> %s[0] : %s }", p, in, array(a, e->o), dom);
  if (e->via == VIA_MAP && e->map && e->map->shift && lp->set->base && !e->twice)
    return extruded_access(a, lp, e);
  if (e->via == VIA_MAP) {
    const char *y = bound(a, e->o->set);
    const char *f = e->o->set->base ? "[f, g]" : "[f]";
    return arena_printf(a, "[%s] -> { %s -> %s%s : %s and 0 <= f < %s }",
                        with_param(a, p, y), in, array(a, e->o), f, dom, y);
  }
  return arena_printf(a, "[%s] -> { %s -> %s[e%s] : %s }", p, in, array(a, e->o),
                      lp->set->base ? ", l" : "", dom);
}

const char *access_text(arena *a, const loop *lp, const loop_arg *arg) {
  effect_list fx = effects_of_loop(a, lp, NULL);
  for (int i = 0; i < fx.len; i++)
    if (((const effect *)fx.items[i])->arg == arg)
      return effect_access(a, lp, fx.items[i]);
  return NULL;
}

/* ---- legality ------------------------------------------------------------- */

/* What fusing loops over an extruded set layer by layer asks of a
 * dependence (by_layer): nothing (0: fused by columns only), a cell to
 * itself, or a cell to itself or to a cell above it in its column, which
 * a layer-by-layer loop also runs after it (each layer runs the loops in
 * program order). */
enum { BY_COLUMN, BY_CELL, BY_LAYER_ORDER };

/* The relation a dependence between p and l must stay within: an
 * element to itself, { P[e] -> L[e] }; over an extruded set's columns a
 * column to itself, { P[e, l] -> L[e, m] }, a cell (one layer of one
 * column) to itself, { P[e, l] -> L[e, l] }, or a cell to itself or one
 * above it, { P[e, l] -> L[e, m] : m >= l }. */
static const char *within(arena *a, const loop *p, const loop *l, int by_layer) {
  if (!p->set->base)
    return arena_printf(a, "{ %s[e] -> %s[e] }", stmt(a, p), stmt(a, l));
  return arena_printf(a, "{ %s[e, l] -> %s[e, %s]%s }", stmt(a, p), stmt(a, l),
                      by_layer == BY_CELL ? "l" : "m",
                      by_layer == BY_LAYER_ORDER ? " : m >= l" : "");
}

/* Whether pairs over a set without layers are decided in closed form
 * (0, the default) or by isl like the others (1: tests compare the two). */
static int isl_always;

void domains_decide_by_isl(int always) { isl_always = always; }

/* same_element() over a set without layers, where the relations above
 * have one form each and isl's answer follows from the two kinds of
 * access alone: an element to itself (a direct access on each side:
 * D = { P[e] -> L[e] : 0 <= e < x }, the identity) or, when either side
 * reaches the object through a map or as a whole, every element to every
 * other (D holds (0, 1) once the set has two elements: not within).  The
 * unit tests check this against isl for every pair of kinds. */
static int flat_same_element(const effect *pe, const effect *le) {
  return pe->via == VIA_ELEM && le->via == VIA_ELEM;
}

/* Whether every dependence between p's effect `pe` and l's effect `le`
 * (of one object, one of them writing) stays within an element (within()):
 *   D = pa . la^-1  ⊆  within.
 * 1 yes, 0 no, -1 on an isl error.  Two objects that may be the same
 * memory without being one object (effects_overlap: the unseen state and
 * a variable) are not compared: every element may meet every other. */
static int same_element(arena *a, const loop *p, const effect *pe, const loop *l,
                        const effect *le, int by_layer) {
  if (pe->o != le->o)
    return 0;
  if (!p->set->base && !isl_always)
    return flat_same_element(pe, le);
  isl_union_map *ap = relation(effect_access(a, p, pe));
  isl_union_map *al = relation(effect_access(a, l, le));
  isl_union_map *d = isl_union_map_apply_range(ap, isl_union_map_reverse(al));
  isl_union_map *same = relation(within(a, p, l, by_layer));
  isl_bool ok = isl_union_map_is_subset(d, same);
  isl_union_map_free(d);
  isl_union_map_free(same);
  return ok == isl_bool_error ? -1 : ok == isl_bool_true;
}

/* The first pair of conflicting effects of p and l that is not within
 * one element; NULL when there is none. */
static int check_pair(arena *a, const loop *p, const loop *l, int by_layer, const char **why) {
  effect_list px = effects_of_loop(a, p, NULL), lx = effects_of_loop(a, l, NULL);
  for (int i = 0; i < px.len; i++)
    for (int j = 0; j < lx.len; j++) {
      const effect *x = px.items[i], *y = lx.items[j];
      if (!effects_overlap(x->o, y->o) || !(effect_writes(x) || effect_writes(y)))
        continue;
      int ok = same_element(a, p, x, l, y, by_layer);
      if (ok < 0)
        return -1;
      if (!ok) {
        *why = arena_printf(a, "%s %s and %s %s: %s", p->kernel, effect_text(a, x),
                            l->kernel, effect_text(a, y),
                            x->via == VIA_WHOLE ? "fused, their updates of it would "
                                                  "interleave in another order"
                            : by_layer ? "a layer would depend on other layers"
                                       : "an element would depend on other elements");
        return 0;
      }
    }
  return 1;
}

static int fusable(arena *a, const loop_list *earlier, const loop *later, int by_layer,
                   const char **why) {
  *why = NULL;
  for (int i = 0; i < earlier->len; i++) {
    const loop *p = earlier->items[i];
    if (p->set != later->set) {
      *why = arena_printf(a, "%s is over set %s, %s over %s", p->kernel, p->set->name,
                          later->kernel, later->set->name);
      return 0;
    }
    int ok = check_pair(a, p, later, by_layer, why);
    if (ok <= 0)
      return ok;
  }
  return 1;
}

int domains_fusable(arena *a, const loop_list *earlier, const loop *later, const char **why) {
  return fusable(a, earlier, later, BY_COLUMN, why);
}

int domains_layer_fusable(arena *a, const loop_list *earlier, const loop *later,
                          const char **why) {
  int ok = fusable(a, earlier, later, BY_CELL, why);
  if (ok != 0)
    return ok;
  ok = fusable(a, earlier, later, BY_LAYER_ORDER, why);
  return ok > 0 ? 2 : ok;
}
