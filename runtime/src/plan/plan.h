/*
 * plan/plan.h — execution plans, private: what plan/'s files share, and
 * what renumbering offers the MPI partitioner.
 *
 * Included by plan/plan.c, plan/ocplan.c, plan/renumber.c, by
 * mpi/session.c and mpi/partition.c (the primary set and its graph), and
 * by mat/sparsity.c and mat/mat.c (the renumberings' count).  The
 * calls core/ makes into plan/ (the session, loomrt_renumber_lazy, the row
 * scatter and gather) are declared in core/hooks.h; the plans' own
 * structs are public (loom.h: loom__plan, loom__ocplan).
 */
#ifndef LOOM_PLAN_PLAN_H
#define LOOM_PLAN_PLAN_H

#include <stddef.h>

#include "loom_gen.h"

/* ---- plan ranges (plan.c; used by ocplan.c too) ------------------------ */

/* LOOM_OK when 0 <= lo <= hi <= set->size (the set is live); otherwise
 * reports LOOM_EINVAL naming `call` and the loop, and returns it. */
int loomrt_check_range(const char *call, const char *loop, loom_set set,
                       int lo, int hi);
/* For the $LOOM_DIAG line of a plan: "" when [lo, hi) is the whole set,
 * otherwise " [lo, hi) of SIZE", written into buf; returns buf. */
const char *loomrt_range_note(char *buf, size_t size, loom_set set, int lo,
                              int hi);

/* ocplan.c: frees the owner-computes plans (with the colouring plans,
 * loomrt_plan_drop_all). */
void loomrt_ocplan_drop_all(void);

/* plan.c: frees all plans (at the session's end, and when the numbering
 * changes). */
void loomrt_plan_drop_all(void);
/* plan.c: the plans' session: at the first call of plan/ in a session,
 * its block size ($LOOM_BLOCK_SIZE) taken and loomrt_plan_drop_all
 * installed for its end (core/hooks.h, loomrt_at_session_exit).  Every
 * entry of plan/ that reads the plans or the block size calls it. */
void loomrt_plan_session(void);

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
