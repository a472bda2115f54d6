/*
 * cwalk.h — what a piece of C reads and writes, from libclang's AST.
 *
 * One walk over a statement's or expression's tree, carrying the context
 * of each subexpression: its value is used, it is stored into (`=`),
 * updated (`op=`, `++`, `--`), its address escapes (`&v`, an array
 * decaying to a pointer), or it is not evaluated (sizeof, _Alignof).
 * Every variable named is reported with how it is used; every function
 * called is reported; a store through a pointer that is not a variable's
 * own value (`s.p[0] = 1`, `*(p + 1) = 2`, `*f() = 3`) is reported as
 * such.  The stages that need effects (region.c for host code, summary.c
 * for kernels and the functions they call) decide what each report means.
 *
 * libclang 14 has no operator-kind query, so `=` versus `==`, and prefix
 * versus postfix ++/--, are read from the tokens: the operator is the one
 * token between the operands (before or after a unary operator's
 * operand).  When that token is part of a macro invocation (`SET(g)`), the
 * operator is spelled in the macro and cannot be told: its operands are
 * taken as read and written.
 */
#ifndef LOOMC_CWALK_H
#define LOOMC_CWALK_H

#include "frontend/frontend.h"

enum { CW_READ = 1, CW_WRITE = 2 };

typedef struct cwalk cwalk;

/* A macro expansion's extent in the main file. */
typedef struct cwalk_range {
  unsigned start, end;
} cwalk_range;
typedef LIST(cwalk_range *) cwalk_range_list;
typedef LIST(CXCursor *) cursor_list;

struct cwalk {
  const frontend *fe;
  arena *arena;
  const cwalk_range_list *macros; /* cwalk_macros(): the main file's macro expansions */
  /* A variable or parameter `decl` named with `use` (CW_READ | CW_WRITE);
   * `through`: the use reaches memory its pointer value points to
   * (`p[i] = 1`, `*p`, `p->x` with p a pointer). */
  void (*var)(cwalk *w, CXCursor decl, unsigned use, int through);
  /* A call expression `call`: the callee's declaration, or a null cursor
   * for a call through a function pointer.  Returns nonzero when the
   * call's arguments are not accesses (free's). */
  int (*call)(cwalk *w, CXCursor callee, CXCursor call);
  /* A store through a pointer that is no variable's own value. */
  void (*deref_store)(cwalk *w, CXCursor at);
  void *data;
};

/* The macro expansions of the main file, for cwalk.macros. */
cwalk_range_list cwalk_macros(const frontend *fe, arena *a);

/* Walks c (a statement, or an expression whose value is used). */
void cwalk_run(cwalk *w, CXCursor c);

/* The children of c, in order. */
cursor_list cwalk_kids(arena *a, CXCursor c);

#endif
