/*
 * region.h — the regions of each function and their computations, the
 * input of the dependency DAG.
 *
 * A region is the statement list of one compound statement that holds
 * loops.  Its items, in source order, are:
 *   - a loop (a par_loop directive standing in the region);
 *   - a `#pragma loom sync(a, b)` standing in the region: it reads and
 *     writes everything of the objects it names;
 *   - a nested statement (a `for`, an `if`, a block ...) that holds loops:
 *     one computation to this region, whose reads and writes are the union
 *     of everything inside it (its loops, its host code, its syncs); its
 *     own compound statements are regions too;
 *   - a host statement that accesses a dat, a global argument of some
 *     loop, an array of an affine loop, a file-scope variable that some
 *     kernel reads, or the unseen state (effects.h).  What it accesses is
 *     read from the C code (cwalk.h; dsl-spec/semantics.md §9.2):
 *       * a dat handle, used in any way, is read and written (the handle
 *         may reach any function, which may do anything with the dat);
 *       * a variable's value used as an rvalue is read; `g = e` writes it;
 *         `g op= e`, `++g`, `g--` read and write it; `&g`, or an array
 *         decaying to a pointer (`f(garr)`), reads and writes it;
 *         `garr[i]` and `*garr` are accesses of the array's elements,
 *         classified like a scalar's; an operand of sizeof or _Alignof is
 *         not accessed;
 *       * an assignment or ++/-- whose operator comes from a macro body
 *         cannot be classified from the tokens: its operands are read and
 *         written;
 *       * a call accesses what the called function's summary says
 *         (summary.h): the variables it reads and writes, through the
 *         calls it makes; a function loomc does not see reads and writes
 *         the unseen state, and so does a store through a pointer that is
 *         none of the objects above.
 *   - a statement from which control may leave the region, or by which
 *     it may enter (return, goto, a label, break or continue not bound
 *     inside the statement), or that calls loom_exit(), whatever it names:
 *     a barrier, that nothing moves across (a loop moved past it, or a
 *     reduction or halo exchange still pending there, would be skipped or
 *     outlive the session);
 *   - a statement that changes the mesh (it declares a set or a map,
 *     renumbers or partitions: summary_changes_mesh): a barrier too, as
 *     a loop moved past it would run on another numbering, and a halo
 *     exchange moved above it would partition the mesh before it is
 *     complete (dsl-spec/mpi.md, "What moves").  A call of a function
 *     loomc does not see writes the mesh (effects.h) instead: halo
 *     exchanges stay below it, loops may still move across it.
 * Other host statements are not computations: they may move across loops.
 */
#ifndef LOOMC_REGION_H
#define LOOMC_REGION_H

#include "frontend/symtab.h"

typedef enum item_kind { ITEM_LOOP, ITEM_NESTED, ITEM_HOST, ITEM_SYNC } item_kind;

typedef struct region region;
typedef LIST(region *) region_list;

typedef struct item {
  item_kind kind;
  loop *lp;         /* ITEM_LOOP */
  const hint *sync; /* ITEM_SYNC */
  srcloc loc;       /* of the loop's or sync's '#', or of the statement */
  unsigned start;   /* offset where its text starts (a statement's first
                       token, or the macro invocation it comes from) */
  unsigned end;     /* and where it ends */
  const char *what; /* a nested statement's keyword ("for", "if", ...) */
  obj_list objs;    /* the objects host code or syncs access */
  obj_list reads;   /* those of objs it reads (host-code rule) */
  obj_list writes;  /* those of objs it writes */
  loop_list loops;  /* the loops inside (nested) */
  int leaves;       /* host or nested: a barrier — control may leave the
                       region from inside it, or enter it (return, goto,
                       a label, break or continue not bound inside it),
                       or it calls loom_exit(), or it changes the mesh */
  int mesh;         /* it changes the mesh: it calls a function that
                       declares a set or a map, renumbers or partitions
                       (summary_changes_mesh), itself or through the
                       functions it calls that loomc sees */
} item;

typedef LIST(item *) item_list;

/* The for, while or do statement a region is the body of: the loops of
 * the region run once per iteration (analysis/loops.h reads its header). */
typedef struct loop_stmt {
  const char *what;    /* "for", "while", "do" */
  CXCursor stmt;       /* the statement */
  srcloc loc;          /* of its keyword */
  unsigned start, end; /* its extent in the main file */
  region *parent;      /* the region the statement is an item of, or NULL
                          when it stands inside another statement */
  int item;            /* its item's index in parent */
  item *latch;         /* what its condition and increment (not its
                          initialisation) read and write, each iteration:
                          the host-code rule (a host item; no objects:
                          nothing loomc knows) */
  unsigned header_start, header_end; /* `for (...)`, `while (...)`; for
                          do, the `while (...)` after the body */
} loop_stmt;

struct region {
  const char *func; /* the function it is in */
  srcloc loc;       /* of its '{' */
  unsigned end;     /* offset of its '}' */
  unsigned end_line; /* line of its '}' */
  int depth;        /* 0 for a function body */
  item_list items;
  loop_stmt *loop;  /* the loop statement it is the body of, or NULL */
};

/* The regions of every function holding loops, outermost first, in
 * source order.  prog->loops must be resolved and checked, and
 * prog->hints resolved. */
region_list regions_build(const frontend *fe, const symtab *st, const program *prog,
                  arena *a);

/* Whether an item writes something that may be o (effects_overlap: the
 * unseen state too), or accesses o itself (not through the unseen state):
 * its host code's accesses, its syncs', and its loops' effects (effects.h,
 * without pins). */
int region_item_writes(arena *a, const item *it, const obj *o);
int region_item_names(arena *a, const item *it, const obj *o);

/* The loops of region r that write t (writers) and those that only read
 * it (readers), in item order. */
void region_temp_uses(arena *a, const region *r, const obj *t, loop_list *writers,
                      loop_list *readers);

/* Whether something outside r's own loops uses t: a loop of another
 * region (of regions, all of prog's), or host code or a sync anywhere. */
int region_temp_used_elsewhere(const program *prog, const region_list *regions, const region *r,
                               const obj *t);
/* Whether host code or a sync of any of the regions names t. */
int region_host_names(const region_list *regions, const obj *t);

/* Why t, a temporary of region r (one of regions, all of prog's), has no
 * producer that could be moved or fused: exactly one loop of r (writers,
 * from region_temp_uses) writing every element directly without reading it,
 * and nothing but r's loops using t (no loop of another region, no host
 * code or sync anywhere).  NULL when writers->items[0] is such a
 * producer. */
const char *region_temp_producer_problem(arena *a, const program *prog,
                                         const region_list *regions, const region *r,
                                         const obj *t, const loop_list *writers);

#endif
