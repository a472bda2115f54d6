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

void domains_done(void) {
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

const char *domain_text(arena *a, const loop *lp) {
  const char *s = lp->set->name;
  return arena_printf(a, "[c_%s, o_%s, x_%s] -> { %s[e] : 0 <= e < x_%s }", s, s, s,
                      stmt(a, lp), s);
}

/* The access relation of an effect (effects.h) of lp. */
static const char *effect_access(arena *a, const loop *lp, const effect *e) {
  const char *x = bound(a, lp->set), *s = stmt(a, lp);
  if (e->via == VIA_WHOLE)
    return arena_printf(a, "[%s] -> { %s[e] -> %s[0] : 0 <= e < %s }", x, s, array(a, e->o),
                        x);
  if (e->via == VIA_MAP) {
    const char *y = bound(a, e->o->set);
    if (strcmp(x, y) == 0)
      return arena_printf(a, "[%s] -> { %s[e] -> %s[f] : 0 <= e < %s and 0 <= f < %s }",
                          x, s, array(a, e->o), x, x);
    return arena_printf(a, "[%s, %s] -> { %s[e] -> %s[f] : 0 <= e < %s and 0 <= f < %s }",
                        x, y, s, array(a, e->o), x, y);
  }
  return arena_printf(a, "[%s] -> { %s[e] -> %s[e] : 0 <= e < %s }", x, s, array(a, e->o),
                      x);
}

const char *access_text(arena *a, const loop *lp, const loop_arg *arg) {
  effect_list fx = effects_of_loop(a, lp, NULL);
  for (int i = 0; i < fx.len; i++)
    if (((const effect *)fx.items[i])->arg == arg)
      return effect_access(a, lp, fx.items[i]);
  return NULL;
}

/* ---- legality ------------------------------------------------------------- */

/* Whether every dependence between p's effect `pe` and l's effect `le`
 * (of one object, one of them writing) maps an element to itself:
 *   D = pa . la^-1  ⊆  { P[e] -> L[e] }.
 * 1 yes, 0 no, -1 on an isl error.  Two objects that may be the same
 * memory without being one object (effects_overlap: the unseen state and
 * a variable) are not compared: every element may meet every other. */
static int same_element(arena *a, const loop *p, const effect *pe, const loop *l,
                        const effect *le) {
  if (pe->o != le->o)
    return 0;
  isl_union_map *ap = isl_union_map_read_from_str(context(), effect_access(a, p, pe));
  isl_union_map *al = isl_union_map_read_from_str(context(), effect_access(a, l, le));
  isl_union_map *d = isl_union_map_apply_range(ap, isl_union_map_reverse(al));
  isl_union_map *same = isl_union_map_read_from_str(
      context(), arena_printf(a, "{ %s[e] -> %s[e] }", stmt(a, p), stmt(a, l)));
  isl_bool ok = isl_union_map_is_subset(d, same);
  isl_union_map_free(d);
  isl_union_map_free(same);
  return ok == isl_bool_error ? -1 : ok == isl_bool_true;
}

/* The first pair of conflicting effects of p and l that is not within
 * one element; NULL when there is none. */
static int check_pair(arena *a, const loop *p, const loop *l, const char **why) {
  effect_list px = effects_of_loop(a, p, NULL), lx = effects_of_loop(a, l, NULL);
  for (int i = 0; i < px.len; i++)
    for (int j = 0; j < lx.len; j++) {
      const effect *x = px.items[i], *y = lx.items[j];
      if (!effects_overlap(x->o, y->o) || !(effect_writes(x) || effect_writes(y)))
        continue;
      int ok = same_element(a, p, x, l, y);
      if (ok < 0)
        return -1;
      if (!ok) {
        *why = arena_printf(a, "%s %s and %s %s: %s", p->kernel, effect_text(a, x),
                            l->kernel, effect_text(a, y),
                            x->via == VIA_WHOLE ? "fused, their updates of it would "
                                                  "interleave in another order"
                                                : "an element would depend on other "
                                                  "elements");
        return 0;
      }
    }
  return 1;
}

int domains_fusable(arena *a, const loop_list *earlier, const loop *later, const char **why) {
  *why = NULL;
  for (int i = 0; i < earlier->len; i++) {
    const loop *p = earlier->items[i];
    if (p->set != later->set) {
      *why = arena_printf(a, "%s is over set %s, %s over %s", p->kernel, p->set->name,
                          later->kernel, later->set->name);
      return 0;
    }
    int ok = check_pair(a, p, later, why);
    if (ok <= 0)
      return ok;
  }
  return 1;
}
