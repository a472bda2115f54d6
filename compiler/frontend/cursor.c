/*
 * cursor.c — helpers over libclang cursors (see cursor.h).
 */
#include "frontend/cursor.h"

#include "frontend/tokens.h"

#include <string.h>

typedef struct child_query {
  int first; /* stop at the first child, or go on to the last */
  CXCursor found;
} child_query;

static enum CXChildVisitResult take_child(CXCursor c, CXCursor parent,
                                          CXClientData data) {
  (void)parent;
  child_query *q = data;
  q->found = c;
  return q->first ? CXChildVisit_Break : CXChildVisit_Continue;
}

static CXCursor child(CXCursor c, int first) {
  child_query q = {first, clang_getNullCursor()};
  clang_visitChildren(c, take_child, &q);
  return q.found;
}

CXCursor cursor_first_child(CXCursor c) { return child(c, 1); }
CXCursor cursor_last_child(CXCursor c) { return child(c, 0); }

CXCursor cursor_strip_expr(CXCursor c) {
  while (clang_getCursorKind(c) == CXCursor_UnexposedExpr ||
         clang_getCursorKind(c) == CXCursor_ParenExpr) {
    CXCursor inner = cursor_last_child(c);
    if (clang_Cursor_isNull(inner))
      break;
    c = inner;
  }
  return c;
}

int cursor_int_value(CXCursor c, long long *v) {
  if (clang_Cursor_isNull(c))
    return 0;
  CXEvalResult ev = clang_Cursor_Evaluate(c);
  int ok = ev && clang_EvalResult_getKind(ev) == CXEval_Int;
  *v = ok ? clang_EvalResult_getAsLongLong(ev) : 0;
  if (ev)
    clang_EvalResult_dispose(ev);
  return ok;
}

int cursor_unary_kind(CXTranslationUnit tu, CXCursor c) {
  static const char *const plain[] = {"-", "+", "!", "~", "++", "--"};
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  int kind = 2;
  if (n > 0) {
    char t[8];
    tok_spelling(tu, toks[0], t, sizeof t);
    kind = strcmp(t, "*") == 0 ? 1 : 2;
    for (size_t i = 0; kind == 2 && i < sizeof plain / sizeof *plain; i++)
      kind = strcmp(t, plain[i]) == 0 ? 0 : 2;
  }
  clang_disposeTokens(tu, toks, n);
  return kind;
}

const char *cursor_copy_problem(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LabelStmt)
    return "it has a label";
  if (k == CXCursor_VarDecl && clang_Cursor_getStorageClass(c) == CX_SC_Static)
    return "it declares a static variable";
  return NULL;
}
