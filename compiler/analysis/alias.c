/*
 * alias.c — which dat handles may be one dat (see alias.h).
 *
 * Escapes are found in one walk over every function of the main file: a
 * dat named anywhere but as a direct argument of a call of the runtime
 * (loom.h) or of the C library escapes — stored in a struct, passed to a
 * user function, its address taken.  Classes are formed per shape (dim,
 * element type) among the opaque and escaping dats the loops use; a shape
 * with a single member and no opaque handle needs no class.
 */
#include "analysis/alias.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/summary.h"

typedef struct walker {
  const symtab *st;
} walker;

static obj *dat_named(const walker *w, CXCursor ref) {
  sym *s = symtab_of_cursor(w->st, clang_getCursorReferenced(ref));
  return s && s->obj && s->obj->kind == OBJ_DAT ? s->obj : NULL;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data);

static void walk(CXCursor c, walker *w) {
  if (visit(c, clang_getNullCursor(), w) == CXChildVisit_Recurse)
    clang_visitChildren(c, visit, w);
}

/* A call of the runtime or of the C library: a handle passed to it
 * directly stays where it is; its other arguments are walked. */
static int library_call(CXCursor c, walker *w) {
  CXCursor callee = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(callee) || !summary_is_system(callee))
    return 0;
  int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
    if (clang_getCursorKind(cursor_strip_expr(arg)) != CXCursor_DeclRefExpr)
      walk(arg, w);
  }
  return 1;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walker *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr && library_call(c, w))
    return CXChildVisit_Continue;
  if (k == CXCursor_DeclRefExpr) {
    obj *o = dat_named(w, c);
    if (o)
      o->escapes = 1;
  }
  return CXChildVisit_Recurse;
}

static void add_unique(arena *a, vec *v, void *p) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == p)
      return;
  vec_push(a, v, p);
}

/* The dats the loops use, each once, in order of first use. */
static vec loop_dats(const program *prog, arena *a) {
  vec dats = {0};
  for (int i = 0; i < prog->loops.len; i++) {
    const loop *lp = prog->loops.items[i];
    for (int k = 0; k < lp->nargs; k++)
      if (lp->args[k].obj && lp->args[k].obj->kind == OBJ_DAT)
        add_unique(a, &dats, lp->args[k].obj);
  }
  return dats;
}

static alias_class *class_of(program *prog, const obj *o, arena *a) {
  for (int i = 0; i < prog->alias_classes.len; i++) {
    alias_class *c = prog->alias_classes.items[i];
    if (c->dim == o->dim && c->type == o->type)
      return c;
  }
  alias_class *c = arena_alloc(a, sizeof *c);
  c->dim = o->dim;
  c->type = o->type;
  vec_push(a, &prog->alias_classes, c);
  return c;
}

/* Classes of two or more members of which one is opaque; the others are
 * dropped. */
static void form_classes(program *prog, const vec *dats, arena *a) {
  for (int i = 0; i < dats->len; i++) {
    obj *o = dats->items[i];
    if (o->escapes && !o->is_temp && !o->distinct)
      vec_push(a, &class_of(prog, o, a)->members, o);
  }
  alias_class_list kept = {0};
  for (int i = 0; i < prog->alias_classes.len; i++) {
    alias_class *c = prog->alias_classes.items[i];
    int opaque = 0;
    for (int k = 0; k < c->members.len; k++)
      opaque |= ((const obj *)c->members.items[k])->opaque;
    if (!opaque || c->members.len < 2)
      continue;
    vec_push(a, &kept, c);
    for (int k = 0; k < c->members.len; k++)
      ((obj *)c->members.items[k])->var = c;
  }
  prog->alias_classes = kept;
}

void alias_analyse(const frontend *fe, const symtab *st, program *prog, arena *a) {
  (void)fe;
  walker w = {st};
  for (int i = 0; i < st->funcs.len; i++)
    clang_visitChildren(((const func_def *)st->funcs.items[i])->cursor, visit, &w);
  vec dats = loop_dats(prog, a);
  for (int i = 0; i < dats.len; i++)
    if (((const obj *)dats.items[i])->escapes && !((const obj *)dats.items[i])->is_temp)
      vec_push(a, &prog->escaping, dats.items[i]);
  form_classes(prog, &dats, a);
}

void alias_write_report(FILE *f, const program *prog) {
  for (int i = 0; i < prog->alias_classes.len; i++) {
    const alias_class *c = prog->alias_classes.items[i];
    fprintf(f, "may be one dat (handles loomc cannot prove distinct, ordered as one; "
               "dim %d, %s):", c->dim, c->type->c_name);
    for (int k = 0; k < c->members.len; k++) {
      const char *e = ((const obj *)c->members.items[k])->expr;
      int seen = 0; /* `m->x` of two functions: one name */
      for (int j = 0; j < k; j++)
        seen |= strcmp(((const obj *)c->members.items[j])->expr, e) == 0;
      if (!seen)
        fprintf(f, "%s %s", k ? "," : "", e);
    }
    fputc('\n', f);
  }
}
