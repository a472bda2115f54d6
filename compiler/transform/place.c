/*
 * place.c — HaloSend and ReductionEnd laid onto the output (see place.h).
 *
 * Points of a region are numbered 0..n: point k is the start of item k
 * (for a loop, its directive, where the call of its group stands when it
 * is the anchor), point n its '}'.  A computation's code stands at the
 * point of its item, or, for the parts of a loop, at its group's anchor.
 * A send goes to the first point after the code of everything it depends
 * on; a fold to the point of the first computation that depends on it.
 */
#include "transform/place.h"

#include "transform/rotate.h"

typedef struct placer {
  const program *prog;
  arena *a;
  const fusion *fu;
  const rotations *rots;
  dag *d;
  insertion_list out;
  int *item_by_loop; /* by loop id: its item in the region, or -1 */
  int nloops;        /* length of item_by_loop */
  comp_list *succs;  /* by comp id: the computations c is a predecessor of */
} placer;

static const region *reg(const placer *p) { return p->d->r; }
static int npoints(const placer *p) { return reg(p)->items.len; }

const char *place_reduction_handle(arena *a, const loop *lp, const obj *g) {
  return arena_printf(a, "loom_reduction_%d_%s", lp->id, g->name);
}

static int item_of_loop(const placer *p, const loop *lp) {
  return lp->id > 0 && lp->id < p->nloops ? p->item_by_loop[lp->id] : -1;
}

/* The region's loop -> item index and each computation's successors. */
static void index_region(placer *p) {
  const region *r = reg(p);
  p->nloops = 1;
  for (int k = 0; k < r->items.len; k++) {
    const item *it = r->items.items[k];
    if (it->kind == ITEM_LOOP && it->lp->id >= p->nloops)
      p->nloops = it->lp->id + 1;
  }
  p->item_by_loop = arena_alloc(p->a, (size_t)p->nloops * sizeof *p->item_by_loop);
  for (int i = 0; i < p->nloops; i++)
    p->item_by_loop[i] = -1;
  for (int k = 0; k < r->items.len; k++) {
    const item *it = r->items.items[k];
    if (it->kind == ITEM_LOOP)
      p->item_by_loop[it->lp->id] = k;
  }
  p->succs = arena_alloc(p->a, ((size_t)p->d->comps.len + 1) * sizeof *p->succs);
  for (int i = 0; i < p->d->comps.len; i++) {
    comp *c = p->d->comps.items[i];
    for (int k = 0; k < c->preds.len; k++)
      vec_push(p->a, &p->succs[((const comp *)c->preds.items[k])->id], c);
  }
}

/* The point where c's code stands. */
static int code_point(const placer *p, const comp *c) {
  if (c->kind == COMP_OTHER || !c->lp)
    return c->item;
  const group *g = fusion_group(p->fu, c->lp);
  int k = g ? item_of_loop(p, g->anchor) : -1;
  return k >= 0 ? k : c->item;
}

/* The first point where c's code runs: a loop statement whose first
 * iteration's head is fused into the group before it (rotate.h: pre)
 * starts at that group's call. */
static int first_code_point(const placer *p, const comp *c) {
  int k = code_point(p, c);
  for (int i = 0; i < p->rots->list.len; i++) {
    const rotation *rot = p->rots->list.items[i];
    const loop_stmt *l = rot->li->r->loop;
    int pre = rot->pre ? item_of_loop(p, rot->pre->anchor) : -1;
    if (l->parent == reg(p) && l->item == c->item && pre >= 0 && pre < k)
      k = pre;
  }
  return k;
}

static unsigned point_offset(const placer *p, int k) {
  if (k >= npoints(p))
    return reg(p)->end;
  return ((const item *)reg(p)->items.items[k])->start;
}

static const char *loop_point_text(const placer *p, const item *it) {
  const group *g = fusion_group(p->fu, it->lp);
  if (!g)
    return arena_printf(p->a, "at line %u, where the pinned %s stood", it->loc.line,
                        it->lp->kernel);
  if (g->anchor != it->lp)
    return arena_printf(p->a, "at line %u, where %s stood (it runs in the call of %s "
                        "at line %u)", it->loc.line, it->lp->kernel,
                        fusion_group_kernels(p->a, g),
                        g->anchor->loc.line);
  return arena_printf(p->a, "before the call of %s (line %u)", fusion_group_kernels(p->a, g),
                      it->loc.line);
}

/* A description of point k for the notes. */
static const char *point_text(const placer *p, int k) {
  if (k >= npoints(p))
    return arena_printf(p->a, "at the end of the block (line %u)", reg(p)->end_line);
  const item *it = reg(p)->items.items[k];
  if (it->kind == ITEM_LOOP)
    return loop_point_text(p, it);
  return arena_printf(p->a, "before the %s at line %u",
                      it->kind == ITEM_SYNC ? "sync" : it->kind == ITEM_HOST ? "host statement"
                                                                             : it->what,
                      it->loc.line);
}

static void insert(placer *p, int k, const char *text) {
  insertion *x = arena_alloc(p->a, sizeof *x);
  x->offset = point_offset(p, k);
  x->text = text;
  vec_push(p->a, &p->out, x);
}

/* The first point after the declaration of dat o's handle, when the
 * region declares it (else 0). */
static int after_declaration(const placer *p, const obj *o) {
  const region *r = reg(p);
  if (o->loc.offset <= r->loc.offset || o->loc.offset >= r->end)
    return 0;
  int k = 0;
  while (k < npoints(p) && point_offset(p, k) <= o->loc.offset)
    k++;
  return k;
}

/* A send goes after the code of everything it depends on: its direct
 * predecessors suffice, as code stands in an order that respects every
 * dependence (what a predecessor depends on stands at or before it). */
static void place_send(placer *p, const comp *s) {
  int lo = after_declaration(p, s->o), hi = code_point(p, s);
  for (int i = 0; i < s->preds.len; i++) {
    const comp *c = s->preds.items[i];
    if (code_point(p, c) + 1 > lo)
      lo = code_point(p, c) + 1;
  }
  int k = lo < hi ? lo : hi;
  insert(p, k, arena_printf(p->a, "loom__halo_begin(%s); ", s->o->expr ? s->o->expr : s->o->name));
  dag_note(p->d, p->a, s->loc, "%s for %s issued %s", s->label, s->lp->kernel,
           point_text(p, k));
}

/* A fold goes before the code of the first computation that depends on
 * it: its direct successors suffice (as for place_send); a loop statement
 * whose first head runs in the group before it, before that group. */
static void place_fold(placer *p, const comp *e) {
  int lo = code_point(p, e) + 1, hi = npoints(p);
  const comp_list *succs = &p->succs[e->id];
  for (int i = 0; i < succs->len; i++) {
    const comp *c = succs->items[i];
    if (first_code_point(p, c) < hi)
      hi = first_code_point(p, c);
  }
  int k = hi > lo ? hi : lo;
  const char *var = e->o->is_array ? e->o->name : arena_printf(p->a, "&%s", e->o->name);
  insert(p, k, arena_printf(p->a, "loom__reduce_fold(&%s, %s); ",
                            place_reduction_handle(p->a, e->lp, e->o), var));
  dag_note(p->d, p->a, e->loc, "%s for %s completed %s", e->label, e->lp->kernel,
           point_text(p, k));
}

static int by_offset(const void *x, const void *y) {
  const insertion *a = *(insertion *const *)x, *b = *(insertion *const *)y;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* A statement inserted before the user's text at offset `at`: on a line of
 * its own when only blanks precede `at` on its line. */
static void insert_statement(placer *p, unsigned at, const char *text) {
  unsigned start = at;
  while (start > 0 && (p->prog->text[start - 1] == ' ' || p->prog->text[start - 1] == '\t'))
    start--;
  insertion *x = arena_alloc(p->a, sizeof *x);
  if (start == 0 || p->prog->text[start - 1] == '\n') /* indented as the line */
    *x = (insertion){start, arena_printf(p->a, "%.*s%s", (int)(at - start),
                                         p->prog->text + start, text),
                     program_line(p->prog, at)};
  else
    *x = (insertion){at, arena_printf(p->a, "%s ", text), 0};
  vec_push(p->a, &p->out, x);
}

/* The index of lp's item in region r, or `otherwise` (it is not one). */
static int item_index(const region *r, const loop *lp, int otherwise) {
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (it->kind == ITEM_LOOP && it->lp == lp)
      return i;
  }
  return otherwise;
}

/* The item of the block holding the loop statement where the hoisted
 * exchange h begins: the statement's, or, when a loop of the first
 * iteration that reads its halo (the first consumer, or one whose
 * exchange merged into it) runs in the group before it (rotate.h), that
 * group's. */
static int hoist_item(const placer *p, const hoist *h) {
  const loop_stmt *l = h->li->r->loop;
  for (int i = 0; i < p->rots->list.len; i++) {
    const rotation *rot = p->rots->list.items[i];
    if (rot->li != h->li || !rot->pre)
      continue;
    for (int g = 0; g < rot->head->loops.len; g++)
      if (hoist_serves(h, rot->head->loops.items[g]))
        return item_index(l->parent, rot->pre->anchor, l->item);
  }
  return l->item;
}

/* A hoisted exchange begins before its loop statement (hoist_item), and
 * ends after it (a no-op once the first iteration's consumer ended it; a
 * loop that ran no iteration leaves none in flight), before anything
 * else placed there; into *ends. */
static void place_hoist(placer *p, const hoist *h, insertion_list *ends) {
  const loop_stmt *l = h->li->r->loop;
  const region *parent = l->parent;
  const char *d = obj_label(h->send->o);
  insert_statement(p, ((const item *)parent->items.items[hoist_item(p, h)])->start,
                   arena_printf(p->a, "loom__halo_begin(%s);", d));
  insertion_list mine = p->out;
  p->out = *ends;
  insert_statement(p, l->item + 1 < parent->items.len
                          ? ((const item *)parent->items.items[l->item + 1])->start
                          : parent->end,
                   arena_printf(p->a, "loom__halo_end(%s);", d));
  *ends = p->out;
  p->out = mine;
}

/* A rotation's flag is declared before the group before the loop, or
 * before the loop statement. */
static void place_flag(placer *p, const rotation *rot) {
  const loop_stmt *l = rot->li->r->loop;
  const region *parent = l->parent;
  int k = rot->pre ? item_index(parent, rot->pre->anchor, l->item) : l->item;
  insert_statement(p, ((const item *)parent->items.items[k])->start,
                   arena_printf(p->a, "int loom_rotated_%d = 0;", rot->id));
}

insertion_list place_comms(const translation *t, const fusion *fu, const rotations *rots,
                           arena *a) {
  const dag_list *dags = &t->dags;
  const hoist_list *hoists = &t->hoists;
  placer p = {&t->prog, a, fu, rots, NULL, {0}, NULL, 0, NULL};
  /* flags first: a declaration on a line of its own, then what goes at
   * the same point on the group's line (a fold before a pre group) */
  for (int i = 0; i < rots->list.len; i++)
    place_flag(&p, rots->list.items[i]);
  for (int r = 0; r < dags->len; r++) {
    p.d = dags->items[r];
    if (!p.d->mpi)
      continue;
    index_region(&p);
    for (int i = 0; i < p.d->order.len; i++) {
      const comp *c = p.d->order.items[i];
      if (c->kind == COMP_HALO_SEND)
        place_send(&p, c);
      else if (c->kind == COMP_RED_END)
        place_fold(&p, c);
    }
  }
  insertion_list ends = {0};
  for (int i = 0; hoists && i < hoists->len; i++)
    place_hoist(&p, hoists->items[i], &ends);
  for (int i = 0; i < p.out.len; i++)
    vec_push(a, &ends, p.out.items[i]);
  p.out = ends;
  /* stable: insertion order within one offset is kept */
  for (int i = 1; i < p.out.len; i++)
    for (int j = i; j > 0 && by_offset(&p.out.items[j - 1], &p.out.items[j]) > 0; j--) {
      void *t = p.out.items[j];
      p.out.items[j] = p.out.items[j - 1];
      p.out.items[j - 1] = t;
    }
  return p.out;
}
