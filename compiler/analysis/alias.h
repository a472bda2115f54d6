/*
 * alias.h — which dat handles may be one dat (stage after resolve).
 *
 * A handle whose loom_decl_* loomc does not see (a parameter, a struct
 * member, an extern: obj.opaque) may hold any dat of its shape; a dat
 * declared here whose handle host code copies or passes on *escapes*
 * (obj.escapes) and may be reached under another name.  Both are sound
 * only if
 *   - dats that may be one share a class: every opaque or escaping dat of
 *     one shape (set facts aside: dim and element type, which the loops
 *     check at run time) gets the class as its `var`, so that the effects
 *     model (effects_overlap) and the DAG treat them as one object;
 *   - a call of a function that runs loops or that loomc does not see
 *     reads and writes every escaping dat (region.c).
 * Temporaries are never in a class: their handles stay in their function;
 * nor are the handles of a body loomc wrote for handles a run-time test
 * found distinct (obj.distinct, transform/version.h).
 */
#ifndef LOOMC_ALIAS_H
#define LOOMC_ALIAS_H

#include "frontend/frontend.h"
#include "frontend/symtab.h"

/* A class of dats that may be one: dim, type, and its members (obj*). */
typedef struct alias_class {
  int dim;
  const elem_type *type;
  obj_list members;
} alias_class;

/* Marks the dats that escape, fills prog->escaping (obj*) and
 * prog->alias_classes (alias_class*), and sets the members' var. */
void alias_analyse(const frontend *fe, const symtab *st, program *prog, arena *a);

/* --report: the classes, and the loops they kept in program order. */
void alias_write_report(FILE *f, const program *prog);

#endif
