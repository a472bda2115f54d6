/*
 * effects.c — the effects of loops (see effects.h).
 */
#include "analysis/effects.h"

static const obj unseen = {.kind = OBJ_VAR, .name = "<unseen>"};

static const obj mesh = {.kind = OBJ_VAR, .name = "<mesh>"};

const obj *effects_unseen(void) { return &unseen; }
const obj *effects_mesh(void) { return &mesh; }

/* A matrix written (`write: A[r, c]`) keeps the entries the loop does not
 * reach: it is read as well. */
int effect_reads(const effect *e) {
  return e->mode != MODE_WRITE || (e->o && e->o->kind == OBJ_MAT);
}
int effect_writes(const effect *e) { return e->mode != MODE_READ; }

int effects_is_variable(const obj *o) {
  return o != &mesh && (o->kind == OBJ_GLOBAL || o->kind == OBJ_ARRAY || o->kind == OBJ_VAR);
}

int effects_overlap(const obj *a, const obj *b) {
  if (a == b)
    return 1;
  if (a->var && a->var == b->var)
    return 1;
  return (a == &unseen && effects_is_variable(b)) || (b == &unseen && effects_is_variable(a));
}

static effect *push(arena *a, effect_list *v, const effect *e) {
  effect *x = arena_alloc(a, sizeof *x);
  *x = *e;
  vec_push(a, v, x);
  return x;
}

static int is_mapped(const loop_arg *x) {
  return x->kind == ARG_MAPPED || x->kind == ARG_MAPPED_ALL;
}

/* The effect of one argument, seen from its own loop. */
static effect arg_effect(const loop *lp, const loop_arg *x) {
  effect e = {x->obj, VIA_ELEM, x->mode, NULL, 0, 0, x, lp};
  if (x->kind == ARG_GLOBAL || x->kind == ARG_AFFINE) {
    e.via = VIA_WHOLE;
  } else if (is_mapped(x)) {
    e.via = VIA_MAP;
    e.map = x->map;
    e.slot = x->kind == ARG_MAPPED_ALL ? -1 : x->slot;
  }
  return e;
}

/* What lp's kernel reads beyond its arguments (and an affine loop's
 * domain: its parameters). */
static void kernel_reads(arena *a, effect_list *out, const loop *lp) {
  for (int i = 0; i < lp->domain_vars.len; i++)
    push(a, out, &(effect){lp->domain_vars.items[i], VIA_WHOLE, MODE_READ, NULL, 0, 0,
                           NULL, lp});
  for (int i = 0; i < lp->kernel_vars.len; i++)
    push(a, out, &(effect){lp->kernel_vars.items[i], VIA_WHOLE, MODE_READ, NULL, 0, 0,
                           NULL, lp});
  if (lp->kernel_unseen)
    push(a, out, &(effect){&unseen, VIA_WHOLE, MODE_READ, NULL, 0, 0, NULL, lp});
}

static const loop *pinned_producer(const temp_info_list *temps, const loop *lp, const loop_arg *x) {
  if (!temps || !x->obj || x->obj->kind != OBJ_DAT || x->mode != MODE_READ)
    return NULL;
  const temp_info *ti = temps_find(temps, x->obj);
  return ti && ti->fate == TEMP_PINNED && ti->producer != lp ? ti->producer : NULL;
}

effect_list effects_of_loop(arena *a, const loop *lp, const temp_info_list *temps);

/* The producer p of a pinned temporary, evaluated where lp's argument x
 * reads it: p's effects (its own pinned temporaries' producers' too: a
 * chain) but its write of the temporary, its direct ones at the elements
 * x reaches, its ones through maps then through two maps. */
static void producer_effects(arena *a, effect_list *out, const loop *p, const loop_arg *x,
                             const effect *seen, const temp_info_list *temps) {
  effect_list pe = effects_of_loop(a, p, temps);
  for (int i = 0; i < pe.len; i++) {
    effect e = *(const effect *)pe.items[i];
    if (e.o == x->obj)
      continue;
    if (seen->via == VIA_MAP && e.via != VIA_WHOLE) {
      e.twice |= e.via == VIA_MAP;
      e.via = VIA_MAP;
      e.map = seen->map;
      e.slot = seen->slot;
    }
    push(a, out, &e);
  }
}

effect_list effects_of_loop(arena *a, const loop *lp, const temp_info_list *temps) {
  effect_list out = {0};
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    if (x->kind == ARG_IDX && x->map) { /* idx[map[i]]: the map's row, no state */
      push(a, &out, &(effect){x->map, VIA_MAP, MODE_READ, x->map, x->slot, 0, x, lp});
      continue;
    }
    if (x->kind == ARG_IDX || !x->obj)
      continue;
    effect e = arg_effect(lp, x);
    const loop *p = pinned_producer(temps, lp, x);
    if (p)
      producer_effects(a, &out, p, x, &e, temps);
    else
      push(a, &out, &e);
  }
  kernel_reads(a, &out, lp);
  return out;
}

int effects_touch(arena *a, const loop *lp, const temp_info_list *temps, const obj *o) {
  effect_list fx = effects_of_loop(a, lp, temps);
  for (int i = 0; i < fx.len; i++)
    if (((const effect *)fx.items[i])->o == o)
      return 1;
  return 0;
}

/* Whether e reaches its element's own column only: an extruded map over
 * the identity (its layer shifted). */
static int own_column(const effect *e) {
  return e->via == VIA_MAP && e->map && e->map->shift && !e->map->base && !e->twice;
}

int effect_needs_halo(const loop *lp, const effect *e) {
  if (e->o->kind != OBJ_DAT || (e->mode != MODE_READ && e->mode != MODE_RW))
    return 0;
  return (e->via == VIA_MAP && !own_column(e)) || loop_executes_halo(lp);
}

obj_list effects_halo_dats(arena *a, const loop *lp, const temp_info_list *temps) {
  obj_list v = {0};
  effect_list fx = effects_of_loop(a, lp, temps);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    int dup = 0;
    for (int j = 0; j < v.len && !dup; j++)
      dup = v.items[j] == e->o;
    if (!dup && effect_needs_halo(lp, e))
      vec_push(a, &v, (obj *)e->o);
  }
  return v;
}

const char *effect_text(arena *a, const effect *e) {
  const char *verb = e->o->kind == OBJ_GLOBAL && (e->mode == MODE_MIN || e->mode == MODE_MAX)
                         ? "reduces"
                         : mode_verb(e->mode);
  if (e->o == &unseen)
    return arena_printf(a, "calls %s, whose body loomc does not see", e->by->kernel_unseen);
  if (e->via == VIA_MAP)
    return arena_printf(a, "%s %s through map %s", verb, e->o->name, e->map->name);
  return arena_printf(a, "%s %s", verb, e->o->name);
}
