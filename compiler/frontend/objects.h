/*
 * objects.h — the loom objects that declarations make.
 *
 * A handle's facts (a set's size, a map's sets and arity, a dat's set,
 * dim and element type, a matrix's sparsity) come from its declaration's
 * initialiser; a handle whose declaration loomc does not see (a parameter,
 * a struct member) from its LOOM_*_FACTS; a member chain (`m->p_q`) from
 * the struct its base points to; a plain C variable is a global.  Each
 * object is built once, on first use, and kept on its symbol.  resolve.c
 * binds the names of loops and hints to them.
 */
#ifndef LOOMC_OBJECTS_H
#define LOOMC_OBJECTS_H

#include "frontend/symtab.h"

/* What reading an object needs; `use`: where the name is used (the
 * location errors about it point at). */
typedef struct obj_reader {
  const frontend *fe;
  const symtab *st;
  arena *arena;
  srcloc use;        /* where the name being resolved is used */
  unsigned use_len;
  CXCursor decl_var; /* the declaration being read */
  int decl_is_macro; /* ... through the loom_decl_dat/temp macros */
  int quiet;         /* chain errors not reported (the caller reports) */
} obj_reader;

/* The object of symbol s (built on first use), or NULL after a
 * diagnostic. */
obj *objects_of_sym(obj_reader *r, sym *s);
/* The object the member chain (`m->cells`, `s.mesh.p_q`) reaches from
 * base, or NULL after a diagnostic at loc (len bytes). */
obj *objects_of_chain(obj_reader *r, sym *base, const char *chain, srcloc loc, unsigned len);
/* The kind of loom handle type t is (an obj_kind), or -1. */
int objects_handle_kind(const frontend *fe, CXType t);

#endif
