/*
 * pin.c — the pin and pin_cse hints on temporaries (see pin.h).
 *
 * Each hint is checked against its region's items in program order, with
 * what each may write as it would be without pins (one producer writing
 * every element, no other effect, inputs unchanged until the last
 * consumer); one that cannot be honoured is an error that says why.
 * Once every hint of a region is decided, the pinned producers' inputs
 * are checked over the whole span in which consumers evaluate them, and
 * with MPI that no consumer evaluates one beyond the executed halo.
 */
#include "transform/pin.h"

#include <string.h>

typedef struct pinner {
  const program *prog;
  const region_list *regions;
  arena *a;
  temp_info_list *temps; /* the fates decided so far */
  const region *r;
} pinner;

static const item *item_at(const pinner *u, int i) { return u->r->items.items[i]; }

static int index_of(const pinner *u, const loop *lp) {
  for (int i = 0; i < u->r->items.len; i++)
    if (item_at(u, i)->kind == ITEM_LOOP && item_at(u, i)->lp == lp)
      return i;
  return -1;
}

/* With MPI, a pinned producer runs inside its consumers' functions, at
 * the elements they read, halo elements among them: its inputs are
 * exchanged there (effects.h), but a consumer that reaches it through a
 * map (its temporary read through a map, or a chain of them) reaches
 * elements beyond the executed halo, whose own map rows no rank holds —
 * there the producer cannot read through a map.  Checked once every hint
 * of the region is decided, on each loop's effects with the pins: an
 * effect through two maps. */
static void pin_mpi_check(pinner *u) {
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    if (it->kind != ITEM_LOOP || temps_pinned_away(u->temps, it->lp))
      continue;
    effect_list fx = effects_of_loop(u->a, it->lp, u->temps);
    for (int k = 0; k < fx.len; k++) {
      const effect *e = fx.items[k];
      const temp_info *ti = NULL;
      for (int m = 0; e->twice && m < u->temps->len && !ti; m++)
        if (((const temp_info *)u->temps->items[m])->producer == e->by)
          ti = u->temps->items[m];
      if (!ti || ti->fate != TEMP_PINNED)
        continue;
      const loop_arg *own = e->arg;
      diag(DIAG_ERROR, ti->hint_loc, (unsigned)strlen(ti->t->name),
           "pin(%s) cannot be honoured: with --target=mpi, %s (line %u) evaluates its "
           "producer %s at elements it reaches through map %s, where %s reads %s through "
           "map %s: at halo elements that map's rows are not held by any rank",
           ti->t->name, it->lp->kernel, it->lp->loc.line, e->by->kernel, e->map->name,
           e->by->kernel, own && own->kind == ARG_IDX ? "idx" : e->o->name,
           own && own->map ? own->map->name : "?");
      return;
    }
  }
}


/* pin of t on an extruded set: each consumer evaluates the producer p at
 * the cell it reads, so it must read t directly (the same cell), and p's
 * region hold every layer the consumer's does. */
static const char *column_problem(arena *a, const loop *p, const obj *t,
                                  const loop_list *readers) {
  for (int i = 0; i < readers->len; i++) {
    const loop *c = readers->items[i];
    for (int k = 0; k < c->nargs; k++)
      if (c->args[k].obj == t && c->args[k].kind != ARG_DAT)
        return arena_printf(a, "%s (line %u) reads it through map %s; a temporary of the "
                            "columns is pinned only where each consumer reads its own cell",
                            c->kernel, c->loc.line, c->args[k].map ? c->args[k].map->name
                                                                   : "?");
    if (!region_covers(p->region, c->region))
      return arena_printf(a, "its producer %s runs the %s layers only, and %s (line %u) "
                          "reads %s", p->kernel, region_name(p->region), c->kernel,
                          c->loc.line, c->region == REGION_ALL ? "every layer"
                                                               : region_name(c->region));
  }
  return NULL;
}

/* pin: the producer must have no effect but its write of t (it runs once
 * per use), no consumer may read t before it, and nothing it reads may
 * change before the last consumer has evaluated it. */
static const char *pin_problem(const pinner *u, const loop *p, const obj *t,
                               const loop_list *readers) {
  const char *why = obj_extruded(t) ? column_problem(u->a, p, t, readers) : NULL;
  if (why)
    return why;
  effect_list fx = effects_of_loop(u->a, p, NULL);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    if (effect_writes(e) && e->o != t)
      return arena_printf(u->a, "its producer %s also %s; pinning would repeat that "
                          "per use", p->kernel, effect_text(u->a, e));
  }
  int from = index_of(u, p);
  for (int i = 0; i < readers->len; i++)
    if (index_of(u, readers->items[i]) < from)
      return arena_printf(u->a, "%s (line %u) reads it before its producer runs",
                          ((const loop *)readers->items[i])->kernel,
                          ((const loop *)readers->items[i])->loc.line);
  return NULL;
}


/* Whether loop lp evaluates producer p (it reads p's pinned temporary, or
 * one whose producer evaluates p: a chain). */
static int evaluates(const pinner *u, const loop *lp, const loop *p) {
  effect_list fx = effects_of_loop(u->a, lp, u->temps);
  for (int i = 0; i < fx.len; i++)
    if (((const effect *)fx.items[i])->by == p)
      return 1;
  return 0;
}


static int hit(const obj *w, const obj *o, int exact) {
  return exact ? w == o : effects_overlap(w, o);
}

/* What item i of the region may write, without pins (its host code's
 * objects, its loops' effects), that is o (exact) or may be o (else), or
 * NULL. */
static const obj *item_writes(const pinner *u, int i, const obj *o, int exact) {
  const item *it = item_at(u, i);
  for (int k = 0; it->kind != ITEM_LOOP && k < it->writes.len; k++)
    if (hit(it->writes.items[k], o, exact))
      return it->writes.items[k];
  int nloops = it->kind == ITEM_LOOP ? 1 : it->loops.len;
  for (int l = 0; l < nloops; l++) {
    const loop *lp = it->kind == ITEM_LOOP ? it->lp : it->loops.items[l];
    effect_list fx = effects_of_loop(u->a, lp, NULL);
    for (int k = 0; k < fx.len; k++) {
      const effect *e = fx.items[k];
      if (effect_writes(e) && hit(e->o, o, exact))
        return e->o;
    }
  }
  return NULL;
}

/* The object item i writes that may be o (o itself, or one of its alias
 * class, alias.h), or NULL. */
static const obj *written_as(const pinner *u, int i, const obj *o) {
  const obj *w = item_writes(u, i, o, 1);
  return w ? w : item_writes(u, i, o, 0);
}


/* pin, once every hint of the region is decided: nothing a producer reads
 * (its own pinned inputs' producers' reads too) may be written between it
 * and the last loop that evaluates it — a consumer, or a loop evaluating
 * a consumer that is pinned in turn; that loop would see the new value. */
static void pin_inputs_check(pinner *u) {
  for (int m = 0; m < u->temps->len; m++) {
    const temp_info *ti = u->temps->items[m];
    int from = ti->fate == TEMP_PINNED ? index_of(u, ti->producer) : -1, to = from;
    for (int k = from + 1; from >= 0 && k < u->r->items.len; k++)
      if (item_at(u, k)->kind == ITEM_LOOP && !temps_pinned_away(u->temps, item_at(u, k)->lp) &&
          evaluates(u, item_at(u, k)->lp, ti->producer))
        to = k;
    effect_list fx =
        from >= 0 ? effects_of_loop(u->a, ti->producer, u->temps) : (effect_list){0};
    for (int k = from + 1; k <= to; k++)
      for (int i = 0; i < fx.len; i++) {
        const effect *e = fx.items[i];
        const obj *w = effect_reads(e) ? written_as(u, k, e->o) : NULL;
        if (!w)
          continue;
        diag(DIAG_ERROR, ti->hint_loc, (unsigned)strlen(ti->t->name),
             "pin(%s) cannot be honoured: %s, which its producer %s reads, is written at "
             "line %u%s, before the last use; a consumer would see the new value",
             ti->t->name, obj_label(e->o), e->by->kernel, item_at(u, k)->loc.line,
             w && w != e->o && w->kind == OBJ_DAT
                 ? arena_printf(u->a, " (as %s, which may be %s: loomc cannot prove them "
                                "distinct)", obj_label(w), obj_label(e->o))
                 : "");
        return;
      }
  }
}


static temp_info *new_temp(pinner *u, const obj *t, temp_fate fate, const loop *p) {
  temp_info *ti = arena_alloc(u->a, sizeof *ti);
  *ti = (temp_info){.t = t, .fate = fate, .producer = p};
  vec_push(u->a, u->temps, ti);
  return ti;
}


static void apply_hint(pinner *u, const hint *h, const obj *t) {
  loop_list writers = {0}, readers = {0};
  region_temp_uses(u->a, u->r, t, &writers, &readers);
  if (writers.len == 0 && readers.len == 0)
    return; /* another region's temporary */
  const char *why = region_temp_producer_problem(u->a, u->prog, u->regions, u->r, t, &writers);
  const loop *p = writers.len ? writers.items[0] : NULL;
  if (!why && h->kind == HINT_PIN)
    why = pin_problem(u, p, t, &readers);
  if (why) {
    diag(DIAG_ERROR, h->name_locs[0], (unsigned)strlen(t->name),
         "%s(%s) cannot be honoured: %s", hint_name(h->kind), t->name, why);
    return;
  }
  temp_info *ti = new_temp(u, t, h->kind == HINT_PIN ? TEMP_PINNED : TEMP_STORED, p);
  ti->hint_loc = h->name_locs[0];
  ti->r = u->r;
  ti->note_loc = h->loc;
  const char *at = obj_extruded(t) ? "cell" : "element";
  if (h->kind == HINT_PIN)
    ti->note = arena_printf(u->a, "pin(%s): never stored; %s is evaluated inside "
                            "each consumer, at every %s it reads", t->name, p->kernel, at);
  else
    ti->note = arena_printf(u->a, "pin_cse(%s): %s computes it once per %s in "
                            "its own loop; consumers read it from memory", t->name, p->kernel,
                            at);
}

static void apply_hints(pinner *u) {
  for (int i = 0; i < u->prog->hints.len; i++) {
    const hint *h = u->prog->hints.items[i];
    if (h->kind != HINT_SYNC && h->objs[0] && !temps_find(u->temps, h->objs[0]))
      apply_hint(u, h, h->objs[0]);
  }
}

temp_info_list pin(const program *prog, const region_list *regions, const target *t,
                   arena *a) {
  temp_info_list temps = {0};
  int mpi = t->distributed;
  for (int r = 0; r < regions->len; r++) {
    pinner u = {prog, regions, a, &temps, regions->items[r]};
    apply_hints(&u);
    pin_inputs_check(&u);
    if (mpi)
      pin_mpi_check(&u);
  }
  return temps;
}
