/*
 * rotate.c — loop rotation (see rotate.h).
 *
 * Positions: in a region, a loop stands where its group's call stands
 * (the anchor's item), any other item where it is; fusion placed the
 * groups so that every edge of the DAG goes forward in these positions, so
 * a path into H from what lies between T and H passes only through what
 * lies between: direct predecessors suffice.
 */
#include "transform/rotate.h"

#include <string.h>

#include "analysis/domains.h"
#include "transform/hoist.h"

typedef struct rotator {
  const program *prog;
  const fusion *fu;
  rotations *out;
  const region_list *regions;
  const dag_list *dags;
  const hoist_list *hoists; /* exchanges issued before their loop statements */
  arena *a;
  int mpi;
  const region **loop_region; /* by loop id: the region whose item it is */
  int *loop_item;             /* by loop id: that item's index */
  int nids;                   /* length of both */
} rotator;

/* ---- positions --------------------------------------------------------- */

/* Every loop's region and item, by loop id, once. */
static void index_loops(rotator *x) {
  x->nids = 1;
  for (int r = 0; r < x->regions->len; r++) {
    const region *reg = x->regions->items[r];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      if (it->kind == ITEM_LOOP && it->lp->id >= x->nids)
        x->nids = it->lp->id + 1;
    }
  }
  x->loop_region = arena_alloc(x->a, (size_t)x->nids * sizeof *x->loop_region);
  x->loop_item = arena_alloc(x->a, (size_t)x->nids * sizeof *x->loop_item);
  for (int r = 0; r < x->regions->len; r++) {
    const region *reg = x->regions->items[r];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      if (it->kind == ITEM_LOOP && it->lp->id > 0) {
        x->loop_region[it->lp->id] = reg;
        x->loop_item[it->lp->id] = i;
      }
    }
  }
}

static int item_of(const rotator *x, const region *r, const loop *lp) {
  return lp->id > 0 && lp->id < x->nids && x->loop_region[lp->id] == r ? x->loop_item[lp->id]
                                                                         : -1;
}

/* Where item i of r stands: its group's anchor's item for a loop. */
static int position(const rotator *x, const region *r, int i) {
  const item *it = r->items.items[i];
  const group *g = it->kind == ITEM_LOOP ? fusion_group(x->fu, it->lp) : NULL;
  return g ? item_of(x, r, g->anchor) : i;
}

static int anchor_pos(const rotator *x, const region *r, const group *g) {
  return item_of(x, r, g->anchor);
}

static int in_group(const group *g, const loop *lp) {
  for (int i = 0; lp && i < g->loops.len; i++)
    if (g->loops.items[i] == lp)
      return 1;
  return 0;
}

/* The groups of region r, in order of their anchors. */
static group_list groups_of(const rotator *x, const region *r) {
  group_list v = {0};
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    const group *g = it->kind == ITEM_LOOP ? fusion_group(x->fu, it->lp) : NULL;
    if (g && g->anchor == it->lp)
      vec_push(x->a, &v, (void *)g);
  }
  return v;
}

static const obj *set_of(const group *g) { return ((const loop *)g->loops.items[0])->set; }

/* ---- what H may not do ------------------------------------------------------ */

/* Whether every exchange lp needs in the body's DAG d is gone (hoisted or
 * merged): its halos are current where it runs. */
static int halos_current(const dag *d, const loop *lp) {
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (c->kind == COMP_HALO_SEND && c->lp == lp && !c->removed)
      return 0;
  }
  return 1;
}

static int reads_pinned(const rotator *x, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++) {
    const obj *o = lp->args[i].obj;
    const temp_info *ti = o && o->kind == OBJ_DAT ? temps_find(&x->fu->temps, o) : NULL;
    if (ti && ti->fate == TEMP_PINNED && lp->args[i].mode == MODE_READ)
      return 1;
  }
  return 0;
}

/* Why the loops of h may not run early, in another group's call (NULL:
 * they may); li: the loop h's region is the body of. */
static const char *head_problem(const rotator *x, const group *h, const loop_info *li) {
  const loop_stmt *ls = li->r->loop;
  for (int l = 0; l < h->loops.len; l++) {
    const loop *lp = h->loops.items[l];
    const obj *o = loop_names_declared_in(lp, x->prog->file, ls->start, ls->end);
    if (o) /* each iteration declares it anew */
      return arena_printf(x->a, "%s names %s, declared in the loop's body", lp->kernel,
                          obj_label(o));
    for (int i = 0; i < lp->nargs; i++)
      if (lp->args[i].kind == ARG_GLOBAL && lp->args[i].mode != MODE_READ)
        return arena_printf(x->a, "%s %s the global %s", lp->kernel,
                            arg_is_reduction(&lp->args[i]) ? "reduces" : "writes",
                            obj_label(lp->args[i].obj));
    if (reads_pinned(x, lp))
      return arena_printf(x->a, "%s evaluates a pinned temporary", lp->kernel);
    if (x->mpi && !halos_current(li->body, lp))
      return arena_printf(x->a, "with MPI, %s needs a halo exchanged in the loop",
                          lp->kernel);
  }
  return NULL;
}

/* A temporary pin_cse keeps the producer of apart from its consumers,
 * produced in one of g and h and read in the other, or NULL. */
static const obj *cse_across(const rotator *x, const group *g, const group *h) {
  for (int i = 0; i < x->fu->temps.len; i++) {
    const temp_info *ti = x->fu->temps.items[i];
    if (ti->fate != TEMP_STORED || !ti->producer || !ti->hint_loc.file)
      continue;
    for (int k = 0; k < g->loops.len + h->loops.len; k++) {
      const loop *lp = k < g->loops.len ? g->loops.items[k] : h->loops.items[k - g->loops.len];
      int mine = in_group(k < g->loops.len ? g : h, ti->producer);
      if (!mine && loop_arg_reading(lp, ti->t) && (in_group(g, ti->producer) ||
                                                   in_group(h, ti->producer)))
        return ti->t;
    }
  }
  return NULL;
}

/* Why g and h cannot form one element loop, g's loops first (NULL: they
 * can). */
static const char *fusable(const rotator *x, const group *g, const group *h) {
  const loop *g0 = g->loops.items[0], *h0 = h->loops.items[0];
  if (g0->set != h0->set)
    return "";
  const obj *t = cse_across(x, g, h);
  if (t)
    return arena_printf(x->a, "pin_cse(%s) keeps its producer's loop apart", obj_label(t));
  if (x->mpi && loop_executes_halo(g0) != loop_executes_halo(h0))
    return arena_printf(x->a, "with MPI, one of %s and %s runs its executed halo and "
                        "the other does not", g0->kernel, h0->kernel);
  loop_list acc = {0};
  for (int i = 0; i < g->loops.len; i++)
    vec_push(x->a, &acc, g->loops.items[i]);
  for (int i = 0; i < h->loops.len; i++) {
    const char *why = NULL;
    int ok = domains_fusable(x->a, &acc, h->loops.items[i], &why);
    if (ok < 0)
      return "isl could not decide";
    if (!ok)
      return why;
    vec_push(x->a, &acc, h->loops.items[i]);
  }
  return NULL;
}

/* ---- across the iteration boundary --------------------------------------------- */

/* What H of iteration i+1 depends on, in li's DAG of two iterations: a
 * tail T may take H when none of it stands between T of iteration i and H
 * (what follows T in the body, the condition and increment, what precedes
 * H) — through anything, a storage's free and the next iteration's
 * allocation included, which stand at their loops' places.  One walk over
 * H's ancestors serves every tail: `blocked` is the first that stands
 * between whatever T is (the latch, or one of iteration i+1 before H), else
 * NULL; `last` the ancestor of iteration i standing last, at `last_at` (-1:
 * none), which T must not precede. */
typedef struct reach {
  const comp *blocked, *last;
  int last_at;
} reach;

static reach head_reach(const rotator *x, const loop_info *li, const group *h) {
  const dag *s = li->steps;
  const region *r = li->r;
  int h_at = anchor_pos(x, r, h);
  reach out = {NULL, NULL, -1};
  unsigned char *seen = arena_alloc(x->a, (size_t)s->comps.len + 1);
  vec todo = {0};
  for (int i = 0; i < s->comps.len; i++) {
    comp *c = s->comps.items[i];
    if (c->step == 1 && !c->removed && in_group(h, c->lp))
      vec_push(x->a, &todo, c);
  }
  while (todo.len && !out.blocked) {
    const comp *c = todo.items[--todo.len];
    for (int k = 0; k < c->preds.len && !out.blocked; k++) {
      const comp *p = c->preds.items[k];
      if (seen[p->id]++)
        continue;
      int at = p->latch ? -1 : position(x, r, p->item);
      if (p->latch || (p->step == 1 && at < h_at))
        out.blocked = p;
      else if (p->step == 0 && at > out.last_at)
        out.last = p, out.last_at = at;
      vec_push(x->a, &todo, (void *)p);
    }
  }
  return out;
}

static const char *between_text(rotator *x, const group *h, const comp *p) {
  return arena_printf(x->a, "the next iteration's %s depends on %s, which runs between",
                      fusion_group_kernels(x->a, h), p->label);
}

/* ---- before the loop ---------------------------------------------------------- */

/* The DAG of region r. */
static dag *dag_of(const rotator *x, const region *r) {
  for (int i = 0; i < x->regions->len; i++)
    if (x->regions->items[i] == r)
      return x->dags->items[i];
  return NULL;
}

/* Whether a loop of h reads the halo the hoisted exchange ho sends. */
static int served(const hoist *ho, const group *h) {
  for (int l = 0; l < h->loops.len; l++)
    if (hoist_serves(ho, h->loops.items[l]))
      return 1;
  return 0;
}

/* The dat of an exchange hoisted before li whose halo a loop of h reads,
 * that a loop of p writes, or NULL.  The exchange then begins before p
 * (place.c): p must not change what it sends. */
static const obj *hoisted_written(const rotator *x, const loop_info *li, const group *p,
                                  const group *h) {
  for (int i = 0; x->hoists && i < x->hoists->len; i++) {
    const hoist *ho = x->hoists->items[i];
    if (ho->li != li || !served(ho, h))
      continue;
    for (int l = 0; l < p->loops.len; l++) {
      const loop *lp = p->loops.items[l];
      for (int k = 0; k < lp->nargs; k++)
        if (lp->args[k].obj == ho->send->o && lp->args[k].mode != MODE_READ)
          return ho->send->o;
    }
  }
  return NULL;
}

/* Why h, of the loop's first iteration, cannot join p (a group of the
 * loop statement's block, before it) (NULL: it can). */
static const char *pre_problem(const rotator *x, const loop_info *li, const group *p,
                               const group *h) {
  const loop_stmt *l = li->r->loop;
  const dag *pd = dag_of(x, l->parent);
  const char *why = fusable(x, p, h);
  if (why)
    return why;
  const obj *sent = hoisted_written(x, li, p, h);
  if (sent)
    return arena_printf(x->a, "with MPI, the halo of %s that %s reads is exchanged before "
                        "the %s, and %s writes it", obj_label(sent), fusion_group_kernels(x->a, h),
                        l->what, p->anchor->kernel);
  for (int i = 0; i < h->loops.len; i++) {
    const loop *lp = h->loops.items[i];
    const obj *o = loop_names_declared_in(lp, x->prog->file, p->anchor->start, lp->start);
    if (o)
      return arena_printf(x->a, "%s names %s, declared after %s", lp->kernel, obj_label(o),
                          p->anchor->kernel);
  }
  /* what stands in the body before h */
  for (int i = 0; i < li->body->comps.len; i++) {
    const comp *c = li->body->comps.items[i];
    for (int k = 0; !c->removed && in_group(h, c->lp) && k < c->preds.len; k++) {
      const comp *q = c->preds.items[k];
      if (position(x, li->r, q->item) < anchor_pos(x, li->r, h))
        return arena_printf(x->a, "%s depends on %s, before it in the body", c->lp->kernel,
                            q->label);
    }
  }
  /* what stands in the block between p and the loop statement */
  for (int i = 0; i < pd->comps.len; i++) {
    const comp *q = pd->comps.items[i];
    int at = position(x, l->parent, q->item);
    if (q->removed || at <= anchor_pos(x, l->parent, p) || at >= l->item)
      continue;
    for (int k = 0; k < li->body->comps.len; k++) {
      const comp *c = li->body->comps.items[k];
      if (!c->removed && in_group(h, c->lp) && dag_depends(c, q))
        return arena_printf(x->a, "%s depends on %s, which stands before the %s",
                            c->lp->kernel, q->label, l->what);
    }
  }
  return NULL;
}

/* Whether a barrier stands between p's call and the loop statement in
 * their block (control could reach the loop without the flag p sets). */
static int barrier_between(const rotator *x, const loop_info *li, const group *p) {
  const loop_stmt *l = li->r->loop;
  for (int i = anchor_pos(x, l->parent, p); i <= l->item; i++)
    if (((const item *)l->parent->items.items[i])->leaves)
      return 1;
  return 0;
}

/* The nearest group over set before the loop statement in its block. */
static const group *group_before(const rotator *x, const loop_info *li, const obj *set) {
  const loop_stmt *l = li->r->loop;
  group_list gs = groups_of(x, l->parent);
  for (int i = gs.len - 1; i >= 0; i--) {
    const group *g = gs.items[i];
    if (anchor_pos(x, l->parent, g) < l->item && set_of(g) == set)
      return g;
  }
  return NULL;
}

/* ---- rotations -------------------------------------------------------------------- */

static int taken(const rotator *x, const group *g) { return rotation_of(x->out, g) != NULL; }

static group *fused_group(rotator *x, const group *g, const group *h) {
  group *f = arena_alloc(x->a, sizeof *f);
  for (int i = 0; i < g->loops.len; i++)
    vec_push(x->a, &f->loops, g->loops.items[i]);
  for (int i = 0; i < h->loops.len; i++)
    vec_push(x->a, &f->loops, h->loops.items[i]);
  f->anchor = g->anchor;
  vec_push(x->a, &x->out->groups, f);
  f->id = x->fu->groups.len + x->out->groups.len;
  return f;
}

/* Why the body of li cannot rotate at all (NULL: it may). */
static const char *loop_problem(const loop_info *li) {
  if (!li->next)
    return "it is not a for statement in canonical form";
  for (int i = 0; i < li->r->items.len; i++)
    if (((const item *)li->r->items.items[i])->leaves)
      return "its body has a barrier (a jump, a label or loom_exit)";
  return NULL;
}

/* The tail for head h: the latest group over its set after it that it can
 * join across the iteration boundary, trying at most ROTATE_TAILS (whose
 * isl checks are the cost); *why: the first refusal. */
static const group *tail_for(rotator *x, const loop_info *li, const group_list *gs, const group *h,
                             const char **why) {
  reach rc = head_reach(x, li, h);
  const char *w = NULL;
  int tries = 0;
  for (int i = gs->len - 1; i >= 0 && !rc.blocked && !w; i--) {
    const group *t = gs->items[i];
    if (t == h || taken(x, t) || anchor_pos(x, li->r, t) <= anchor_pos(x, li->r, h) ||
        set_of(t) != set_of(h))
      continue;
    if (anchor_pos(x, li->r, t) < rc.last_at) /* and so every earlier one */
      w = arena_printf(x->a, "%s cannot join %s: %s", fusion_group_kernels(x->a, h),
                       fusion_group_kernels(x->a, t), between_text(x, h, rc.last));
    else if (tries++ == ROTATE_TAILS)
      w = arena_printf(x->a, "%s: its budget of %d tails tried (ROTATE_TAILS) is spent",
                       fusion_group_kernels(x->a, h), ROTATE_TAILS);
    else if (!(w = fusable(x, t, h)))
      return t;
    else if (*w)
      w = arena_printf(x->a, "%s cannot join %s: %s", fusion_group_kernels(x->a, h),
                       fusion_group_kernels(x->a, t), w);
    else
      w = NULL;
  }
  if (rc.blocked)
    w = arena_printf(x->a, "%s cannot run early: %s", fusion_group_kernels(x->a, h),
                     between_text(x, h, rc.blocked));
  if (w && !*why)
    *why = w;
  return NULL;
}

static void note_rotation(rotator *x, const rotation *rot) {
  dag *d = rot->li->body;
  const loop_info *li = rot->li;
  if (rot->tail)
    dag_note(d, x->a, rot->tail->anchor->loc, "rotated the %s at line %u: %s of the next "
             "iteration fused into %s when one follows (%s); the first iteration runs them "
             "at line %u (flag loom_rotated_%d)", li->r->loop->what, li->r->loop->loc.line,
             fusion_group_kernels(x->a, rot->head), fusion_group_kernels(x->a, rot->tail),
             li->next, rot->head->anchor->loc.line, rot->id);
  if (rot->pre)
    dag_note(d, x->a, rot->pre->anchor->loc, "%s of the first iteration of the %s at line "
             "%u fused into %s (line %u), before the loop (it runs %ld times)",
             fusion_group_kernels(x->a, rot->head), li->r->loop->what, li->r->loop->loc.line,
             fusion_group_kernels(x->a, rot->pre), rot->pre->anchor->loc.line, li->trip);
}

/* The rotation of one loop, or NULL (the reason noted). */
static rotation *rotate_loop(rotator *x, const loop_info *li) {
  const char *why = loop_problem(li);
  if (why) {
    dag_note(li->body, x->a, li->r->loop->loc, "not rotated: %s", why);
    return NULL;
  }
  group_list gs = groups_of(x, li->r);
  const char *first = NULL;
  int heads = 0;
  for (int i = 0; i < gs.len; i++) {
    const group *h = gs.items[i];
    const char *hw = taken(x, h) ? "" : head_problem(x, h, li);
    if (hw) {
      if (*hw && !first)
        first = arena_printf(x->a, "%s cannot run early: %s", fusion_group_kernels(x->a, h),
                             hw);
      continue;
    }
    if (heads++ == ROTATE_HEADS) {
      dag_note(li->body, x->a, li->r->loop->loc,
               "not rotated: its budget of %d heads tried (ROTATE_HEADS) is spent%s%s",
               ROTATE_HEADS, first ? "; the first refusal: " : "", first ? first : "");
      return NULL;
    }
    const group *t = tail_for(x, li, &gs, h, &first);
    const group *p = li->trip >= 1 && li->r->loop->parent
                         ? group_before(x, li, set_of(h)) : NULL;
    if (p && (taken(x, p) || pre_problem(x, li, p, h) || barrier_between(x, li, p)))
      p = NULL;
    if (!t && !p)
      continue;
    rotation *rot = arena_alloc(x->a, sizeof *rot);
    *rot = (rotation){x->out->list.len + 1, li, h, t, NULL, p, NULL};
    if (t)
      rot->fused = fused_group(x, t, h);
    if (p)
      rot->pre_fused = fused_group(x, p, h);
    vec_push(x->a, &x->out->list, rot);
    note_rotation(x, rot);
    return rot;
  }
  if (first)
    dag_note(li->body, x->a, li->r->loop->loc, "not rotated: %s", first);
  return NULL;
}

const rotations *rotate(const translation *t, const fusion *fu, arena *a) {
  rotations *out = arena_alloc(a, sizeof *out);
  rotator x = {&t->prog, fu, out, &t->regions, &t->dags, &t->hoists, a,
               t->opt->target->distributed, NULL, NULL, 0};
  index_loops(&x);
  int disabled = t->opt->no_fuse || t->opt->no_rotate;
  for (int i = 0; !disabled && i < t->loops.len; i++)
    rotate_loop(&x, t->loops.items[i]);
  domains_done();
  return out;
}

const rotation *rotation_of(const rotations *rots, const group *g) {
  for (int i = 0; rots && i < rots->list.len; i++) {
    const rotation *r = rots->list.items[i];
    if (r->head == g || r->tail == g || r->pre == g)
      return r;
  }
  return NULL;
}
