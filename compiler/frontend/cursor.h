/*
 * cursor.h — small helpers over libclang cursors shared by the stages that
 * read the AST (resolve, check).
 */
#ifndef LOOMC_CURSOR_H
#define LOOMC_CURSOR_H

#include <clang-c/Index.h>

/* The first / last child of c, or a null cursor. */
CXCursor cursor_first_child(CXCursor c);
CXCursor cursor_last_child(CXCursor c);
/* Strips parentheses and implicit conversions from an expression. */
CXCursor cursor_strip_expr(CXCursor c);

#endif
