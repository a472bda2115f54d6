/*
 * domains.c — isl domains, access relations and fusion legality (see
 * domains.h).
 *
 * Relations are written as isl text and read back, so that what --report
 * and the tests show is what isl decides on.  Ownership follows isl's
 * annotations: each function frees what it gets on its one exit path.
 */
#include "domains.h"

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

const char *access_text(arena *a, const loop *lp, const loop_arg *arg) {
  const char *x = bound(a, lp->set), *s = stmt(a, lp);
  if (arg->kind == ARG_GLOBAL)
    return arena_printf(a, "[%s] -> { %s[e] -> %s[0] : 0 <= e < %s }", x, s,
                        array(a, arg->obj), x);
  if (arg->kind == ARG_MAPPED || arg->kind == ARG_MAPPED_ALL) {
    const char *y = bound(a, arg->obj->set);
    if (strcmp(x, y) == 0)
      return arena_printf(a, "[%s] -> { %s[e] -> %s[f] : 0 <= e < %s and 0 <= f < %s }",
                          x, s, array(a, arg->obj), x, x);
    return arena_printf(a, "[%s, %s] -> { %s[e] -> %s[f] : 0 <= e < %s and 0 <= f < %s }",
                        x, y, s, array(a, arg->obj), x, y);
  }
  return arena_printf(a, "[%s] -> { %s[e] -> %s[e] : 0 <= e < %s }", x, s,
                      array(a, arg->obj), x);
}

/* ---- legality ------------------------------------------------------------- */

static int writes(const loop_arg *a) { return a->mode != MODE_READ; }

/* Whether every dependence between p's access `pa` and l's access `la`
 * (of one object, one of them writing) maps an element to itself:
 *   D = pa . la^-1  ⊆  { P[e] -> L[e] }.
 * 1 yes, 0 no, -1 on an isl error. */
static int same_element(arena *a, const loop *p, const loop_arg *pa, const loop *l,
                        const loop_arg *la) {
  isl_union_map *ap = isl_union_map_read_from_str(context(), access_text(a, p, pa));
  isl_union_map *al = isl_union_map_read_from_str(context(), access_text(a, l, la));
  isl_union_map *d = isl_union_map_apply_range(ap, isl_union_map_reverse(al));
  isl_union_map *same = isl_union_map_read_from_str(
      context(), arena_printf(a, "{ %s[e] -> %s[e] }", stmt(a, p), stmt(a, l)));
  isl_bool ok = isl_union_map_is_subset(d, same);
  isl_union_map_free(d);
  isl_union_map_free(same);
  return ok == isl_bool_error ? -1 : ok == isl_bool_true;
}

static const char *how(arena *a, const loop_arg *x) {
  const char *verb = x->mode == MODE_READ ? "reads" : x->mode == MODE_WRITE ? "writes"
                     : x->mode == MODE_RW ? "updates" : x->mode == MODE_INC ? "increments"
                     : "reduces";
  if (x->kind == ARG_MAPPED || x->kind == ARG_MAPPED_ALL)
    return arena_printf(a, "%s %s through map %s", verb, x->name, x->map->name);
  return arena_printf(a, "%s %s", verb, x->name);
}

/* The first pair of conflicting accesses of p and l that is not within
 * one element; NULL when there is none. */
static int check_pair(arena *a, const loop *p, const loop *l, const char **why) {
  for (int i = 0; i < p->nargs; i++)
    for (int j = 0; j < l->nargs; j++) {
      const loop_arg *x = &p->args[i], *y = &l->args[j];
      if (!x->obj || x->obj != y->obj || !(writes(x) || writes(y)))
        continue;
      int ok = same_element(a, p, x, l, y);
      if (ok < 0)
        return -1;
      if (!ok) {
        *why = arena_printf(a, "%s %s and %s %s: %s", p->kernel, how(a, x), l->kernel,
                            how(a, y),
                            x->kind == ARG_GLOBAL ? "fused, their updates of it would "
                                                    "interleave in another order"
                                                  : "an element would depend on other "
                                                    "elements");
        return 0;
      }
    }
  return 1;
}

int domains_fusable(arena *a, const vec *earlier, const loop *later, const char **why) {
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
