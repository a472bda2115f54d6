/*
 * fresh.c — local pointers to fresh memory (see fresh.h).
 *
 * One walk over the function's body, carrying the role of each
 * subexpression for the pointer values that reach it:
 *   OK      the value is used harmlessly (a statement, a condition, an
 *           operand of a comparison, an argument of the C library);
 *   BASE    it is dereferenced: what is used is the element;
 *   ESCAPE  it flows elsewhere (assigned, passed to the program's function,
 *           returned, into an initialiser);
 *   ADDR_OK, ADDR_ESCAPE: the address of an element is taken, the result
 *           used harmlessly or flowing elsewhere.
 * A candidate (a local pointer variable) reached in an ESCAPE role, whose
 * own address is taken, or given a value other than an allocation, is not
 * fresh.  Operators are read from the tokens (libclang 14 has no query);
 * one that cannot be read makes its operands escape.
 */
#include "frontend/fresh.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/cwalk.h"
#include "frontend/tokens.h"
#include "frontend/summary.h"

typedef enum role { R_OK, R_BASE, R_ESCAPE, R_ADDR_OK, R_ADDR_ESCAPE } role;

typedef struct scan {
  const frontend *fe;
  const symtab *st;
  arena *a;
  vec cands;      /* CXCursor*: the function's local pointer variables */
  vec bad;        /* one per candidate: (void *)1 when not fresh */
} scan;

typedef struct fresh_scan {
  CXCursor fn;
  scan s;
  int busy; /* being scanned (a call cycle): nothing is fresh yet */
} cached;

static CXCursor kid(const cursor_list *k, int i) { return *(CXCursor *)k->items[i]; }

static int cand_index(const scan *s, CXCursor decl) {
  for (int i = 0; i < s->cands.len; i++)
    if (clang_equalCursors(*(CXCursor *)s->cands.items[i], decl))
      return i;
  return -1;
}

static void spoil(scan *s, CXCursor decl) {
  int i = cand_index(s, decl);
  if (i >= 0)
    s->bad.items[i] = (void *)1;
}

/* The spelling of the token of e's extent at [from, to), or "" when there
 * is not exactly one. */
static void token_at(const scan *s, CXCursor e, unsigned from, unsigned to, char *buf,
                     size_t size) {
  CXToken *toks;
  unsigned n, found = 0;
  buf[0] = '\0';
  clang_tokenize(s->fe->tu, clang_getCursorExtent(e), &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    unsigned off = frontend_offset(clang_getTokenLocation(s->fe->tu, toks[i]));
    if (off < from || off >= to)
      continue;
    if (found++) {
      buf[0] = '\0';
      break;
    }
    tok_spelling(s->fe->tu, toks[i], buf, size);
  }
  clang_disposeTokens(s->fe->tu, toks, n);
}

static unsigned start_of(CXCursor c) {
  return frontend_offset(clang_getRangeStart(clang_getCursorExtent(c)));
}

static unsigned end_of(CXCursor c) {
  return frontend_offset(clang_getRangeEnd(clang_getCursorExtent(c)));
}

static int is_pointer(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

/* Whether e is a call of malloc, calloc, realloc or aligned_alloc. */
static int is_allocation(CXCursor e) {
  e = cursor_strip_expr(e);
  while (clang_getCursorKind(e) == CXCursor_CStyleCastExpr)
    e = cursor_strip_expr(cursor_last_child(e));
  if (clang_getCursorKind(e) != CXCursor_CallExpr)
    return 0;
  CXCursor f = clang_getCursorReferenced(e);
  if (clang_Cursor_isNull(f) || !summary_is_system(f))
    return 0;
  static const char *const alloc[] = {"malloc", "calloc", "realloc", "aligned_alloc"};
  CXString name = clang_getCursorSpelling(f);
  int yes = 0;
  for (size_t i = 0; i < sizeof alloc / sizeof alloc[0]; i++)
    yes |= strcmp(clang_getCString(name), alloc[i]) == 0;
  clang_disposeString(name);
  return yes;
}

static void visit(scan *s, CXCursor c, role r);

static void visit_all(scan *s, const cursor_list *k, role r) {
  for (int i = 0; i < k->len; i++)
    visit(s, kid(k, i), r);
}

/* The base of a dereference, under role r of the whole. */
static role base_role(role r) { return r == R_ADDR_ESCAPE ? R_ESCAPE : r == R_ADDR_OK ? R_OK : R_BASE; }

static void binary(scan *s, CXCursor e, const cursor_list *k, role r) {
  CXCursor lhs = kid(k, 0), rhs = kid(k, 1);
  char op[8];
  token_at(s, e, end_of(lhs), start_of(rhs), op, sizeof op);
  if (strcmp(op, "=") == 0) {
    CXCursor l = cursor_strip_expr(lhs);
    int cand = clang_getCursorKind(l) == CXCursor_DeclRefExpr &&
               cand_index(s, clang_getCursorReferenced(l)) >= 0;
    if (cand && !is_allocation(rhs))
      spoil(s, clang_getCursorReferenced(l));
    if (!cand)
      visit(s, lhs, R_OK);
    visit(s, rhs, cand ? R_OK : R_ESCAPE);
  } else if (!strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") ||
             !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
             !strcmp(op, "&&") || !strcmp(op, "||")) {
    visit_all(s, k, R_OK);
  } else if (!strcmp(op, "+") || !strcmp(op, "-")) {
    visit_all(s, k, r); /* pointer arithmetic: the pointer goes on */
  } else if (!strcmp(op, ",")) {
    visit(s, lhs, R_OK);
    visit(s, rhs, r);
  } else {
    visit_all(s, k, R_ESCAPE);
  }
}

static void unary(scan *s, CXCursor e, const cursor_list *k, role r) {
  CXCursor operand = kid(k, 0);
  char pre[8];
  token_at(s, e, start_of(e), start_of(operand), pre, sizeof pre);
  CXCursor o = cursor_strip_expr(operand);
  if (!strcmp(pre, "&") && clang_getCursorKind(o) == CXCursor_DeclRefExpr)
    spoil(s, clang_getCursorReferenced(o)); /* &p: p could change behind it */
  if (!strcmp(pre, "*"))
    visit(s, operand, base_role(r));
  else if (!strcmp(pre, "&"))
    visit(s, operand, r == R_OK ? R_ADDR_OK : R_ADDR_ESCAPE);
  else if (!strcmp(pre, "!") || !strcmp(pre, "++") || !strcmp(pre, "--") || !pre[0])
    visit(s, operand, pre[0] || r == R_OK ? R_OK : R_ESCAPE); /* p++: still in its block */
  else
    visit(s, operand, R_ESCAPE);
}

/* Whether a function keeps nothing it is given: it writes no file-scope
 * variable and stores through no pointer, and calls nothing loomc does
 * not see (dt_print(name, buf, n)). */
static int keeps_nothing(const scan *s, CXCursor f) {
  if (summary_is_system(f))
    return 1;
  const summary *sm = summary_of(s->fe, s->st, f, s->a);
  return sm && !sm->unseen && sm->writes.len == 0 && !sm->deref_store && !sm->param_store;
}

static void call(scan *s, CXCursor c, const cursor_list *k) {
  CXCursor f = clang_getCursorReferenced(c);
  role args = !clang_Cursor_isNull(f) && clang_getCursorKind(f) == CXCursor_FunctionDecl &&
                      keeps_nothing(s, f)
                  ? R_OK
                  : R_ESCAPE;
  for (int i = 1; i < k->len; i++) /* child 0: the callee */
    visit(s, kid(k, i), args);
}

static void declaration(scan *s, CXCursor d, const cursor_list *k) {
  int cand = cand_index(s, d) >= 0;
  for (int i = 0; i < k->len; i++) {
    CXCursor init = kid(k, i);
    if (!clang_isExpression(clang_getCursorKind(init)))
      continue;
    if (cand && !is_allocation(init))
      spoil(s, d);
    visit(s, init, cand ? R_OK : R_ESCAPE);
  }
}

static void visit(scan *s, CXCursor c, role r) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_DeclRefExpr) {
    if (r == R_ESCAPE || r == R_ADDR_ESCAPE)
      spoil(s, clang_getCursorReferenced(c));
    return;
  }
  cursor_list k = cwalk_kids(s->a, c);
  switch (kind) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr:
  case CXCursor_CStyleCastExpr:
    return visit_all(s, &k, r);
  case CXCursor_ArraySubscriptExpr:
    if (k.len == 2) {
      visit(s, kid(&k, 0), base_role(r));
      visit(s, kid(&k, 1), R_ESCAPE);
      return;
    }
    break;
  case CXCursor_MemberRefExpr:
    if (k.len == 1) {
      CXCursor base = kid(&k, 0);
      visit(s, base, is_pointer(clang_getCursorType(cursor_strip_expr(base))) ? base_role(r) : r);
      return;
    }
    break;
  case CXCursor_BinaryOperator:
    if (k.len == 2)
      return binary(s, c, &k, r);
    break;
  case CXCursor_CompoundAssignOperator: /* p += 2: still in its block */
    if (k.len == 2) {
      visit(s, kid(&k, 0), R_OK);
      visit(s, kid(&k, 1), R_ESCAPE);
      return;
    }
    break;
  case CXCursor_UnaryOperator:
    if (k.len == 1)
      return unary(s, c, &k, r);
    break;
  case CXCursor_UnaryExpr: /* sizeof: not evaluated */
    return;
  case CXCursor_CallExpr:
    return call(s, c, &k);
  case CXCursor_ConditionalOperator:
    if (k.len == 3) {
      visit(s, kid(&k, 0), R_OK);
      visit(s, kid(&k, 1), r);
      visit(s, kid(&k, 2), r);
      return;
    }
    break;
  case CXCursor_VarDecl:
    return declaration(s, c, &k);
  case CXCursor_ReturnStmt:
    return visit_all(s, &k, R_ESCAPE);
  default:
    break;
  }
  /* statements: their parts stand alone; other expressions: the values
   * of their parts go on into them */
  visit_all(s, &k, clang_isStatement(kind) ? R_OK : R_ESCAPE);
}

static enum CXChildVisitResult find_locals(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  scan *s = data;
  if (clang_getCursorKind(c) == CXCursor_VarDecl && is_pointer(clang_getCursorType(c)) &&
      clang_Cursor_getStorageClass(c) != CX_SC_Static &&
      clang_Cursor_getStorageClass(c) != CX_SC_Extern) {
    CXCursor *keep = arena_alloc(s->a, sizeof *keep);
    *keep = c;
    vec_push(s->a, &s->cands, keep);
    vec_push(s->a, &s->bad, NULL);
  }
  return CXChildVisit_Recurse;
}

static fresh_cache *cache(const symtab *st) { return (fresh_cache *)&st->fresh; }

static const cached *scan_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a) {
  for (int i = 0; i < cache(st)->len; i++) {
    const cached *c = cache(st)->items[i];
    if (clang_equalCursors(c->fn, fn))
      return c;
  }
  cached *c = arena_alloc(a, sizeof *c);
  c->fn = fn;
  c->s.fe = fe;
  c->s.st = st;
  c->s.a = a;
  vec_push(a, cache(st), c);
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def))
    return c;
  c->busy = 1;
  clang_visitChildren(def, find_locals, &c->s);
  if (c->s.cands.len)
    visit(&c->s, def, R_OK);
  c->busy = 0;
  return c;
}

int fresh_pointer(const frontend *fe, const symtab *st, CXCursor decl, arena *a) {
  if (clang_getCursorKind(decl) != CXCursor_VarDecl || !is_pointer(clang_getCursorType(decl)))
    return 0;
  CXCursor fn = clang_getCursorSemanticParent(decl);
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
    return 0;
  const cached *c = scan_of(fe, st, clang_getCanonicalCursor(fn), a);
  int i = cand_index(&c->s, decl);
  return !c->busy && i >= 0 && !c->s.bad.items[i];
}

int fresh_expr(const frontend *fe, const symtab *st, CXCursor e, arena *a) {
  for (;;) {
    e = cursor_strip_expr(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CStyleCastExpr) {
      e = cursor_last_child(e);
      continue;
    }
    if (k == CXCursor_DeclRefExpr)
      return fresh_pointer(fe, st, clang_getCursorReferenced(e), a);
    if (k != CXCursor_BinaryOperator)
      return 0;
    /* p + i, i + p, p - i: the operand that is a pointer */
    CXCursor l = cursor_first_child(e), r = cursor_last_child(e);
    if (is_pointer(clang_getCursorType(cursor_strip_expr(l))))
      e = l;
    else if (is_pointer(clang_getCursorType(cursor_strip_expr(r))))
      e = r;
    else
      return 0;
  }
}
