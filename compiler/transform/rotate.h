/*
 * rotate.h — loop rotation: the last loops of one iteration fused with
 * the first loops of the next.
 *
 * Takes the loops (analysis/loops.h: the canonical form, the DAG of two
 * iterations) and the fusion groups; gives rotations.  A loop region in
 * canonical form (`for (v = a; v OP b; v += s)`) whose body has no
 * barrier is rotated when one of its groups, the *head* H, can also run,
 * for the next iteration, at the end of the current one, fused with a
 * later group over the same set, the *tail* T:
 *   - every dependence between T's loops and H's stays within one element
 *     (isl, as for fusion);
 *   - H of iteration i+1 depends on nothing that stands between T of
 *     iteration i and H (what follows T in the body, the condition and
 *     increment, what precedes H): checked on the DAG of two iterations;
 *   - H reduces and writes no global, reads no pinned temporary, and with
 *     MPI needs no exchange in the body (its halos are up to date: their
 *     exchanges were hoisted or merged) and runs its executed halo exactly
 *     when T does.
 * The body then runs, with a flag loom_rotated_N declared at the start of
 * the block holding the loop:
 *
 *     at H:  if (loom_rotated_N) loom_rotated_N = 0; else H(...);
 *     at T:  if (NEXT) { T+H(...); loom_rotated_N = 1; } else T(...);
 *
 * NEXT is the condition that another iteration follows (loops.h): the
 * first iteration runs H at its place, every other one got it from the end
 * of the one before, and the last runs T alone (its epilogue).
 *
 * When the loop runs at least once (a constant trip count) and a group P
 * over H's set stands before the loop statement in its block, H of the
 * first iteration may also fuse into P, under the same rules (what stands
 * between P and H: the block's items after P, the body's before H): then
 * `P+H(...); loom_rotated_N = 1;` stands at P, and the first iteration
 * finds H done.  With MPI, an exchange hoisted before the loop statement
 * for H (transform/hoist.h) then begins before P, which must not write
 * its dat.  Each rotation, and each refusal with its reason, is a
 * note of the body's DAG (--report).
 */
#ifndef LOOMC_ROTATE_H
#define LOOMC_ROTATE_H

#include "analysis/loops.h"
#include "transform/hoist.h"
#include "transform/translation.h"
#include "transform/fuse.h"

/* The budget of one loop statement (transformations.md §3): the heads
 * tried, in order, and for each the tails tried (their isl checks); a
 * rotation they stop is noted with the budget's name. */
enum { ROTATE_HEADS = 8, ROTATE_TAILS = 4 };

typedef struct rotation {
  int id;               /* the flag: loom_rotated_<id> */
  const loop_info *li;
  const group *head, *tail;
  group *fused;         /* tail + head of the next iteration */
  const group *pre;     /* a group before the loop statement, or NULL */
  group *pre_fused;     /* pre + head of the first iteration */
} rotation;

typedef LIST(rotation *) rotation_list;

/* What rotate made: the rotations, and the fused groups they run (each
 * numbered after fusion's groups, in the order emit writes them). */
typedef struct rotations {
  rotation_list list;
  group_list groups; /* every rotation's fused and pre_fused */
} rotations;

/* The loops rotated, of fu's groups, among t's loop statements (with
 * t's hoisted exchanges); t's DAGs receive the notes.  --no-fuse or
 * --no-rotate: none are. */
const rotations *rotate(const translation *t, const fusion *fu, arena *a);

/* The rotation g is the head, the tail or the pre group of, or NULL. */
const rotation *rotation_of(const rotations *rots, const group *g);

#endif
