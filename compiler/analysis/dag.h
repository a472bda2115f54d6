/*
 * dag.h — the dependency DAG of each region.
 *
 * Takes the regions (region.h) and the temporaries' fates known so far
 * (temps.h); gives one DAG per region, for a target.
 *
 * Each item of a region becomes lazy computations (seed 001's model) with
 * read and write sets — a loop's from its effects (effects.h) — over
 * sections of dats — CORE, OWNED, HALOEXEC, HALOIMPORT and NET — of
 * globals — VALUE (the C variable), PARTIAL (this rank's contribution to a
 * reduction) and NET — and the VALUE of arrays, file-scope variables and
 * the unseen state, which overlaps every C variable.  For --target=mpi an
 * indirect loop is split into HaloSend(d), KERNEL[core], HaloRecv(d) and
 * KERNEL[owned] (ordered after [core] by an ORDER(KERNEL) token), and a
 * reduction gets ReductionBegin(g)/ReductionEnd(g); for the other targets
 * a loop is one computation KERNEL[core,owned].  Host statements, syncs and
 * nested statements are one computation each (region.h says what they
 * access).  With MPI, a HaloSend also reads the mesh (effects_mesh): its
 * runtime call partitions the mesh when nothing did yet, so it stays below
 * every call of a function loomc does not see, and below the calls that
 * change the mesh, which are barriers.
 *
 * A computation c depends on an earlier c' when
 *   R(c) ∩ W(c') ∪ W(c) ∩ R(c') ∪ W(c) ∩ W(c')
 * is not empty, or when either is a barrier (a statement by which control
 * may leave or enter the region).  The DAG keeps the transitive reduction of those edges.
 *
 * With --target=mpi, the halo exchanges of a dat whose halo is statically
 * up to date are removed as the DAG is built (an earlier exchange of the
 * dat in the region, no write of it since), each with a note giving the
 * reason: "merged" when nothing touched the dat in between (seed 001's
 * successive exchanges), "removed" when something only read it.  Removed
 * computations stay in `comps` (flagged) so that the report and the DOT
 * can show them; they have no edges and are not scheduled.
 *
 * The transformations that follow (transform/) add their notes, with
 * their reasons, to the DAG of their region; the schedule
 * (transform/schedule.h) fills `order`.
 */
#ifndef LOOMC_DAG_H
#define LOOMC_DAG_H

#include <stdio.h>

#include "analysis/effects.h"
#include "analysis/region.h"
#include "util/target.h"

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

typedef LIST(access *) access_list;
typedef LIST(struct comp *) comp_list;

typedef enum comp_kind {
  COMP_LOOP,      /* KERNEL[core,owned], [core] or [owned] */
  COMP_HALO_SEND, /* HaloSend(d) */
  COMP_HALO_RECV, /* HaloRecv(d) */
  COMP_RED_BEGIN, /* ReductionBegin(g) */
  COMP_RED_END,   /* ReductionEnd(g) */
  COMP_OTHER,     /* host statement, sync, nested statement, a loop's latch */
  COMP_ALLOC,     /* malloc(t): a temporary's storage, each iteration
                     (loops.h: two iterations only) */
  COMP_FREE       /* free(t) */
} comp_kind;

typedef struct comp {
  int id; /* 1-based in its region, in program order */
  comp_kind kind;
  const char *label;
  srcloc loc;
  const loop *lp;        /* the loop it is part of (COMP_LOOP, halo, reduction) */
  const obj *o;          /* the dat or global of a halo or reduction computation */
  struct comp *partner;  /* HaloSend <-> HaloRecv of one exchange */
  const char *removed;   /* removed by a transformation: "merged", "removed" */
  struct comp *into;     /* removed exchange: the kept one it relies on */
  access_list reads, writes;
  int item;              /* index of its item in the region */
  int barrier;           /* control may leave or enter there, or it changes
                            the mesh (region.h): depends on, and is
                            depended on by, everything */
  int mesh;              /* a barrier because it changes the mesh */
  comp_list preds;       /* direct predecessors after reduction */
  int nsuccs;
  int step;              /* a DAG of two iterations (loops.h): 0 for
                            iteration i and the latch, 1 for iteration i+1 */
  int latch;             /* the latch of such a DAG */
} comp;

/* A transformation applied to a region, with its reason, for --report. */
typedef struct note {
  srcloc loc;       /* what it applies to (a loop's '#', a hint ...) */
  const char *text; /* "fused update with adt_calc: ..." */
} note;

typedef LIST(note *) note_list;

typedef struct dag {
  const region *r;
  int mpi;   /* built for --target=mpi (or mpi+openmp) */
  comp_list comps; /* program order, removed ones included */
  comp_list order; /* the schedule (the computations not removed;
                      transform/schedule.h) */
  note_list notes; /* transformations, in the order they were applied */
  struct dag *steps; /* a loop body's: the DAG of two iterations (loops.h) */
  int two;   /* this is such a DAG: comps of iteration i, the latch, comps
                of iteration i+1 */
  int alias_refusals; /* loops not fused where handles that may be one dat
                         were involved (transform/fuse.c) */
  struct dag *whole; /* built for a distributed target: the region's DAG
                        with every loop whole, as for seq (no exchanges,
                        comps[i] is item i), which fusion reads */
} dag;

typedef LIST(dag *) dag_list;

/* Records a transformation of d (printf-style text). */
void dag_note(dag *d, arena *a, srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Whether c depends on the earlier computation c' (the rule above). */
int dag_depends(const comp *c, const comp *earlier);
/* Whether c writes something that may be o (effects_overlap). */
int dag_writes(const comp *c, const obj *o);

/* The DAGs of the regions (dag*), for a target (a distributed one splits
 * loops and removes redundant halo exchanges; each DAG then also has its
 * `whole` view).  The computations' accesses are their effects
 * (effects.h); `temps` (temps.h; NULL: none) says which temporaries are
 * pinned, and each DAG's notes begin with those of the hints decided in
 * its region. */
dag_list dag_build(const region_list *regions, const target *t, const temp_info_list *temps,
                   arena *a);

/* The DAG of two successive iterations of r, the body of a loop
 * (loops.h): its items' computations, the latch (the loop's condition and
 * increment), the items' computations again (labels primed), and each
 * temporary of iter_temps (obj*) allocated before its first use and freed
 * after its last in each iteration; with MPI, exchanges elided across
 * both. */
dag *dag_build_steps(const region *r, const item *latch, const obj_list *iter_temps,
                     const target *t, const temp_info_list *temps, arena *a);

/* dag_write.c — Graphviz: one cluster per region, with top and bot nodes. */
void dag_write_dot(FILE *f, const dag_list *dags);

/* Human-readable: per region, its computations with their read/write sets
 * and dependences, the schedule and the transformations. */
void dag_write_report(FILE *f, const dag_list *dags);

/* The predecessors (transitive reduction) of every computation of d that
 * is not removed, and their successor counts (dag_link.c); again after
 * computations were removed. */
void dag_link(dag *d, arena *a);

#endif
