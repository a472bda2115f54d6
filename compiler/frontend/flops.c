/*
 * flops.c — a kernel's floating-point operations per call (see flops.h).
 *
 * Design
 * ------
 * A walk of the kernel's body in libclang's AST.  Counted: each binary
 * `+ - * /` and compound `+= -= *= /=` whose operands are floating (the
 * operator is read from the tokens after its left operand: libclang 14
 * does not name it); each call of a math function (math_calls: sqrt, exp,
 * fabs, ... — one operation, as STREAM and the roofline literature count
 * a square root or a division); a call of another function of the
 * translation unit counts its body (to a depth of MAX_DEPTH).  A `for`
 * statement whose bounds clang evaluates (`for (int i = 0; i < 4; i++)`)
 * counts its body that many times; any other loop once, and both arms of
 * a branch: the count is the kernel's text, not a trace.  Negation,
 * comparisons and conversions are not counted.
 */
#include "frontend/flops.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/tokens.h"

enum { MAX_DEPTH = 4 };

typedef struct counter {
  const frontend *fe;
  arena *a;
  const tok_list *toks; /* the tokens of the function body being counted */
  int depth;
  long flops;
} counter;

static long count_in(counter *k, CXCursor c);

static int floating(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Float || t.kind == CXType_Double || t.kind == CXType_LongDouble;
}

static int math_call(const char *name) {
  static const char *const names[] = {
      "sqrt", "sqrtf", "exp",  "expf", "log",   "logf",  "pow",  "powf", "fabs",
      "fabsf", "sin",  "sinf", "cos",  "cosf",  "tan",   "tanf", "atan", "atan2",
      "fmin", "fmax",  "fminf", "fmaxf", "cbrt", "hypot", "tanh", "floor", "ceil"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(name, names[i]) == 0)
      return 1;
  return 0;
}

/* The operator token of binary (or compound assignment) operator c: the
 * first token of the body at or after the end of its left operand (a
 * binary search: the body is tokenized once). */
static const char *operator_of(counter *k, CXCursor c) {
  CXCursor lhs = cursor_first_child(c);
  if (clang_Cursor_isNull(lhs))
    return "";
  unsigned end = frontend_offset(clang_getRangeEnd(clang_getCursorExtent(lhs)));
  const tok *t = tok_at(k->toks, tok_first_at(k->toks, end));
  return t && t->kind == CXToken_Punctuation ? t->text : "";
}

/* Whether op is an arithmetic operator: + - * / or their compound
 * assignments. */
static int arithmetic_op(const char *op) {
  static const char *const ops[] = {"+", "-", "*", "/", "+=", "-=", "*=", "/="};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(op, ops[i]) == 0)
      return 1;
  return 0;
}

/* An operator of floating operands (a compound assignment: its target). */
static long operator_flops(counter *k, CXCursor c) {
  CXCursor lhs = cursor_first_child(c);
  int fp = floating(clang_getCursorType(c)) ||
           (!clang_Cursor_isNull(lhs) && floating(clang_getCursorType(lhs)));
  return fp && arithmetic_op(operator_of(k, c)) ? 1 : 0;
}

static long call_flops(counter *k, CXCursor c) {
  CXCursor callee = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(callee))
    return 0;
  CXString s = clang_getCursorSpelling(callee);
  int math = math_call(clang_getCString(s));
  clang_disposeString(s);
  if (math)
    return 1;
  CXCursor def = clang_getCursorDefinition(callee);
  if (clang_Cursor_isNull(def) || k->depth >= MAX_DEPTH)
    return 0;
  CXCursor body = cursor_last_child(def);
  tok_list toks = tokens_of(k->fe, clang_getCursorExtent(body), k->a);
  counter in = {k->fe, k->a, &toks, k->depth + 1, 0};
  return count_in(&in, body);
}

/* An integer clang evaluates c to, or -1. */
static long evaluated(CXCursor c) {
  long long v;
  return cursor_int_value(c, &v) ? (long)v : -1;
}

typedef struct for_parts {
  CXCursor kids[4];
  int n;
} for_parts;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  for_parts *p = d;
  if (p->n < 4)
    p->kids[p->n++] = c;
  return CXChildVisit_Continue;
}

/* `for (T i = A; i < B; i++)` (or `<=`, `++i`, `i += 1`) with A and B
 * evaluated: its trip count; otherwise 1. */
static long trip_count(counter *k, const for_parts *p) {
  if (p->n != 4 || clang_getCursorKind(p->kids[0]) != CXCursor_DeclStmt ||
      clang_getCursorKind(p->kids[1]) != CXCursor_BinaryOperator)
    return 1;
  long lo = evaluated(cursor_last_child(cursor_first_child(p->kids[0])));
  long hi = evaluated(cursor_last_child(p->kids[1]));
  const char *op = operator_of(k, p->kids[1]);
  tok_list step = tokens_of(k->fe, clang_getCursorExtent(p->kids[2]), k->a);
  int unit = step.len == 2 || (step.len == 3 && tok_is(tok_at(&step, 2), "1"));
  if (lo < 0 || hi < 0 || !unit)
    return 1;
  long n = strcmp(op, "<") == 0 ? hi - lo : strcmp(op, "<=") == 0 ? hi - lo + 1 : 1;
  return n > 0 && n <= 1 << 20 ? n : 1;
}

static long for_flops(counter *k, CXCursor c) {
  for_parts p = {.n = 0};
  clang_visitChildren(c, collect, &p);
  long body = p.n ? count_in(k, p.kids[p.n - 1]) : 0;
  long head = 0;
  for (int i = 0; i + 1 < p.n; i++)
    head += count_in(k, p.kids[i]);
  return head + body * trip_count(k, &p);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  counter *k = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ForStmt:
    k->flops += for_flops(k, c);
    return CXChildVisit_Continue;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
    k->flops += operator_flops(k, c);
    break;
  case CXCursor_CallExpr:
    k->flops += call_flops(k, c);
    break;
  default:
    break;
  }
  return CXChildVisit_Recurse;
}

/* The operations of c itself and of everything under it. */
static long count_in(counter *k, CXCursor c) {
  if (clang_Cursor_isNull(c))
    return 0;
  counter inner = {k->fe, k->a, k->toks, k->depth, 0};
  if (visit(c, clang_getNullCursor(), &inner) == CXChildVisit_Recurse)
    clang_visitChildren(c, visit, &inner);
  return inner.flops;
}

long frontend_kernel_flops(const frontend *fe, CXCursor def, arena *a) {
  CXCursor body = cursor_last_child(def);
  if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
    return 0;
  tok_list toks = tokens_of(fe, clang_getCursorExtent(body), a);
  counter k = {fe, a, &toks, 0, 0};
  return count_in(&k, body);
}
