/*
 * symtab.h — the names the loops may refer to, read from libclang's AST.
 *
 * Every variable, parameter and function declaration is recorded with the
 * part of the main file where it is visible (its scope), so that a name in
 * a directive resolves exactly as C would resolve it at that point: the
 * innermost visible declaration wins.  Declarations in headers are at file
 * scope and visible everywhere.
 */
#ifndef LOOMC_SYMTAB_H
#define LOOMC_SYMTAB_H

#include "frontend/frontend.h"

typedef struct sym sym;
typedef LIST(sym *) sym_list;

struct sym {
  const char *name;
  CXCursor cursor;               /* VarDecl, ParmDecl or FunctionDecl */
  int in_main;                   /* declared in the main file */
  int file_scope;
  unsigned decl_off;             /* offset in the main file */
  unsigned scope_start, scope_end; /* where it is visible (main file) */
  obj *obj;                      /* built on first use by resolve */
  obj_list chains;               /* handles reached through this
                                    variable (`m->p_q`), built by resolve */
  int obj_failed;                /* building it reported an error */
  struct sym *canon;             /* a file-scope variable declared more than
                                    once: the symbol of its first declaration,
                                    which holds its obj (else itself) */
  struct sym *same_name, *same_cursor; /* symtab.c's hash chains */
};

/* A function definition of the main file (where loops stand). */
typedef struct func_def {
  const char *name;
  CXCursor cursor;
  unsigned start, end;
  srcloc loc;
} func_def;

typedef LIST(func_def *) func_def_list;
typedef LIST(struct summary_entry *) summary_cache;
typedef LIST(struct fresh_scan *) fresh_cache;

typedef struct symtab {
  sym_list syms;
  func_def_list funcs;
  summary_cache summaries; /* summary.c's */
  fresh_cache fresh;       /* fresh.c's */
  const loop_list *loops; /* the program's (summary.c: which functions run loops) */
  sym **by_name, **by_cursor; /* hash buckets of syms (symtab.c) */
  unsigned nbuckets;
} symtab;

void symtab_build(const frontend *fe, symtab *st, arena *a);

/* The declaration of `name` visible at main-file offset `at`, or NULL. */
sym *symtab_lookup(const symtab *st, const char *name, unsigned at);
/* The symbol of a declaration cursor (e.g. from clang_getCursorReferenced);
 * for a file-scope variable declared more than once, the symbol of its
 * first declaration, whatever declaration c is. */
sym *symtab_of_cursor(const symtab *st, CXCursor c);
/* The symbols named `name`, wherever declared, in the order they were
 * declared: the first (NULL: none) and the one after s. */
sym *symtab_first_named(const symtab *st, const char *name);
sym *symtab_next_named(const sym *s);
/* The main-file function definition containing offset `at`, or NULL. */
const func_def *symtab_function_at(const symtab *st, unsigned at);

#endif
