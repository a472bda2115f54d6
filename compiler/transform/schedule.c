/*
 * schedule.c — the order in which each region's computations run (see
 * schedule.h).
 */
#include "transform/schedule.h"

typedef enum placement { PLACE_EARLY, PLACE_PROGRAM, PLACE_LATE } placement;

static placement placement_of(const comp *c) {
  switch (c->kind) {
  case COMP_HALO_SEND:
  case COMP_RED_BEGIN: return PLACE_EARLY;
  case COMP_HALO_RECV:
  case COMP_RED_END: return PLACE_LATE;
  default: return PLACE_PROGRAM;
  }
}

typedef struct scheduler {
  dag *d;
  arena *a;
  unsigned char *done; /* by id */
  int *waiting;        /* by id: predecessors not placed yet */
  comp_list *succs;    /* by id: those c is a predecessor of */
  int *heap, nheap;    /* ids of the early computations that are ready: a min-heap */
} scheduler;

static void heap_push(scheduler *s, int id) {
  int i = s->nheap++;
  for (; i > 0 && s->heap[(i - 1) / 2] > id; i = (i - 1) / 2)
    s->heap[i] = s->heap[(i - 1) / 2];
  s->heap[i] = id;
}

static int heap_pop(scheduler *s) {
  int top = s->heap[0], last = s->heap[--s->nheap], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= s->nheap)
      break;
    if (c + 1 < s->nheap && s->heap[c + 1] < s->heap[c])
      c++;
    if (s->heap[c] >= last)
      break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->nheap)
    s->heap[i] = last;
  return top;
}

static comp *comp_by_id(const scheduler *s, int id) { return s->d->comps.items[id - 1]; }

static void place(scheduler *s, comp *c) {
  s->done[c->id] = 1;
  vec_push(s->a, &s->d->order, c);
  if (!s->succs)
    return;
  const comp_list *next = &s->succs[c->id];
  for (int i = 0; i < next->len; i++) {
    const comp *x = next->items[i];
    if (--s->waiting[x->id] == 0 && !s->done[x->id] && placement_of(x) == PLACE_EARLY)
      heap_push(s, x->id);
  }
}

/* Every send (reduction begin) whose predecessors are done, first in
 * program order, until none is left: as early as the DAG allows. */
static void place_early(scheduler *s) {
  while (s->nheap) {
    comp *c = comp_by_id(s, heap_pop(s));
    if (!s->done[c->id])
      place(s, c);
  }
}

/* Successor lists, predecessor counts, and the early computations ready
 * at the start. */
static void scheduler_init(scheduler *s, arena *a) {
  const comp_list *all = &s->d->comps;
  size_t n = (size_t)all->len + 1;
  s->waiting = arena_alloc(a, n * sizeof *s->waiting);
  s->succs = arena_alloc(a, n * sizeof *s->succs);
  s->heap = arena_alloc(a, n * sizeof *s->heap);
  for (int i = 0; i < all->len; i++) {
    comp *c = all->items[i];
    s->waiting[c->id] = c->preds.len;
    for (int k = 0; k < c->preds.len; k++)
      vec_push(a, &s->succs[((const comp *)c->preds.items[k])->id], c);
  }
  for (int i = 0; i < all->len; i++) {
    const comp *c = all->items[i];
    if (!c->removed && !c->preds.len && placement_of(c) == PLACE_EARLY)
      heap_push(s, c->id);
  }
}

/* c, after whatever it needs that is not placed yet: a receive (reduction
 * end) is placed only when something needs it, as late as the DAG allows. */
static void need(scheduler *s, comp *c) {
  if (s->done[c->id])
    return;
  for (int i = 0; i < c->preds.len; i++)
    need(s, c->preds.items[i]);
  place(s, c);
  place_early(s);
}

/* The computation placed right before / after position p, or NULL. */
static const comp *order_at(const dag *d, int p) {
  return p >= 0 && p < d->order.len ? d->order.items[p] : NULL;
}

static const char *what_for(arena *a, const comp *c) {
  return arena_printf(a, "%s for %s", c->label, c->lp ? c->lp->kernel : "?");
}

/* A note for each send or begin placed before a computation that precedes
 * it in program order, and each receive or end placed after one that
 * follows it (computations in program order only: a send placed early
 * does not make the receives it passes "moved"). */
static void schedule_notes(dag *d, arena *a) {
  for (int p = 0; p < d->order.len; p++) {
    const comp *c = d->order.items[p];
    placement pl = placement_of(c);
    if (pl == PLACE_EARLY) {
      const comp *first = NULL; /* the first one it now precedes */
      for (int q = p + 1; q < d->order.len && !first; q++)
        if (((const comp *)d->order.items[q])->id < c->id &&
            placement_of(d->order.items[q]) == PLACE_PROGRAM)
          first = d->order.items[q];
      if (!first)
        continue;
      const comp *after = order_at(d, p - 1);
      dag_note(d, a, c->loc,
               "%s moved before %s: a %s starts as early as the DAG allows (%s%s)",
               what_for(a, c), first->label,
               c->kind == COMP_HALO_SEND ? "send" : "reduction",
               c->preds.len ? "right after " : "at the region's start: it waits for nothing",
               c->preds.len ? after->label : "");
    } else if (pl == PLACE_LATE) {
      const comp *last = NULL; /* the last one it now follows */
      for (int q = p - 1; q >= 0 && !last; q--)
        if (((const comp *)d->order.items[q])->id > c->id &&
            placement_of(d->order.items[q]) == PLACE_PROGRAM)
          last = d->order.items[q];
      if (!last)
        continue;
      const comp *next = c->nsuccs ? order_at(d, p + 1) : NULL;
      dag_note(d, a, c->loc,
               "%s moved after %s: a %s completes as late as the DAG allows (%s%s)",
               what_for(a, c), last->label,
               c->kind == COMP_HALO_RECV ? "receive" : "reduction",
               next ? "right before " : "at the region's end: nothing in the region needs it",
               next ? next->label : "");
    }
  }
}

/* The schedule: program order, except, for mpi, sends and reduction
 * begins as early and receives and reduction ends as late as the DAG
 * allows (seed 001: communication overlaps computation). */
static void schedule_dag(dag *d, arena *a) {
  scheduler s = {d, a, arena_alloc(a, (size_t)d->comps.len + 1), NULL, NULL, NULL, 0};
  if (!d->mpi) {
    for (int i = 0; i < d->comps.len; i++)
      place(&s, d->comps.items[i]);
    return;
  }
  scheduler_init(&s, a);
  place_early(&s);
  for (int i = 0; i < d->comps.len; i++) {
    comp *c = d->comps.items[i];
    if (!c->removed && placement_of(c) == PLACE_PROGRAM)
      need(&s, c);
  }
  for (int i = 0; i < d->comps.len; i++) {
    comp *c = d->comps.items[i];
    if (!c->removed)
      need(&s, c);
  }
  schedule_notes(d, a);
}

void schedule(dag_list *dags, arena *a) {
  for (int r = 0; r < dags->len; r++)
    schedule_dag(dags->items[r], a);
}

