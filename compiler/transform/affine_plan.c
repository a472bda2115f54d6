/*
 * affine_plan.c — the temporaries of affine loops and the pin / pin_cse
 * hints on them (see affine_plan.h).
 *
 * Planning finds the temporaries of each block — an array
 * written by exactly one affine loop (the producer) and read by later
 * affine loops of the same compound statement (the consumers) — and
 * decides, per temporary, between
 *   store    the producer runs as written, consumers read memory;
 *   pin      the producer's iterations that write an element are run
 *            inside the consumer, per use, into a local;
 *   pin_cse  those iterations run once per element the consumer reads, in
 *            a loop nest of their own (the duplicated domain: the
 *            producer's domain restricted to the preimage of the
 *            consumer's footprint), storing into the array.
 * A hint that cannot be honoured is an error that says why; without a
 * hint loomc picks one and --report says why.  Moving the producer to its
 * consumer is sound only when nothing between them changes what the
 * producer reads and nothing else reads the temporary: those are the
 * obstacles checked below, conservatively (by name, on the source text).
 */
#include "transform/affine_plan.h"

#include <isl/set.h>
#include <isl/space.h>
#include <string.h>

#include "analysis/effects.h"
#include "analysis/region.h"
#include "frontend/cursor.h"

static int reads(access_mode m) { return m != MODE_WRITE; }
static int writes(access_mode m) { return m != MODE_READ; }

__isl_give isl_set *affine_dup_domain(isl_ctx *ctx, const affine_temp *t) {
  isl_set *need = NULL;
  for (int c = 0; c < t->consumers.len; c++) {
    isl_set *fp = affine_footprint(ctx, t->consumers.items[c], t->array);
    if (fp)
      need = need ? isl_set_union(need, fp) : fp;
  }
  isl_map *w = affine_access(ctx, t->producer, t->prod_arg);
  if (!need)
    need = isl_set_empty(isl_space_range(isl_map_get_space(w)));
  isl_set *dup = isl_map_domain(isl_map_intersect_range(w, need));
  return isl_set_coalesce(isl_set_remove_redundancies(dup));
}


/* ---- plan: finding temporaries ------------------------------------------------------ */

typedef struct planner {
  const frontend *fe;
  const symtab *st;
  program *prog;
  const region_list *regions; /* their items' effects (effects.h) */
  arena *arena;
  vec temps; /* affine_temp* */
} planner;

static int loop_reads(const loop *lp, const sym *array) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->aff->args[i].array == array && reads(lp->args[i].mode))
      return 1;
  return 0;
}

static int loop_writes(const loop *lp, const sym *array) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->aff->args[i].array == array && writes(lp->args[i].mode))
      return 1;
  return 0;
}



/* One array object per declaration, shared by every loop that passes it. */
static void share_objects(planner *p) {
  const loop_list *loops = &p->prog->loops;
  for (int l = 0; l < loops->len; l++) {
    loop *lp = loops->items[l];
    for (int i = 0; lp->aff && i < lp->nargs; i++)
      for (int m = 0; m <= l; m++) {
        const loop *q = loops->items[m];
        int found = 0;
        for (int j = 0; q->aff && j < q->nargs && !found; j++)
          if (q->aff->args[j].array == lp->aff->args[i].array && (m < l || j < i)) {
            lp->args[i].obj = q->args[j].obj;
            found = 1;
          }
        if (found)
          break;
      }
  }
}

typedef struct aff_temp {
  affine_temp t;
  const loop *other_writer; /* a second loop writing it, or the producer again */
} aff_temp;

static aff_temp *temp_of(planner *p, const sym *array) {
  for (int i = 0; i < p->temps.len; i++) {
    aff_temp *ti = p->temps.items[i];
    if (ti->t.array == array)
      return ti;
  }
  return NULL;
}

static void find_temps(planner *p) {
  const loop_list *loops = &p->prog->loops;
  for (int l = 0; l < loops->len; l++) {
    loop *lp = loops->items[l];
    for (int i = 0; lp->aff && i < lp->nargs; i++) {
      if (!writes(lp->args[i].mode))
        continue;
      aff_temp *ti = temp_of(p, lp->aff->args[i].array);
      if (ti) {
        if (!ti->other_writer)
          ti->other_writer = lp;
        continue;
      }
      ti = arena_alloc(p->arena, sizeof *ti);
      ti->t.name = lp->args[i].name;
      ti->t.array = lp->aff->args[i].array;
      ti->t.producer = lp;
      ti->t.prod_arg = i;
      vec_push(p->arena, &p->temps, ti);
    }
  }
  for (int k = 0; k < p->temps.len; k++) {
    aff_temp *ti = p->temps.items[k];
    const loop *prod = ti->t.producer;
    for (int l = 0; l < loops->len; l++) {
      loop *lp = loops->items[l];
      if (lp->aff && lp->start > prod->start && lp->aff->block_start == prod->aff->block_start &&
          loop_reads(lp, ti->t.array) && !loop_writes(lp, ti->t.array))
        vec_push(p->arena, &ti->t.consumers, lp);
    }
  }
}

/* ---- plan: what stands in the way ------------------------------------------------------ */

/* The regions' items of the function holding lp (an inner region's items
 * appear also, whole, as a nested statement of the region around it). */
static item_list function_items(planner *p, const loop *lp) {
  item_list v = {0};
  const func_def *f = symtab_function_at(p->st, lp->start);
  for (int r = 0; f && r < p->regions->len; r++) {
    const region *reg = p->regions->items[r];
    if (reg->loc.offset < f->start || reg->loc.offset >= f->end)
      continue;
    for (int i = 0; i < reg->items.len; i++)
      vec_push(p->arena, &v, reg->items.items[i]);
  }
  return v;
}

static int is_consumer(const affine_temp *t, const loop *lp) {
  for (int i = 0; i < t->consumers.len; i++)
    if (t->consumers.items[i] == lp)
      return 1;
  return 0;
}

/* What an item is, for messages: "host code", "the par_loop", "the for". */
static const char *item_what(planner *p, const item *it) {
  return it->kind == ITEM_LOOP ? "the par_loop" : it->kind == ITEM_SYNC ? "the sync"
         : it->kind == ITEM_HOST ? "host code" : arena_printf(p->arena, "the %s", it->what);
}

/* What the producer reads must be the same variables at each consumer, and
 * unchanged in between (effects.h: host code, loops and syncs that write
 * one of its inputs — the arrays and parameters it reads, the file-scope
 * variables its kernel reads — or the unseen state). */
static const char *inputs_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  effect_list in = effects_of_loop(p->arena, prod, NULL);
  item_list items = function_items(p, prod);
  for (int c = 0; c < t->consumers.len; c++) {
    const loop *con = t->consumers.items[c];
    unsigned cl = con->loc.line;
    for (int i = 0; i < prod->nargs; i++) /* the names must denote the same */
      if (prod->aff->args[i].array != t->array &&
          symtab_lookup(p->st, prod->args[i].name, con->start) != prod->aff->args[i].array)
        return arena_printf(p->arena, "'%s' at its consumer (line %u) is not the '%s' its "
                            "producer (line %u) reads", prod->args[i].name, cl,
                            prod->args[i].name, prod->loc.line);
    for (int i = 0; i < prod->aff->nparams; i++) {
      const char *name = prod->aff->params[i];
      if (symtab_lookup(p->st, name, con->start) != symtab_lookup(p->st, name, prod->start))
        return arena_printf(p->arena, "'%s' at its consumer (line %u) is not the '%s' its "
                            "producer (line %u) reads", name, cl, name, prod->loc.line);
    }
    effect_list cx = effects_of_loop(p->arena, con, NULL);
    for (int i = 0; i < in.len; i++) {
      const effect *e = in.items[i];
      if (!effect_reads(e) || e->o == prod->args[t->prod_arg].obj)
        continue;
      for (int k = 0; k < cx.len; k++)
        if (effect_writes(cx.items[k]) && effects_overlap(((const effect *)cx.items[k])->o, e->o))
          return arena_printf(p->arena, "its consumer at line %u writes '%s', which its "
                              "producer reads", cl, e->o->name);
      for (int k = 0; k < items.len; k++) {
        const item *it = items.items[k];
        if (it->start >= prod->end && it->end <= con->start &&
            region_item_writes(p->arena, it, e->o))
          return arena_printf(p->arena, "'%s', which its producer reads, is written by %s "
                              "at line %u before its consumer at line %u", e->o->name,
                              item_what(p, it), it->loc.line, cl);
      }
    }
  }
  return NULL;
}

/* Nothing but the consumers may see the temporary after its producer: no
 * item of the function that runs after it (later in the text, or anywhere
 * in a loop statement around it, whose next iteration follows) accesses
 * it.  free(t) is no access.  A write of the unseen state is none either:
 * only a later read could tell, and a read through another pointer is
 * not seen (a limitation: affine.md). */
static const char *others_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  const affine_loop *al = prod->aff;
  const obj *tmp = prod->args[t->prod_arg].obj;
  item_list items = function_items(p, prod);
  for (int k = 0; k < items.len; k++) {
    const item *it = items.items[k];
    int later = it->start >= prod->end ||
                (al->repeat_line && it->start >= al->repeat_start && it->start < al->repeat_end);
    if (!later || (it->start <= prod->start && prod->start < it->end) ||
        (it->kind == ITEM_LOOP && (it->lp == prod || is_consumer(t, it->lp))) ||
        !region_item_names(p->arena, it, tmp))
      continue;
    if (it->kind == ITEM_LOOP)
      return arena_printf(p->arena, "the par_loop at line %u uses it but is not one of its "
                          "consumers (later affine loops of the producer's block that only "
                          "read it)", it->loc.line);
    return arena_printf(p->arena, "%s at line %u uses it, but a pinned temporary has no "
                        "value outside its consumers", item_what(p, it), it->loc.line);
  }
  return NULL;
}

static const char *producer_obstacle(planner *p, const aff_temp *ti) {
  const affine_temp *t = &ti->t;
  const loop *prod = t->producer;
  if (ti->other_writer)
    return ti->other_writer == prod
               ? arena_printf(p->arena, "its producer (line %u) writes it through two "
                              "arguments", prod->loc.line)
               : arena_printf(p->arena, "it is written by two affine loops (lines %u and "
                              "%u): a pinned temporary has one producer", prod->loc.line,
                              ti->other_writer->loc.line);
  for (int i = 0; i < prod->nargs; i++) {
    const affine_arg *a = &prod->aff->args[i];
    if (a->array != t->array && writes(prod->args[i].mode))
      return arena_printf(p->arena, "its producer (line %u) also writes '%s', which would "
                          "then not be computed", prod->loc.line, prod->args[i].name);
    if (a->array == t->array && i != t->prod_arg)
      return arena_printf(p->arena, "its producer (line %u) also reads it (%s): its "
                          "elements depend on each other", prod->loc.line,
                          affine_arg_text(p->arena, &prod->args[i]));
  }
  if (prod->aff->uses.len)
    return arena_printf(p->arena, "its producer (line %u) evaluates pinned temporary '%s' "
                        "itself: loomc does not pin chains of temporaries", prod->loc.line,
                        ((const affine_temp *)prod->aff->uses.items[0])->name);
  if (t->consumers.len == 0)
    return "no later affine loop of the same block reads it: there is no consumer to "
           "compute it in";
  return NULL;
}

/* pin of a producer that writes (not inc/rw): every element a consumer
 * reads must be written by it, or the local would be undefined. */
static const char *coverage_obstacle(planner *p, const affine_temp *t) {
  if (t->producer->args[t->prod_arg].mode != MODE_WRITE)
    return NULL;
  isl_ctx *ctx = affine_ctx_new();
  const char *why = NULL;
  isl_set *written = isl_map_range(affine_access(ctx, t->producer, t->prod_arg));
  for (int c = 0; c < t->consumers.len && !why; c++) {
    const loop *con = t->consumers.items[c];
    isl_set *fp = affine_footprint(ctx, con, t->array);
    isl_set *missing = isl_set_coalesce(isl_set_subtract(fp, isl_set_copy(written)));
    if (isl_set_is_empty(missing) != isl_bool_true)
      why = arena_printf(p->arena, "its consumer at line %u reads elements its producer "
                         "does not write: %s", con->loc.line,
                         affine_keep_str(p->arena, isl_set_to_str(missing)));
    isl_set_free(missing);
  }
  isl_set_free(written);
  isl_ctx_free(ctx);
  return why;
}

/* pin of a producer that increments or updates its temporary (inc, rw)
 * inside a loop statement: each run of the producer starts from the values
 * the previous one left in memory, which a pinned producer never stores. */
static const char *carried_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  access_mode m = prod->args[t->prod_arg].mode;
  if (m == MODE_WRITE || !prod->aff->repeat_line)
    return NULL;
  return arena_printf(p->arena, "its producer (line %u) %s it inside the %s at line %u, "
                      "so each iteration starts from the values the last one left; pinned, "
                      "they would never be stored (pin_cse or no hint store them)",
                      prod->loc.line, mode_verb(m),
                      prod->aff->repeat_what, prod->aff->repeat_line);
}

static const char *obstacle(planner *p, const aff_temp *ti, temp_choice kind) {
  const affine_temp *t = &ti->t;
  const char *why = producer_obstacle(p, ti);
  if (!why)
    why = others_obstacle(p, t);
  if (!why)
    why = inputs_obstacle(p, t);
  if (!why && kind == TEMP_PIN)
    why = coverage_obstacle(p, t);
  if (!why && kind == TEMP_PIN)
    why = carried_obstacle(p, t);
  if (!why && kind == TEMP_PIN_CSE && t->consumers.len > 1) {
    const char *lines = "";
    for (int c = 0; c < t->consumers.len; c++)
      lines = arena_printf(p->arena, "%s%s%u", lines, c ? ", " : "",
                           ((const loop *)t->consumers.items[c])->loc.line);
    why = arena_printf(p->arena, "it has %d consumers (lines %s): pin_cse computes a "
                       "temporary for one consumer loop", t->consumers.len, lines);
  }
  return why;
}

/* ---- plan: choosing ------------------------------------------------------------------ */

/* The consumer's uses of the temporary, "k[i], k[j]"; their number. */
static int uses_of(planner *p, const loop *con, const sym *array, const char **text) {
  int n = 0;
  *text = "";
  for (int i = 0; i < con->nargs; i++)
    if (con->aff->args[i].array == array) {
      *text = arena_printf(p->arena, "%s%s%s", *text, n ? ", " : "",
                           affine_arg_text(p->arena, &con->args[i]));
      n++;
    }
  return n;
}

static int use_is_injective(const loop *con, const sym *array) {
  isl_ctx *ctx = affine_ctx_new();
  int inj = 0;
  for (int i = 0; i < con->nargs; i++)
    if (con->aff->args[i].array == array) {
      isl_map *acc = affine_access(ctx, con, i);
      inj = isl_map_is_injective(acc) == isl_bool_true;
      isl_map_free(acc);
    }
  isl_ctx_free(ctx);
  return inj;
}

static void choose(planner *p, aff_temp *ti) {
  affine_temp *t = &ti->t;
  const char *why = obstacle(p, ti, TEMP_STORE);
  if (why) {
    t->choice = TEMP_STORE;
    t->why = why;
    return;
  }
  if (t->consumers.len > 1) {
    t->choice = TEMP_STORE;
    t->why = arena_printf(p->arena, "it has %d consumers: computed once and stored, each "
                          "reads memory", t->consumers.len);
    return;
  }
  const loop *con = t->consumers.items[0];
  const char *uses;
  int n = uses_of(p, con, t->array, &uses);
  const char *dims = affine_join_names(p->arena, con->aff->dims, con->aff->ndims);
  if (n > 1)
    why = arena_printf(p->arena, "its consumer at line %u reads each element more than "
                       "once (%s over [%s]): pin would recompute it at each read",
                       con->loc.line, uses, dims);
  else if (!use_is_injective(con, t->array))
    why = arena_printf(p->arena, "its consumer at line %u reads each element at several "
                       "iterations (%s over [%s]): pin would recompute it at each",
                       con->loc.line, uses, dims);
  else if ((why = coverage_obstacle(p, t)) != NULL)
    ;
  else if ((why = carried_obstacle(p, t)) != NULL)
    ;
  else {
    t->choice = TEMP_PIN;
    t->why = arena_printf(p->arena, "its consumer at line %u reads each element once "
                          "(%s over [%s]): pin computes it there, with no storage",
                          con->loc.line, uses, dims);
    return;
  }
  t->choice = TEMP_PIN_CSE;
  t->why = why;
}

static void apply_hint(planner *p, const hint *h, int i) {
  sym *s = symtab_lookup(p->st, h->names[i], h->start);
  aff_temp *ti = s ? temp_of(p, s) : NULL;
  unsigned len = (unsigned)strlen(h->names[i]);
  const char *why = NULL;
  temp_choice kind = h->kind == HINT_PIN ? TEMP_PIN : TEMP_PIN_CSE;
  if (!ti)
    why = "no affine loop writes it (pin and pin_cse apply to an array that an affine "
          "loop computes and later affine loops read)";
  else if (ti->t.hint)
    why = arena_printf(p->arena, "it already has a %s hint at line %u",
                       hint_name(ti->t.hint->kind), ti->t.hint->loc.line);
  else
    why = obstacle(p, ti, kind);
  if (why) {
    diag(DIAG_ERROR, h->name_locs[i], len, "cannot %s '%s': %s", hint_name(h->kind),
         h->names[i], why);
    return;
  }
  ti->t.choice = kind;
  ti->t.hint = h;
  ti->t.hint_loc = h->name_locs[i];
  ti->t.why = arena_printf(p->arena, "hinted at line %u", h->loc.line);
}

static void record(planner *p, affine_temp *t) {
  if (t->choice == TEMP_STORE)
    return;
  t->producer->aff->moved = t;
  for (int c = 0; c < t->consumers.len; c++)
    vec_push(p->arena, &((loop *)t->consumers.items[c])->aff->uses, t);
  if (t->choice != TEMP_PIN_CSE)
    return;
  isl_ctx *ctx = affine_ctx_new();
  isl_set *dup = affine_dup_domain(ctx, t);
  t->dup = affine_keep_str(p->arena, isl_set_to_str(dup));
  isl_set_free(dup);
  isl_ctx_free(ctx);
}

void affine_plan(const frontend *fe, const symtab *st, program *prog, const region_list *regions,
                 arena *a) {
  planner p = {fe, st, prog, regions, a, {0}};
  share_objects(&p);
  find_temps(&p);
  /* in file order of the producers: a chain's first link is decided first */
  for (int k = 0; k < p.temps.len; k++) {
    aff_temp *ti = p.temps.items[k];
    for (int h = 0; h < prog->hints.len; h++) {
      const hint *hn = prog->hints.items[h];
      for (int i = 0; hn->kind != HINT_SYNC && i < hn->nnames; i++)
        if (!hn->objs[i] && symtab_lookup(st, hn->names[i], hn->start) == ti->t.array)
          apply_hint(&p, hn, i);
    }
    if (!ti->t.hint && ti->t.consumers.len)
      choose(&p, ti);
    else if (!ti->t.hint)
      ti->t.why = "no consumer";
    record(&p, &ti->t);
  }
  /* hints on names no affine loop writes */
  for (int h = 0; h < prog->hints.len; h++) {
    const hint *hn = prog->hints.items[h];
    for (int i = 0; hn->kind != HINT_SYNC && i < hn->nnames; i++) {
      sym *s = hn->objs[i] ? NULL : symtab_lookup(st, hn->names[i], hn->start);
      if (s && clang_getCursorKind(s->cursor) != CXCursor_FunctionDecl && !temp_of(&p, s))
        apply_hint(&p, hn, i);
    }
  }
  /* the report finds the temporaries at their producers */
  for (int k = 0; k < p.temps.len; k++) {
    aff_temp *ti = p.temps.items[k];
    if (ti->t.consumers.len || ti->t.hint)
      vec_push(a, &ti->t.producer->aff->temps, &ti->t);
  }
}

/* ---- report ------------------------------------------------------------------------ */

static const char *const choice_names[] = {"store", "pin", "pin_cse"};

void affine_write_report(FILE *f, const program *prog) {
  int any = 0;
  for (int l = 0; l < prog->loops.len; l++) {
    const loop *lp = prog->loops.items[l];
    if (!lp->aff)
      continue;
    if (!any++)
      fputs("affine loops:\n", f);
    isl_ctx *ctx = affine_ctx_new();
    isl_set *dom = affine_domain(ctx, lp);
    isl_map *deps = affine_dependences(ctx, lp);
    int par = affine_outer_parallel(ctx, dom, deps);
    fprintf(f, "  line %u: %s over %s\n", lp->loc.line, lp->kernel, lp->aff->domain);
    fprintf(f, "    outermost loop (%s): %s\n", lp->aff->dims[0],
            par == 1 ? "parallel (no dependence crosses its iterations)"
                     : "sequential (a dependence crosses its iterations)");
    isl_set_free(dom);
    isl_map_free(deps);
    isl_ctx_free(ctx);
    for (int k = 0; k < lp->aff->temps.len; k++) {
      const affine_temp *t = lp->aff->temps.items[k];
      fprintf(f, "    temporary %s: %s (%s): %s\n", t->name, choice_names[t->choice],
              t->hint ? "hinted" : "chosen", t->why);
      for (int c = 0; c < t->consumers.len; c++)
        fprintf(f, "      consumer: %s at line %u\n",
                ((const loop *)t->consumers.items[c])->kernel,
                ((const loop *)t->consumers.items[c])->loc.line);
      if (t->dup)
        fprintf(f, "      duplicated domain: %s\n", t->dup);
    }
  }
}
