/*
 * summary.h — what a function does to state beyond its own locals, for
 * the effects model (effects.h): the file-scope variables it reads and
 * writes, directly or through the functions it calls whose bodies loomc
 * sees; the first function it calls whose body loomc does not see; and
 * whether it stores through a pointer: one of its parameters (into what
 * its caller passes) or another (into memory it does not name).
 *
 * Functions declared in system headers (the C library: sqrt, printf,
 * memcpy ...) and libloom's API (loom.h) touch no state of the program but
 * through their arguments, which the caller's own walk sees.  Any other function whose definition
 * is not in the translation unit, or a call through a function pointer,
 * is *unseen*: loomc cannot tell what it reads or writes.
 *
 * Summaries are computed once per function and cached in the symbol
 * table; a function that reaches itself through calls (recursion) gets
 * the effects of the cycle.
 */
#ifndef LOOMC_SUMMARY_H
#define LOOMC_SUMMARY_H

#include "frontend/symtab.h"

typedef struct summary {
  sym_list reads, writes; /* file-scope variables (canonical symbols) */
  const char *unseen; /* a function it calls whose body loomc does not
                         see, or NULL */
  srcloc unseen_loc;  /* where that call is */
  int deref_store;    /* it stores through a pointer it does not name */
  int param_store;    /* it stores through a pointer parameter: into what
                         its caller passes */
  int loops;          /* it runs par_loops (its own or its callees'): it
                         may reach any dat whose handle it can reach */
  int mesh;           /* it calls a libloom function that changes the mesh
                         (summary_changes_mesh), or its callees do */
} summary;

/* The summary of the function `fn` (any declaration of it; a null cursor
 * for a call through a pointer), NULL for a function of the C library.
 * For a function without a body, the summary says it is unseen. */
const summary *summary_of(const frontend *fe, const symtab *st, CXCursor fn, arena *a);

/* Whether `fn` is declared in a system header or in loom.h (or is a
 * builtin). */
int summary_is_system(CXCursor fn);

/* Whether `fn` is a libloom function that changes the mesh (effects.h's
 * <mesh>): loom_init, the declarations of sets and maps (and their slice
 * and HDF5 forms), loom_renumber, loom_partition.  Dats, constants,
 * sparsities and matrices may be declared after the mesh is partitioned:
 * their declarations change only their own handles. */
int summary_changes_mesh(CXCursor fn);

/* Whether the declaration `decl` is a variable at file scope. */
int summary_is_file_scope(CXCursor decl);

/* What calls store through their arguments:
 *   summary_addressed: the variable a pointer expression is the address of
 *     (`&v`, `&v[i]`, `&v.f`, an array `v` decaying), or a null cursor;
 *   summary_pointer_var: the pointer variable it is (`p`, `(T *)p`), or a
 *     null cursor;
 *   summary_is_free: whether callee is the C library's free (which reads
 *     and writes no value);
 *   summary_stores_through: whether a call may store through its argument
 *     `arg` (number i): a function loomc sees (summary sm) when its body
 *     stores through a parameter; a function of the C library or one loomc
 *     does not see (sm NULL or unseen) when the parameter points to
 *     non-const values (or `arg` does, given to `...`), but for a
 *     library's own objects (a FILE *, an opaque handle). */
CXCursor summary_addressed(CXCursor e);
CXCursor summary_pointer_var(CXCursor e);
int summary_is_free(CXCursor callee);
int summary_stores_through(CXCursor callee, const summary *sm, CXCursor arg, unsigned i);

#endif
