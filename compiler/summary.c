/*
 * summary.c — function summaries (see summary.h), by one cwalk over the
 * function's body; calls are followed into the callees' summaries.
 *
 * The cache lives in the symbol table (symtab.summaries): one entry per
 * function definition, keyed by its canonical cursor.  An entry being
 * computed is `busy`; a call that reaches a busy entry (recursion) uses
 * what it has so far and marks the caller incomplete, and an incomplete
 * summary is computed again on the next request, by which time the cycle's
 * other members are done.
 */
#include "summary.h"

#include <string.h>

#include "cwalk.h"

typedef struct entry {
  CXCursor fn; /* canonical cursor of the function */
  summary s;
  int busy;     /* being computed */
  int complete; /* computed with every callee's summary complete */
} entry;

typedef struct walker {
  const frontend *fe;
  const symtab *st;
  arena *a;
  entry *e;
  int incomplete;
} walker;

/* The file's base name is loom.h: the runtime's API, which touches no
 * state of the program but through its arguments. */
static int is_loom_h(CXFile file) {
  CXString name = clang_getFileName(file);
  const char *path = clang_getCString(name), *base = path ? strrchr(path, '/') : NULL;
  int yes = path && strcmp(base ? base + 1 : path, "loom.h") == 0;
  clang_disposeString(name);
  return yes;
}

int summary_is_system(CXCursor fn) {
  CXSourceLocation loc = clang_getCursorLocation(fn);
  CXFile file;
  clang_getSpellingLocation(loc, &file, NULL, NULL, NULL);
  return !file || clang_Location_isInSystemHeader(loc) || is_loom_h(file);
}

int summary_is_file_scope(CXCursor decl) {
  return clang_getCursorKind(decl) == CXCursor_VarDecl &&
         clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
             CXCursor_TranslationUnit;
}

static void add_sym(arena *a, vec *v, sym *s) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == s)
      return;
  vec_push(a, v, s);
}

static void on_var(cwalk *cw, CXCursor decl, unsigned use, int through) {
  walker *w = cw->data;
  if (!summary_is_file_scope(decl)) {
    if (through && (use & CW_WRITE) && clang_getCursorKind(decl) == CXCursor_ParmDecl)
      w->e->s.param_store = 1; /* into what the caller passes */
    else if (through && (use & CW_WRITE))
      w->e->s.deref_store = 1; /* through a local pointer */
    return;
  }
  sym *s = symtab_of_cursor(w->st, decl);
  if (!s)
    return;
  if (use & CW_READ || through)
    add_sym(w->a, &w->e->s.reads, s);
  if (use & CW_WRITE)
    add_sym(w->a, &w->e->s.writes, s);
}

static void on_deref_store(cwalk *cw, CXCursor at) {
  (void)at;
  ((walker *)cw->data)->e->s.deref_store = 1;
}

static entry *entry_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a);

static void merge(walker *w, const summary *s) {
  for (int i = 0; i < s->reads.len; i++)
    add_sym(w->a, &w->e->s.reads, s->reads.items[i]);
  for (int i = 0; i < s->writes.len; i++)
    add_sym(w->a, &w->e->s.writes, s->writes.items[i]);
  /* what a callee stores through its parameters, this function passed it:
   * memory it does not name, as far as its own callers can tell */
  w->e->s.deref_store |= s->deref_store | s->param_store;
  if (s->unseen && !w->e->s.unseen) {
    w->e->s.unseen = s->unseen;
    w->e->s.unseen_loc = s->unseen_loc;
  }
}

static void on_call(cwalk *cw, CXCursor callee, CXCursor call) {
  (void)call;
  walker *w = cw->data;
  if (!clang_Cursor_isNull(callee) && summary_is_system(callee))
    return;
  entry *e = entry_of(w->fe, w->st, callee, w->a);
  if (e->busy || !e->complete)
    w->incomplete = 1;
  merge(w, &e->s);
}

static vec *cache(const symtab *st) { return (vec *)&st->summaries; }

static void compute(const frontend *fe, const symtab *st, entry *e, CXCursor def,
                    arena *a) {
  static const vec no_macros = {0};
  walker w = {fe, st, a, e, 0};
  cwalk cw = {fe, a, &no_macros, on_var, on_call, on_deref_store, &w};
  e->s.reads = (vec){0};
  e->s.writes = (vec){0};
  e->busy = 1;
  vec kids = cwalk_kids(a, def);
  for (int i = 0; i < kids.len; i++) /* the body (parameters name nothing) */
    if (clang_getCursorKind(*(CXCursor *)kids.items[i]) == CXCursor_CompoundStmt)
      cwalk_run(&cw, *(CXCursor *)kids.items[i]);
  e->busy = 0;
  e->complete = !w.incomplete;
}

static entry *entry_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a) {
  CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
  CXCursor key = clang_Cursor_isNull(fn) ? fn : clang_getCanonicalCursor(fn);
  for (int i = 0; !clang_Cursor_isNull(key) && i < cache(st)->len; i++) {
    entry *e = cache(st)->items[i];
    if (clang_equalCursors(e->fn, key)) {
      if (!e->busy && !e->complete && !clang_Cursor_isNull(def))
        compute(fe, st, e, def, a);
      return e;
    }
  }
  entry *e = arena_alloc(a, sizeof *e);
  e->fn = key;
  e->complete = 1;
  if (!clang_Cursor_isNull(key))
    vec_push(a, cache(st), e);
  if (clang_Cursor_isNull(def)) {
    e->s.unseen = clang_Cursor_isNull(fn) ? "(a function pointer)" : frontend_spelling(fe, fn);
    e->s.unseen_loc = clang_Cursor_isNull(fn) ? (srcloc){0} : frontend_cursor_loc(fe, fn);
    return e;
  }
  compute(fe, st, e, def, a);
  return e;
}

const summary *summary_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a) {
  if (!clang_Cursor_isNull(fn) && summary_is_system(fn))
    return NULL;
  return &entry_of(fe, st, fn, a)->s;
}
