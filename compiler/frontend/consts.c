/*
 * consts.c — the file-scope constants the program declares with
 * loom_decl_const (see consts.h).
 *
 * loom_decl_const(dim, type, data, name) expands to
 * loom_decl_const_(dim, LOOM_TYPE_OF(type), sizeof(type), (const type *)(data),
 * name): the element type is the pointee of the cast, the variable what the
 * cast's operand names (an array decays to a pointer; a scalar is passed
 * by address).  Every call in the main file is checked against the
 * variable's declaration, so that the runtime's comparison across ranks
 * covers exactly what kernels read.
 */
#include "frontend/consts.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/ctypes.h"
#include "frontend/summary.h"

typedef struct checker {
  const frontend *fe;
  program *prog;
  arena *a;
} checker;

/* The variable an expression names: `v`, `&v`, `&v[0]`, through casts and
 * parentheses; a null cursor otherwise. */
static CXCursor named_var(CXCursor e) {
  for (;;) {
    e = cursor_strip_expr(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
      CXCursor d = clang_getCursorReferenced(e);
      return clang_getCursorKind(d) == CXCursor_VarDecl ? d : clang_getNullCursor();
    }
    if (k == CXCursor_CStyleCastExpr || k == CXCursor_UnaryOperator ||
        k == CXCursor_ArraySubscriptExpr) {
      CXCursor inner = cursor_first_child(e);
      if (clang_Cursor_isNull(inner))
        return inner;
      if (k == CXCursor_CStyleCastExpr)
        inner = cursor_last_child(e);
      e = inner;
      continue;
    }
    return clang_getNullCursor();
  }
}

static int string_arg(const checker *c, CXCursor e, const char **out) {
  e = cursor_strip_expr(e);
  if (clang_getCursorKind(e) != CXCursor_StringLiteral)
    return 0;
  const char *s = frontend_spelling(c->fe, e); /* with its quotes */
  size_t n = strlen(s);
  if (n < 2 || s[0] != '"' || s[n - 1] != '"')
    return 0;
  *out = arena_printf(c->a, "%.*s", (int)(n - 2), s + 1);
  return 1;
}

/* The variable's element type and length (1 for a scalar). */
static CXType element_of(CXType t, long long *len) {
  t = clang_getCanonicalType(t);
  *len = 1;
  if (t.kind == CXType_ConstantArray) {
    *len = clang_getArraySize(t);
    return clang_getCanonicalType(clang_getArrayElementType(t));
  }
  return t;
}

static int declared(const program *prog, const char *v) {
  for (int i = 0; i < prog->consts.len; i++)
    if (strcmp(prog->consts.items[i], v) == 0)
      return 1;
  return 0;
}

static void check_var(const checker *c, CXCursor call, CXCursor var, long long dim,
                      CXType want, const char *name) {
  srcloc at = frontend_cursor_loc(c->fe, call);
  const char *v = frontend_spelling(c->fe, var);
  if (!summary_is_file_scope(var)) {
    diag(DIAG_ERROR, at, 0,
         "loom_decl_const: '%s' is not a file-scope variable; kernels read constants "
         "from file-scope variables", v);
    return;
  }
  long long len;
  CXType elem = element_of(clang_getCursorType(var), &len);
  CXType w = clang_getCanonicalType(want);
  const elem_type *et = elem_type_of(elem), *wt = elem_type_of(w);
  if (!et || et != wt)
    diag(DIAG_ERROR, at, 0, "loom_decl_const: '%s' holds %s, not %s", v,
         et ? et->c_name : frontend_type_spelling(c->fe, elem), wt ? wt->c_name : "a number");
  else if (dim != len)
    diag(DIAG_ERROR, at, 0, "loom_decl_const: dim %lld, but '%s' holds %lld value%s", dim, v,
         len, len == 1 ? "" : "s");
  else if (name && strcmp(name, v) != 0)
    diag(DIAG_ERROR, at, 0, "loom_decl_const: the name \"%s\" is not the variable's, '%s'",
         name, v);
  else if (!declared(c->prog, v))
    vec_push(c->a, &c->prog->consts, (void *)v);
}

static void check_call(const checker *c, CXCursor call) {
  if (clang_Cursor_getNumArguments(call) != 5)
    return;
  srcloc at = frontend_cursor_loc(c->fe, call);
  CXCursor dim_e = clang_Cursor_getArgument(call, 0), data = clang_Cursor_getArgument(call, 3);
  long long dim;
  if (!cursor_int_value(dim_e, &dim)) {
    diag(DIAG_ERROR, at, 0, "loom_decl_const: dim must be an integer constant expression");
    return;
  }
  CXCursor var = named_var(data);
  if (clang_Cursor_isNull(var)) {
    diag(DIAG_ERROR, at, 0, "loom_decl_const: data must name a file-scope variable (its "
                            "name, or its address)");
    return;
  }
  CXType cast = clang_getCursorType(cursor_strip_expr(data));
  const char *name = NULL;
  if (!string_arg(c, clang_Cursor_getArgument(call, 4), &name))
    name = NULL; /* a computed name: not compared */
  check_var(c, call, var, dim, clang_getPointeeType(cast), name);
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent; /* the walk starts at the main file's top level */
  const checker *c = data;
  if (clang_getCursorKind(cur) == CXCursor_CallExpr) {
    CXString s = clang_getCursorSpelling(cur);
    int hit = strcmp(clang_getCString(s), "loom_decl_const_") == 0;
    clang_disposeString(s);
    if (hit)
      check_call(c, cur);
  }
  return CXChildVisit_Recurse;
}

void consts_check(const frontend *fe, program *prog, arena *a) {
  checker c = {fe, prog, a};
  frontend_visit_top(fe, FE_MAIN, visit, &c);
}

void consts_write_report(FILE *f, const program *prog) {
  if (!prog->consts.len)
    return;
  fputs("constants (loom_decl_const; with MPI, compared across ranks):", f);
  for (int i = 0; i < prog->consts.len; i++)
    fprintf(f, "%s %s", i ? "," : "", (const char *)prog->consts.items[i]);
  fputs("\n", f);
}
