/*
 * effects.h — the one effects model of loomc: what a loop reads and
 * writes.
 *
 * Every question of order — the dependences of the DAG (dag.h), fusion's
 * legality (fuse.h, domains.h), whether a hint can be honoured, which halo
 * exchanges a loop needs and where they go (place.h), what an execution
 * plan must colour (target_openmp.c) — is answered from these effects, so
 * no stage keeps a notion of its own.
 *
 * A loop's effects are, in order:
 *   - one per argument but `idx` (the index is no state): the object, how
 *     it is reached (the loop's own element, elements through a map, or a
 *     global's whole value) and the access mode; `idx[map[i]]` reads the
 *     map's rows (a map is never written: this orders nothing, but with
 *     MPI a map's rows exist only for executed elements);
 *   - what its kernel reads beyond its arguments: the file-scope variables
 *     it names, also in the functions it calls whose bodies loomc sees
 *     (summary.h), and, when it calls a function loomc does not see, the
 *     *unseen state*: everything no name denotes.
 * A pinned temporary (temps.h) is never stored: a loop reading it
 * evaluates its producer at each element it reads, so the read is replaced
 * by the producer's own effects (but its write of the temporary), seen
 * from the consumer: the producer's direct accesses at the consumer's
 * element when the consumer reads the temporary directly, at the elements
 * its map reaches when it reads it through a map.
 *
 * Host code and nested statements (region.h) have effects of the same
 * objects, the unseen state included: a host call of a function loomc
 * does not see, or a store through a pointer that names no object, writes
 * it.  The unseen state overlaps every C variable loomc knows (globals,
 * arrays, file-scope variables), never a dat: dats live in the runtime,
 * which only handles reach.
 */
#ifndef LOOMC_EFFECTS_H
#define LOOMC_EFFECTS_H

#include "analysis/temps.h"
#include "ir/ir.h"

typedef enum eff_via {
  VIA_ELEM, /* a dat at the loop's own element (a direct argument) */
  VIA_MAP,  /* a dat at elements reached through a map */
  VIA_WHOLE /* the whole value of a global, an array or a variable */
} eff_via;

typedef struct effect {
  const obj *o;
  eff_via via;
  access_mode mode;     /* read, write, rw, inc, min, max */
  const obj *map;       /* VIA_MAP: the map (a consumer's, for the effects
                           of a pinned producer it evaluates) */
  int slot;             /* VIA_MAP: its slot, -1 for all */
  int twice;            /* VIA_MAP: through two maps (a pinned producer's
                           read through its map, at an element a consumer
                           reaches through its own) */
  const loop_arg *arg;  /* the argument; NULL for the kernel's own reads */
  const loop *by;       /* whose kernel has it: the loop, or the pinned
                           producer it evaluates */
} effect;

typedef LIST(effect *) effect_list;

/* The unseen state (an OBJ_VAR named "<unseen>"). */
const obj *effects_unseen(void);

/* The mesh (an object named "<mesh>"): the runtime's sets and maps,
 * their numbering and their partition over the ranks.  With MPI a halo
 * exchange reads it: the first one partitions the mesh when no loop did.
 * A call of a function loomc does not see writes it (it may make the
 * calls that change the mesh, which are barriers themselves: region.h).
 * It is no C variable: the unseen state does not overlap it. */
const obj *effects_mesh(void);

/* Whether o is a C variable (a global, an array, a file-scope variable,
 * the unseen state), which the unseen state overlaps. */
int effects_is_variable(const obj *o);

int effect_reads(const effect *e);  /* any mode but write (a matrix: any) */
int effect_writes(const effect *e); /* any mode but read */

/* Whether accesses of a and b may touch the same memory: one object, or
 * the unseen state and a C variable. */
int effects_overlap(const obj *a, const obj *b);

/* The effects of lp, arguments first; `temps` (temps.h; NULL: none)
 * says which temporaries are pinned. */
effect_list effects_of_loop(arena *a, const loop *lp, const temp_info_list *temps);

/* Whether lp's effects (with temps' pins) touch o itself. */
int effects_touch(arena *a, const loop *lp, const temp_info_list *temps, const obj *o);

/* With MPI: whether effect e of lp needs d's halo exchanged before lp's
 * owned part — a dat read (read or rw) through a map, or read directly by
 * a loop that runs its executed halo.  A dat only incremented through a
 * map needs none: each rank computes its own contributions; nor one read
 * through an extruded map over the identity (other layers of the
 * element's own column). */
int effect_needs_halo(const loop *lp, const effect *e);

/* The dats whose halos lp needs (obj*, each once, in effect order). */
obj_list effects_halo_dats(arena *a, const loop *lp, const temp_info_list *temps);

/* How lp accesses o, for messages: "reads x through map m". */
const char *effect_text(arena *a, const effect *e);

#endif
