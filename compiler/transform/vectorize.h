/*
 * vectorize.h — strips and gathers, so that the C compiler can vectorize
 * the kernels of loops that read through maps.
 *
 * A kernel called once per element in a loop that reads the mesh through
 * a map (`x[pcell[0]]`) is not vectorized by C compilers: GCC finds no
 * vector type for a mix of gathers through an index array and the
 * element's own strided data, and cannot version the loop for aliasing
 * when addresses come from a map.  loomc knows what they cannot: a loop
 * that writes only its own elements' data, directly, reduces nothing and
 * writes nothing it reads through a map, has no dependence between its
 * elements.  Such a loop is *staged*: its group runs in strips of
 * STRIP_WIDTH consecutive elements; in its turn in a strip, its kernel
 * runs over the strip's elements in a loop the C compiler vectorizes
 * (with `#pragma omp simd` where OpenMP is on), either as *lanes* — a
 * copy of the kernel that takes each argument as base and offset
 * (frontend/lanes.h, emit/lane_copy.h), so that reads through maps are
 * gathers the compiler emits — or, where no copy can be made, over
 * *rows*: the reads through maps copied (gathered) into small local
 * arrays first.
 *
 * Whether a staged turn is faster than the kernel element by element
 * depends on the machine and the C compiler's flags, which loomc does not
 * know: the group's function has both, and a tuner in libloom times its
 * first calls each way and keeps the faster (LOOM_VECTOR forces one).
 *
 * Each element still computes the same operations in the same order on
 * the same values, so results are bit-identical.  In a strip, the group's
 * loops run one after the other, each over the strip's elements: the
 * order of each element's kernels is kept, and fusion legality (every
 * dependence within one element) makes the rest free.  Reductions stay in
 * element order (a loop that reduces is not staged; in a strip its
 * elements run in order).
 *
 * A loop may also increment through maps (`inc: res[pecell[0]]`): each
 * such argument is a strip local (per component as lanes), zeroed before
 * the kernel's turn, and
 * added to its target after it, element after element — lanes never
 * write one value, and targets are reached in element order (bit-
 * identical where the kernel increments each value once per element:
 * dsl-spec/transformations.md §5).  A dat a loop increments through a
 * map and also accesses otherwise keeps the loop scalar.
 *
 * Every staged loop, and every loop reading or incrementing through a
 * map that is not, with why, is noted in its region's DAG (--report).
 */
#ifndef LOOMC_VECTORIZE_H
#define LOOMC_VECTORIZE_H

#include "transform/fuse.h"
#include "transform/narrow.h"

/* Elements per strip: a strip's gathered rows stay in L1.  Airfoil seq on
 * the reference mesh (50 iterations, best of 3 to 5 runs) took 2.44 s
 * with strips of 8, 2.41 s with 16, 2.60 s with 32 and 2.64 s with 64. */
enum { STRIP_WIDTH = 16 };


/* The loops staged, and those of them that run as lanes. */
typedef struct staging staging;

/* Which loops of fu's groups are staged, noted in t's DAGs; narrowed:
 * narrow()'s (a narrowed temporary keeps a loop from running as lanes).
 * --no-vectorize: none are. */
const staging *vectorize(const translation *t, const fusion *fu, const narrowing_list *narrowed,
                         arena *a);

/* Whether lp is staged. */
int vectorize_staged(const staging *st, const loop *lp);
/* Whether lp is staged and runs as lanes: its group's function calls a
 * copy of its kernel that takes each argument as base and offset
 * (frontend/lanes.h). */
int vectorize_lanes(const staging *st, const loop *lp);
/* Whether a loop of gr is staged: gr then runs in strips. */
int vectorize_strips(const staging *st, const group *gr);
/* Whether lp's argument a is gathered per strip (lp staged). */
int vectorize_gathers(const staging *st, const loop *lp, const loop_arg *a);
/* Whether lp's argument a, an increment through a map, is taken per
 * element in a strip's local and added to its target after the strip's
 * kernels, in element order (lp staged). */
int vectorize_scatters(const staging *st, const loop *lp, const loop_arg *a);

#endif
