/*
 * fuse.c — fusion groups and the temporaries without a hint (see fuse.h).
 *
 *   1. groups: greedily, each loop joins the group before it when isl
 *      allows it (domains_fusable, over the loops' effects), nothing
 *      between them in the region depends on the group's loops, and with
 *      MPI no halo exchange must come between them; otherwise it starts a
 *      group;
 *   2. temporaries without a hint are contracted or stored, and stored
 *      ones with disjoint lifetimes share storage.
 * Dependences between a region's items come from its DAG for the seq
 * target, where item i is computation i.
 */
#include "transform/fuse.h"

#include <string.h>

#include "analysis/domains.h"

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

/* ---- items ------------------------------------------------------------------ */

static const item *item_at(const fuser *u, int i) { return u->r->items.items[i]; }
static const comp *comp_at(const fuser *u, int i) { return u->seq->comps.items[i]; }

static int index_of(const fuser *u, const loop *lp) {
  for (int i = 0; i < u->r->items.len; i++)
    if (item_at(u, i)->kind == ITEM_LOOP && item_at(u, i)->lp == lp)
      return i;
  return -1;
}

/* ---- groups ------------------------------------------------------------------------ */

static int reads_pinned(const fuser *u, const loop *lp) {
  for (int i = 0; i < u->f->temps.len; i++) {
    const temp_info *ti = u->f->temps.items[i];
    if (ti->fate == TEMP_PINNED && loop_arg_reading(lp, ti->t))
      return 1;
  }
  return 0;
}

/* pin_cse(t): t's producer and its consumers stay apart. */
static const obj *cse_between(const fuser *u, const group *g, const loop *lp) {
  for (int i = 0; i < u->f->temps.len; i++) {
    const temp_info *ti = u->f->temps.items[i];
    if (ti->fate != TEMP_STORED || !ti->producer || !loop_arg_reading(lp, ti->t))
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
  vec halos = effects_halo_dats(u->a, lp, &u->f->temps);
  for (int i = 0; i < halos.len; i++)
    for (int k = 0; k < g->loops.len; k++)
      if (loop_arg_writing(g->loops.items[k], halos.items[i]))
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
    if (it->kind != ITEM_LOOP || temps_pinned_away(&u->f->temps, it->lp) || it->lp->domain)
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
  const char *why = region_temp_producer_problem(u->a, u->prog, u->regions, u->r, t, writers);
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

static temp_info *new_temp(fuser *u, const obj *t, temp_fate fate, const loop *p) {
  temp_info *ti = arena_alloc(u->a, sizeof *ti);
  *ti = (temp_info){t, fate, p, NULL, NULL, {0}};
  vec_push(u->a, &u->f->temps, ti);
  return ti;
}

static void decide_temp(fuser *u, const obj *t) {
  vec writers = {0}, readers = {0};
  region_temp_uses(u->a, u->r, t, &writers, &readers);
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
      if (o && o->kind == OBJ_DAT && o->is_temp && !temps_find(&u->f->temps, o))
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
    if (it->kind != ITEM_LOOP || temps_pinned_away(&u->f->temps, it->lp) ||
        !effects_touch(u->a, it->lp, &u->f->temps, t))
      continue;
    int at = position(u, it->lp);
    if (*from < 0 || at < *from) {
      *from = at;
      *first = it->lp;
    }
    *to = at > *to ? at : *to;
  }
  const loop_arg *w = *first ? loop_arg_writing(*first, t) : NULL;
  return w && w->mode == MODE_WRITE && w->kind == ARG_DAT && !loop_arg_reading(*first, t) &&
         !region_temp_used_elsewhere(u->prog, u->regions, u->r, t);
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

fusion *fuse(const program *prog, const vec *regions, const vec *seq, vec *dags,
             const vec *pins, const char *target, int no_fuse, arena *a) {
  fusion *f = arena_alloc(a, sizeof *f);
  for (int i = 0; i < pins->len; i++)
    vec_push(a, &f->temps, pins->items[i]);
  int mpi = strcmp(target, "mpi") == 0 || strcmp(target, "mpi+openmp") == 0;
  for (int r = 0; r < regions->len; r++) {
    fuser u = {prog, regions, a, f, regions->items[r], seq->items[r], dags->items[r],
               no_fuse, mpi, NULL};
    int first_temp = f->temps.len;
    form_groups(&u);
    decide_temps(&u);
    share_storage(&u, first_temp);
  }
  for (int i = 0; i < f->groups.len; i++)
    ((group *)f->groups.items[i])->id = i + 1;
  domains_done();
  return f;
}

const group *fusion_group(const fusion *f, const loop *lp) { return group_of(f, lp); }
