/*
 * resolve.h — bind the names of each loop to declared objects.
 *
 * Sets, maps and dats are read from their `loom_decl_*` initialisers: dims,
 * element types, map arity and from/to sets are compile-time facts of the
 * declaration.  Plain C variables become global arguments, typed by their C
 * declaration.  Each loop is also placed: the function definition it stands
 * in, and a check that it stands as a statement of a block.
 */
#ifndef LOOMC_RESOLVE_H
#define LOOMC_RESOLVE_H

#include "frontend/symtab.h"

/* Resolves every loop of prog; loops with errors are removed from
 * prog->loops after their diagnostics. */
void resolve(const frontend *fe, const symtab *st, program *prog, arena *a);

#endif
