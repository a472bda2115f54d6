/*
 * hoist.h — with --target=mpi: halo exchanges a loop needs only once,
 * issued before it (static halo skips).
 *
 * Takes the loops' DAGs of two iterations (analysis/loops.h) and the
 * target's DAGs; gives the exchanges hoisted.  An exchange of a dat d in
 * a loop's body is hoisted when the DAG of two iterations removes its copy
 * in iteration i+1 into an exchange of iteration i — nothing in the loop
 * (body, condition, increment) writes d after that exchange and before
 * this one: either d is not written in the loop at all (its exchange
 * repeats the same halo every step), or the exchange of the end of one
 * iteration serves the start of the next (exchanges across the iteration
 * boundary merge).  Every iteration but the first then finds d's halo
 * current; the first gets it from an exchange begun right before the loop
 * statement (its end is the first consumer's, as for any exchange; one
 * more after the loop statement ends it when the loop ran no iteration),
 * so the
 * exchange leaves the body: its send and receive are removed from the
 * body's DAG ("hoisted", with the reason as a note), which is linked
 * anew.  A loop statement that stands inside another statement (not an
 * item of a region), or a dat declared in the body, keeps its exchanges.
 */
#ifndef LOOMC_HOIST_H
#define LOOMC_HOIST_H

#include "analysis/loops.h"

/* An exchange issued before a loop statement. */
typedef struct hoist {
  const loop_info *li; /* the loop */
  const comp *send;    /* the body's HaloSend it replaces (removed) */
} hoist;

typedef LIST(hoist *) hoist_list;

/* The hoisted exchanges (hoist*) of loops (loop_info*). */
hoist_list hoist_exchanges(const loop_info_list *loops, arena *a);

/* Whether loop lp of h's loop body reads the halo h exchanges: its own
 * exchange of h's dat in the body's DAG is h's, or one merged into it.
 * Where lp runs early, before the loop statement (rotate.h), h begins
 * before it. */
int hoist_serves(const hoist *h, const loop *lp);

#endif
