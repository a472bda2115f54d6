/*
 * fuse.c — stage 8: pins, fusion groups and temporaries (see fuse.h).
 *
 *   1. hints: each pin/pin_cse hint is checked against its region's DAG in
 *      program order, built without pins (one producer writing every
 *      element, no other effect, inputs unchanged until the last
 *      consumer); one that cannot be honoured is an error that says why;
 *   2. the DAGs for the target are built knowing the pinned temporaries
 *      (a consumer reads what their producers read: effects.h);
 *   3. groups: greedily, each loop joins the group before it when isl
 *      allows it (domains_fusable, over the loops' effects), nothing
 *      between them in the region depends on the group's loops, and with
 *      MPI no halo exchange must come between them; otherwise it starts a
 *      group;
 *   4. temporaries without a hint are contracted or stored, and stored
 *      ones with disjoint lifetimes share storage.
 * Dependences between a region's items come from its DAG for the seq
 * target, where item i is computation i.
 */
#include "fuse.h"

#include <string.h>

#include "domains.h"

typedef struct fuser {
  const program *prog;
  const vec *regions;
  arena *a;
  fusion *f;
  const region *r;
  const dag *seq;   /* the region's DAG for seq: comps[i] is items[i] */
  dag *notes;       /* the DAG the report prints */
  int no_fuse;
  int mpi;          /* for --target=mpi or mpi+openmp */
  int *item_first;  /* notes' comps of item i: [item_first[i], item_first[i + 1]) */
} fuser;

/* ---- accesses ---------------------------------------------------------------- */

static int reads_obj(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].mode != MODE_WRITE)
      return 1;
  return 0;
}

static const loop_arg *write_of(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].mode != MODE_READ)
      return &lp->args[i];
  return NULL;
}

static int uses_obj(const loop *lp, const obj *o) {
  return reads_obj(lp, o) || write_of(lp, o);
}

static const item *item_at(const fuser *u, int i) { return u->r->items.items[i]; }
static const comp *comp_at(const fuser *u, int i) { return u->seq->comps.items[i]; }

static int index_of(const fuser *u, const loop *lp) {
  for (int i = 0; i < u->r->items.len; i++)
    if (item_at(u, i)->kind == ITEM_LOOP && item_at(u, i)->lp == lp)
      return i;
  return -1;
}

/* ---- temporaries ----------------------------------------------------------------- */

static temp_info *temp_of(const fuser *u, const obj *t) {
  for (int i = 0; i < u->f->temps.len; i++) {
    temp_info *ti = u->f->temps.items[i];
    if (ti->t == t)
      return ti;
  }
  return NULL;
}

/* Whether something outside this region's own loops uses t: a loop of
 * another region, or host code anywhere. */
static int used_elsewhere(const fuser *u, const obj *t) {
  for (int i = 0; i < u->prog->loops.len; i++) {
    const loop *lp = u->prog->loops.items[i];
    if (uses_obj(lp, t) && index_of(u, lp) < 0)
      return 1;
  }
  for (int r = 0; r < u->regions->len; r++) {
    const region *reg = u->regions->items[r];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      for (int k = 0; (it->kind == ITEM_HOST || it->kind == ITEM_SYNC) && k < it->objs.len; k++)
        if (it->objs.items[k] == t)
          return 1;
    }
  }
  return 0;
}

/* The loops of the region that write t, and its readers. */
static void producers(const fuser *u, const obj *t, vec *writers, vec *readers) {
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    if (it->kind != ITEM_LOOP)
      continue;
    if (write_of(it->lp, t))
      vec_push(u->a, writers, it->lp);
    else if (reads_obj(it->lp, t))
      vec_push(u->a, readers, it->lp);
  }
}

/* Why loop p cannot be the only producer of t, or NULL. */
static const char *producer_problem(const fuser *u, const obj *t, const vec *writers) {
  if (writers->len == 0)
    return arena_printf(u->a, "no par_loop of this block writes %s", t->name);
  const loop *p = writers->items[0];
  if (writers->len > 1)
    return arena_printf(u->a, "%s is written by %s (line %u) and %s (line %u); it "
                        "needs exactly one producer", t->name, p->kernel, p->loc.line,
                        ((const loop *)writers->items[1])->kernel,
                        ((const loop *)writers->items[1])->loc.line);
  const loop_arg *w = write_of(p, t);
  if (w->mode != MODE_WRITE || w->kind != ARG_DAT)
    return arena_printf(u->a, "its producer %s (line %u) %s it; the producer must "
                        "write every element directly (mode write)", p->kernel,
                        p->loc.line, w->kind != ARG_DAT ? "writes through a map to"
                                                         : mode_name(w->mode));
  if (reads_obj(p, t))
    return arena_printf(u->a, "its producer %s (line %u) also reads it; the producer "
                        "must write every element without reading it", p->kernel,
                        p->loc.line);
  if (used_elsewhere(u, t))
    return arena_printf(u->a, "%s is used outside the par_loops of this block "
                        "(by host code, a sync or another block)", t->name);
  return NULL;
}

/* With MPI, a pinned producer runs inside its consumers' functions, at
 * the elements they read, halo elements among them: its inputs are
 * exchanged there (effects.h), but a consumer that reaches it through a
 * map (its temporary read through a map, or a chain of them) reaches
 * elements beyond the executed halo, whose own map rows no rank holds —
 * there the producer cannot read through a map.  Checked once every hint
 * of the region is decided, on each loop's effects with the pins: an
 * effect through two maps. */
static void pin_mpi_check(fuser *u) {
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    if (it->kind != ITEM_LOOP || effects_pinned_away(u->f, it->lp))
      continue;
    vec fx = effects_of_loop(u->a, it->lp, u->f);
    for (int k = 0; k < fx.len; k++) {
      const effect *e = fx.items[k];
      const temp_info *ti = NULL;
      for (int m = 0; e->twice && m < u->f->temps.len && !ti; m++)
        if (((const temp_info *)u->f->temps.items[m])->producer == e->by)
          ti = u->f->temps.items[m];
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

/* pin: the producer must have no effect but its write of t (it runs once
 * per use), no consumer may read t before it, and nothing it reads may
 * change before the last consumer has evaluated it. */
static const char *pin_problem(const fuser *u, const loop *p, const obj *t,
                               const vec *readers) {
  vec fx = effects_of_loop(u->a, p, NULL);
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
static int evaluates(const fuser *u, const loop *lp, const loop *p) {
  vec fx = effects_of_loop(u->a, lp, u->f);
  for (int i = 0; i < fx.len; i++)
    if (((const effect *)fx.items[i])->by == p)
      return 1;
  return 0;
}

/* The object c writes that may be o (o itself, or one of its alias
 * class, alias.h), or NULL. */
static const obj *written_as(const comp *c, const obj *o) {
  for (int i = 0; i < c->writes.len; i++) {
    const obj *w = ((const access *)c->writes.items[i])->o;
    if (w == o)
      return w;
  }
  for (int i = 0; i < c->writes.len; i++) {
    const obj *w = ((const access *)c->writes.items[i])->o;
    if (effects_overlap(w, o))
      return w;
  }
  return NULL;
}

/* pin, once every hint of the region is decided: nothing a producer reads
 * (its own pinned inputs' producers' reads too) may be written between it
 * and the last loop that evaluates it — a consumer, or a loop evaluating
 * a consumer that is pinned in turn; that loop would see the new value. */
static void pin_inputs_check(fuser *u) {
  for (int m = 0; m < u->f->temps.len; m++) {
    const temp_info *ti = u->f->temps.items[m];
    int from = ti->fate == TEMP_PINNED ? index_of(u, ti->producer) : -1, to = from;
    for (int k = from + 1; from >= 0 && k < u->r->items.len; k++)
      if (item_at(u, k)->kind == ITEM_LOOP && !effects_pinned_away(u->f, item_at(u, k)->lp) &&
          evaluates(u, item_at(u, k)->lp, ti->producer))
        to = k;
    vec fx = from >= 0 ? effects_of_loop(u->a, ti->producer, u->f) : (vec){0};
    for (int k = from + 1; k <= to; k++)
      for (int i = 0; i < fx.len; i++) {
        const effect *e = fx.items[i];
        if (!effect_reads(e) || !dag_writes(comp_at(u, k), e->o))
          continue;
        const obj *w = written_as(comp_at(u, k), e->o);
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

static temp_info *new_temp(fuser *u, const obj *t, temp_fate fate, const loop *p) {
  temp_info *ti = arena_alloc(u->a, sizeof *ti);
  *ti = (temp_info){t, fate, p, NULL, NULL, {0}};
  vec_push(u->a, &u->f->temps, ti);
  return ti;
}

static void apply_hint(fuser *u, const hint *h, const obj *t) {
  vec writers = {0}, readers = {0};
  producers(u, t, &writers, &readers);
  if (writers.len == 0 && readers.len == 0)
    return; /* another region's temporary */
  const char *why = producer_problem(u, t, &writers);
  const loop *p = writers.len ? writers.items[0] : NULL;
  if (!why && h->kind == HINT_PIN)
    why = pin_problem(u, p, t, &readers);
  if (why) {
    diag(DIAG_ERROR, h->name_locs[0], (unsigned)strlen(t->name),
         "%s(%s) cannot be honoured: %s", hint_name(h->kind), t->name, why);
    return;
  }
  new_temp(u, t, h->kind == HINT_PIN ? TEMP_PINNED : TEMP_STORED, p)->hint_loc =
      h->name_locs[0];
  if (h->kind == HINT_PIN)
    dag_note(u->notes, u->a, h->loc, "pin(%s): never stored; %s is evaluated inside "
             "each consumer, at every element it reads", t->name, p->kernel);
  else
    dag_note(u->notes, u->a, h->loc, "pin_cse(%s): %s computes it once per element in "
             "its own loop; consumers read it from memory", t->name, p->kernel);
}

static void apply_hints(fuser *u) {
  for (int i = 0; i < u->prog->hints.len; i++) {
    const hint *h = u->prog->hints.items[i];
    if (h->kind != HINT_SYNC && h->objs[0] && !temp_of(u, h->objs[0]))
      apply_hint(u, h, h->objs[0]);
  }
}

/* ---- groups ------------------------------------------------------------------------ */

static int is_pinned_producer(const fuser *u, const loop *lp) {
  for (int i = 0; i < u->f->temps.len; i++) {
    const temp_info *ti = u->f->temps.items[i];
    if (ti->fate == TEMP_PINNED && ti->producer == lp)
      return 1;
  }
  return 0;
}

static int reads_pinned(const fuser *u, const loop *lp) {
  for (int i = 0; i < u->f->temps.len; i++) {
    const temp_info *ti = u->f->temps.items[i];
    if (ti->fate == TEMP_PINNED && reads_obj(lp, ti->t))
      return 1;
  }
  return 0;
}

/* pin_cse(t): t's producer and its consumers stay apart. */
static const obj *cse_between(const fuser *u, const group *g, const loop *lp) {
  for (int i = 0; i < u->f->temps.len; i++) {
    const temp_info *ti = u->f->temps.items[i];
    if (ti->fate != TEMP_STORED || !ti->producer || !reads_obj(lp, ti->t))
      continue;
    for (int k = 0; k < g->loops.len; k++)
      if (g->loops.items[k] == ti->producer)
        return ti->t;
  }
  return NULL;
}

/* With MPI: lp needs the halo of a dat that a loop of g writes — the
 * exchange must come between them, which one loop cannot hold. */
static const char *exchange_between(const fuser *u, const group *g, const loop *lp) {
  vec halos = effects_halo_dats(u->a, lp, u->f);
  for (int i = 0; i < halos.len; i++)
    for (int k = 0; k < g->loops.len; k++)
      if (write_of(g->loops.items[k], halos.items[i]))
        return arena_printf(u->a, "with MPI, %s needs %s's halo exchanged after %s "
                            "writes it", lp->kernel, ((const obj *)halos.items[i])->name,
                            ((const loop *)g->loops.items[k])->kernel);
  return NULL;
}

/* Where each item's computations start in the target's DAG (they are
 * contiguous, in program order). */
static void index_items(fuser *u) {
  int n = u->r->items.len;
  u->item_first = arena_alloc(u->a, ((size_t)n + 1) * sizeof *u->item_first);
  const vec *cs = &u->notes->comps;
  int c = 0;
  for (int i = 0; i <= n; i++) {
    while (c < cs->len && ((const comp *)cs->items[c])->item < i)
      c++;
    u->item_first[i] = c;
  }
}

/* With MPI: whether a computation of item k depends on one of item j in the
 * target's DAG, halo exchanges and reductions included (a nested statement
 * that exchanges a dat whose exchange for j's loop is still in flight):
 * j's loop may not then move past k. */
static int target_depends(fuser *u, int k, int j) {
  if (!u->item_first)
    index_items(u);
  const vec *cs = &u->notes->comps;
  for (int a = u->item_first[k]; a < u->item_first[k + 1]; a++)
    for (int b = u->item_first[j]; b < u->item_first[j + 1]; b++) {
      const comp *x = cs->items[a], *y = cs->items[b];
      if (!x->removed && !y->removed && dag_depends(x, y))
        return 1;
    }
  return 0;
}

/* Why lp may not join g (NULL: it may).  last: the item index of g's last
 * loop; at: lp's. */
static const char *join_problem_(fuser *u, const group *g, const loop *lp, int last, int at);

/* Two dats of the loops that may be one (alias.h), one of them written:
 * "m->p_q and m->p_qold", or NULL. */
static const char *aliased_pair(fuser *u, const vec *loops, const loop *lp) {
  vec args = {0};
  for (int i = 0; i <= loops->len; i++) {
    const loop *l = i < loops->len ? loops->items[i] : lp;
    for (int k = 0; k < l->nargs; k++)
      if (l->args[k].obj && l->args[k].obj->kind == OBJ_DAT)
        vec_push(u->a, &args, &l->args[k]);
  }
  for (int i = 0; i < args.len; i++)
    for (int k = 0; k < args.len; k++) {
      const loop_arg *x = args.items[i], *y = args.items[k];
      if (x->obj != y->obj && x->obj->var && x->obj->var == y->obj->var &&
          x->mode != MODE_READ)
        return arena_printf(u->a, "%s and %s", x->obj->expr, y->obj->expr);
    }
  return NULL;
}

/* Why lp cannot join g, or NULL; "" when it is not a candidate.  Where
 * dats that may be one are involved, the reason says so. */
static const char *join_problem(fuser *u, const group *g, const loop *lp, int last, int at) {
  const char *why = join_problem_(u, g, lp, last, at);
  const char *pair = why && *why ? aliased_pair(u, &g->loops, lp) : NULL;
  return pair ? arena_printf(u->a, "%s (%s may be one dat: loomc cannot prove them "
                             "distinct)", why, pair) : why;
}

static const char *join_problem_(fuser *u, const group *g, const loop *lp, int last, int at) {
  const loop *head = g->loops.items[0];
  if (head->set != lp->set || head->domain || lp->domain)
    return "";
  if (u->mpi && loop_executes_halo(head) != loop_executes_halo(lp)) {
    const loop *x = loop_executes_halo(head) ? head : lp, *y = x == head ? lp : head;
    return arena_printf(u->a, "with MPI, %s runs its executed halo (it writes "
                        "through a map) and %s does not", x->kernel, y->kernel);
  }
  const char *comm = u->mpi ? exchange_between(u, g, lp) : NULL;
  if (comm)
    return comm;
  for (int i = 0; i < g->loops.len; i++)
    if (reads_pinned(u, g->loops.items[i]))
      return arena_printf(u->a, "%s evaluates a pinned temporary (loops that do "
                          "are not fused)", ((const loop *)g->loops.items[i])->kernel);
  if (reads_pinned(u, lp))
    return arena_printf(u->a, "%s evaluates a pinned temporary (loops that do are "
                        "not fused)", lp->kernel);
  const obj *t = cse_between(u, g, lp);
  if (t)
    return arena_printf(u->a, "pin_cse(%s) keeps its producer's loop apart", t->name);
  for (int k = last + 1; k < at; k++)
    for (int m = 0; m < g->loops.len; m++)
      if (comp_at(u, k)->barrier)
        return arena_printf(u->a, "the statement at line %u is a barrier (a jump, a "
                            "label or loom_exit)", item_at(u, k)->loc.line);
      else if (dag_depends(comp_at(u, k), comp_at(u, index_of(u, g->loops.items[m]))) ||
               (u->mpi && target_depends(u, k, index_of(u, g->loops.items[m]))))
        return arena_printf(u->a, "the %s at line %u depends on %s",
                            item_at(u, k)->kind == ITEM_HOST ? "host statement"
                            : item_at(u, k)->kind == ITEM_SYNC ? "sync"
                            : item_at(u, k)->kind == ITEM_LOOP ? item_at(u, k)->lp->kernel
                                                              : item_at(u, k)->what,
                            item_at(u, k)->loc.line,
                            ((const loop *)g->loops.items[m])->kernel);
  const char *why = NULL;
  int ok = domains_fusable(u->a, &g->loops, lp, &why);
  if (ok < 0)
    return "isl could not decide";
  return ok ? NULL : why;
}

/* lp belongs to g: the index fusion_group reads. */
static void index_loop(fuser *u, group *g, const loop *lp) {
  fusion *f = u->f;
  if (!f->by_loop) {
    f->nloops = u->prog->loops.len + 1;
    f->by_loop = arena_alloc(u->a, (size_t)f->nloops * sizeof *f->by_loop);
  }
  if (lp->id > 0 && lp->id < f->nloops)
    f->by_loop[lp->id] = g;
}

static group *new_group(fuser *u, const loop *lp) {
  group *g = arena_alloc(u->a, sizeof *g);
  vec_push(u->a, &g->loops, (void *)lp);
  index_loop(u, g, lp);
  g->anchor = lp;
  vec_push(u->a, &u->f->groups, g);
  return g;
}

const char *fusion_group_kernels(arena *a, const group *g) {
  const char *s = "";
  for (int i = 0; i < g->loops.len; i++)
    s = arena_printf(a, "%s%s%s", s, i ? " + " : "", ((const loop *)g->loops.items[i])->kernel);
  return s;
}

static void join(fuser *u, group *g, const loop *lp) {
  dag_note(u->notes, u->a, lp->loc, "fused %s into %s over %s: every dependence "
           "between them stays within one element (isl)", lp->kernel,
           fusion_group_kernels(u->a, g), lp->set->name);
  vec_push(u->a, &g->loops, (void *)lp);
  index_loop(u, g, lp);
  g->anchor = lp;
}

static void form_groups(fuser *u) {
  group *cur = NULL;
  int last = -1;
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    if (it->kind != ITEM_LOOP || is_pinned_producer(u, it->lp) || it->lp->domain)
      continue; /* affine loops: their code is affine.c's */
    const char *why = cur && !u->no_fuse ? join_problem(u, cur, it->lp, last, i) : "";
    if (why && *why)
      dag_note(u->notes, u->a, it->lp->loc, "not fused %s with %s: %s", it->lp->kernel,
               fusion_group_kernels(u->a, cur), why);
    if (why)
      cur = new_group(u, it->lp);
    else
      join(u, cur, it->lp);
    last = i;
  }
}

/* ---- temporaries without a hint ------------------------------------------------------ */

static const group *group_of(const fusion *f, const loop *lp) {
  return lp && f->by_loop && lp->id > 0 && lp->id < f->nloops ? f->by_loop[lp->id] : NULL;
}

/* Why t cannot be contracted into a local of its producer's group. */
static const char *contract_problem(fuser *u, const obj *t, const vec *writers,
                                    const vec *readers) {
  const char *why = producer_problem(u, t, writers);
  if (why)
    return why;
  const loop *p = writers->items[0];
  const group *g = group_of(u->f, p);
  if (readers->len == 0)
    return arena_printf(u->a, "no par_loop of this block reads it (it is kept for "
                        "later use)");
  for (int i = 0; i < readers->len; i++) {
    const loop *c = readers->items[i];
    for (int k = 0; k < c->nargs; k++)
      if (c->args[k].obj == t && c->args[k].kind != ARG_DAT)
        return arena_printf(u->a, "%s reads it through map %s", c->kernel,
                            c->args[k].map->name);
    if (group_of(u->f, c) != g)
      return arena_printf(u->a, "%s (line %u) is not fused with its producer %s",
                          c->kernel, c->loc.line, p->kernel);
    if (index_of(u, c) < index_of(u, p))
      return arena_printf(u->a, "%s reads it before %s writes it", c->kernel, p->kernel);
  }
  return NULL;
}

static void decide_temp(fuser *u, const obj *t) {
  vec writers = {0}, readers = {0};
  producers(u, t, &writers, &readers);
  const char *why = contract_problem(u, t, &writers, &readers);
  const loop *p = writers.len ? writers.items[0] : NULL;
  if (!why) {
    new_temp(u, t, TEMP_CONTRACTED, p);
    dag_note(u->notes, u->a, p->loc, "%s contracted to a local of the fused loop: its "
             "producer %s and every consumer read and write only the current element",
             t->name, p->kernel);
    return;
  }
  new_temp(u, t, TEMP_STORED, p);
  dag_note(u->notes, u->a, p ? p->loc : u->r->loc, "%s stored: %s", t->name, why);
}

static void decide_temps(fuser *u) {
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    for (int k = 0; it->kind == ITEM_LOOP && k < it->lp->nargs; k++) {
      const obj *o = it->lp->args[k].obj;
      if (o && o->kind == OBJ_DAT && o->is_temp && !temp_of(u, o))
        decide_temp(u, o);
    }
  }
}

/* ---- storage reuse --------------------------------------------------------------------- */

/* Where the group of lp runs, in item order. */
static int position(const fuser *u, const loop *lp) {
  const group *g = group_of(u->f, lp);
  return index_of(u, g ? g->anchor : lp);
}

/* A stored temporary's lifetime [*from, *to] in the region; 0 when it may
 * not share storage (its first use is not a direct write of every element,
 * or something outside the region uses it). */
static int lifetime(const fuser *u, const obj *t, int *from, int *to, const loop **first) {
  *from = -1;
  *to = -1;
  *first = NULL;
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    /* where the loops touching t run: a pinned producer reading t runs in
     * its consumers (effects.h), at their positions */
    if (it->kind != ITEM_LOOP || effects_pinned_away(u->f, it->lp) ||
        !effects_touch(u->a, it->lp, u->f, t))
      continue;
    int at = position(u, it->lp);
    if (*from < 0 || at < *from) {
      *from = at;
      *first = it->lp;
    }
    *to = at > *to ? at : *to;
  }
  const loop_arg *w = *first ? write_of(*first, t) : NULL;
  return w && w->mode == MODE_WRITE && w->kind == ARG_DAT && !reads_obj(*first, t) &&
         !used_elsewhere(u, t);
}

static int same_shape(const obj *x, const obj *y) {
  return x->set == y->set && x->dim == y->dim && strcmp(x->type->c_name, y->type->c_name) == 0;
}

static void share_storage(fuser *u, int first_temp) {
  vec owners = {0}; /* temp_info*: storage holders, with their end */
  vec ends = {0};
  for (int i = first_temp; i < u->f->temps.len; i++) {
    temp_info *ti = u->f->temps.items[i];
    int from = -1, to = -1;
    const loop *first = NULL;
    if (ti->fate != TEMP_STORED || !lifetime(u, ti->t, &from, &to, &first))
      continue;
    int k = 0;
    while (k < owners.len && !(same_shape(((temp_info *)owners.items[k])->t, ti->t) &&
                               (int)(long)ends.items[k] < from))
      k++;
    if (k == owners.len) {
      vec_push(u->a, &owners, ti);
      vec_push(u->a, &ends, (void *)(long)to);
      continue;
    }
    const temp_info *o = owners.items[k];
    ends.items[k] = (void *)(long)to;
    ti->shares = o->t;
    ti->first = first;
    dag_note(u->notes, u->a, first->loc, "%s reuses the storage of %s: their lifetimes "
             "in this block do not overlap (%s is last used before %s first writes %s)",
             ti->t->name, o->t->name, o->t->name, first->kernel, ti->t->name);
  }
}

/* ---- driver --------------------------------------------------------------------------- */

static int is_mpi(const char *target) {
  return strcmp(target, "mpi") == 0 || strcmp(target, "mpi+openmp") == 0;
}

/* The hints, per region, checked against the DAGs `seq` (program order,
 * no pins), which receive their notes. */
static fusion *fuse_hints(const program *prog, const vec *regions, vec *seq, int mpi,
                          arena *a) {
  fusion *f = arena_alloc(a, sizeof *f);
  for (int r = 0; r < regions->len; r++) {
    fuser u = {prog, regions, a, f, regions->items[r], seq->items[r], seq->items[r], 0, mpi,
               NULL};
    apply_hints(&u);
    pin_inputs_check(&u);
    if (mpi)
      pin_mpi_check(&u);
  }
  return f;
}

/* Groups, contraction and storage sharing, per region. */
static void fuse_groups(fusion *f, const program *prog, const vec *regions, vec *dags,
                        int no_fuse, int mpi, arena *a) {
  vec seq = dag_build(regions, "seq", f, a);
  for (int r = 0; r < regions->len; r++) {
    fuser u = {prog, regions, a, f, regions->items[r], seq.items[r], dags->items[r],
               no_fuse, mpi, NULL};
    int first_temp = f->temps.len;
    form_groups(&u);
    decide_temps(&u);
    share_storage(&u, first_temp);
  }
  for (int i = 0; i < f->groups.len; i++)
    ((group *)f->groups.items[i])->id = i + 1;
  domains_done();
}

fusion *fuse(const program *prog, const vec *regions, const char *target, int no_fuse,
             vec *dags, arena *a) {
  vec seq = dag_build(regions, "seq", NULL, a);
  fusion *f = fuse_hints(prog, regions, &seq, is_mpi(target), a);
  *dags = dag_build(regions, target, f, a);
  for (int r = 0; r < dags->len; r++) { /* the hints' notes first */
    dag *d = dags->items[r], *s = seq.items[r];
    vec notes = s->notes;
    for (int i = 0; i < d->notes.len; i++)
      vec_push(a, &notes, d->notes.items[i]);
    d->notes = notes;
  }
  fuse_groups(f, prog, regions, dags, no_fuse, is_mpi(target), a);
  return f;
}

const group *fusion_group(const fusion *f, const loop *lp) { return group_of(f, lp); }

const temp_info *fusion_temp(const fusion *f, const obj *t) {
  for (int i = 0; i < f->temps.len; i++) {
    const temp_info *ti = f->temps.items[i];
    if (ti->t == t)
      return ti;
  }
  return NULL;
}
