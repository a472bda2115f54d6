/*
 * place.h — with --target=mpi: the regions' schedules laid onto the output.
 *
 * The DAG's schedule (dag.h) orders computations; the output is the
 * user's text with each group's call at its anchor's directive (fuse.h).
 * A HaloRecv and a ReductionBegin stand inside their loop's function (after
 * the core elements, after the owned ones); what moves is
 *   - HaloSend(d): `loom__halo_begin(d);` at the earliest point of the
 *     region the DAG allows: right after the code of the last computation
 *     it depends on (in the output: a group runs at its anchor), and after
 *     the declaration of d's handle when the region declares it;
 *   - ReductionEnd(g): `loom__reduce_fold(&HANDLE, &g);` at the latest: right
 *     before the first computation that depends on it, or before the
 *     region's closing brace.
 * A point of a region is the start of one of its items (before the call
 * or the statement) or its '}'.  An exchange hoisted out of a loop
 * (hoist.h) begins right before the loop statement.  Each placement is recorded as a note of
 * the region's DAG (--report).
 */
#ifndef LOOMC_PLACE_H
#define LOOMC_PLACE_H

#include "transform/fuse.h"
#include "transform/hoist.h"
#include "transform/rotate.h"

/* Text inserted into the user's text before `offset`; with `line` set,
 * on a line of its own (mapped to the output itself) before the user's
 * line `line` (offset is that line's start), which a `#line` then maps
 * back, so that the user's line stays as written. */
typedef struct insertion {
  unsigned offset;
  const char *text;
  unsigned line;
} insertion;

typedef LIST(insertion *) insertion_list;

/* The insertions of every region of t, in increasing offset (several at
 * one offset in schedule order), the rotations' flags (rots: before the
 * group the first iteration's head joins, or the loop statement) and t's
 * hoisted exchanges' begins and ends (before and after their loop
 * statements). */
insertion_list place_comms(const translation *t, const fusion *fu, const rotations *rots,
                           arena *a);

/* The file-scope static that carries reduction `g` of loop lp from its
 * start (in the loop's function) to its fold. */
const char *place_reduction_handle(arena *a, const loop *lp, const obj *g);

#endif
