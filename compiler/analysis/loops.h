/*
 * loops.h — loops as loops: the for, while and do statements whose bodies
 * hold par_loops (region.h: a region with `loop` set), analysed across
 * their iterations.
 *
 * Takes the regions and the target's DAGs; gives, per loop region:
 *   - its canonical form, when it has one: `for (v = a; v OP b; v += s)`
 *     (OP one of < <= > >= !=, s a nonzero integer constant, ++ and --
 *     included) where b is built of constants and of local variables or
 *     parameters (`n`, `args.niter`), and neither v nor a variable of b is
 *     written in the body or has its address taken in the function (a call
 *     could then write it): the condition that another iteration follows
 *     the current one, as C text evaluated anywhere in the body
 *     (`step + 1 <= args.niter`), and the trip count when a, b and s are
 *     integer literals;
 *   - the DAG of two successive iterations (seed 001's picture): the
 *     computations of iteration i, the latch (what the condition and the
 *     increment read and write), those of iteration i+1; and, for each
 *     temporary whose value never crosses iterations (each iteration writes
 *     every element before it reads one, and nothing outside the body uses
 *     it), an allocation before its first use and a free after its last in
 *     each iteration (LazyMalloc, LazyFree).  An edge from iteration i to
 *     i+1 is *carried* (comp.step tells each computation's iteration).
 *     With MPI its halo exchanges are elided as a region's are (dag.h):
 *     one of iteration i+1 removed into one of iteration i is an exchange
 *     the loop needs only once (transform/hoist.h).
 */
#ifndef LOOMC_LOOPS_H
#define LOOMC_LOOPS_H

#include "analysis/dag.h"
#include "frontend/tokens.h"

typedef struct loop_info {
  const region *r;     /* the body */
  dag *body;           /* its DAG for the target (one iteration) */
  dag *steps;          /* the DAG of two iterations */
  const char *var;     /* canonical: the induction variable, else NULL */
  const char *next;    /* canonical: the condition that another iteration
                          follows this one (C text), else NULL */
  long trip;           /* the constant trip count, or -1 */
  const char *type;    /* canonical, v declared by the init (`int v = a`):
                          its type's text, else NULL */
  long first, step;    /* with a trip count: a and s */
  obj_list temps;      /* the temporaries each iteration allocates */
} loop_info;

typedef LIST(loop_info *) loop_info_list;

/* The loop regions of regions (loop_info*, in the order of regions);
 * dags: the target's DAGs of the same regions; temps: the temporaries'
 * fates known (temps.h). */
loop_info_list loops_analyse(const frontend *fe, const symtab *st, const program *prog,
                             const region_list *regions, dag_list *dags, const target *t,
                             const temp_info_list *temps, arena *a);

/* The canonical form's pieces, as read here and by transform/prescan.c
 * (which must read a header as this file does): an integer literal's
 * value (0 when t is none: *ok cleared); the step of the increment in
 * tokens [from, to) of t, +1, -1, +c, -c (0 when it is not `v++`, `++v`,
 * `v--`, `--v`, `v += c` or `v -= c`); the trip count of `for (v = a;
 * v OP b; v += s)`, or -1 when OP (op) is none of < <= > >= in the
 * direction of s. */
long loops_literal(const tok *t, int *ok);
long loops_step(const tok_list *t, int from, int to, const char *v);
long loops_trip_count(long a, long b, long s, const char *op);

/* The loop_info of region r in loops, or NULL. */
loop_info *loops_of(const loop_info_list *loops, const region *r);

#endif
