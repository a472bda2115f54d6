/*
 * fresh.h — local pointers to fresh memory, for the effects model.
 *
 * A store through a pointer loomc cannot trace writes the unseen state
 * (effects.h), which may be any variable a kernel reads.  Host code often
 * stores through pointers to memory it has just allocated —
 *
 *     double *buf = malloc(n * sizeof *buf);
 *     loom_dat_fetch(q, buf, n * sizeof *buf);
 *     ... buf[i] ...
 *     free(buf);
 *
 * — memory no other name reaches.  A local pointer variable is *fresh* in
 * its function when every value it is given (its initialiser, each `p =`)
 * is the result of malloc, calloc, realloc or aligned_alloc, and its value
 * never flows anywhere else: it is only dereferenced or subscripted (`*p`,
 * `p[i]`, `p->f`, `*(p + i)`), compared or tested, or passed to functions
 * that keep no pointer: the C library, libloom, and functions loomc sees
 * that write no file-scope variable, store through no pointer and call
 * nothing loomc does not see (their summaries).  Its address is never
 * taken, it is never assigned to anything, passed to another function, or
 * returned.  Stores through a fresh pointer touch no state loomc knows.
 */
#ifndef LOOMC_FRESH_H
#define LOOMC_FRESH_H

#include "frontend/symtab.h"

/* Whether the local variable `decl` is a fresh pointer of its function
 * (computed once per function, cached in the symbol table). */
int fresh_pointer(const frontend *fe, const symtab *st, CXCursor decl, arena *a);

/* Whether pointer expression e is a fresh pointer, or one plus or minus an
 * integer (`p + i`, `(T *)p`). */
int fresh_expr(const frontend *fe, const symtab *st, CXCursor e, arena *a);

#endif
