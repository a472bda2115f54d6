/*
 * region.c — regions and their items, from libclang's AST (see region.h).
 *
 * Directives are not in the AST: a loop or a sync belongs to the innermost
 * compound statement whose extent holds its directive, and stands between
 * that statement's children, ordered by offset.
 *
 * What host code reads and writes is found by cwalk.h's walk of the
 * statement, and recorded on the objects loomc knows (dats, globals,
 * arrays, the file-scope variables kernels read); a call is followed into
 * the summary of the function called (summary.h); the unseen state
 * (effects.h) is written by a call of a function loomc does not see and by
 * a store through a pointer that names none of those objects.
 */
#include "analysis/region.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/cwalk.h"
#include "frontend/tokens.h"
#include "analysis/effects.h"
#include "frontend/fresh.h"
#include "frontend/summary.h"

typedef struct builder {
  const frontend *fe;
  const symtab *st;
  const program *prog;
  arena *arena;
  region_list regions;
  cwalk_range_list macros; /* the macro expansions of the main file */
} builder;

static void extent(CXCursor c, unsigned *start, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  *start = frontend_offset(clang_getRangeStart(r));
  *end = frontend_offset(clang_getRangeEnd(r));
}

/* Loops whose directive lies in [start, end). */
static loop_list loops_in(const builder *b, unsigned start, unsigned end) {
  loop_list v = {0};
  for (int i = 0; i < b->prog->loops.len; i++) {
    loop *lp = b->prog->loops.items[i];
    if (lp->start >= start && lp->start < end)
      vec_push(b->arena, &v, lp);
  }
  return v;
}

/* sync directives in [start, end). */
static hint_list syncs_in(const builder *b, unsigned start, unsigned end) {
  hint_list v = {0};
  for (int i = 0; i < b->prog->hints.len; i++) {
    hint *h = b->prog->hints.items[i];
    if (h->kind == HINT_SYNC && h->start >= start && h->start < end)
      vec_push(b->arena, &v, h);
  }
  return v;
}

static void add_unique(arena *a, obj_list *v, const obj *p) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == p)
      return;
  vec_push(a, v, (obj *)p);
}

/* ---- what host code accesses ---------------------------------------------- */

typedef struct accesses {
  const builder *b;
  item *it;
} accesses;

static void record(accesses *x, const obj *o, unsigned use) {
  if (!use)
    return;
  arena *a = x->b->arena;
  add_unique(a, &x->it->objs, o);
  if (use & CW_READ)
    add_unique(a, &x->it->reads, o);
  if (use & CW_WRITE)
    add_unique(a, &x->it->writes, o);
}

/* Whether a variable is a loom_dat. */
static int is_dat_handle(const frontend *fe, CXCursor var) {
  CXType t = clang_getCanonicalType(clang_getCursorType(var));
  return t.kind == CXType_Pointer &&
         strcmp(frontend_type_spelling(fe, clang_getPointeeType(t)), "struct loom_dat_s") == 0;
}

/* A variable handles are reached through (`m` of `m->p_q`), named or
 * accessed by a function called: the dats reached may change, or be
 * reached; they are read and written.  A dat handle no loop names here
 * (`loom_dat_fetch(d, ...)`, d reached by a loop as `m->d`) may be any
 * dat a handle was passed on as (alias.h): every escaping dat. */
static void record_chains(accesses *x, const sym *s) {
  for (int i = 0; i < s->chains.len; i++)
    if (((const obj *)s->chains.items[i])->kind == OBJ_DAT)
      record(x, s->chains.items[i], CW_READ | CW_WRITE);
  if (!s->obj && is_dat_handle(x->b->fe, s->cursor))
    for (int i = 0; i < x->b->prog->escaping.len; i++)
      record(x, x->b->prog->escaping.items[i], CW_READ | CW_WRITE);
}

/* A name in host code: a dat or matrix handle, used in any way, reads and
 * writes the dat or matrix (the handle may reach any function); a global, array or
 * variable is accessed as the context says; a store through a pointer
 * that is none of them writes the unseen state. */
static void host_var(cwalk *w, CXCursor decl, unsigned use, int through) {
  accesses *x = w->data;
  sym *s = symtab_of_cursor(x->b->st, decl);
  const obj *o = s ? s->obj : NULL;
  if (s)
    record_chains(x, s);
  if (o && (o->kind == OBJ_DAT || o->kind == OBJ_MAT))
    record(x, o, CW_READ | CW_WRITE);
  else if (o && (o->kind == OBJ_GLOBAL || o->kind == OBJ_ARRAY || o->kind == OBJ_VAR))
    record(x, o, use);
  else if (through && (use & CW_WRITE) &&
           !fresh_pointer(x->b->fe, x->b->st, decl, x->b->arena))
    record(x, effects_unseen(), CW_WRITE);
}

/* A pointer argument a call may store through: the object its variable
 * denotes (a pointer variable loomc knows: an affine array, a file-scope
 * variable) is read and written; a variable's address (`&g`, `garr`) was
 * recorded by the walk; any other pointer writes the unseen state. */
static void store_through(accesses *x, CXCursor arg) {
  if (!clang_Cursor_isNull(summary_addressed(arg)))
    return;
  CXCursor v = summary_pointer_var(arg);
  if (!clang_Cursor_isNull(v) && fresh_pointer(x->b->fe, x->b->st, v, x->b->arena))
    return; /* memory just allocated, which no other name reaches */
  sym *s = clang_Cursor_isNull(v) ? NULL : symtab_of_cursor(x->b->st, v);
  const obj *o = s ? s->obj : NULL;
  if (o && o->kind != OBJ_SET && o->kind != OBJ_MAP)
    record(x, o, CW_READ | CW_WRITE);
  else
    record(x, effects_unseen(), CW_WRITE);
}

/* A call: what the function's summary says it reads and writes of the
 * objects loomc knows; a function loomc does not see reads and writes the
 * unseen state; and what the call may store through its pointer
 * arguments (stores_through). */
/* loom_checkpoint writes every dat of the program to a file: it reads
 * every dat a loop names (so every loop before it has run). */
static int is_checkpoint(CXCursor callee) {
  CXString name = clang_getCursorSpelling(callee);
  int yes = !clang_Cursor_isNull(callee) &&
            strcmp(clang_getCString(name), "loom_checkpoint") == 0;
  clang_disposeString(name);
  return yes;
}

static void read_every_dat(accesses *x) {
  const program *prog = x->b->prog;
  for (int l = 0; l < prog->loops.len; l++) {
    const loop *lp = prog->loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (lp->args[i].obj && lp->args[i].obj->kind == OBJ_DAT)
        record(x, lp->args[i].obj, CW_READ);
  }
}

static int host_call(cwalk *w, CXCursor callee, CXCursor call) {
  accesses *x = w->data;
  if (summary_is_free(callee))
    return 1; /* releases the memory, reads and writes no value */
  if (is_checkpoint(callee))
    read_every_dat(x);
  const summary *sm = summary_of(x->b->fe, x->b->st, callee, x->b->arena);
  if (summary_changes_mesh(callee) || (sm && sm->mesh))
    x->it->mesh = 1; /* a barrier */
  for (int i = 0; sm && i < sm->reads.len; i++) {
    const obj *o = ((const sym *)sm->reads.items[i])->obj;
    if (o)
      record(x, o, CW_READ);
    record_chains(x, sm->reads.items[i]);
  }
  for (int i = 0; sm && i < sm->writes.len; i++) {
    const obj *o = ((const sym *)sm->writes.items[i])->obj;
    if (o)
      record(x, o, CW_WRITE);
    record_chains(x, sm->writes.items[i]);
  }
  for (int i = 0; sm && (sm->unseen || sm->loops) && i < x->b->prog->escaping.len; i++)
    record(x, x->b->prog->escaping.items[i], CW_READ | CW_WRITE); /* alias.h */
  if (sm && sm->unseen) { /* it may change the mesh too */
    record(x, effects_unseen(), CW_READ | CW_WRITE);
    record(x, effects_mesh(), CW_WRITE);
  }
  else if (sm && sm->deref_store)
    record(x, effects_unseen(), CW_WRITE);
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (summary_stores_through(callee, sm, arg, (unsigned)i))
      store_through(x, arg);
  }
  return 0;
}

static void host_deref_store(cwalk *w, CXCursor at) {
  accesses *x = w->data;
  if (!fresh_expr(x->b->fe, x->b->st, cursor_first_child(at), x->b->arena))
    record(x, effects_unseen(), CW_WRITE);
}

/* A declaration of a variable handles are reached through
 * (`struct mesh *m_1 = (&m);`, a call seen through): it writes the dats
 * its chains reach, so that nothing that names them (a halo exchange of
 * `m_1->q`) moves above it. */
static enum CXChildVisitResult declared_bases(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  accesses *x = data;
  if (clang_getCursorKind(c) != CXCursor_VarDecl)
    return CXChildVisit_Continue;
  sym *s = symtab_of_cursor(x->b->st, c);
  for (int i = 0; s && i < s->chains.len; i++)
    if (((const obj *)s->chains.items[i])->kind == OBJ_DAT)
      record(x, s->chains.items[i], CW_READ | CW_WRITE);
  return CXChildVisit_Continue;
}

/* What the host code of a statement reads and writes, into it. */
static void host_accesses(const builder *b, CXCursor stmt, item *it) {
  accesses x = {b, it};
  cwalk w = {b->fe, b->arena, &b->macros, host_var, host_call, host_deref_store, &x};
  cwalk_run(&w, stmt);
  if (clang_getCursorKind(stmt) == CXCursor_DeclStmt)
    clang_visitChildren(stmt, declared_bases, &x);
}

/* A sync reads and writes everything of the objects it names. */
static void sync_accesses(const builder *b, const hint *h, item *it) {
  accesses x = {b, it};
  for (int i = 0; i < h->nnames; i++)
    if (h->objs && h->objs[i])
      record(&x, h->objs[i], CW_READ | CW_WRITE);
}

/* ---- regions ------------------------------------------------------------------ */

static const char *keyword(enum CXCursorKind k) {
  switch (k) {
  case CXCursor_ForStmt: return "for";
  case CXCursor_WhileStmt: return "while";
  case CXCursor_DoStmt: return "do";
  case CXCursor_IfStmt: return "if";
  case CXCursor_SwitchStmt: return "switch";
  case CXCursor_CompoundStmt: return "block";
  default: return "statement";
  }
}

static region *build_region(builder *b, CXCursor compound, int depth);

typedef struct walk_nested {
  builder *b;
  int depth;
} walk_nested;

/* The compound statements inside a nested statement that hold loops. */
static enum CXChildVisitResult find_compounds(CXCursor c, CXCursor parent,
                                              CXClientData data) {
  (void)parent;
  walk_nested *w = data;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
    return CXChildVisit_Recurse;
  build_region(w->b, c, w->depth);
  return CXChildVisit_Continue;
}

/* Whether stmt is a barrier: control may leave it other than by its end,
 * or enter it other than at its start — a return, a goto, a label (or a
 * case of a switch outside stmt), a break not bound by a loop or switch
 * inside stmt, a continue not bound by a loop inside it — or it calls
 * loom_exit(), which ends the session.  Calls that do not return (exit,
 * longjmp) are not seen. */
typedef struct jumps {
  int in_loop, in_switch, found;
} jumps;

static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  jumps *j = data, inner = *j;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ReturnStmt:
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
  case CXCursor_LabelStmt:
    j->found = 1;
    return CXChildVisit_Break;
  case CXCursor_BreakStmt:
    j->found = !j->in_loop && !j->in_switch;
    return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
  case CXCursor_ContinueStmt:
    j->found = !j->in_loop;
    return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
  case CXCursor_CallExpr: { /* loom_exit() ends the session: nothing may
                               stay pending across it */
    CXString name = clang_getCursorSpelling(c);
    j->found = strcmp(clang_getCString(name), "loom_exit") == 0;
    clang_disposeString(name);
    if (j->found)
      return CXChildVisit_Break;
    break;
  }
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    if (!j->in_switch) { /* a label of a switch around the region */
      j->found = 1;
      return CXChildVisit_Break;
    }
    break;
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
    inner.in_loop = 1;
    break;
  case CXCursor_SwitchStmt:
    inner.in_switch = 1;
    break;
  default:
    break;
  }
  clang_visitChildren(c, find_jump, &inner);
  j->found = inner.found;
  return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int leaves_region(CXCursor stmt) {
  jumps j = {0, 0, 0};
  find_jump(stmt, clang_getNullCursor(), &j);
  return j.found;
}

static item *new_item(builder *b, item_kind kind, srcloc loc) {
  item *it = arena_alloc(b->arena, sizeof *it);
  it->kind = kind;
  it->loc = loc;
  return it;
}

/* The body of a for, while or do statement when it is a compound
 * statement (the last child), else a null cursor. */
static CXCursor loop_body(CXCursor stmt) {
  enum CXCursorKind k = clang_getCursorKind(stmt);
  if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt)
    return clang_getNullCursor();
  CXCursor body = k == CXCursor_DoStmt ? cursor_first_child(stmt) : cursor_last_child(stmt);
  return clang_getCursorKind(body) == CXCursor_CompoundStmt ? body : clang_getNullCursor();
}

/* The offset of the first `;` of a for statement's header (after its
 * initialisation), or 0. */
static unsigned first_semicolon(const builder *b, CXCursor stmt) {
  CXToken *toks;
  unsigned n, off = 0;
  int depth = 0;
  clang_tokenize(b->fe->tu, clang_getCursorExtent(stmt), &toks, &n);
  for (unsigned i = 0; i < n && !off; i++) {
    char t[8];
    tok_spelling(b->fe->tu, toks[i], t, sizeof t);
    depth += !strcmp(t, "(") - !strcmp(t, ")");
    if (depth == 1 && !strcmp(t, ";"))
      off = frontend_offset(clang_getTokenLocation(b->fe->tu, toks[i]));
  }
  clang_disposeTokens(b->fe->tu, toks, n);
  return off;
}

/* What the header of loop statement stmt reads and writes each iteration:
 * its children but the body and, for a for, the initialisation. */
static item *latch_of(builder *b, CXCursor stmt, CXCursor body) {
  item *it = new_item(b, ITEM_HOST, frontend_cursor_loc(b->fe, stmt));
  unsigned init_end = clang_getCursorKind(stmt) == CXCursor_ForStmt
                          ? first_semicolon(b, stmt) : 0;
  cursor_list kids = cwalk_kids(b->arena, stmt);
  for (int i = 0; i < kids.len; i++) {
    CXCursor c = *(CXCursor *)kids.items[i];
    unsigned cs, ce;
    extent(c, &cs, &ce);
    if (!clang_equalCursors(c, body) && ce > init_end)
      host_accesses(b, c, it);
  }
  it->leaves = 0;
  return it;
}

/* The region of a loop statement's body, marked as such. */
static region *build_loop_body(builder *b, CXCursor stmt, CXCursor body, int depth) {
  region *r = build_region(b, body, depth);
  if (!r)
    return NULL;
  loop_stmt *l = arena_alloc(b->arena, sizeof *l);
  l->what = keyword(clang_getCursorKind(stmt));
  l->stmt = stmt;
  l->loc = frontend_cursor_loc(b->fe, stmt);
  extent(stmt, &l->start, &l->end);
  l->item = -1;
  l->latch = latch_of(b, stmt, body);
  unsigned bs, be;
  extent(body, &bs, &be);
  l->header_start = clang_getCursorKind(stmt) == CXCursor_DoStmt ? be : l->start;
  l->header_end = clang_getCursorKind(stmt) == CXCursor_DoStmt ? l->end : bs;
  r->loop = l;
  return r;
}

/* The item of one child statement, or NULL when it is not a computation;
 * *body_of: the region of its body when it is a loop statement. */
static item *statement_item(builder *b, CXCursor stmt, int depth, region **body_of) {
  unsigned start, end;
  extent(stmt, &start, &end);
  loop_list inner = loops_in(b, start, end);
  item *it = new_item(b, inner.len ? ITEM_NESTED : ITEM_HOST,
                      frontend_cursor_loc(b->fe, stmt));
  host_accesses(b, stmt, it);
  hint_list syncs = syncs_in(b, start, end);
  for (int i = 0; i < syncs.len; i++)
    sync_accesses(b, syncs.items[i], it);
  it->leaves = leaves_region(stmt) || it->mesh;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(stmt)), NULL, NULL,
                             NULL, &it->start);
  it->end = end;
  if (inner.len == 0 && it->objs.len == 0 && !it->leaves)
    return NULL;
  it->loops = inner;
  it->what = keyword(clang_getCursorKind(stmt));
  if (inner.len) {
    walk_nested w = {b, depth + 1};
    CXCursor body = loop_body(stmt);
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt)
      build_region(b, stmt, depth + 1);
    else if (!clang_Cursor_isNull(body))
      *body_of = build_loop_body(b, stmt, body, depth + 1);
    else
      clang_visitChildren(stmt, find_compounds, &w);
  }
  return it;
}

/* Appends the loops and syncs standing directly in [from, to) to the
 * region, in source order. */
static void add_directives_between(builder *b, region *r, unsigned from, unsigned to) {
  loop_list loops = loops_in(b, from, to);
  hint_list syncs = syncs_in(b, from, to);
  int i = 0, j = 0;
  while (i < loops.len || j < syncs.len) {
    loop *lp = i < loops.len ? loops.items[i] : NULL;
    hint *h = j < syncs.len ? syncs.items[j] : NULL;
    item *it;
    if (lp && (!h || lp->start < h->start)) {
      it = new_item(b, ITEM_LOOP, lp->loc);
      it->lp = lp;
      it->start = lp->start;
      it->end = lp->end;
      i++;
    } else {
      it = new_item(b, ITEM_SYNC, h->loc);
      it->sync = h;
      it->start = h->start;
      it->end = h->end;
      sync_accesses(b, h, it);
      j++;
    }
    vec_push(b->arena, &r->items, it);
  }
}

static region *build_region(builder *b, CXCursor compound, int depth) {
  unsigned start, end;
  extent(compound, &start, &end);
  if (loops_in(b, start, end).len == 0)
    return NULL;
  region *r = arena_alloc(b->arena, sizeof *r);
  r->loc = frontend_cursor_loc(b->fe, compound);
  r->end = end > start ? end - 1 : start;
  while (r->end > start && b->prog->text[r->end] != '}')
    r->end--;
  r->end_line = program_line(b->prog, r->end);
  r->depth = depth;
  const func_def *f = symtab_function_at(b->st, start);
  r->func = f ? f->name : "?";
  vec_push(b->arena, &b->regions, r);
  cursor_list ch = cwalk_kids(b->arena, compound);
  unsigned pos = start;
  for (int i = 0; i < ch.len; i++) {
    CXCursor c = *(CXCursor *)ch.items[i];
    unsigned cs, ce;
    extent(c, &cs, &ce);
    add_directives_between(b, r, pos, cs);
    region *body = NULL;
    item *it = statement_item(b, c, depth, &body);
    if (body) {
      body->loop->parent = r;
      body->loop->item = r->items.len;
    }
    if (it)
      vec_push(b->arena, &r->items, it);
    pos = ce;
  }
  add_directives_between(b, r, pos, end);
  return r;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
    *(CXCursor *)data = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

region_list regions_build(const frontend *fe, const symtab *st, const program *prog,
                  arena *a) {
  builder b = {fe, st, prog, a, {0}, cwalk_macros(fe, a)};
  for (int i = 0; i < st->funcs.len; i++) {
    const func_def *f = st->funcs.items[i];
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(f->cursor, find_body, &body);
    if (!clang_Cursor_isNull(body))
      build_region(&b, body, 0);
  }
  return b.regions;
}

/* ---- what an item touches ---------------------------------------------------- */

/* Whether x may be o: effects_overlap, or (exact) one variable. */
static int may_be(const obj *x, const obj *o, int exact) {
  return exact ? x == o || (x->var && x->var == o->var) : effects_overlap(x, o);
}

static int any_overlap(const obj_list *objs, const obj *o, int exact) {
  for (int i = 0; i < objs->len; i++)
    if (may_be(objs->items[i], o, exact))
      return 1;
  return 0;
}

/* Whether an item touches o; `write`: writes it. */
static int item_touches(arena *a, const item *it, const obj *o, int write, int exact) {
  if (any_overlap(write ? &it->writes : &it->objs, o, exact))
    return 1;
  loop_list loops = it->loops;
  if (it->kind == ITEM_LOOP) {
    loops = (loop_list){0};
    vec_push(a, &loops, it->lp);
  }
  for (int l = 0; l < loops.len; l++) {
    effect_list fx = effects_of_loop(a, loops.items[l], NULL);
    for (int i = 0; i < fx.len; i++) {
      const effect *e = fx.items[i];
      if ((!write || effect_writes(e)) && may_be(e->o, o, exact))
        return 1;
    }
  }
  return 0;
}

int region_item_writes(arena *a, const item *it, const obj *o) {
  return item_touches(a, it, o, 1, 0);
}

int region_item_names(arena *a, const item *it, const obj *o) {
  return item_touches(a, it, o, 0, 1);
}

/* ---- a temporary in a region ------------------------------------------------- */

static int in_region(const region *r, const loop *lp) {
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (it->kind == ITEM_LOOP && it->lp == lp)
      return 1;
  }
  return 0;
}

int region_temp_used_elsewhere(const program *prog, const region_list *regions, const region *r,
                               const obj *t) {
  for (int i = 0; i < prog->loops.len; i++) {
    const loop *lp = prog->loops.items[i];
    if ((loop_arg_reading(lp, t) || loop_arg_writing(lp, t)) && !in_region(r, lp))
      return 1;
  }
  return region_host_names(regions, t);
}

int region_host_names(const region_list *regions, const obj *t) {
  for (int k = 0; k < regions->len; k++) {
    const region *reg = regions->items[k];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      for (int m = 0; (it->kind == ITEM_HOST || it->kind == ITEM_SYNC) && m < it->objs.len; m++)
        if (it->objs.items[m] == t)
          return 1;
    }
  }
  return 0;
}

void region_temp_uses(arena *a, const region *r, const obj *t, loop_list *writers,
                      loop_list *readers) {
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (it->kind != ITEM_LOOP)
      continue;
    if (loop_arg_writing(it->lp, t))
      vec_push(a, writers, it->lp);
    else if (loop_arg_reading(it->lp, t))
      vec_push(a, readers, it->lp);
  }
}

const char *region_temp_producer_problem(arena *a, const program *prog,
                                         const region_list *regions, const region *r,
                                         const obj *t, const loop_list *writers) {
  if (writers->len == 0)
    return arena_printf(a, "no par_loop of this block writes %s", t->name);
  const loop *p = writers->items[0];
  if (writers->len > 1)
    return arena_printf(a, "%s is written by %s (line %u) and %s (line %u); it "
                        "needs exactly one producer", t->name, p->kernel, p->loc.line,
                        ((const loop *)writers->items[1])->kernel,
                        ((const loop *)writers->items[1])->loc.line);
  const loop_arg *w = loop_arg_writing(p, t);
  if (w->mode != MODE_WRITE || w->kind != ARG_DAT)
    return arena_printf(a, "its producer %s (line %u) %s it; the producer must "
                        "write every element directly (mode write)", p->kernel,
                        p->loc.line, w->kind != ARG_DAT ? "writes through a map to"
                                                         : mode_name(w->mode));
  if (loop_arg_reading(p, t))
    return arena_printf(a, "its producer %s (line %u) also reads it; the producer "
                        "must write every element without reading it", p->kernel,
                        p->loc.line);
  if (region_temp_used_elsewhere(prog, regions, r, t))
    return arena_printf(a, "%s is used outside the par_loops of this block "
                        "(by host code, a sync or another block)", t->name);
  return NULL;
}
