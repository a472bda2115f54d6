/*
 * region.h — stage 6 (analysis): the regions of each function and their
 * computations, the input of the dependency DAG.
 *
 * A region is the statement list of one compound statement that holds
 * loops.  Its items, in source order, are:
 *   - a loop (a par_loop directive standing in the region);
 *   - a nested statement (a `for`, an `if`, a block ...) that holds loops:
 *     one computation to this region, whose reads and writes are the union
 *     of everything inside it; its own compound statements are regions too;
 *   - a host statement that names a dat or a global argument of some loop
 *     (it reads and writes all of them: the statement may pass a handle to
 *     any function, or assign the variable);
 * Host statements that name neither are not computations: they may move
 * across loops.
 */
#ifndef LOOMC_REGION_H
#define LOOMC_REGION_H

#include "symtab.h"

typedef enum item_kind { ITEM_LOOP, ITEM_NESTED, ITEM_HOST } item_kind;

typedef struct region region;

typedef struct item {
  item_kind kind;
  loop *lp;        /* ITEM_LOOP */
  srcloc loc;      /* of the loop's '#', or of the statement */
  const char *what; /* a nested statement's keyword ("for", "if", ...) */
  vec objs;        /* obj*: dats and globals named by host code in it */
  vec loops;       /* loop*: the loops inside (nested) */
} item;

struct region {
  const char *func; /* the function it is in */
  srcloc loc;       /* of its '{' */
  int depth;        /* 0 for a function body */
  vec items;        /* item* */
};

/* The regions of every function holding loops, outermost first, in
 * source order.  prog->loops must be resolved and checked. */
vec regions_build(const frontend *fe, const symtab *st, const program *prog,
                  arena *a);

#endif
