/*
 * symtab.c — declarations and their scopes, from libclang's AST.
 *
 * One walk over the translation unit: top-level declarations of every file,
 * and the declarations inside the main file's function bodies, each with
 * the extent of the block (compound statement, for statement or function)
 * that scopes it.
 */
#include "frontend/symtab.h"

#include <string.h>

typedef struct walk {
  const frontend *fe;
  symtab *st;
  arena *arena;
  unsigned scope_start, scope_end;
  int file_scope;
} walk;

static void extent_offsets(CXCursor c, unsigned *start, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  *start = frontend_offset(clang_getRangeStart(r));
  *end = frontend_offset(clang_getRangeEnd(r));
}

static void add_sym(walk *w, CXCursor c) {
  sym *s = arena_alloc(w->arena, sizeof *s);
  s->name = frontend_spelling(w->fe, c);
  s->cursor = c;
  s->in_main = frontend_in_main_file(w->fe, clang_getCursorLocation(c));
  s->file_scope = w->file_scope;
  s->decl_off = s->in_main ? frontend_offset(clang_getCursorLocation(c)) : 0;
  s->scope_start = w->scope_start;
  s->scope_end = w->scope_end;
  s->canon = s;
  vec_push(w->arena, &w->st->syms, s);
}

static void add_func(walk *w, CXCursor c) {
  func_def *f = arena_alloc(w->arena, sizeof *f);
  f->name = frontend_spelling(w->fe, c);
  f->cursor = c;
  extent_offsets(c, &f->start, &f->end);
  f->loc = frontend_cursor_loc(w->fe, c);
  vec_push(w->arena, &w->st->funcs, f);
}

static enum CXChildVisitResult visit_body(CXCursor c, CXCursor parent,
                                          CXClientData data);

/* Walks c's children with c as the enclosing scope. */
static void walk_scope(walk *w, CXCursor c) {
  walk inner = *w;
  extent_offsets(c, &inner.scope_start, &inner.scope_end);
  inner.file_scope = 0;
  clang_visitChildren(c, visit_body, &inner);
}

static enum CXChildVisitResult visit_body(CXCursor c, CXCursor parent,
                                          CXClientData data) {
  (void)parent;
  walk *w = data;
  switch (clang_getCursorKind(c)) {
  case CXCursor_VarDecl:
  case CXCursor_ParmDecl:
    add_sym(w, c);
    return CXChildVisit_Recurse;
  case CXCursor_FunctionDecl:
    add_sym(w, c); /* a block-scope function declaration */
    return CXChildVisit_Continue;
  case CXCursor_CompoundStmt:
  case CXCursor_ForStmt:
    walk_scope(w, c);
    return CXChildVisit_Continue;
  default:
    return CXChildVisit_Recurse;
  }
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_VarDecl && k != CXCursor_FunctionDecl)
    return CXChildVisit_Continue;
  add_sym(w, c);
  if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
      frontend_in_main_file(w->fe, clang_getCursorLocation(c))) {
    add_func(w, c);
    walk_scope(w, c); /* parameters and body */
  }
  return CXChildVisit_Continue;
}

static unsigned name_hash(const char *name) {
  unsigned h = 2166136261u; /* FNV-1a */
  for (; *name; name++)
    h = (h ^ (unsigned char)*name) * 16777619u;
  return h;
}

/* The symbols hashed by name and by cursor, each chain in the order they
 * were declared (the first of equals wins, as in a scan of them all). */
static void index_syms(symtab *st, arena *a) {
  st->nbuckets = 64;
  while (st->nbuckets < 2u * (unsigned)st->syms.len)
    st->nbuckets *= 2;
  st->by_name = arena_alloc(a, sizeof *st->by_name * st->nbuckets);
  st->by_cursor = arena_alloc(a, sizeof *st->by_cursor * st->nbuckets);
  for (int i = st->syms.len - 1; i >= 0; i--) {
    sym *s = st->syms.items[i];
    sym **n = &st->by_name[name_hash(s->name) & (st->nbuckets - 1)];
    sym **c = &st->by_cursor[clang_hashCursor(s->cursor) & (st->nbuckets - 1)];
    s->same_name = *n;
    *n = s;
    s->same_cursor = *c;
    *c = s;
  }
}

static sym *exact(const symtab *st, CXCursor c) {
  if (!st->nbuckets)
    return NULL;
  for (sym *s = st->by_cursor[clang_hashCursor(c) & (st->nbuckets - 1)]; s; s = s->same_cursor)
    if (clang_equalCursors(s->cursor, c))
      return s;
  return NULL;
}

/* A file-scope variable declared several times (`extern double gam;` in a
 * header, `double gam = 1.4;` in the file) is one object: each of its
 * symbols points to the first one. */
static void link_redeclarations(symtab *st) {
  for (int i = 0; i < st->syms.len; i++) {
    sym *s = st->syms.items[i];
    if (!s->file_scope || clang_getCursorKind(s->cursor) != CXCursor_VarDecl)
      continue;
    CXCursor first = clang_getCanonicalCursor(s->cursor);
    if (clang_equalCursors(first, s->cursor))
      continue;
    sym *c = exact(st, first);
    if (c)
      s->canon = c->canon;
  }
}

void symtab_build(const frontend *fe, symtab *st, arena *a) {
  walk w = {fe, st, a, 0, ~0u, 1};
  frontend_visit_top(fe, FE_ALL, visit_top, &w);
  index_syms(st, a);
  link_redeclarations(st);
}

static int visible(const sym *s, unsigned at) {
  if (!s->in_main)
    return 1;
  return s->decl_off < at && s->scope_start <= at && at < s->scope_end;
}

/* Whether a is a better (more inner, or later) match than b. */
static int inner_than(const sym *a, const sym *b) {
  if (a->scope_start != b->scope_start)
    return a->scope_start > b->scope_start;
  return a->decl_off > b->decl_off;
}

sym *symtab_lookup(const symtab *st, const char *name, unsigned at) {
  sym *best = NULL;
  if (!st->nbuckets)
    return NULL;
  for (sym *s = st->by_name[name_hash(name) & (st->nbuckets - 1)]; s; s = s->same_name) {
    if (strcmp(s->name, name) != 0 || !visible(s, at))
      continue;
    if (!best || inner_than(s, best))
      best = s;
  }
  return best;
}

static sym *named_from(sym *s, const char *name) {
  while (s && strcmp(s->name, name) != 0)
    s = s->same_name;
  return s;
}

sym *symtab_first_named(const symtab *st, const char *name) {
  return st->nbuckets ? named_from(st->by_name[name_hash(name) & (st->nbuckets - 1)], name)
                      : NULL;
}

sym *symtab_next_named(const sym *s) { return named_from(s->same_name, s->name); }

sym *symtab_of_cursor(const symtab *st, CXCursor c) {
  sym *s = exact(st, c);
  return s ? s->canon : NULL;
}

const func_def *symtab_function_at(const symtab *st, unsigned at) {
  for (int i = 0; i < st->funcs.len; i++) {
    const func_def *f = st->funcs.items[i];
    if (f->start <= at && at < f->end)
      return f;
  }
  return NULL;
}
