/*
 * cursor.c — helpers over libclang cursors (see cursor.h).
 */
#include "frontend/cursor.h"

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
