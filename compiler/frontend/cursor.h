/*
 * cursor.h — small helpers over libclang cursors shared by the stages that
 * read the AST (resolve, check, the expansions).
 */
#ifndef LOOMC_CURSOR_H
#define LOOMC_CURSOR_H

#include <clang-c/Index.h>

/* The first / last child of c, or a null cursor. */
CXCursor cursor_first_child(CXCursor c);
CXCursor cursor_last_child(CXCursor c);
/* Strips parentheses and implicit conversions from an expression. */
CXCursor cursor_strip_expr(CXCursor c);
/* Whether clang evaluates the expression c to an integer (then *v). */
int cursor_int_value(CXCursor c, long long *v);

/* Why code holding the cursor c cannot stand twice in one function
 * (written out at each call, or in two copies of a body), or NULL: a
 * label (defined twice) or a static variable (two variables, not one). */
const char *cursor_copy_problem(CXCursor c);

/* A unary operator by its first token: 1 for `*p`, 0 for an operator
 * that neither dereferences nor takes an address (- + ! ~ ++ --), 2 for
 * the rest: `&`, a postfix operator, one spelled in a macro. */
int cursor_unary_kind(CXTranslationUnit tu, CXCursor c);

#endif
