/*
 * loops.c — loop regions across their iterations (see loops.h).
 *
 * The canonical form is read from the header's tokens (libclang gives a
 * for statement's init, condition and increment as children without
 * saying which is which); what the body writes comes from cwalk.h's walk,
 * and whether a call in the body could write through a pointer it does
 * not name from the callee's summary (summary.h).
 */
#include "analysis/loops.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/cursor.h"
#include "frontend/cwalk.h"
#include "frontend/summary.h"
#include "frontend/tokens.h"

typedef struct reader {
  const frontend *fe;
  const symtab *st;
  const program *prog;
  arena *a;
  const loop_stmt *l;
} reader;

/* The tokens of the loop statement in [from, to). */
static tok_list tokens(const reader *x, unsigned from, unsigned to) {
  tok_list all = tokens_of(x->fe, clang_getCursorExtent(x->l->stmt), x->a), v = {0};
  for (int i = 0; i < all.len; i++)
    if (all.items[i]->start >= from && all.items[i]->start < to)
      vec_push(x->a, &v, all.items[i]);
  return v;
}


/* The parts of `for (init; cond; inc)`: token index ranges. */
typedef struct parts {
  int init, cond, inc, end; /* init: [init, cond - 1), cond: [cond, inc - 1), inc: [inc, end) */
} parts;

static int split_for(const tok_list *t, parts *p) {
  int depth = 0, semis = 0;
  if (!tok_is(tok_at(t, 0), "for") || !tok_is(tok_at(t, 1), "("))
    return 0;
  p->init = 2;
  for (int i = 1; i < t->len; i++) {
    const tok *k = tok_at(t, i);
    depth += tok_is(k, "(") - tok_is(k, ")");
    if (depth == 1 && tok_is(k, ";")) {
      if (semis++ == 0)
        p->cond = i + 1;
      else
        p->inc = i + 1;
    } else if (depth == 0) {
      p->end = i;
      return semis == 2;
    }
  }
  return 0;
}

long loops_literal(const tok *t, int *ok) {
  char *end;
  if (!t || t->kind != CXToken_Literal) {
    *ok = 0;
    return 0;
  }
  long v = strtol(t->text, &end, 0);
  if (*end && strspn(end, "uUlL") != strlen(end))
    *ok = 0;
  return v;
}

long loops_step(const tok_list *t, int from, int to, const char *v) {
  int n = to - from, ok = 1;
  const tok *a = tok_at(t, from), *b = tok_at(t, from + 1), *c = tok_at(t, from + 2);
  if (n == 2 && tok_is(a, v) && (tok_is(b, "++") || tok_is(b, "--")))
    return tok_is(b, "++") ? 1 : -1;
  if (n == 2 && tok_is(b, v) && (tok_is(a, "++") || tok_is(a, "--")))
    return tok_is(a, "++") ? 1 : -1;
  if (n == 3 && tok_is(a, v) && (tok_is(b, "+=") || tok_is(b, "-="))) {
    long s = loops_literal(c, &ok);
    return ok ? (tok_is(b, "+=") ? s : -s) : 0;
  }
  return 0;
}

/* The source text of tokens [from, to). */
static const char *text_of(const reader *x, const tok_list *t, int from, int to) {
  const tok *first = tok_at(t, from), *last = tok_at(t, to - 1);
  return arena_strndup(x->a, x->prog->text + first->start,
                       last->start + strlen(last->text) - first->start);
}

/* Whether the bound's tokens [from, to) are constants and local variables
 * or parameters (members with `.`), without calls; their declarations go
 * to *vars (CXCursor*). */
static int bound_ok(const reader *x, const tok_list *t, int from, int to, vec *vars) {
  static const char *const puncts[] = {"+", "-", "*", "/", "%", "(", ")", ".", NULL};
  if (from >= to)
    return 0;
  for (int i = from; i < to; i++) {
    const tok *k = tok_at(t, i);
    if (k->kind == CXToken_Literal)
      continue;
    if (k->kind == CXToken_Punctuation) {
      int known = 0;
      for (const char *const *p = puncts; *p; p++)
        known |= strcmp(*p, k->text) == 0;
      if (!known)
        return 0;
      continue;
    }
    if (k->kind != CXToken_Identifier || tok_is(tok_at(t, i + 1), "("))
      return 0;
    if (tok_is(tok_at(t, i - 1), ".")) /* a member */
      continue;
    const sym *s = symtab_lookup(x->st, k->text, k->start);
    if (!s || s->file_scope || !s->in_main)
      return 0;
    CXCursor *c = arena_alloc(x->a, sizeof *c);
    *c = s->cursor;
    vec_push(x->a, vars, c);
  }
  return 1;
}

/* ---- what the body writes ------------------------------------------------ */

typedef struct writes {
  const vec *vars; /* CXCursor*: the declarations watched */
  int written;     /* one is written (or escapes) */
  int stores;      /* a call may store through a pointer it does not name */
  const reader *x;
} writes;

static int watched(const writes *w, CXCursor decl) {
  for (int i = 0; i < w->vars->len; i++)
    if (clang_equalCursors(*(CXCursor *)w->vars->items[i], decl))
      return 1;
  return 0;
}

static void body_var(cwalk *c, CXCursor decl, unsigned use, int through) {
  writes *w = c->data;
  if ((use & CW_WRITE) && !through && watched(w, decl))
    w->written = 1;
}

static int body_call(cwalk *c, CXCursor callee, CXCursor call) {
  (void)call;
  writes *w = c->data;
  const summary *sm = summary_of(w->x->fe, w->x->st, callee, w->x->a);
  if (sm && (sm->unseen || sm->deref_store || sm->param_store))
    w->stores = 1;
  return 0;
}

static void body_store(cwalk *c, CXCursor at_) {
  (void)at_;
  ((writes *)c->data)->stores = 1;
}

/* Whether a variable of vars has its address taken in the function (a
 * `&` before its name, as a unary operator). */
static int address_taken(const reader *x, const vec *vars) {
  const func_def *f = symtab_function_at(x->st, x->l->start);
  if (!f)
    return 1;
  CXToken *toks;
  unsigned n;
  int taken = 0;
  clang_tokenize(x->fe->tu, clang_getCursorExtent(f->cursor), &toks, &n);
  for (unsigned i = 1; i < n && !taken; i++) {
    char sp[8];
    tok_spelling(x->fe->tu, toks[i - 1], sp, sizeof sp);
    int amp = strcmp(sp, "&") == 0;
    if (!amp)
      continue;
    CXCursor c = clang_getCursor(x->fe->tu, clang_getTokenLocation(x->fe->tu, toks[i]));
    CXCursor d = clang_getCursorReferenced(c);
    for (int k = 0; !clang_Cursor_isNull(d) && k < vars->len; k++)
      taken |= clang_equalCursors(*(CXCursor *)vars->items[k], d);
  }
  clang_disposeTokens(x->fe->tu, toks, n);
  return taken;
}

/* Whether nothing in the body writes a variable of vars, directly or
 * (when the function takes the address of one) through a pointer. */
static int invariant(const reader *x, CXCursor body, const vec *vars) {
  writes w = {vars, 0, 0, x};
  cwalk_range_list macros = cwalk_macros(x->fe, x->a);
  cwalk c = {x->fe, x->a, &macros, body_var, body_call, body_store, &w};
  cwalk_run(&c, body);
  return !w.written && !(w.stores && address_taken(x, vars));
}

/* ---- the canonical form ---------------------------------------------------- */

long loops_trip_count(long a, long b, long s, const char *op) {
  long n = -1;
  if (s > 0 && !strcmp(op, "<"))
    n = b > a ? (b - a + s - 1) / s : 0;
  else if (s > 0 && !strcmp(op, "<="))
    n = b >= a ? (b - a) / s + 1 : 0;
  else if (s < 0 && !strcmp(op, ">"))
    n = a > b ? (a - b - s - 1) / -s : 0;
  else if (s < 0 && !strcmp(op, ">="))
    n = a >= b ? (a - b) / -s + 1 : 0;
  return n;
}

static CXCursor body_of(CXCursor stmt) {
  return clang_getCursorKind(stmt) == CXCursor_DoStmt ? cursor_first_child(stmt)
                                                       : cursor_last_child(stmt);
}

/* `for (v = a; v OP b; v += s)`: li->var, li->next and li->trip. */
static void canonical(const reader *x, loop_info *li) {
  li->trip = -1;
  if (strcmp(x->l->what, "for") != 0)
    return;
  tok_list t = tokens(x, x->l->header_start, x->l->header_end);
  parts p = {0, 0, 0, 0};
  if (!split_for(&t, &p))
    return;
  int eq = -1;
  for (int i = p.init; i < p.cond - 1; i++)
    if (tok_is(tok_at(&t, i), "="))
      eq = eq < 0 ? i : -2;
  const tok *v = tok_at(&t, eq - 1), *op = tok_at(&t, p.cond + 1);
  if (eq < 0 || !v || v->kind != CXToken_Identifier || !tok_is(tok_at(&t, p.cond), v->text) || !op)
    return;
  static const char *const ops[] = {"<", "<=", ">", ">=", "!=", NULL};
  int known = 0;
  for (const char *const *o = ops; *o; o++)
    known |= strcmp(*o, op->text) == 0;
  long s = loops_step(&t, p.inc, p.end, v->text);
  vec vars = {0};
  if (!known || !s || !bound_ok(x, &t, p.cond + 2, p.inc - 1, &vars))
    return;
  const sym *vs = symtab_lookup(x->st, v->text, v->start + 1);
  if (!vs || vs->file_scope)
    return;
  CXCursor *vc = arena_alloc(x->a, sizeof *vc);
  *vc = vs->cursor;
  vec_push(x->a, &vars, vc);
  if (!invariant(x, body_of(x->l->stmt), &vars))
    return;
  const char *b = text_of(x, &t, p.cond + 2, p.inc - 1);
  li->var = v->text;
  li->next = arena_printf(x->a, "%s %s %ld %s %s", v->text, s > 0 ? "+" : "-", s > 0 ? s : -s,
                          op->text, b);
  int ok = 1;
  long a0 = eq + 2 == p.cond - 1 ? loops_literal(tok_at(&t, eq + 1), &ok) : (ok = 0);
  long b0 = p.cond + 3 == p.inc - 1 ? loops_literal(tok_at(&t, p.cond + 2), &ok) : (ok = 0);
  if (ok) {
    li->trip = loops_trip_count(a0, b0, s, op->text);
    li->first = a0;
    li->step = s;
  }
  if (eq - 1 > p.init) /* `TYPE v = a`: a declaration */
    li->type = text_of(x, &t, p.init, eq - 1);
}

/* ---- temporaries each iteration allocates ------------------------------------ */

/* Whether t's value never crosses iterations of r: the first item of the
 * body touching it is a loop that writes every element of it directly
 * without reading it, and nothing outside the body uses it. */
static int iteration_local(const reader *x, const region_list *regions, const region *r,
                           const obj *t) {
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (!region_item_names(x->a, it, t))
      continue;
    if (it->kind != ITEM_LOOP)
      return 0;
    const loop_arg *w = loop_arg_writing(it->lp, t);
    return w && w->mode == MODE_WRITE && w->kind == ARG_DAT &&
           !loop_arg_reading(it->lp, t) && !region_temp_used_elsewhere(x->prog, regions, r, t);
  }
  return 0;
}

static obj_list local_temps(const reader *x, const region_list *regions, const region *r) {
  obj_list v = {0};
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    for (int k = 0; it->kind == ITEM_LOOP && k < it->lp->nargs; k++) {
      const obj *o = it->lp->args[k].obj;
      int seen = 0;
      for (int m = 0; m < v.len; m++)
        seen |= v.items[m] == o;
      if (o && o->kind == OBJ_DAT && o->is_temp && !seen && iteration_local(x, regions, r, o))
        vec_push(x->a, &v, (obj *)o);
    }
  }
  return v;
}

loop_info_list loops_analyse(const frontend *fe, const symtab *st, const program *prog,
                             const region_list *regions, dag_list *dags, const target *t,
                             const temp_info_list *temps, arena *a) {
  loop_info_list out = {0};
  for (int i = 0; i < regions->len; i++) {
    const region *r = regions->items[i];
    if (!r->loop)
      continue;
    reader x = {fe, st, prog, a, r->loop};
    loop_info *li = arena_alloc(a, sizeof *li);
    li->r = r;
    li->body = dags->items[i];
    canonical(&x, li);
    li->temps = local_temps(&x, regions, r);
    li->steps = dag_build_steps(r, r->loop->latch, &li->temps, t, temps, a);
    li->body->steps = li->steps;
    vec_push(a, &out, li);
  }
  return out;
}

loop_info *loops_of(const loop_info_list *loops, const region *r) {
  for (int i = 0; i < loops->len; i++)
    if (((loop_info *)loops->items[i])->r == r)
      return loops->items[i];
  return NULL;
}
