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
#include "util/strbuf.h"

typedef struct fuser {
  const program *prog;
  const region_list *regions;
  arena *a;
  fusion *f;
  const region *r;
  const dag *seq;   /* the region's DAG for seq: comps[i] is items[i] */
  dag *notes;       /* the DAG the report prints */
  int no_fuse;
  int mpi;          /* for --target=mpi or mpi+openmp */
  /* groups: where items run, and the order they must keep */
  int *pos;         /* by item: where its code stands (a loop: its group's
                       anchor's item) */
  vec *preds, *succs; /* by item: the items it depends on / that depend on
                         it (int, as void*): the DAGs' edges between items */
  group_list groups; /* the region's, in order of creation */
  vec by_set;       /* set_groups*: the region's groups of each set */
  int isl_tries;    /* legality checks by isl for the loop being placed */
  int *item_by_id;  /* by loop id: its item in the region, or -1 */
  int nids;         /* length of item_by_id */
} fuser;

/* The groups of one set, the one whose last loop is latest last: the
 * nearest candidates are at the end. */
typedef struct set_groups {
  const obj *set;
  group_list groups;
} set_groups;

/* ---- items ------------------------------------------------------------------ */

static const item *item_at(const fuser *u, int i) { return u->r->items.items[i]; }
static const comp *comp_at(const fuser *u, int i) { return u->seq->comps.items[i]; }

static int index_of(const fuser *u, const loop *lp) {
  return lp->id > 0 && lp->id < u->nids ? u->item_by_id[lp->id] : -1;
}

/* The item of every loop of the region, by loop id. */
static void index_loops(fuser *u) {
  u->nids = u->prog->loops.len + 1;
  for (int i = 0; i < u->r->items.len; i++)
    if (item_at(u, i)->kind == ITEM_LOOP && item_at(u, i)->lp->id >= u->nids)
      u->nids = item_at(u, i)->lp->id + 1;
  u->item_by_id = arena_alloc(u->a, (size_t)u->nids * sizeof *u->item_by_id);
  for (int i = 0; i < u->nids; i++)
    u->item_by_id[i] = -1;
  for (int i = 0; i < u->r->items.len; i++)
    if (item_at(u, i)->kind == ITEM_LOOP && item_at(u, i)->lp->id > 0)
      u->item_by_id[item_at(u, i)->lp->id] = i;
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
  obj_list halos = effects_halo_dats(u->a, lp, &u->f->temps);
  for (int i = 0; i < halos.len; i++)
    for (int k = 0; k < g->loops.len; k++)
      if (loop_arg_writing(g->loops.items[k], halos.items[i]))
        return arena_printf(u->a, "with MPI, %s needs %s's halo exchanged after %s "
                            "writes it", lp->kernel, ((const obj *)halos.items[i])->name,
                            ((const loop *)g->loops.items[k])->kernel);
  return NULL;
}

/* ---- where a group may run ---------------------------------------------------- */

static void add_edge(fuser *u, int from, int to) {
  if (from == to || from < 0 || to < 0)
    return;
  for (int i = 0; i < u->succs[from].len; i++)
    if ((int)(long)u->succs[from].items[i] == to)
      return;
  vec_push(u->a, &u->succs[from], (void *)(long)to);
  vec_push(u->a, &u->preds[to], (void *)(long)from);
}

/* The edges between items: the DAG in program order (computation i is item
 * i) and, with MPI, the target's DAG (each computation in its item: halo
 * exchanges and reductions included), as transitively reduced edges; an
 * order of the items' code that keeps all of them keeps every
 * dependence. */
static void index_items(fuser *u) {
  int n = u->r->items.len;
  u->pos = arena_alloc(u->a, (size_t)n * sizeof *u->pos);
  u->preds = arena_alloc(u->a, (size_t)n * sizeof *u->preds);
  u->succs = arena_alloc(u->a, (size_t)n * sizeof *u->succs);
  for (int i = 0; i < n; i++)
    u->pos[i] = i;
  const dag *ds[2] = {u->seq, u->mpi ? u->notes : NULL};
  for (int d = 0; d < 2 && ds[d]; d++)
    for (int i = 0; i < ds[d]->comps.len; i++) {
      const comp *c = ds[d]->comps.items[i];
      for (int k = 0; !c->removed && k < c->preds.len; k++)
        add_edge(u, ((const comp *)c->preds.items[k])->item, c->item);
    }
}

static int is_member(const group *g, const loop *lp, const item *it) {
  if (it->kind != ITEM_LOOP)
    return 0;
  if (it->lp == lp)
    return 1;
  for (int i = 0; i < g->loops.len; i++)
    if (g->loops.items[i] == it->lp)
      return 1;
  return 0;
}

static const char *item_name(fuser *u, int k) {
  const item *it = item_at(u, k);
  return it->kind == ITEM_HOST   ? "host statement"
         : it->kind == ITEM_SYNC ? "sync"
         : it->kind == ITEM_LOOP ? it->lp->kernel
                                 : it->what;
}

/* The bounds the members of g and lp set where their code may stand: it
 * must come after every item one of them depends on (*lo, the latest,
 * from *lo_item) and before every item that depends on one of them (*hi,
 * the earliest, *hi_item); *lo_by and *hi_by: the members concerned. */
typedef struct bounds {
  int lo, hi, lo_item, hi_item;
  const loop *lo_by, *hi_by;
} bounds;

static bounds bounds_of(fuser *u, const group *g, const loop *lp) {
  bounds b = {-1, u->r->items.len, -1, -1, NULL, NULL};
  for (int m = 0; m <= g->loops.len; m++) {
    const loop *x = m < g->loops.len ? g->loops.items[m] : lp;
    int i = index_of(u, x);
    for (int k = 0; k < u->preds[i].len; k++) {
      int j = (int)(long)u->preds[i].items[k];
      if (!is_member(g, lp, item_at(u, j)) && u->pos[j] > b.lo)
        b.lo = u->pos[j], b.lo_item = j, b.lo_by = x;
    }
    for (int k = 0; k < u->succs[i].len; k++) {
      int j = (int)(long)u->succs[i].items[k];
      if (!is_member(g, lp, item_at(u, j)) && u->pos[j] < b.hi)
        b.hi = u->pos[j], b.hi_item = j, b.hi_by = x;
    }
  }
  return b;
}

/* Why g and lp cannot run together at one of their directives, or NULL
 * with *anchor the latest that keeps every edge of the region: the
 * members that stand after it move up to it (nothing between depends on
 * them or they on it, and what they name is declared before it), those
 * before it move down. */
static const char *placement_problem(fuser *u, const group *g, const loop *lp,
                                     const loop **anchor) {
  bounds b = bounds_of(u, g, lp);
  const char *decl = NULL;
  for (int m = g->loops.len; m >= 0; m--) {
    const loop *a = m < g->loops.len ? g->loops.items[m] : lp;
    int at = index_of(u, a);
    if (at <= b.lo || at >= b.hi)
      continue;
    const obj *o = NULL;
    const loop *late = NULL;
    for (int k = 0; k <= g->loops.len && !o; k++) {
      late = k < g->loops.len ? g->loops.items[k] : lp;
      if (index_of(u, late) > at)
        o = loop_names_declared_in(late, u->prog->file, a->start, late->start);
    }
    if (!o) {
      *anchor = a;
      return NULL;
    }
    if (!decl)
      decl = arena_printf(u->a, "%s names %s, which is declared at line %u, after %s "
                          "(line %u)", late->kernel, obj_label(o), o->loc.line, a->kernel,
                          a->loc.line);
  }
  if (decl)
    return decl;
  int k = b.hi_item >= 0 && b.hi <= b.lo ? b.hi_item : b.lo_item;
  if (k >= 0 && comp_at(u, k)->barrier)
    return arena_printf(u->a, "the statement at line %u is a barrier (a jump, a label or "
                        "loom_exit)", item_at(u, k)->loc.line);
  if (b.hi_item >= 0 && b.hi <= b.lo && b.hi_item == b.lo_item)
    return arena_printf(u->a, "the %s at line %u depends on %s, and %s on it",
                        item_name(u, b.hi_item), item_at(u, b.hi_item)->loc.line,
                        b.hi_by->kernel, b.lo_by->kernel);
  if (b.hi_item >= 0 && b.hi <= b.lo)
    return arena_printf(u->a, "the %s at line %u depends on %s, and %s on the %s at line "
                        "%u", item_name(u, b.hi_item), item_at(u, b.hi_item)->loc.line,
                        b.hi_by->kernel, b.lo_by->kernel, item_name(u, b.lo_item),
                        item_at(u, b.lo_item)->loc.line);
  if (b.lo_item < 0 || b.hi_item < 0)
    return "no directive of theirs stands after what they depend on and before what "
           "depends on them";
  return arena_printf(u->a, "they would have to run between the %s at line %u, which %s "
                      "needs first, and the %s at line %u, which needs %s first, where none "
                      "of their directives stands", item_name(u, b.lo_item),
                      item_at(u, b.lo_item)->loc.line, b.lo_by->kernel,
                      item_name(u, b.hi_item), item_at(u, b.hi_item)->loc.line,
                      b.hi_by->kernel);
}

/* Why lp may not join g (NULL: it may; *anchor is then the loop whose
 * directive the group's call will stand at). */
static const char *join_problem_(fuser *u, const group *g, const loop *lp,
                                 const loop **anchor);

/* Two dats of the loops that may be one (alias.h), one of them written:
 * "m->p_q and m->p_qold", or NULL. */
static const char *aliased_pair(fuser *u, const loop_list *loops, const loop *lp) {
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
static const char *join_problem(fuser *u, const group *g, const loop *lp,
                                const loop **anchor) {
  const char *why = join_problem_(u, g, lp, anchor);
  const char *pair = why && *why ? aliased_pair(u, &g->loops, lp) : NULL;
  if (pair)
    u->notes->alias_refusals++;
  return pair ? arena_printf(u->a, "%s (%s may be one dat: loomc cannot prove them "
                             "distinct)", why, pair) : why;
}

/* A matrix x writes (mode write) that y names: its entries are replaced
 * after x's loop (loom__mat_write_end), so no other access to it may share
 * the sweep. */
static const obj *mat_written_by(const loop *x, const loop *y) {
  for (int i = 0; i < x->nargs; i++)
    if (x->args[i].kind == ARG_MAT && x->args[i].mode == MODE_WRITE)
      for (int k = 0; k < y->nargs; k++)
        if (y->args[k].obj == x->args[i].obj)
          return x->args[i].obj;
  return NULL;
}

static const char *mat_write_problem(fuser *u, const group *g, const loop *lp) {
  for (int i = 0; i < g->loops.len; i++) {
    const loop *x = g->loops.items[i];
    const obj *m = mat_written_by(x, lp);
    const loop *w = x;
    if (!m) {
      m = mat_written_by(lp, x);
      w = lp;
    }
    if (m)
      return arena_printf(u->a, "%s writes matrix %s (mode write: its entries are "
                          "replaced after the loop), which %s also names", w->kernel,
                          m->name, w == lp ? x->kernel : lp->kernel);
  }
  return NULL;
}

static const char *join_problem_(fuser *u, const group *g, const loop *lp,
                                 const loop **anchor) {
  const loop *head = g->loops.items[0];
  if (head->set != lp->set || head->domain || lp->domain)
    return "";
  const char *mw = mat_write_problem(u, g, lp);
  if (mw)
    return mw;
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
  if (g->loops.len >= FUSE_GROUP_LOOPS)
    return arena_printf(u->a, "the group has %d loops, the budget of a group "
                        "(FUSE_GROUP_LOOPS)", FUSE_GROUP_LOOPS);
  const char *why = placement_problem(u, g, lp, anchor);
  if (why)
    return why;
  if (u->isl_tries++ >= FUSE_TRIES)
    return "";
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

/* The groups of set's loops (created empty). */
static set_groups *groups_of_set(fuser *u, const obj *set) {
  for (int i = 0; i < u->by_set.len; i++)
    if (((set_groups *)u->by_set.items[i])->set == set)
      return u->by_set.items[i];
  set_groups *s = arena_alloc(u->a, sizeof *s);
  s->set = set;
  vec_push(u->a, &u->by_set, s);
  return s;
}

/* g has just taken a loop, its last: it moves to the end of its set's
 * list (it was among the nearest, at most FUSE_CANDIDATES from the end). */
static void touch_group(fuser *u, group *g) {
  group_list *v = &groups_of_set(u, ((const loop *)g->loops.items[0])->set)->groups;
  int k = v->len - 1;
  while (k >= 0 && v->items[k] != g)
    k--;
  if (k < 0) {
    vec_push(u->a, v, g);
    return;
  }
  for (; k + 1 < v->len; k++)
    v->items[k] = v->items[k + 1];
  v->items[v->len - 1] = g;
}

static group *new_group(fuser *u, const loop *lp) {
  group *g = arena_alloc(u->a, sizeof *g);
  vec_push(u->a, &g->loops, (void *)lp);
  if (lp->set->base)
    vec_push(u->a, &g->layers, 0);
  index_loop(u, g, lp);
  g->anchor = lp;
  vec_push(u->a, &u->f->groups, g);
  vec_push(u->a, &u->groups, g);
  touch_group(u, g);
  return g;
}

static const char *fusion_loop_kernels(arena *a, const loop_list *loops) {
  const char *s = "";
  for (int i = 0; i < loops->len; i++)
    s = arena_printf(a, "%s%s%s", s, i ? " + " : "", ((const loop *)loops->items[i])->kernel);
  return s;
}

const char *fusion_group_kernels(arena *a, const group *g) {
  return fusion_loop_kernels(a, &g->loops);
}

/* lp, joining g over an extruded set: its layer run (layers) and how its
 * layers run, for the note. */
static const char *layer_run(fuser *u, group *g, const loop *lp) {
  int first = g->layers.items[g->layers.len - 1];
  loop_list run = {0};
  for (int i = first; i < g->loops.len; i++)
    vec_push(u->a, &run, g->loops.items[i]);
  const char *why = NULL;
  int ok = domains_layer_fusable(u->a, &run, lp, &why);
  vec_push(u->a, &g->layers, ok > 0 ? first : g->loops.len);
  const char *with = fusion_loop_kernels(u->a, &run);
  if (ok == 1)
    return arena_printf(u->a, "; layer by layer with %s: within one cell too", with);
  if (ok > 1)
    return arena_printf(u->a, "; layer by layer with %s: from a cell to it or above it, "
                        "which runs later", with);
  return arena_printf(u->a, "; its layers after %s's: %s", with,
                      ok < 0 ? "isl could not decide" : why);
}

/* lp joins g, whose call will stand at anchor's directive. */
static void join(fuser *u, group *g, const loop *lp, const loop *anchor) {
  const char *where = "";
  if (anchor != lp)
    where = arena_printf(u->a, "; the group runs where %s stood (line %u): %s moves up, "
                         "independent of what stands between", anchor->kernel,
                         anchor->loc.line, lp->kernel);
  const char *layers = lp->set->base ? layer_run(u, g, lp) : "";
  dag_note(u->notes, u->a, lp->loc, "fused %s into %s over %s: every dependence "
           "between them stays within one %s (isl)%s%s", lp->kernel,
           fusion_group_kernels(u->a, g), lp->set->name,
           lp->set->base ? "column" : "element", layers, where);
  vec_push(u->a, &g->loops, (void *)lp);
  index_loop(u, g, lp);
  g->anchor = anchor;
  for (int i = 0; i < g->loops.len; i++)
    u->pos[index_of(u, g->loops.items[i])] = index_of(u, anchor);
  touch_group(u, g);
}

/* The region's groups over lp's set, nearest first (by their last loop),
 * at most FUSE_CANDIDATES; *more: whether others were left. */
static group_list candidates(fuser *u, const loop *lp, int *more) {
  const group_list *all = &groups_of_set(u, lp->set)->groups;
  group_list v = {0};
  for (int i = all->len - 1; i >= 0 && v.len < FUSE_CANDIDATES; i--)
    vec_push(u->a, &v, all->items[i]);
  *more = all->len > v.len;
  return v;
}

/* One pass over the region: each loop joins the nearest group over its set
 * that it may join (siblings and producer/consumer alike, wherever they
 * stand), else starts one; the first refusal is noted with its reason. */
static void form_groups(fuser *u) {
  index_loops(u);
  index_items(u);
  for (int i = 0; i < u->r->items.len; i++) {
    const item *it = item_at(u, i);
    if (it->kind != ITEM_LOOP || temps_pinned_away(&u->f->temps, it->lp) || it->lp->domain)
      continue; /* affine loops: their code is affine.c's */
    int more = 0;
    group_list cands = u->no_fuse ? (group_list){0} : candidates(u, it->lp, &more);
    const char *refused = NULL;
    const group *first = NULL;
    group *into = NULL;
    const loop *anchor = NULL;
    u->isl_tries = 0;
    for (int k = 0; k < cands.len && !into; k++) {
      const char *why = join_problem(u, cands.items[k], it->lp, &anchor);
      if (!why)
        into = cands.items[k];
      else if (*why && !refused)
        refused = why, first = cands.items[k];
    }
    if (into) {
      join(u, into, it->lp, anchor);
      continue;
    }
    if (refused)
      dag_note(u->notes, u->a, it->lp->loc, "not fused %s with %s: %s%s", it->lp->kernel,
               fusion_group_kernels(u->a, first), refused,
               more ? arena_printf(u->a, " (the budget: the %d nearest groups over %s tried, "
                                   "FUSE_CANDIDATES)", FUSE_CANDIDATES, it->lp->set->name)
                    : "");
    new_group(u, it->lp);
  }
}

/* ---- temporaries without a hint ------------------------------------------------------ */

static const group *group_of(const fusion *f, const loop *lp) {
  return lp && f->by_loop && lp->id > 0 && lp->id < f->nloops ? f->by_loop[lp->id] : NULL;
}

/* The first loop of lp's layer run in g (fuse.h), or -1: none. */
static int layer_run_of(const group *g, const loop *lp) {
  for (int i = 0; i < g->loops.len && i < g->layers.len; i++)
    if (g->loops.items[i] == lp)
      return g->layers.items[i];
  return -1;
}

/* Why a temporary of an extruded set that producer p writes and c reads,
 * both in g, cannot live in a local of the column: c must run its layers
 * with p's, layer by layer, and p write every layer c reads. */
static const char *layer_problem(arena *a, const group *g, const loop *p, const loop *c) {
  int run = layer_run_of(g, p);
  if (run < 0 || layer_run_of(g, c) != run)
    return arena_printf(a, "%s (line %u) runs its layers after its producer %s's, not with "
                        "them", c->kernel, c->loc.line, p->kernel);
  if (!region_covers(p->region, c->region))
    return arena_printf(a, "its producer %s writes the %s layers only, and %s reads the %s",
                        p->kernel, region_name(p->region), c->kernel,
                        c->region == REGION_ALL ? "others too" : region_name(c->region));
  return NULL;
}

/* Why t cannot be contracted into a local of its producer's group. */
static const char *contract_problem(fuser *u, const obj *t, const loop_list *writers,
                                    const loop_list *readers) {
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
    if (obj_extruded(t) && (why = layer_problem(u->a, g, p, c)))
      return why;
  }
  return NULL;
}

static temp_info *new_temp(fuser *u, const obj *t, temp_fate fate, const loop *p) {
  temp_info *ti = arena_alloc(u->a, sizeof *ti);
  *ti = (temp_info){.t = t, .fate = fate, .producer = p};
  vec_push(u->a, &u->f->temps, ti);
  return ti;
}

static void decide_temp(fuser *u, const obj *t) {
  loop_list writers = {0}, readers = {0};
  region_temp_uses(u->a, u->r, t, &writers, &readers);
  const char *why = contract_problem(u, t, &writers, &readers);
  const loop *p = writers.len ? writers.items[0] : NULL;
  if (!why) {
    new_temp(u, t, TEMP_CONTRACTED, p);
    dag_note(u->notes, u->a, p->loc, "%s contracted to a local of the fused loop: its "
             "producer %s and every consumer read and write only the current %s",
             t->name, p->kernel, obj_extruded(t) ? "cell (a layer of a column)" : "element");
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
 * not share storage (its first use is not a direct write of every element
 * — a loop over some layers only leaves the others as loom_decl_temp
 * zero-filled them, which another's storage would not be — or something
 * outside the region uses it). */
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
         (*first)->region == REGION_ALL &&
         !region_temp_used_elsewhere(u->prog, u->regions, u->r, t);
}

static int same_shape(const obj *x, const obj *y) {
  return x->set == y->set && x->dim == y->dim && strcmp(x->type->c_name, y->type->c_name) == 0;
}

static void share_storage(fuser *u, int first_temp) {
  temp_info_list owners = {0}; /* storage holders, with their end */
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

/* ---- the storage report ----------------------------------------------------------------- */

/* Whether the pinned temporary ti is r's: its producer is one of r's loops. */
static int pinned_here(const fuser *u, const temp_info *ti) {
  return ti->fate == TEMP_PINNED && ti->producer && index_of(u, ti->producer) >= 0;
}

/* Why t takes no storage of its own, or NULL: it does. */
static const char *saving(const fuser *u, const temp_info *ti) {
  if (ti->fate == TEMP_CONTRACTED)
    return "contracted";
  if (ti->fate == TEMP_PINNED)
    return "pinned";
  return ti->shares ? arena_printf(u->a, "shares %s's", ti->shares->name) : NULL;
}

/* One line per set of the region's temporaries: those stored, those that
 * take no storage of their own and why, and the bytes per element saved. */
static void storage_note(fuser *u, const temp_info_list *mine, const obj *set) {
  strbuf kept, saved;
  sb_init(&kept);
  sb_init(&saved);
  long nkept = 0, nsaved = 0;
  int nfree = 0; /* temporaries with no storage of their own */
  for (int i = 0; i < mine->len; i++) {
    const temp_info *ti = mine->items[i];
    if (ti->t->set != set)
      continue;
    long bytes = (long)ti->t->dim * ti->t->type->size;
    const char *why = saving(u, ti);
    strbuf *sb = why ? &saved : &kept;
    sb_printf(sb, "%s%s", sb->len ? ", " : "", ti->t->name);
    if (why)
      sb_printf(sb, " (%s)", why);
    *(why ? &nsaved : &nkept) += bytes;
    nfree += why != NULL;
  }
  const char *stored = kept.len ? arena_printf(u->a, "%s stored (%ld bytes per element)",
                                               kept.data, nkept) : "nothing stored";
  const char *none = saved.len ? arena_printf(u->a, "%s %s none: %ld bytes per element saved",
                                              saved.data, nfree > 1 ? "take" : "takes", nsaved) : "none saved";
  dag_note(u->notes, u->a, u->r->loc, "storage of the temporaries over %s: %s; %s%s",
           set->name, stored, none, u->r->loop && kept.len ? "; each iteration reuses "
           "the storage of the one before (free comes before the next malloc)" : "");
  sb_free(&kept);
  sb_free(&saved);
}

static void storage_report(fuser *u, int first_temp) {
  temp_info_list mine = {0};
  vec sets = {0};
  for (int i = 0; i < u->f->temps.len; i++) {
    temp_info *ti = u->f->temps.items[i];
    if (i >= first_temp || pinned_here(u, ti))
      vec_push(u->a, &mine, ti);
  }
  for (int i = 0; i < mine.len; i++) {
    const obj *set = ((temp_info *)mine.items[i])->t->set;
    int k = 0;
    while (k < sets.len && sets.items[k] != set)
      k++;
    if (k == sets.len) {
      vec_push(u->a, &sets, (void *)set);
      storage_note(u, &mine, set);
    }
  }
}

/* ---- driver --------------------------------------------------------------------------- */

fusion *fuse(const translation *t, arena *a) {
  fusion *f = arena_alloc(a, sizeof *f);
  for (int i = 0; i < t->pins.len; i++)
    vec_push(a, &f->temps, t->pins.items[i]);
  for (int r = 0; r < t->regions.len; r++) {
    dag *d = t->dags.items[r];
    fuser u = {.prog = &t->prog, .regions = &t->regions, .a = a, .f = f,
               .r = t->regions.items[r], .seq = d->whole ? d->whole : d, .notes = d,
               .no_fuse = t->opt->no_fuse, .mpi = t->opt->target->distributed};
    int first_temp = f->temps.len;
    form_groups(&u);
    decide_temps(&u);
    share_storage(&u, first_temp);
    storage_report(&u, first_temp);
  }
  for (int i = 0; i < f->groups.len; i++)
    ((group *)f->groups.items[i])->id = i + 1;
  domains_done();
  return f;
}

const group *fusion_group(const fusion *f, const loop *lp) { return group_of(f, lp); }
