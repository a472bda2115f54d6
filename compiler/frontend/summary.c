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
#include "frontend/summary.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/cwalk.h"
#include "frontend/fresh.h"

typedef struct summary_entry {
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

/* The file's base name is loom.h or loom_gen.h: the runtime's API and the
 * generated code's interface, which touch no state of the program but
 * through their arguments. */
static int is_loom_h(CXFile file) {
  CXString name = clang_getFileName(file);
  const char *path = clang_getCString(name), *base = path ? strrchr(path, '/') : NULL;
  const char *file_name = base ? base + 1 : path;
  int yes = path && (strcmp(file_name, "loom.h") == 0 || strcmp(file_name, "loom_gen.h") == 0);
  clang_disposeString(name);
  return yes;
}

/* A compiler builtin (`__builtin_huge_val`, what HUGE_VAL expands to):
 * clang declares it implicitly where it is first used, in the user's file. */
static int is_builtin(CXCursor fn) {
  CXString name = clang_getCursorSpelling(fn);
  int yes = strncmp(clang_getCString(name), "__builtin_", 10) == 0;
  clang_disposeString(name);
  return yes;
}

int summary_is_system(CXCursor fn) {
  CXSourceLocation loc = clang_getCursorLocation(fn);
  CXFile file;
  clang_getSpellingLocation(loc, &file, NULL, NULL, NULL);
  return !file || clang_Location_isInSystemHeader(loc) || is_loom_h(file) || is_builtin(fn);
}

int summary_changes_mesh(CXCursor fn) {
  static const char *const calls[] = {
      "loom_init",          "loom_decl_set",      "loom_decl_set_slice",
      "loom_decl_set_hdf5", "loom_decl_map",      "loom_decl_map_hdf5",
      "loom_renumber",      "loom_partition"};
  if (clang_Cursor_isNull(fn) || !summary_is_system(fn))
    return 0;
  CXString name = clang_getCursorSpelling(fn);
  int yes = 0;
  for (size_t i = 0; i < sizeof calls / sizeof *calls && !yes; i++)
    yes = strcmp(clang_getCString(name), calls[i]) == 0;
  clang_disposeString(name);
  return yes;
}

int summary_is_file_scope(CXCursor decl) {
  return clang_getCursorKind(decl) == CXCursor_VarDecl &&
         clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
             CXCursor_TranslationUnit;
}

static void add_sym(arena *a, sym_list *v, sym *s) {
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
    else if (through && (use & CW_WRITE) && !fresh_pointer(w->fe, w->st, decl, w->a))
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
  walker *w = cw->data;
  if (!fresh_expr(w->fe, w->st, cursor_first_child(at), w->a))
    w->e->s.deref_store = 1;
}

/* ---- what a call stores through its arguments ----------------------------- */

CXCursor summary_addressed(CXCursor e) {
  e = cursor_strip_expr(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_DeclRefExpr) {
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(e)).kind;
    int array = t == CXType_ConstantArray || t == CXType_IncompleteArray ||
                t == CXType_VariableArray;
    return array ? clang_getCursorReferenced(e) : clang_getNullCursor();
  }
  if (k != CXCursor_UnaryOperator)
    return clang_getNullCursor();
  CXCursor operand = cursor_first_child(e);
  for (;;) { /* &v, &v[i], &v.f */
    operand = cursor_strip_expr(operand);
    k = clang_getCursorKind(operand);
    if (k == CXCursor_DeclRefExpr)
      return clang_getCursorReferenced(operand);
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr)
      return clang_getNullCursor();
    /* the base without its implicit conversions: an array's name decays to
     * a pointer, which does not make `&a[i]` a store through a pointer */
    CXCursor base = cursor_strip_expr(cursor_first_child(operand));
    if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
      return clang_getNullCursor(); /* p[i], p->f: through a pointer value */
    operand = cursor_first_child(operand);
  }
}

CXCursor summary_pointer_var(CXCursor e) {
  e = cursor_strip_expr(e);
  while (clang_getCursorKind(e) == CXCursor_CStyleCastExpr)
    e = cursor_strip_expr(cursor_last_child(e));
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
    return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(e);
  enum CXCursorKind k = clang_getCursorKind(d);
  return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

int summary_is_free(CXCursor callee) {
  if (clang_Cursor_isNull(callee) || !summary_is_system(callee))
    return 0;
  CXString name = clang_getCursorSpelling(callee);
  int yes = strcmp(clang_getCString(name), "free") == 0;
  clang_disposeString(name);
  return yes;
}

int summary_stores_through(CXCursor callee, const summary *sm, CXCursor arg, unsigned i) {
  CXType t = clang_getCanonicalType(clang_getCursorType(arg));
  if (t.kind != CXType_Pointer || summary_is_free(callee))
    return 0;
  if (sm && !sm->unseen)
    return sm->param_store;
  if (!clang_Cursor_isNull(callee)) {
    CXType ft = clang_getCursorType(callee);
    int np = clang_getNumArgTypes(ft);
    if (np >= 0 && i < (unsigned)np)
      t = clang_getCanonicalType(clang_getArgType(ft, i));
  }
  if (t.kind != CXType_Pointer)
    return 0;
  CXType pointee = clang_getPointeeType(t);
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(pointee));
  if (clang_getCursorKind(decl) == CXCursor_StructDecl &&
      (clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) ||
       clang_Type_getSizeOf(pointee) == CXTypeLayoutError_Incomplete))
    return 0; /* a FILE, a loom handle: the library's own object */
  return !clang_isConstQualifiedType(pointee);
}

static entry *entry_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a);

static void merge(walker *w, const summary *s) {
  for (int i = 0; i < s->reads.len; i++)
    add_sym(w->a, &w->e->s.reads, s->reads.items[i]);
  for (int i = 0; i < s->writes.len; i++)
    add_sym(w->a, &w->e->s.writes, s->writes.items[i]);
  w->e->s.deref_store |= s->deref_store;
  w->e->s.loops |= s->loops;
  w->e->s.mesh |= s->mesh;
  if (s->unseen && !w->e->s.unseen) {
    w->e->s.unseen = s->unseen;
    w->e->s.unseen_loc = s->unseen_loc;
  }
}

/* What a call stores through a pointer argument, as this function sees
 * it: into its own locals, nothing; into a file-scope variable, a write of
 * it; through its own parameter, into what its caller passed; otherwise
 * memory it does not name. */
static void arg_store(walker *w, CXCursor arg) {
  CXCursor v = summary_addressed(arg);
  int through = clang_Cursor_isNull(v);
  if (through)
    v = summary_pointer_var(arg);
  if (!clang_Cursor_isNull(v) && summary_is_file_scope(v)) {
    sym *s = symtab_of_cursor(w->st, v);
    if (s) {
      add_sym(w->a, &w->e->s.reads, s);
      add_sym(w->a, &w->e->s.writes, s);
    }
  } else if (through && !clang_Cursor_isNull(v) &&
             clang_getCursorKind(v) == CXCursor_ParmDecl) {
    w->e->s.param_store = 1;
  } else if (through && !clang_Cursor_isNull(v) && fresh_pointer(w->fe, w->st, v, w->a)) {
    /* memory just allocated, which no other name reaches */
  } else if (through) {
    w->e->s.deref_store = 1;
  }
}

static int on_call(cwalk *cw, CXCursor callee, CXCursor call) {
  walker *w = cw->data;
  if (summary_is_free(callee))
    return 1;
  const summary *sm = NULL;
  w->e->s.mesh |= summary_changes_mesh(callee);
  if (clang_Cursor_isNull(callee) || !summary_is_system(callee)) {
    entry *e = entry_of(w->fe, w->st, callee, w->a);
    if (e->busy || !e->complete)
      w->incomplete = 1;
    merge(w, &e->s);
    sm = &e->s;
  }
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (summary_stores_through(callee, sm, arg, (unsigned)i))
      arg_store(w, arg);
  }
  return 0;
}

/* Whether a par_loop stands in the definition def. */
static int has_loops(const frontend *fe, const symtab *st, CXCursor def) {
  CXSourceRange r = clang_getCursorExtent(def);
  if (!st->loops || !frontend_in_main_file(fe, clang_getRangeStart(r)))
    return 0;
  unsigned start = frontend_offset(clang_getRangeStart(r)),
           end = frontend_offset(clang_getRangeEnd(r));
  for (int i = 0; i < st->loops->len; i++) {
    const loop *lp = st->loops->items[i];
    if (lp->start >= start && lp->start < end)
      return 1;
  }
  return 0;
}

/* A file-scope variable a loop names, as the summary's symbol, or NULL:
 * a global argument, an affine array, a variable its kernel reads. */
static sym *loop_variable(const obj *o) {
  if (!o || !o->var ||
      (o->kind != OBJ_GLOBAL && o->kind != OBJ_ARRAY && o->kind != OBJ_VAR))
    return NULL;
  sym *s = (sym *)o->var; /* resolve: the variable's canonical symbol */
  return s->file_scope ? s : NULL;
}

/* What the par_loops standing in def read and write of the file-scope
 * variables: their global arguments (read; written unless read-only: a
 * reduction reads and writes its variable) and what their kernels read.
 * A caller's pending reduction of one of them ends before the call. */
static void loop_effects(const symtab *st, CXCursor def, entry *e, arena *a) {
  CXSourceRange r = clang_getCursorExtent(def);
  unsigned start = frontend_offset(clang_getRangeStart(r)),
           end = frontend_offset(clang_getRangeEnd(r));
  for (int i = 0; st->loops && i < st->loops->len; i++) {
    const loop *lp = st->loops->items[i];
    if (lp->start < start || lp->start >= end)
      continue;
    for (int k = 0; k < lp->nargs; k++) {
      sym *v = loop_variable(lp->args[k].obj);
      if (v)
        add_sym(a, &e->s.reads, v);
      if (v && lp->args[k].mode != MODE_READ)
        add_sym(a, &e->s.writes, v);
    }
    for (int k = 0; k < lp->kernel_vars.len; k++) {
      sym *v = loop_variable(lp->kernel_vars.items[k]);
      if (v)
        add_sym(a, &e->s.reads, v);
    }
  }
}

static summary_cache *cache(const symtab *st) { return (summary_cache *)&st->summaries; }

static void compute(const frontend *fe, const symtab *st, entry *e, CXCursor def,
                    arena *a) {
  static const cwalk_range_list no_macros = {0};
  walker w = {fe, st, a, e, 0};
  cwalk cw = {fe, a, &no_macros, on_var, on_call, on_deref_store, &w};
  e->s.reads = (sym_list){0};
  e->s.writes = (sym_list){0};
  e->s.loops = has_loops(fe, st, def);
  if (e->s.loops)
    loop_effects(st, def, e, a);
  e->busy = 1;
  cursor_list kids = cwalk_kids(a, def);
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
