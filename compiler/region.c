/*
 * region.c — regions and their items, from libclang's AST (see region.h).
 *
 * Directives are not in the AST: a loop belongs to the innermost compound
 * statement whose extent holds its directive, and stands between that
 * statement's children, ordered by offset.
 */
#include "region.h"

#include <string.h>

typedef struct builder {
  const frontend *fe;
  const symtab *st;
  const program *prog;
  arena *arena;
  vec regions;
} builder;

static void extent(CXCursor c, unsigned *start, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  *start = frontend_offset(clang_getRangeStart(r));
  *end = frontend_offset(clang_getRangeEnd(r));
}

/* Loops whose directive lies in [start, end). */
static vec loops_in(const builder *b, unsigned start, unsigned end) {
  vec v = {0};
  for (int i = 0; i < b->prog->loops.len; i++) {
    loop *lp = b->prog->loops.items[i];
    if (lp->start >= start && lp->start < end)
      vec_push(b->arena, &v, lp);
  }
  return v;
}

static void add_unique(arena *a, vec *v, void *p) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == p)
      return;
  vec_push(a, v, p);
}

typedef struct refs {
  const builder *b;
  vec *objs;
} refs;

/* Dats and globals of loops named in a statement. */
static enum CXChildVisitResult visit_ref(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  refs *r = data;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    sym *s = symtab_of_cursor(r->b->st, clang_getCursorReferenced(c));
    if (s && s->obj && (s->obj->kind == OBJ_DAT || s->obj->kind == OBJ_GLOBAL))
      add_unique(r->b->arena, r->objs, s->obj);
  }
  return CXChildVisit_Recurse;
}

static void named_objects(const builder *b, CXCursor stmt, vec *objs) {
  refs r = {b, objs};
  visit_ref(stmt, clang_getNullCursor(), &r);
  clang_visitChildren(stmt, visit_ref, &r);
}

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

static void build_region(builder *b, CXCursor compound, int depth);

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

static item *new_item(builder *b, item_kind kind, srcloc loc) {
  item *it = arena_alloc(b->arena, sizeof *it);
  it->kind = kind;
  it->loc = loc;
  return it;
}

/* The item of one child statement, or NULL when it is not a computation. */
static item *statement_item(builder *b, CXCursor stmt, int depth) {
  unsigned start, end;
  extent(stmt, &start, &end);
  vec inner = loops_in(b, start, end);
  vec objs = {0};
  named_objects(b, stmt, &objs);
  if (inner.len == 0 && objs.len == 0)
    return NULL;
  item *it = new_item(b, inner.len ? ITEM_NESTED : ITEM_HOST,
                      frontend_cursor_loc(b->fe, stmt));
  it->objs = objs;
  it->loops = inner;
  it->what = keyword(clang_getCursorKind(stmt));
  if (inner.len) {
    walk_nested w = {b, depth + 1};
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt)
      build_region(b, stmt, depth + 1);
    else
      clang_visitChildren(stmt, find_compounds, &w);
  }
  return it;
}

typedef struct children {
  vec cursors; /* CXCursor* */
  arena *arena;
} children;

static enum CXChildVisitResult take_child(CXCursor c, CXCursor parent,
                                          CXClientData data) {
  (void)parent;
  children *ch = data;
  CXCursor *keep = arena_alloc(ch->arena, sizeof *keep);
  *keep = c;
  vec_push(ch->arena, &ch->cursors, keep);
  return CXChildVisit_Continue;
}

/* Appends the loops standing directly in [from, to) to the region. */
static void add_loops_between(builder *b, region *r, unsigned from, unsigned to) {
  vec v = loops_in(b, from, to);
  for (int i = 0; i < v.len; i++) {
    loop *lp = v.items[i];
    item *it = new_item(b, ITEM_LOOP, lp->loc);
    it->lp = lp;
    vec_push(b->arena, &r->items, it);
  }
}

static void build_region(builder *b, CXCursor compound, int depth) {
  unsigned start, end;
  extent(compound, &start, &end);
  if (loops_in(b, start, end).len == 0)
    return;
  region *r = arena_alloc(b->arena, sizeof *r);
  r->loc = frontend_cursor_loc(b->fe, compound);
  r->depth = depth;
  const func_def *f = symtab_function_at(b->st, start);
  r->func = f ? f->name : "?";
  vec_push(b->arena, &b->regions, r);
  children ch = {{0}, b->arena};
  clang_visitChildren(compound, take_child, &ch);
  unsigned pos = start;
  for (int i = 0; i < ch.cursors.len; i++) {
    CXCursor c = *(CXCursor *)ch.cursors.items[i];
    unsigned cs, ce;
    extent(c, &cs, &ce);
    add_loops_between(b, r, pos, cs);
    item *it = statement_item(b, c, depth);
    if (it)
      vec_push(b->arena, &r->items, it);
    pos = ce;
  }
  add_loops_between(b, r, pos, end);
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

vec regions_build(const frontend *fe, const symtab *st, const program *prog,
                  arena *a) {
  builder b = {fe, st, prog, a, {0}};
  for (int i = 0; i < st->funcs.len; i++) {
    const func_def *f = st->funcs.items[i];
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(f->cursor, find_body, &body);
    if (!clang_Cursor_isNull(body))
      build_region(&b, body, 0);
  }
  return b.regions;
}
