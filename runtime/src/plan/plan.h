/*
 * plan/plan.h — execution plans, private: what plan/ offers the layers
 * above it (dropping the plans, renumbering for the MPI partitioner and
 * the matrices).  What plan/'s own files share is plan/plan_internal.h.
 *
 * Included by plan/cache.c, plan/loopstart.c, plan/ocplan.c and
 * plan/renumber.c, by mpi/session.c and mpi/partition.c (the primary set
 * and its graph), and by mat/sparsity.c, mat/mat.c, mat/vec.c and
 * mat/write.c (the pending renumbering and the renumberings' count).  The calls core/ makes into plan/ (the session,
 * loomrt_renumber_lazy, the row scatter and gather) are declared in
 * core/hooks.h; the plans' own structs are public (loom.h: loom__plan,
 * loom__ocplan).
 */
#ifndef LOOM_PLAN_PLAN_H
#define LOOM_PLAN_PLAN_H

#include "loom_gen.h"

/* cache.c: frees all plans (at the session's end, and when the numbering
 * changes). */
void loomrt_plan_drop_all(void);

/* ---- renumbering (renumber.c) ------------------------------------------ */

/* Drops a pending $LOOM_RENUMBER=1 (noted under LOOM_DIAG with `why`). */
void loomrt_renumber_cancel(const char *why);
/* Applies a pending $LOOM_RENUMBER=1 (the session's, taken at the first
 * call): called where a loop starts (loom__check_set, loom_partition, the
 * matrices).  LOOM_OK or a reported status. */
int loomrt_renumber_lazy(void);

/* How many renumberings were applied in this process so far (every
 * session): what was built in storage order at another count must be
 * rebuilt (mat/). */
unsigned loomrt_renumber_epoch(void);

/* The set loom_renumber would order first, or NULL when no map touches
 * any set. */
loom_set loomrt_primary_set(void);
/* Set p's graph (renumber.c, design 2.) in CSR form: *xadj (n + 1
 * entries) and *adjncy (xadj[n] entries), malloc'ed, no self-loops, rows
 * de-duplicated.  LOOM_OK or LOOM_ENOMEM (not reported). */
int loomrt_set_graph(loom_set p, int **xadj, int **adjncy);

#endif /* LOOM_PLAN_PLAN_H */
