/*
 * dag.h — stage 7 (analysis): the dependency DAG of each region.
 *
 * Each item of a region becomes lazy computations (seed 001's model) with
 * read and write sets over sections of dats — CORE, OWNED, HALOEXEC,
 * HALOIMPORT and NET — and of globals — VALUE (the C variable), PARTIAL
 * (this rank's contribution to a reduction) and NET.  For --target=mpi an
 * indirect loop is split into HaloSend(d), KERNEL[core], HaloRecv(d) and
 * KERNEL[owned] (ordered after [core] by an ORDER(KERNEL) token), and a
 * reduction gets ReductionBegin(g)/ReductionEnd(g);
 * for the other targets a loop is one computation KERNEL[core,owned].
 *
 * A computation c depends on an earlier c' when
 *   R(c) ∩ W(c') ∪ W(c) ∩ R(c') ∪ W(c) ∩ W(c')
 * is not empty.  The DAG keeps the transitive reduction of those edges.
 */
#ifndef LOOMC_DAG_H
#define LOOMC_DAG_H

#include <stdio.h>

#include "region.h"

typedef enum section {
  SEC_CORE,
  SEC_OWNED,
  SEC_HALOEXEC,
  SEC_HALOIMPORT,
  SEC_NET,
  SEC_VALUE,
  SEC_PARTIAL,
  SEC_ORDER, /* KERNEL[core] before KERNEL[owned] of one loop */
  SEC_COUNT
} section;

typedef struct access {
  const obj *o;
  unsigned sections; /* bit (1 << section) */
} access;

typedef struct comp {
  int id; /* 1-based in its region, in program order */
  const char *label;
  srcloc loc;
  vec reads, writes; /* access* */
  vec preds;         /* comp*: direct predecessors after reduction */
  int nsuccs;
} comp;

/* A transformation applied to a region, with its reason, for --report. */
typedef struct note {
  srcloc loc;       /* what it applies to (a loop's '#', a hint ...) */
  const char *text; /* "fused update with adt_calc: ..." */
} note;

typedef struct dag {
  const region *r;
  vec comps; /* comp*, program order */
  vec notes; /* note*: transformations, in the order they were applied */
} dag;

/* Records a transformation of d (printf-style text). */
void dag_note(dag *d, arena *a, srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Whether c depends on the earlier computation c' (the rule above). */
int dag_depends(const comp *c, const comp *earlier);

/* The DAGs of the regions, for a target ("mpi" splits loops). */
vec dag_build(const vec *regions, const char *target, arena *a);

/* Graphviz: one cluster per region, with top and bot nodes. */
void dag_write_dot(FILE *f, const vec *dags);

/* Human-readable: per region, its computations in schedule order with
 * their read/write sets and dependences. */
void dag_write_report(FILE *f, const vec *dags);

#endif
