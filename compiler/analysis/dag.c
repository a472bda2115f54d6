/*
 * dag.c — lazy computations, their sections and dependences (see dag.h).
 */
#include "analysis/dag.h"

#include <stdarg.h>

#include <string.h>

enum {
  ALL_DAT = (1u << SEC_CORE) | (1u << SEC_OWNED) | (1u << SEC_HALOEXEC) |
            (1u << SEC_HALOIMPORT),
  CO = (1u << SEC_CORE) | (1u << SEC_OWNED),
  COX = CO | (1u << SEC_HALOEXEC),
  OX = (1u << SEC_OWNED) | (1u << SEC_HALOEXEC),
};

typedef struct builder {
  arena *arena;
  int mpi;
  dag *d;
  const temp_info_list *temps; /* the temporaries' fates (temps.h): which are pinned */
} builder;

/* ---- computations ------------------------------------------------------- */

static comp *new_comp(builder *b, const char *label, srcloc loc) {
  comp *c = arena_alloc(b->arena, sizeof *c);
  c->kind = COMP_LOOP;
  c->label = label;
  c->loc = loc;
  vec_push(b->arena, &b->d->comps, c);
  c->id = b->d->comps.len;
  return c;
}

static void add(arena *a, access_list *set, const obj *o, unsigned sections) {
  if (!sections)
    return;
  for (int i = 0; i < set->len; i++) {
    access *x = set->items[i];
    if (x->o == o) {
      x->sections |= sections;
      return;
    }
  }
  access *x = arena_alloc(a, sizeof *x);
  x->o = o;
  x->sections = sections;
  vec_push(a, set, x);
}

static int is_mapped(const loop_arg *a) {
  return a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL;
}

/* Whether lp reaches elements through maps: an argument through a map,
 * or a matrix (its rows and columns through a pair of maps). */
static int loop_is_indirect(const loop *lp) {
  for (int i = 0; i < lp->nargs; i++)
    if (is_mapped(&lp->args[i]) || lp->args[i].kind == ARG_MAT)
      return 1;
  return 0;
}

/* The sections of effect e of a part of loop lp: `part` is CO (not
 * split), or 1<<SEC_CORE / 1<<SEC_OWNED for the two halves of a split
 * loop; `write`: the sections it writes (else those it reads). */
static unsigned effect_sections(const builder *b, const loop *lp, const effect *e,
                                unsigned part, int write) {
  int split = part != CO;
  if (e->via == VIA_WHOLE) /* a global's value, or its rank's partial */
    return e->o->kind == OBJ_GLOBAL && e->mode != MODE_READ && b->mpi ? 1u << SEC_PARTIAL
                                                                     : 1u << SEC_VALUE;
  if (e->via == VIA_MAP) {
    /* a core element's neighbours are core or owned; an owned one's may
     * be in the executed halo */
    if (write)
      return !split ? COX : part == (1u << SEC_CORE) ? (1u << SEC_CORE) : OX;
    return !split ? COX : part == (1u << SEC_CORE) ? CO : COX;
  }
  if (split && part == (1u << SEC_OWNED) && loop_executes_halo(lp))
    return OX; /* the owned part runs the executed halo too */
  return part;
}

/* The accesses of one part of a loop, from its effects (effects.h). */
static void loop_accesses(builder *b, comp *c, const loop *lp, unsigned part) {
  effect_list fx = effects_of_loop(b->arena, lp, b->temps);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    if (effect_reads(e))
      add(b->arena, &c->reads, e->o, effect_sections(b, lp, e, part, 0));
    if (effect_writes(e))
      add(b->arena, &c->writes, e->o, effect_sections(b, lp, e, part, 1));
  }
}

/* The dats a loop writes, "t1,t2". */
static const char *written(arena *a, const loop *lp) {
  char buf[256] = "";
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    if (x->obj && x->mode != MODE_READ && x->kind != ARG_GLOBAL && x->kind != ARG_IDX &&
        !strstr(buf, x->name) && strlen(buf) + strlen(x->name) + 2 < sizeof buf) {
      if (buf[0])
        strcat(buf, ",");
      strcat(buf, x->name);
    }
  }
  return arena_strdup(a, buf);
}

/* A loop's label: its kernel, and the dats it writes when the region has
 * another loop of the same kernel writing other dats: zero(t1), zero(t2). */
static const char *loop_name(builder *b, const region *r, const loop *lp) {
  const char *mine = written(b->arena, lp);
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (it->kind == ITEM_LOOP && it->lp != lp && strcmp(it->lp->kernel, lp->kernel) == 0 &&
        strcmp(written(b->arena, it->lp), mine) != 0)
      return arena_printf(b->arena, "%s(%s)", lp->kernel, mine);
  }
  return lp->kernel;
}

/* The sends (recv = 0) or the receives of a loop's exchanges; a receive
 * is paired with the send of its dat (the sends are the last dats->len
 * computations before the loop's [core]). */
static void halo_comps(builder *b, const loop *lp, const obj_list *dats, int recv) {
  int first_send = b->d->comps.len - dats->len - 1; /* when recv: before [core] */
  for (int i = 0; i < dats->len; i++) {
    const obj *o = dats->items[i];
    comp *c = new_comp(b, arena_printf(b->arena, "Halo%s(%s)", recv ? "Recv" : "Send",
                                       obj_label(o)), lp->loc);
    c->kind = recv ? COMP_HALO_RECV : COMP_HALO_SEND;
    c->lp = lp;
    c->o = o;
    if (recv) {
      c->partner = b->d->comps.items[first_send + i];
      c->partner->partner = c;
    }
    add(b->arena, &c->reads, o, recv ? 1u << SEC_NET : CO);
    if (!recv) /* the first exchange partitions the mesh */
      add(b->arena, &c->reads, effects_mesh(), 1u << SEC_VALUE);
    add(b->arena, &c->writes, o,
        recv ? (1u << SEC_HALOEXEC) | (1u << SEC_HALOIMPORT) : 1u << SEC_NET);
  }
}

static void reduction_comps(builder *b, const loop *lp) {
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      if (!arg_is_reduction(a))
        continue;
      comp *c = new_comp(b, arena_printf(b->arena, "Reduction%s(%s)",
                                         pass ? "End" : "Begin", a->name), lp->loc);
      c->kind = pass ? COMP_RED_END : COMP_RED_BEGIN;
      c->lp = lp;
      c->o = a->obj;
      add(b->arena, &c->reads, a->obj, pass ? 1u << SEC_NET : 1u << SEC_PARTIAL);
      if (pass)
        add(b->arena, &c->reads, a->obj, 1u << SEC_VALUE);
      add(b->arena, &c->writes, a->obj, pass ? 1u << SEC_VALUE : 1u << SEC_NET);
    }
}

static void loop_comps(builder *b, const region *r, const loop *lp) {
  const char *name = loop_name(b, r, lp);
  if (temps_pinned_away(b->temps, lp)) { /* it runs inside its consumers */
    comp *c = new_comp(b, arena_printf(b->arena, "%s[pinned]", name), lp->loc);
    c->lp = lp;
    return;
  }
  /* split: a loop that reaches elements through maps, or reads some halo
   * (a pinned producer it evaluates may read through maps), the same
   * halos as its code ends (effects_halo_dats) */
  obj_list halos = b->mpi ? effects_halo_dats(b->arena, lp, b->temps) : (obj_list){0};
  if (!b->mpi || (!loop_is_indirect(lp) && !halos.len)) {
    comp *c = new_comp(b, arena_printf(b->arena, "%s[core,owned]", name), lp->loc);
    c->lp = lp;
    loop_accesses(b, c, lp, CO);
  } else {
    halo_comps(b, lp, &halos, 0);
    comp *core = new_comp(b, arena_printf(b->arena, "%s[core]", name), lp->loc);
    core->lp = lp;
    loop_accesses(b, core, lp, 1u << SEC_CORE);
    halo_comps(b, lp, &halos, 1);
    comp *owned = new_comp(b, arena_printf(b->arena, "%s[owned]", name), lp->loc);
    owned->lp = lp;
    loop_accesses(b, owned, lp, 1u << SEC_OWNED);
    /* the owned half runs after the core half of the same loop (seed 001) */
    obj *order = arena_alloc(b->arena, sizeof *order);
    order->name = lp->kernel;
    add(b->arena, &core->writes, order, 1u << SEC_ORDER);
    add(b->arena, &owned->reads, order, 1u << SEC_ORDER);
  }
  if (b->mpi)
    reduction_comps(b, lp);
}

/* What host code may touch of an object: all of a dat (the handle may
 * reach any function, which may even communicate), all of a matrix's
 * element values (no halo), the value of a C variable (a global, an
 * array, a file-scope variable, the unseen state). */
static unsigned host_sections(const obj *o) {
  return o->kind == OBJ_DAT   ? ALL_DAT | (1u << SEC_NET)
         : o->kind == OBJ_MAT ? ALL_DAT
                              : 1u << SEC_VALUE;
}

/* With MPI, a loop inside a nested statement also exchanges halos and
 * reduces: the statement begins and ends those exchanges, so no exchange
 * of the same dat may be in flight across it (a send hoisted above it),
 * and it writes the reduced globals. */
static void nested_comm(builder *b, comp *c, const loop *lp) {
  obj_list halos = effects_halo_dats(b->arena, lp, b->temps);
  for (int i = 0; i < halos.len; i++) {
    add(b->arena, &c->reads, halos.items[i], 1u << SEC_NET);
    add(b->arena, &c->writes, halos.items[i],
        (1u << SEC_NET) | (1u << SEC_HALOEXEC) | (1u << SEC_HALOIMPORT));
  }
  for (int i = 0; i < lp->nargs; i++)
    if (arg_is_reduction(&lp->args[i])) {
      unsigned all = (1u << SEC_PARTIAL) | (1u << SEC_NET) | (1u << SEC_VALUE);
      add(b->arena, &c->reads, lp->args[i].obj, all);
      add(b->arena, &c->writes, lp->args[i].obj, all);
    }
}

static const char *sync_label(builder *b, const hint *h) {
  char buf[256] = "";
  for (int i = 0; i < h->nnames; i++)
    if (strlen(buf) + strlen(h->names[i]) + 2 < sizeof buf) {
      if (i)
        strcat(buf, ",");
      strcat(buf, h->names[i]);
    }
  return arena_printf(b->arena, "sync(%s)", buf);
}

/* A host statement, a sync, or a nested statement: what its host code
 * reads and writes, and the union of what its loops access. */
static void whole_comp(builder *b, const item *it) {
  const char *label =
      it->kind == ITEM_SYNC ? sync_label(b, it->sync)
      : it->kind == ITEM_HOST
          ? arena_printf(b->arena, "host(%s:%u)", it->loc.file, it->loc.line)
          : arena_printf(b->arena, "%s(%s:%u)", it->what, it->loc.file, it->loc.line);
  comp *c = new_comp(b, label, it->loc);
  c->kind = COMP_OTHER;
  c->barrier = it->leaves;
  c->mesh = it->mesh;
  for (int i = 0; i < it->reads.len; i++)
    add(b->arena, &c->reads, it->reads.items[i], host_sections(it->reads.items[i]));
  for (int i = 0; i < it->writes.len; i++)
    add(b->arena, &c->writes, it->writes.items[i], host_sections(it->writes.items[i]));
  int mpi = b->mpi;
  b->mpi = 0; /* inside, a loop is seen whole: [core,owned] */
  for (int i = 0; i < it->loops.len; i++)
    if (!temps_pinned_away(b->temps, it->loops.items[i]))
      loop_accesses(b, c, it->loops.items[i], CO);
  b->mpi = mpi;
  for (int i = 0; mpi && i < it->loops.len; i++)
    if (!temps_pinned_away(b->temps, it->loops.items[i]))
      nested_comm(b, c, it->loops.items[i]);
}

/* ---- dependences ---------------------------------------------------------- */

static int overlap(const access_list *x, const access_list *y) {
  for (int i = 0; i < x->len; i++)
    for (int j = 0; j < y->len; j++) {
      const access *a = x->items[i], *b = y->items[j];
      if ((a->sections & b->sections) && effects_overlap(a->o, b->o))
        return 1;
    }
  return 0;
}

int dag_writes(const comp *c, const obj *o) {
  for (int i = 0; i < c->writes.len; i++)
    if (effects_overlap(((const access *)c->writes.items[i])->o, o))
      return 1;
  return 0;
}

static int depends(const comp *c, const comp *earlier) {
  if (c->barrier || earlier->barrier)
    return 1;
  return overlap(&c->reads, &earlier->writes) || overlap(&c->writes, &earlier->reads) ||
         overlap(&c->writes, &earlier->writes);
}

int dag_depends(const comp *c, const comp *earlier) { return depends(c, earlier); }

/* ---- halo exchanges whose halo is up to date -------------------------------- */

/* What the region knows, at a point of program order, of one dat's halo. */
typedef struct halo_state {
  const obj *d;
  const loop *by;       /* the loop whose exchange made it up to date */
  comp *send;           /* that exchange's HaloSend */
  loop_list users;      /* by, and the loops whose exchange was merged */
  const comp *reader;   /* first other computation since then that read d */
  int valid;            /* up to date: exchanged, not written since */
} halo_state;

static int is_user(const halo_state *s, const loop *lp) {
  for (int i = 0; i < s->users.len; i++)
    if (s->users.items[i] == lp)
      return 1;
  return 0;
}

static halo_state *state_of(builder *b, vec *states, const obj *d) {
  for (int i = 0; i < states->len; i++) {
    halo_state *s = states->items[i];
    if (s->d == d)
      return s;
  }
  halo_state *s = arena_alloc(b->arena, sizeof *s);
  s->d = d;
  vec_push(b->arena, states, s);
  return s;
}

/* A write of a dat's values (not just of its NET stub) makes its halo
 * stale; a read by another loop than the exchanging one is remembered for
 * the note. */
static void halo_track(builder *b, vec *states, const comp *c) {
  for (int i = 0; i < c->writes.len; i++) {
    const access *a = c->writes.items[i];
    if (a->o->kind == OBJ_DAT && (a->sections & ALL_DAT))
      for (int k = 0; k < states->len; k++) /* and the dats it may be */
        if (effects_overlap(((halo_state *)states->items[k])->d, a->o))
          ((halo_state *)states->items[k])->valid = 0;
  }
  for (int i = 0; i < c->reads.len; i++) {
    const access *a = c->reads.items[i];
    if (a->o->kind != OBJ_DAT)
      continue;
    halo_state *s = state_of(b, states, a->o);
    if (s->valid && !s->reader && !(c->lp && is_user(s, c->lp)))
      s->reader = c;
  }
}

static void halo_remove(builder *b, comp *send, halo_state *s) {
  const char *d = obj_label(send->o), *k = send->lp->kernel, *by = s->by->kernel;
  unsigned line = s->by->loc.line;
  send->removed = send->partner->removed = s->reader ? "removed" : "merged";
  send->into = s->send;
  send->partner->into = s->send->partner;
  vec_push(b->arena, &s->users, (void *)send->lp);
  if (s->reader)
    dag_note(b->d, b->arena, send->loc,
             "HaloSend(%s)/HaloRecv(%s) for %s removed: %s's halo is up to date "
             "since the exchange for %s (line %u): %s reads %s in between, "
             "nothing writes it", d, d, k, d, by, line, s->reader->label, d);
  else
    dag_note(b->d, b->arena, send->loc,
             "HaloSend(%s)/HaloRecv(%s) for %s merged into the exchange for %s "
             "(line %u): successive exchanges of %s, nothing else touches %s in "
             "between", d, d, k, by, line, d, d);
}

/* In program order: an exchange of d is removed when an earlier exchange
 * of d in the region made its halo up to date and nothing wrote d since.
 * At the region's entry, and after a barrier (control may enter there),
 * the halo's state is unknown (the run time's dirty bits decide), so the
 * next exchange of each dat stays. */
static void halo_elide(builder *b) {
  vec states = {0};
  for (int i = 0; i < b->d->comps.len; i++) {
    comp *c = b->d->comps.items[i];
    if (c->kind == COMP_HALO_SEND) {
      halo_state *s = state_of(b, &states, c->o);
      if (s->valid) {
        halo_remove(b, c, s);
      } else {
        s->valid = 1;
        s->by = c->lp;
        s->send = c;
        s->users = (loop_list){0};
        vec_push(b->arena, &s->users, (void *)c->lp);
        s->reader = NULL;
      }
    } else if (c->barrier) {
      for (int k = 0; k < states.len; k++) /* control may enter here */
        ((halo_state *)states.items[k])->valid = 0;
    } else if (c->kind != COMP_HALO_RECV) {
      halo_track(b, &states, c);
    }
  }
}

void dag_note(dag *d, arena *a, srcloc loc, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *text = arena_alloc(a, (size_t)n + 1);
  vsnprintf(text, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  note *nt = arena_alloc(a, sizeof *nt);
  *nt = (note){loc, text};
  vec_push(a, &d->notes, nt);
}


/* The computations of item i of reg, numbered as its. */
static void item_comps(builder *b, const region *reg, int i) {
  const item *it = reg->items.items[i];
  int first = b->d->comps.len;
  if (it->kind == ITEM_LOOP)
    loop_comps(b, reg, it->lp);
  else
    whole_comp(b, it);
  for (int k = first; k < b->d->comps.len; k++)
    ((comp *)b->d->comps.items[k])->item = i;
}

/* Region reg's DAG, its loops split for MPI or whole; with the notes of
 * the hints decided in it first. */
static dag *region_dag(const region *reg, int mpi, const temp_info_list *temps, arena *a) {
  dag *d = arena_alloc(a, sizeof *d);
  d->r = reg;
  d->mpi = mpi;
  builder b = {a, mpi, d, temps};
  for (int k = 0; temps && k < temps->len; k++) {
    const temp_info *ti = temps->items[k];
    if (ti->r == reg && ti->note)
      dag_note(d, a, ti->note_loc, "%s", ti->note);
  }
  for (int i = 0; i < reg->items.len; i++)
    item_comps(&b, reg, i);
  if (mpi)
    halo_elide(&b);
  dag_link(d, a);
  return d;
}

dag_list dag_build(const region_list *regions, const target *t, const temp_info_list *temps,
                   arena *a) {
  dag_list dags = {0};
  for (int r = 0; r < regions->len; r++) {
    dag *d = region_dag(regions->items[r], t->distributed, temps, a);
    if (t->distributed)
      d->whole = region_dag(regions->items[r], 0, temps, a);
    vec_push(a, &dags, d);
  }
  return dags;
}

/* ---- two iterations of a loop -------------------------------------------- */

/* malloc(t) (free: free(t)): t's storage, and every element of t, written
 * (MEM(t) orders one iteration's free before the next one's malloc). */
static void storage_comp(builder *b, const obj *t, const obj *mem, int item, int free) {
  comp *c = new_comp(b, arena_printf(b->arena, "%s(%s)", free ? "free" : "malloc",
                                     obj_label(t)), t->loc);
  c->kind = free ? COMP_FREE : COMP_ALLOC;
  c->o = t;
  c->item = item;
  add(b->arena, &c->writes, mem, 1u << SEC_VALUE);
  add(b->arena, &c->writes, t, ALL_DAT);
}

/* The first (last: the last) item of r that names t, or -1. */
static int item_naming(arena *a, const region *r, const obj *t, int last) {
  int found = -1;
  for (int i = 0; i < r->items.len; i++)
    if (region_item_names(a, r->items.items[i], t) && (found < 0 || last))
      found = i;
  return found;
}

/* One iteration of r: its items' computations, with the storage of iter_temps
 * allocated before their first use and freed after their last. */
static void iteration_comps(builder *b, const region *r, const obj_list *iter_temps,
                            const obj_list *mems, int step) {
  int first = b->d->comps.len;
  for (int i = 0; i < r->items.len; i++) {
    for (int k = 0; k < iter_temps->len; k++)
      if (item_naming(b->arena, r, iter_temps->items[k], 0) == i)
        storage_comp(b, iter_temps->items[k], mems->items[k], i, 0);
    item_comps(b, r, i);
    for (int k = 0; k < iter_temps->len; k++)
      if (item_naming(b->arena, r, iter_temps->items[k], 1) == i)
        storage_comp(b, iter_temps->items[k], mems->items[k], i, 1);
  }
  for (int k = first; k < b->d->comps.len; k++) {
    comp *c = b->d->comps.items[k];
    c->step = step;
    if (step)
      c->label = arena_printf(b->arena, "%s'", c->label);
  }
}

dag *dag_build_steps(const region *r, const item *latch, const obj_list *iter_temps,
                     const target *t, const temp_info_list *temps, arena *a) {
  dag *d = arena_alloc(a, sizeof *d);
  d->r = r;
  d->two = 1;
  builder b = {a, t->distributed, d, temps};
  d->mpi = b.mpi;
  obj_list mems = {0};
  for (int k = 0; k < iter_temps->len; k++) {
    obj *m = arena_alloc(a, sizeof *m);
    m->kind = OBJ_VAR;
    m->name = arena_printf(a, "MEM(%s)", obj_label(iter_temps->items[k]));
    vec_push(a, &mems, m);
  }
  iteration_comps(&b, r, iter_temps, &mems, 0);
  whole_comp(&b, latch);
  comp *l = d->comps.items[d->comps.len - 1];
  l->label = arena_printf(a, "latch(%s at line %u)", r->loop->what, r->loop->loc.line);
  l->latch = 1;
  l->item = r->items.len;
  iteration_comps(&b, r, iter_temps, &mems, 1);
  if (b.mpi)
    halo_elide(&b);
  dag_link(d, a);
  return d;
}
