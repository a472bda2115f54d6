/*
 * hoist.c — halo exchanges a loop needs only once (see hoist.h).
 */
#include "transform/hoist.h"

#include <string.h>

/* The send of the body's DAG that c2, a send of iteration i+1 in the DAG of
 * two iterations, copies: the same loop's send of the same dat. */
static comp *body_send(const loop_info *li, const comp *c2) {
  for (int i = 0; i < li->body->comps.len; i++) {
    comp *c = li->body->comps.items[i];
    if (c->kind == COMP_HALO_SEND && c->lp == c2->lp && c->o == c2->o && c->item == c2->item)
      return c;
  }
  return NULL;
}

/* Whether o's handle is declared before the loop statement (or outside the
 * main file's function: a parameter, a member, an extern). */
static int declared_before(const loop_info *li, const obj *o) {
  const loop_stmt *l = li->r->loop;
  return !(o->loc.offset > l->start && o->loc.offset < l->end &&
           o->loc.file && l->loc.file && strcmp(o->loc.file, l->loc.file) == 0);
}

static void hoist_one(const loop_info *li, comp *s, const comp *c2, hoist_list *out,
                      arena *a) {
  const loop_stmt *l = li->r->loop;
  const comp *by = c2->into; /* the exchange of iteration i it relies on */
  s->removed = s->partner->removed = "hoisted";
  s->into = s->partner->into = NULL;
  const char *d = obj_label(s->o);
  if (by->lp == s->lp)
    dag_note(li->body, a, s->loc, "HaloSend(%s)/HaloRecv(%s) for %s hoisted before the %s "
             "at line %u: nothing in the loop writes %s, so its halo stays current from "
             "one iteration to the next; it is exchanged once, before the loop", d, d,
             s->lp->kernel, l->what, l->loc.line, d);
  else
    dag_note(li->body, a, s->loc, "HaloSend(%s)/HaloRecv(%s) for %s hoisted before the %s "
             "at line %u: from the second iteration on, the exchange for %s (line %u) at "
             "the end of the iteration before serves it (nothing writes %s in between); "
             "the first iteration's is begun before the loop", d, d, s->lp->kernel, l->what,
             l->loc.line, by->lp->kernel, by->lp->loc.line, d);
  hoist *h = arena_alloc(a, sizeof *h);
  *h = (hoist){li, s};
  vec_push(a, out, h);
}

hoist_list hoist_exchanges(const loop_info_list *loops, arena *a) {
  hoist_list out = {0};
  for (int i = 0; i < loops->len; i++) {
    const loop_info *li = loops->items[i];
    const dag *st = li->steps;
    if (!st->mpi || !li->r->loop->parent)
      continue;
    int any = 0;
    for (int k = 0; k < st->comps.len; k++) {
      const comp *c2 = st->comps.items[k];
      if (c2->kind != COMP_HALO_SEND || c2->step != 1 || !c2->removed || !c2->into ||
          c2->into->step != 0)
        continue;
      comp *s = body_send(li, c2);
      if (!s || s->removed || !declared_before(li, s->o))
        continue;
      hoist_one(li, s, c2, &out, a);
      any = 1;
    }
    if (any)
      dag_link(li->body, a);
  }
  return out;
}

int hoist_serves(const hoist *h, const loop *lp) {
  for (int i = 0; i < h->li->body->comps.len; i++) {
    const comp *c = h->li->body->comps.items[i];
    if (c->kind == COMP_HALO_SEND && c->lp == lp && c->o == h->send->o)
      return 1;
  }
  return 0;
}
