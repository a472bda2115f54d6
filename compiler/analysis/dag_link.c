/*
 * dag_link.c — the edges of a region's DAG (see dag.h): for every
 * computation, its direct predecessors, the transitive reduction of the
 * dependence relation, in time linear in the number of computations.
 *
 * Design
 * ------
 * Comparing every pair of computations (and then every triple, for the
 * reduction) is cubic: 1000 loops took seconds.  Instead, one pass in
 * program order keeps, per (object, section), the last computation that
 * wrote it and the computations that read it since; a computation's
 * *candidates* are the last writers of what it reads and writes and the
 * readers since of what it writes, plus the last barrier (a barrier's are
 * every computation since the previous one).  Every edge of the reduction
 * is a candidate: a dependence on an older writer or reader is implied
 * through the newer writer, and one across a barrier through the barrier.
 * Candidates are dependences, so reachability through them is the
 * dependence relation's.  A candidate j of i is then implied when another
 * candidate k of i is reached from j; reachability is a bit set per
 * computation (the union of its predecessors' and their own bits) over a
 * window of the computations before it (REACH_WINDOW below).
 *
 * Objects are keyed by their C variable when they have one (effects.h:
 * the objects of one variable are one for dependences); the unseen state
 * overlaps every variable, so an access to it meets every variable's
 * entry and an access to a variable meets the unseen state's.
 */
#include "analysis/dag.h"

#include <stdint.h>
#include <string.h>

/* What one (object, section) has seen so far in program order. */
typedef struct slot {
  const comp *writer; /* the last computation writing it */
  vec readers;        /* const comp*: reading it since that write */
} slot;

typedef struct entry {
  const void *key;      /* the object's variable, or the object */
  int variable;         /* a C variable (global, array, file-scope variable) */
  slot sec[SEC_COUNT];
} entry;

typedef struct linker {
  arena *a;
  entry **table; /* open addressing, a power of two */
  size_t cap, used;
  vec entries;   /* entry*, in order of first use */
  entry *unseen; /* the unseen state's, or NULL */
  vec cand;      /* const comp*: the current computation's candidates */
  unsigned char *mark; /* by index: already a candidate */
  int *index;          /* by comp id: index among the active computations */
} linker;

static const void *key_of(const obj *o) { return o->var ? o->var : (const void *)o; }

static size_t hash(const void *p, size_t cap) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(x >> 7) & (cap - 1);
}

static void grow(linker *l) {
  size_t cap = l->cap ? 2 * l->cap : 64;
  entry **t = arena_alloc(l->a, cap * sizeof *t);
  for (int i = 0; i < l->entries.len; i++) {
    entry *e = l->entries.items[i];
    size_t h = hash(e->key, cap);
    while (t[h])
      h = (h + 1) & (cap - 1);
    t[h] = e;
  }
  l->table = t;
  l->cap = cap;
}

static entry *entry_of(linker *l, const obj *o) {
  const void *key = key_of(o);
  if (2 * (l->used + 1) > l->cap)
    grow(l);
  size_t h = hash(key, l->cap);
  for (; l->table[h]; h = (h + 1) & (l->cap - 1))
    if (l->table[h]->key == key)
      return l->table[h];
  entry *e = arena_alloc(l->a, sizeof *e);
  e->key = key;
  e->variable = effects_is_variable(o);
  l->table[h] = e;
  l->used++;
  vec_push(l->a, &l->entries, e);
  if (o == effects_unseen())
    l->unseen = e;
  return e;
}

static void candidate(linker *l, const comp *c) {
  if (!c || l->mark[l->index[c->id]])
    return;
  l->mark[l->index[c->id]] = 1;
  vec_push(l->a, &l->cand, (void *)c);
}

/* The candidates from one entry's sections: its last writers, and, for a
 * write, its readers since. */
static void meet(linker *l, const entry *e, unsigned sections, int write) {
  for (int s = 0; s < SEC_COUNT; s++) {
    if (!(sections & (1u << s)))
      continue;
    candidate(l, e->sec[s].writer);
    if (write)
      for (int r = 0; r < e->sec[s].readers.len; r++)
        candidate(l, e->sec[s].readers.items[r]);
  }
}

/* The entries an access meets: its own, and the unseen state's for a
 * variable, every variable's for the unseen state. */
static void meet_access(linker *l, const access *x, int write) {
  entry *e = entry_of(l, x->o);
  meet(l, e, x->sections, write);
  if (e == l->unseen) {
    for (int i = 0; i < l->entries.len; i++) {
      const entry *v = l->entries.items[i];
      if (v != e && v->variable)
        meet(l, v, x->sections, write);
    }
  } else if (e->variable && l->unseen) {
    meet(l, l->unseen, x->sections, write);
  }
}

static void record(linker *l, const access *x, const comp *c, int write) {
  entry *e = entry_of(l, x->o);
  for (int s = 0; s < SEC_COUNT; s++) {
    if (!(x->sections & (1u << s)))
      continue;
    if (write) {
      e->sec[s].writer = c;
      e->sec[s].readers.len = 0;
    } else {
      vec_push(l->a, &e->sec[s].readers, (void *)c);
    }
  }
}

static int by_index(const linker *l, const void *x, const void *y) {
  return l->index[((const comp *)x)->id] - l->index[((const comp *)y)->id];
}

/* Candidates in program order (insertion sort: there are few). */
static void sort_candidates(linker *l) {
  for (int i = 1; i < l->cand.len; i++) {
    void *x = l->cand.items[i];
    int j = i - 1;
    for (; j >= 0 && by_index(l, l->cand.items[j], x) > 0; j--)
      l->cand.items[j + 1] = l->cand.items[j];
    l->cand.items[j + 1] = x;
  }
}

/* Reachability: for each computation, the bit set of those it is reached
 * from among the REACH_WINDOW before it (by index in program order), bit
 * t % REACH_WINDOW standing for computation t — so the sets cost a
 * constant per computation, and the links time linear in the region.  A
 * candidate further back than the window from a later one is kept as a
 * predecessor (an edge another implies is harmless: the closure is the
 * same); regions of fewer computations get the exact reduction. */
enum { REACH_WINDOW = 2048, REACH_WORDS = REACH_WINDOW / 64 };

typedef struct bits {
  uint64_t *w; /* REACH_WORDS per computation */
} bits;

static uint64_t *row(const bits *b, int i) { return b->w + (size_t)i * REACH_WORDS; }

/* Whether computation `from` is in the reach of computation `of`. */
static int reached(const bits *b, int of, int from) {
  if (from <= of - REACH_WINDOW || from > of)
    return 0;
  int t = from % REACH_WINDOW;
  return (int)((row(b, of)[t / 64] >> (t % 64)) & 1u);
}

/* Clears the bits of computations [lo, hi] (hi - lo < REACH_WINDOW; none
 * is below 0). */
static void clear_range(uint64_t *r, int lo, int hi) {
  for (int t = lo < 0 ? 0 : lo; t <= hi;) {
    int p = t % REACH_WINDOW, w = p / 64, b = p % 64;
    int n = 64 - b < hi - t + 1 ? 64 - b : hi - t + 1;
    uint64_t mask = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1) << b;
    r[w] &= ~mask;
    t += n;
  }
}

/* Adds j's reach and j itself to i's (j before i). */
static void add_reach(const bits *b, int i, int j) {
  uint64_t *mine = row(b, i);
  if (j <= i - REACH_WINDOW)
    return; /* all of it is out of i's window */
  const uint64_t *theirs = row(b, j);
  for (int w = 0; w < REACH_WORDS; w++)
    mine[w] |= theirs[w];
  if (i - j > 0) /* j's reach goes back to j - W + 1; i's to i - W + 1 */
    clear_range(mine, j - REACH_WINDOW + 1, i - REACH_WINDOW);
  int t = j % REACH_WINDOW;
  mine[t / 64] |= (uint64_t)1 << (t % 64);
}

/* c's predecessors: the candidates no other candidate is reached from;
 * then c's reach: theirs and they. */
static void reduce(linker *l, bits *reach, comp *c, int i) {
  for (int x = 0; x < l->cand.len; x++) {
    comp *j = l->cand.items[x];
    int implied = 0;
    for (int y = x + 1; y < l->cand.len && !implied; y++)
      implied = reached(reach, l->index[((comp *)l->cand.items[y])->id], l->index[j->id]);
    if (!implied) {
      vec_push(l->a, &c->preds, j);
      j->nsuccs++;
    }
    add_reach(reach, i, l->index[j->id]);
  }
}

/* One computation: its candidates from the state before it, then the state
 * after it. */
static void visit(linker *l, comp *c, const comp **barrier, vec *since) {
  l->cand.len = 0;
  if (c->barrier) {
    for (int k = 0; k < since->len; k++)
      candidate(l, since->items[k]);
  } else {
    for (int k = 0; k < c->reads.len; k++)
      meet_access(l, c->reads.items[k], 0);
    for (int k = 0; k < c->writes.len; k++)
      meet_access(l, c->writes.items[k], 1);
  }
  candidate(l, *barrier);
  for (int k = 0; k < l->cand.len; k++)
    l->mark[l->index[((const comp *)l->cand.items[k])->id]] = 0;
  for (int k = 0; k < c->reads.len; k++)
    record(l, c->reads.items[k], c, 0);
  for (int k = 0; k < c->writes.len; k++)
    record(l, c->writes.items[k], c, 1);
  if (c->barrier) {
    *barrier = c;
    since->len = 0;
  } else {
    vec_push(l->a, since, c);
  }
  sort_candidates(l);
}

void dag_link(dag *d, arena *a) {
  vec active = {0}; /* removed computations have no edges */
  int maxid = 0;
  for (int i = 0; i < d->comps.len; i++) {
    comp *c = d->comps.items[i];
    maxid = c->id > maxid ? c->id : maxid;
    c->preds = (comp_list){0}; /* linked anew (transform/hoist.c removes some) */
    c->nsuccs = 0;
    if (!c->removed)
      vec_push(a, &active, c);
  }
  int n = active.len;
  linker l = {.a = a};
  l.mark = arena_alloc(a, (size_t)n + 1);
  l.index = arena_alloc(a, ((size_t)maxid + 1) * sizeof *l.index);
  for (int i = 0; i < n; i++)
    l.index[((comp *)active.items[i])->id] = i;
  bits reach = {arena_alloc(a, (size_t)n * REACH_WORDS * sizeof(uint64_t) + 1)};
  const comp *barrier = NULL;
  vec since = {0};
  for (int i = 0; i < n; i++) {
    comp *c = active.items[i];
    visit(&l, c, &barrier, &since);
    reduce(&l, &reach, c, i);
  }
}
