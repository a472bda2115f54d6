/*
 * cwalk.c — the accesses of C code, one walk with contexts (see cwalk.h).
 *
 * A name's access is decided by the context it appears in, so `rms = 0.0`
 * writes rms while `printf("%g", rms)` only reads it; the base of a
 * subscript, of `*` or of a member access carries the context of the
 * whole (`g[1] = 0` writes g).  At such a point the base may be a pointer
 * that is no variable's own value (`s.p`, `p + 1`, a call's result): a
 * store there goes to memory no name denotes, reported by deref_store.
 */
#include "frontend/cwalk.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/tokens.h"

typedef enum ctx {
  CTX_READ,   /* its value is used */
  CTX_STORE,  /* the left operand of `=` */
  CTX_UPDATE, /* of `op=`, `++`, `--` */
  CTX_ESCAPE, /* its address is taken (`&g`, an array decaying) */
  CTX_NONE,   /* unevaluated (sizeof, _Alignof) */
  CTX_CONST   /* an argument for a parameter pointing to const: an address
                 taken here (`&g`, `&v[i]`, an array decaying) is only read
                 through */
} ctx;

static const unsigned ctx_use[] = {CW_READ, CW_WRITE, CW_READ | CW_WRITE,
                                   CW_READ | CW_WRITE, 0, CW_READ};

typedef cwalk_range range;

/* ---- the AST -------------------------------------------------------------- */

static enum CXChildVisitResult take_cursor(CXCursor c, CXCursor parent,
                                           CXClientData data) {
  (void)parent;
  void **v = data;
  arena *a = v[0];
  CXCursor *keep = arena_alloc(a, sizeof *keep);
  *keep = c;
  vec_push(a, (cursor_list *)v[1], keep);
  return CXChildVisit_Continue;
}

cursor_list cwalk_kids(arena *a, CXCursor c) {
  cursor_list v = {0};
  void *data[2] = {a, &v};
  clang_visitChildren(c, take_cursor, data);
  return v;
}

static CXCursor kid(const cursor_list *k, int i) { return *(CXCursor *)k->items[i]; }

static unsigned start_of(CXCursor c) {
  return frontend_offset(clang_getRangeStart(clang_getCursorExtent(c)));
}

static unsigned end_of(CXCursor c) {
  return frontend_offset(clang_getRangeEnd(clang_getCursorExtent(c)));
}

typedef struct macro_walk {
  const frontend *fe;
  arena *a;
  cwalk_range_list v;
} macro_walk;

static enum CXChildVisitResult take_macro(CXCursor c, CXCursor parent,
                                          CXClientData data) {
  (void)parent;
  macro_walk *m = data;
  if (clang_getCursorKind(c) == CXCursor_MacroExpansion) { /* in the main file */
    range *r = arena_alloc(m->a, sizeof *r);
    r->start = start_of(c);
    r->end = end_of(c);
    vec_push(m->a, &m->v, r);
  }
  return CXChildVisit_Continue;
}

cwalk_range_list cwalk_macros(const frontend *fe, arena *a) {
  macro_walk m = {fe, a, {0}};
  frontend_visit_top(fe, FE_MAIN, take_macro, &m);
  return m.v;
}

/* Whether the token at offset `off` is part of a macro invocation. */
static int in_macro(const cwalk *w, unsigned off) {
  for (int i = 0; w->macros && i < w->macros->len; i++) {
    const range *r = w->macros->items[i];
    if (r->start <= off && off < r->end)
      return 1;
  }
  return 0;
}

/* The one token at offset off (of spelling `text`): whether it is the
 * first token in [from, to), taken into buf, or a second one or part of a
 * macro invocation (buf emptied): 1 when the search ends. */
static int take_token(const cwalk *w, unsigned off, const char *text, unsigned *found,
                      char *buf, size_t size) {
  if ((*found)++ || in_macro(w, off)) {
    buf[0] = '\0';
    return 1;
  }
  strncpy(buf, text, size - 1);
  buf[size - 1] = '\0';
  return 0;
}

/* The one token of e's extent in [from, to) that is not part of a macro
 * invocation, into buf (empty when there is none, or more than one: then
 * the operator is spelled in a macro).  A long expression's tokens are
 * its file's, tokenized once (tokens_of_long_range), not each
 * subexpression's extent again. */
static void token_in(const cwalk *w, CXCursor e, unsigned from, unsigned to, char *buf,
                     size_t size) {
  unsigned found = 0, at;
  buf[0] = '\0';
  char plain[8];
  switch (tok_plain_between(w->fe, clang_getCursorExtent(e), from, to, plain, sizeof plain, &at)) {
  case 0:
    return;
  case 1:
    take_token(w, at, plain, &found, buf, size);
    return;
  default:
    break;
  }
  const tok_list *v = tokens_of_long_range(w->fe, clang_getCursorExtent(e));
  if (v) {
    for (int i = tok_first_at(v, from); i < v->len; i++) {
      const tok *t = v->items[i];
      if (t->start >= to || take_token(w, t->start, t->text, &found, buf, size))
        break;
    }
    return;
  }
  CXToken *toks;
  unsigned n;
  clang_tokenize(w->fe->tu, clang_getCursorExtent(e), &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    unsigned off = frontend_offset(clang_getTokenLocation(w->fe->tu, toks[i]));
    if (off < from || off >= to)
      continue;
    char sp[64];
    tok_spelling(w->fe->tu, toks[i], sp, sizeof sp);
    int done = take_token(w, off, sp, &found, buf, size);
    if (done)
      break;
  }
  clang_disposeTokens(w->fe->tu, toks, n);
}

static int is_pointer(CXType t) {
  return clang_getCanonicalType(t).kind == CXType_Pointer;
}

static int is_array(CXType t) {
  enum CXTypeKind k = clang_getCanonicalType(t).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
         k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* ---- the walk ----------------------------------------------------------------- */

static void walk(cwalk *w, CXCursor c, ctx cx, int based);

static void walk_all(cwalk *w, const cursor_list *k, ctx cx, int based) {
  for (int i = 0; i < k->len; i++)
    walk(w, kid(k, i), cx, based);
}

/* A variable named in context cx; `based`: it is the base of a subscript,
 * of `*` or of a member access. */
static void name_use(cwalk *w, CXCursor ref, ctx cx, int based) {
  CXCursor decl = clang_getCursorReferenced(ref);
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (cx == CTX_NONE || (k != CXCursor_VarDecl && k != CXCursor_ParmDecl))
    return;
  CXType t = clang_getCursorType(decl);
  unsigned use = ctx_use[cx];
  if (is_array(t) && !based) /* decays to a pointer: anything may follow */
    use = cx == CTX_CONST ? CW_READ : CW_READ | CW_WRITE;
  w->var(w, decl, use, based && is_pointer(t));
}

/* The base of a subscript, of `*` or of `->`, in context cx: a variable
 * (its use is reported), or a pointer computed otherwise, through which a
 * store goes to memory no name denotes. */
static void base_use(cwalk *w, CXCursor whole, CXCursor base, ctx cx) {
  CXCursor b = cursor_strip_expr(base);
  enum CXCursorKind k = clang_getCursorKind(b);
  int named = k == CXCursor_DeclRefExpr || k == CXCursor_ArraySubscriptExpr ||
              k == CXCursor_MemberRefExpr || k == CXCursor_UnaryOperator;
  int store = cx != CTX_READ && cx != CTX_NONE && cx != CTX_CONST;
  if (!named && is_pointer(clang_getCursorType(b)) && store) {
    w->deref_store(w, whole);
    walk(w, base, CTX_READ, 0);
    return;
  }
  if (k == CXCursor_MemberRefExpr && is_pointer(clang_getCursorType(b)) && store)
    w->deref_store(w, whole); /* s.p[0] = 1: through a member pointer */
  walk(w, base, cx, 1);
}

static int one_of(const char *op, const char *const *list) {
  for (; *list; list++)
    if (strcmp(op, *list) == 0)
      return 1;
  return 0;
}

/* `a = b` stores into a; any other binary operator reads both.  A token
 * that is no binary operator was spelled by a macro. */
static void binary(cwalk *w, CXCursor e, const cursor_list *k, ctx cx) {
  static const char *const ops[] = {"=",  "==", "!=", "<", ">", "<=", ">=", "+", "-",
                                    "*",  "/",  "%",  "&", "|", "^",  "<<", ">>", "&&",
                                    "||", ",",  NULL};
  if (k->len != 2)
    return walk_all(w, k, cx, 0);
  CXCursor lhs = kid(k, 0), rhs = kid(k, 1);
  char op[8];
  token_in(w, e, end_of(lhs), start_of(rhs), op, sizeof op);
  if (!one_of(op, ops)) { /* cannot tell: could be `=` */
    walk_all(w, k, CTX_ESCAPE, 0);
  } else if (strcmp(op, "=") == 0) {
    walk(w, lhs, CTX_STORE, 0);
    walk(w, rhs, cx, 0);
  } else {
    walk_all(w, k, cx, 0);
  }
}

/* The operator is the token before the operand (prefix) or after it. */
static void unary(cwalk *w, CXCursor e, const cursor_list *k, ctx cx) {
  if (k->len != 1)
    return walk_all(w, k, cx, 0);
  CXCursor operand = kid(k, 0);
  static const char *const ops[] = {"++", "--", "&", "*", "+", "-", "!", "~", NULL};
  char pre[8], post[8];
  token_in(w, e, start_of(e), start_of(operand), pre, sizeof pre);
  token_in(w, e, end_of(operand), end_of(e), post, sizeof post);
  if (!one_of(pre, ops))
    pre[0] = '\0';
  if (!one_of(post, ops))
    post[0] = '\0';
  if (!strcmp(pre, "++") || !strcmp(pre, "--") || !strcmp(post, "++") ||
      !strcmp(post, "--"))
    walk(w, operand, CTX_UPDATE, 0);
  else if (!strcmp(pre, "&"))
    walk(w, operand, cx == CTX_CONST ? CTX_READ : CTX_ESCAPE, 0);
  else if (!strcmp(pre, "*")) /* *p: like p[0] */
    base_use(w, e, operand, cx);
  else if (pre[0])
    walk(w, operand, CTX_READ, 0);
  else /* cannot tell: could be ++ or & */
    walk(w, operand, CTX_ESCAPE, 0);
}

/* `s.x`, or `p->x` when the base is a pointer. */
static void member(cwalk *w, CXCursor e, const cursor_list *k, ctx cx) {
  if (k->len != 1)
    return walk_all(w, k, cx, 1);
  CXCursor base = kid(k, 0);
  if (is_pointer(clang_getCursorType(cursor_strip_expr(base))))
    base_use(w, e, base, cx);
  else
    walk(w, base, cx, 1);
}

/* Whether parameter i of the callee points to const values. */
static int const_param(CXCursor callee, unsigned i) {
  if (clang_Cursor_isNull(callee))
    return 0;
  CXType ft = clang_getCursorType(callee);
  int n = clang_getNumArgTypes(ft);
  if (n < 0 || i >= (unsigned)n)
    return 0;
  CXType t = clang_getCanonicalType(clang_getArgType(ft, i));
  return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

static void call(cwalk *w, CXCursor c, const cursor_list *k, ctx inner) {
  CXCursor callee = clang_getCursorReferenced(c);
  if (!clang_Cursor_isNull(callee) && clang_getCursorKind(callee) != CXCursor_FunctionDecl)
    callee = clang_getNullCursor(); /* a function pointer variable */
  if (inner != CTX_NONE && w->call(w, callee, c))
    return;
  if (k->len == 0)
    return;
  walk(w, kid(k, 0), inner, 0); /* the callee */
  for (int i = 1; i < k->len; i++)
    walk(w, kid(k, i), inner != CTX_NONE && const_param(callee, (unsigned)i - 1) ? CTX_CONST
                                                                              : inner, 0);
}

static void walk(cwalk *w, CXCursor c, ctx cx, int based) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_DeclRefExpr)
    return name_use(w, c, cx, based);
  cursor_list k = cwalk_kids(w->arena, c);
  ctx inner = cx == CTX_NONE ? CTX_NONE : CTX_READ;
  switch (kind) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr: /* implicit conversions */
  case CXCursor_CStyleCastExpr:
    return walk_all(w, &k, cx, based);
  case CXCursor_ArraySubscriptExpr:
    if (k.len == 2) {
      base_use(w, c, kid(&k, 0), cx);
      walk(w, kid(&k, 1), inner, 0);
      return;
    }
    break;
  case CXCursor_MemberRefExpr:
    return member(w, c, &k, cx);
  case CXCursor_UnaryExpr: /* sizeof, _Alignof: not evaluated */
    return walk_all(w, &k, CTX_NONE, 0);
  case CXCursor_CallExpr:
    return call(w, c, &k, inner);
  case CXCursor_BinaryOperator:
    if (cx != CTX_NONE)
      return binary(w, c, &k, inner);
    break;
  case CXCursor_CompoundAssignOperator:
    if (cx != CTX_NONE && k.len == 2) {
      walk(w, kid(&k, 0), CTX_UPDATE, 0);
      walk(w, kid(&k, 1), CTX_READ, 0);
      return;
    }
    break;
  case CXCursor_UnaryOperator:
    if (cx != CTX_NONE)
      return unary(w, c, &k, cx);
    break;
  default:
    break;
  }
  walk_all(w, &k, inner, 0);
}

void cwalk_run(cwalk *w, CXCursor c) { walk(w, c, CTX_READ, 0); }
