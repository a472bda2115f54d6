/*
 * loom_gen.h — the interface between the code loomc generates and libloom.
 * Not for users: its names begin with loom__ (or LOOM__) and may change
 * between releases; the API is loom.h.
 *
 * Generated code gets it through loom.h (it defines LOOM__GENERATED on its
 * first line); libloom's own sources include it directly.
 */
#ifndef LOOM_GEN_H
#define LOOM_GEN_H

#include "loom.h"
#ifdef _OPENMP
#include <omp.h> /* code generated for --target=openmp asks for the threads */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Checks, before a generated loop runs, that an object is what the loop was
 * compiled for.  `loop` names the loop ("res_calc at airfoil.c:211") and
 * `arg` the argument's position.  Return LOOM_OK, or a status after the
 * error was reported (LOOM_EMISMATCH; LOOM_ESTATE outside init/exit). */
int loom__check_set(loom_set set, const char *loop);
int loom__check_extruded(loom_set set, const char *loop); /* a loop over its columns */
int loom__check_map(loom_map map, loom_set from, loom_set to, int dim,
                    const char *loop, int arg); /* to == NULL: not checked */
int loom__check_dat(loom_dat dat, loom_set set, int dim, loom_type type,
                    const char *loop, int arg);
/* Two arguments (positions arg_a, arg_b) the loop was compiled for as two
 * dats, under handles loomc could not prove distinct, where one dat would
 * make the result depend on the order of the elements (one written, the
 * other reached through a map): LOOM_EMISMATCH when they are one dat. */
int loom__check_distinct(loom_dat a, loom_dat b, const char *loop, int arg_a, int arg_b);
/* Whether the n handles after n are n different dats (1) or not (0): the
 * test of a function body loomc wrote twice, the first copy for handles
 * that are distinct (dsl-spec/transformations.md §8).  Local: every rank
 * of a collective program holds the same pattern of handles. */
int loom__dats_distinct(int n, ...);
/* A loop over an extruded set running the layers of its region in each
 * column: that argument `arg`'s extruded map has the n shifts loomc
 * compiled the loop for, and that every slot's layer stays in its column
 * of the map's target set (column by column, once, when either set has
 * columns of their own heights). */
enum { LOOM__REGION_ALL, LOOM__REGION_BOTTOM, LOOM__REGION_TOP, LOOM__REGION_INTERIOR };
int loom__check_layers(loom_map map, int n, const int *shift, int region, const char *loop,
                       int arg);
/* A loop compiled for an extruded set declared by columns
 * (loom_decl_extruded_set_columns): LOOM_EMISMATCH for any other set. */
int loom__check_columns(loom_set set, const char *loop);
/* The layers of each column of such a set, in its base's storage order
 * (NULL for any other). */
const int *loom__set_columns(loom_set set);
/* An extruded set's base set, an extruded map's base map (NULL for the
 * identity): what sections, plans and storage are of.  The handle
 * itself for any other set or map. */
loom_set loom__set_base(loom_set set);
loom_map loom__map_base(loom_map map);

/* Execution plans.  A plan splits a loop's iteration set into blocks of
 * consecutive elements and colours them so that no two blocks of one
 * colour write the same element of a target set through a map; the
 * elements of each block are coloured the same way.  Colours are found
 * with 32-bit masks, in passes of 32 colours.  A plan covers a range
 * [lo, hi) of the set's elements (the whole set, or one section of an MPI
 * partition: core, then the rest of the executed elements) and reads only
 * the map rows of elements in its range.  A plan is built once per
 * (loop, set, range, written maps, block size) and cached until
 * loom_exit. */
typedef struct loom__plan_arg {
  loom_map map; /* a map a loop argument writes through; NULL (slot 0): the
                   loop's own element, for a dat the loop writes directly and
                   also through a map (its increments must not meet either) */
  int slot;     /* the slot it writes, or -1 for all slots */
} loom__plan_arg;

typedef struct loom__plan {
  int nelems, nblocks, block_size; /* nelems == hi - lo */
  const int *block_start;   /* nblocks + 1: block b is [start[b], start[b+1]),
                               absolute element indices: start[0] == lo,
                               start[nblocks] == hi */
  int ncolours;             /* block colours */
  const int *colour_start;  /* ncolours + 1: ranges of blocks_by_colour */
  const int *blocks_by_colour; /* block ids, colour by colour, ascending */
  const int *block_colour;  /* nblocks */
  const int *elem_colour;   /* nelems: colour of element e in its block is
                               elem_colour[e - lo] */
  const int *block_elem_colours; /* nblocks: element colours used per block */
  int max_elem_colours;
  const char *loop;         /* the `loop` it was built for (for messages) */
  int lo, hi;               /* the elements covered: [lo, hi) of the set */
} loom__plan;

/* The plan of a loop over the whole set: exactly
 * loom__plan_get_range(loop, set, 0, loom__set_total(set), nargs, args)
 * (the set's size without MPI; every local element after partitioning). */
const loom__plan *loom__plan_get(const char *loop, loom_set set, int nargs,
                                 const loom__plan_arg *args);

/* The plan of a loop over the elements [lo, hi) of `set` (`loop` names
 * it, as for the checks; its address is part of the cache key, with lo
 * and hi: two ranges of one loop are two plans).  Blocks split [lo, hi)
 * into runs of the block size, the last one shorter; only the map rows of
 * elements in [lo, hi) are read (with MPI, the rows of non-executed halo
 * elements hold -1); the colour masks still cover the whole target sets.
 * nargs may be 0 (a loop that needs blocks only, for deterministic
 * reductions; one colour); an empty range has no blocks and no colours.
 * 0 <= lo <= hi <= loom__set_total(set), else LOOM_EINVAL (naming the
 * loop).  NULL after an error was reported. */
const loom__plan *loom__plan_get_range(const char *loop, loom_set set, int lo,
                                       int hi, int nargs,
                                       const loom__plan_arg *args);

/* The blocks of `plan`, colour after colour, the blocks of one colour
 * shared among the threads (OpenMP; in order without it): the statement
 * after it runs once per block b, with its elements [lo, hi).  Code
 * generated for --target=openmp runs its colouring plans so:
 *
 *     LOOM_OMP_BLOCKS(loom_plan, loom_b, loom_lo, loom_hi) {
 *       ... elements loom_lo .. loom_hi - 1 of block loom_b ...
 *     }
 *
 * LOOM_OMP_BLOCKS_POLLING also calls loom__halo_progress (MPI) after each
 * colour, on the main thread. */
#define LOOM_OMP_BLOCKS(plan, b, lo, hi) LOOM__BLOCKS(plan, b, lo, hi, loom__c++)
#define LOOM_OMP_BLOCKS_POLLING(plan, b, lo, hi)                              \
  LOOM__BLOCKS(plan, b, lo, hi, (loom__c++, loom__halo_progress()))
#define LOOM__BLOCKS(plan, b, lo, hi, next)                                    \
  for (int loom__c = 0; loom__c < (plan)->ncolours; next)                      \
    LOOM__OMP_FOR                                                              \
    for (int loom__k = (plan)->colour_start[loom__c];                          \
         loom__k < (plan)->colour_start[loom__c + 1]; loom__k++)               \
      for (int b = (plan)->blocks_by_colour[loom__k],                          \
               lo = (plan)->block_start[b], hi = (plan)->block_start[b + 1],   \
               loom__once = 1;                                                 \
           loom__once; loom__once = 0)
#ifdef _OPENMP
#define LOOM__OMP_FOR _Pragma("omp parallel for schedule(static)")
#else
#define LOOM__OMP_FOR
#endif

/* Checks that the accesses of a loop to one dat through maps, of which one
 * at least is `rw` (its plan arguments), reach each target element from
 * one element of the iteration set only: otherwise the value left would
 * depend on the order of the elements, and the error names the target and
 * the two elements (their declared numbers).  Every executed element is
 * checked: the set, or with MPI the rank's [0, exec).  Done once per
 * (loop, set, arguments); LOOM_OK, or a status after the error was
 * reported. */
int loom__check_unique(const char *loop, loom_set set, int nargs,
                       const loom__plan_arg *args);
/* The writes of a loop to one dat through maps with mode `write` (its plan
 * arguments): for each element of the target set (its rows in the order
 * of the arguments' distinct target sets, as for plans: one set here),
 * the element of the iteration set that writes it last in declared order
 * — the one whose write is kept, whatever the order elements run in (-1:
 * none writes it).  Built once per (loop, set, arguments), valid until the
 * numbering changes (renumbering, partitioning); NULL after an error was
 * reported.  Generated code lets the other elements write to a scratch
 * local. */
const int *loom__write_winners(const char *loop, loom_set set, int nargs,
                               const loom__plan_arg *args);

/* Checks a plan exhaustively against its own range [lo, hi) (done for
 * every plan built when $LOOM_CHECK_PLANS=1), reading only the map rows
 * of elements in range: every element of [lo, hi) in exactly one block,
 * once, and no block outside it; no two blocks of one colour, and no two
 * elements of one colour within a block, write the same target element.
 * Returns LOOM_OK, or LOOM_EMISMATCH after reporting the first
 * violation. */
int loom__plan_check(const loom__plan *plan, loom_set set, int nargs,
                     const loom__plan_arg *args);

/* An owner-computes plan (for a loop whose writes through maps are all
 * increments into one target set): the whole target set split into
 * nparts contiguous ranges [part_lo[p], part_lo[p+1]); part p runs
 * elements elems[elem_start[p] .. elem_start[p+1]) (absolute indices from
 * [lo, hi), ascending), applying only the increments into its range.
 * The same elements as runs of consecutive ones: run r is [runs[2r],
 * runs[2r+1]), part p's runs are r in [run_start[p], run_start[p+1]), so
 * that a part's loop addresses its elements directly, as seq's does.
 * Results are bit-identical to seq. */
typedef struct loom__ocplan {
  int nparts, nelems;    /* nelems == hi - lo */
  const int *part_lo;    /* nparts + 1 */
  const int *elem_start; /* nparts + 1 */
  const int *elems;
  int lo, hi;            /* the elements covered: [lo, hi) of the set */
  const int *run_start;  /* nparts + 1 */
  const int *runs;       /* 2 per run: its first element and the one after */
} loom__ocplan;

/* The owner-computes plan of a loop over the whole set: exactly
 * loom__ocplan_get_range(loop, set, 0, loom__set_total(set), nparts,
 * nargs, args). */
const loom__ocplan *loom__ocplan_get(const char *loop, loom_set set, int nparts,
                                     int nargs, const loom__plan_arg *args);
/* The owner-computes plan of a loop over the elements [lo, hi) of `set`:
 * the parts still split the whole target set, balanced by the increments
 * of the elements in range; only their map rows are read.  Cached per
 * (loop, set, range, nparts, written maps).  0 <= lo <= hi <=
 * loom__set_total(set), else LOOM_EINVAL (naming the loop); an empty
 * range gives parts with no elements.  NULL after an error was
 * reported. */
const loom__ocplan *loom__ocplan_get_range(const char *loop, loom_set set,
                                           int lo, int hi, int nparts,
                                           int nargs,
                                           const loom__plan_arg *args);
/* Checks an owner-computes plan exhaustively against its own range (also
 * done for every plan built when $LOOM_CHECK_PLANS=1), reading only the
 * map rows of elements in range: the parts' ranges partition the target
 * set, and part p lists, ascending and once each, exactly the elements of
 * the range that increment a target in its range, and nothing else. */
int loom__ocplan_check(const loom__ocplan *plan, loom_set set, int nargs,
                       const loom__plan_arg *args);

/* The element matrices of pair (rmap, cmap) of A's sparsity, for the loop
 * over rmap's from-set: element e's block starts at base + e * (ra * rdim)
 * * (ca * cdim) (ra, ca: the maps' arities), row-major [ra * rdim][ca *
 * cdim], components interleaved (row i * rdim + r, column j * cdim + c),
 * e in the runtime's storage order of the iteration set (libloom_mpi: its
 * local index; a slot for every local element, of which the elements [0,
 * exec) count, as a loop writing through maps runs them).  Kernels only add
 * to these values ("inc"); they accumulate until loom_mat_zero.  Calling
 * this marks A pending (assembly needed); a pending $LOOM_RENUMBER=1 is
 * applied first, as at a loop's start.  Host code only (the pointer is
 * shared by the loop's threads: each element has its own block).  NULL
 * after an error: LOOM_EINVAL when (rmap, cmap) is not a pair of A's
 * sparsity. */
double *loom__mat_values(loom_mat A, loom_map rmap, loom_map cmap);
/* A loop writing pair (rmap, cmap) of A (mode write): the element
 * matrices it fills, laid out as loom__mat_values's, all 0 (the kernel's
 * element matrix is inserted whole), in a scratch buffer of A's; then,
 * after the loop, loom__mat_write_end makes each entry the loop reached
 * equal the value written there by the element with the highest declared
 * number (the last in row-major order within that element); other entries
 * keep theirs.  Host code only; local under MPI (each rank its executed
 * elements and owned rows).  NULL, or a status other than LOOM_OK, after
 * an error (as loom__mat_values). */
double *loom__mat_write_values(loom_mat A, loom_map rmap, loom_map cmap);
int loom__mat_write_end(loom_mat A, loom_map rmap, loom_map cmap);
/* A matrix argument's check: A is a live matrix with rdim x cdim blocks,
 * the block sizes loomc read from its declaration.  LOOM_EMISMATCH (or
 * LOOM_EINVAL without PETSc) naming the loop and the argument. */
int loom__check_mat(loom_mat A, int rdim, int cdim, const char *loop, int arg);

/* A scratch buffer of at least `bytes` bytes owned by the runtime, one per
 * `slot` (0..15), reused across calls and freed by loom_exit. */
void *loom__scratch(int slot, size_t bytes);

/* Per-loop timing: generated code reads loom__wall() when a loop starts
 * and calls loom__loop_done() when it ends; before that,
 * loom__loop_traffic() with the elements it ran (owned), the bytes the
 * call moved (each element of each
 * dat once, maps' indices included, as loomc counts them from the
 * arguments) and the floating-point operations its kernels did (counted
 * from their text), for LOOM_DIAG's GB/s and GFLOP/s columns. */
double loom__wall(void);
void loom__loop_traffic(const char *loop, double elems, double bytes, double flops);
void loom__loop_done(const char *loop, double t0);
/* The threads of a parallel region: before it, loom__thread_ends(n) (a
 * buffer of n slots, or NULL when out of memory); each thread, when its
 * share is done, writes loom__wall() into its slot; after it,
 * loom__threads_done(loop, ends, n) adds to each thread how long it
 * waited for the last (LOOM_DIAG's table says it per loop). */
double *loom__thread_ends(int n);
void loom__threads_done(const char *loop, const double *ends, int n);

/* A group function with staged loops runs them staged or element by
 * element, as its tuner says (a static of its own, zero-initialised):
 * loom__tune_pick when it starts (nonzero: staged), loom__tune_done with
 * that pick and its start time when it ends.  The first calls alternate
 * and are timed; then the faster stays ($LOOM_VECTOR=0|1 forces one).
 * Under OpenMP, loom__tune_threads first, with the number of threads
 * the loop runs on: when it changes, the tuner times both ways again. */
typedef struct loom__tuner {
  int calls;
  int staged;
  double best[2]; /* the best time of each: element by element, staged */
  int threads;    /* the thread count it chose for (0: not said) */
} loom__tuner;
void loom__tune_threads(loom__tuner *t, int threads);
int loom__tune_pick(const loom__tuner *t);
void loom__tune_done(loom__tuner *t, int pick, double t0, const char *loop);
/* Nonzero when such a function runs its AVX-512 twin (generated where the
 * C compiler allows, loomc's emit/cpu_avx512.c): the CPU has AVX-512 (F, VL,
 * BW, DQ, CD) and $LOOM_AVX512 is not 0. */
int loom__twin_avx512(void);
/* The twins' macros (loomc's emit/cpu_avx512.c): where LOOM_TWINS is 1
 * (GCC on x86-64 building below AVX-512, without -DLOOM_NO_TWINS: the
 * condition the generated file's own tuning repeats), a function NAME
 * that times its turns is written as NAME_body (LOOM_TWIN_INLINE) and
 * NAME_avx512 (LOOM_TWIN_TARGET), and LOOM_TWIN(NAME, (args)) runs the
 * twin where the CPU has AVX-512; elsewhere NAME_body. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && \
    defined(__x86_64__) && !defined(__AVX512F__) && !defined(LOOM_NO_TWINS)
#define LOOM_TWINS 1
#define LOOM_TWIN_INLINE __attribute__((always_inline))
#define LOOM_TWIN_TARGET                                                       \
  __attribute__((target(                                                       \
      "avx512f,avx512vl,avx512bw,avx512dq,avx512cd,prefer-vector-width=512")))
#define LOOM_TWIN(f, args)                                                     \
  (loom__twin_avx512() ? f##_avx512 args : f##_body args)
#else
#define LOOM_TWINS 0
#define LOOM_TWIN_INLINE
#define LOOM_TWIN(f, args) f##_body args
#endif
/* LOOM_LOOP_FN, on the function a par_loop's call reaches: it stays a
 * function of its own.  Inlined into main(), which GCC knows runs once, a
 * loop's code was judged cold and left unvectorized (GCC 12: a staged
 * loop's lanes ran element by element, 1.4x slower). */
#if defined(LOOM_LOOP_FN)
#elif defined(__GNUC__)
#define LOOM_LOOP_FN __attribute__((noinline))
#else
#define LOOM_LOOP_FN
#endif
/* LOOM_IVDEP, before a loop of lanes: no iteration touches what another
 * writes (-DLOOM_IVDEP=...: the builder's own). */
#if defined(LOOM_IVDEP)
#elif defined(__clang__)
#define LOOM_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && !defined(__INTEL_COMPILER)
#define LOOM_IVDEP _Pragma("GCC ivdep")
#else
#define LOOM_IVDEP
#endif

/* LOOM__ADD_ROW(T, n, p, v0, ..., vn-1): p[k] += vk for each k, the n
 * components of one row of a dat of T, as one vector add where the C
 * compiler has GNU vector types (each component's sum is the same IEEE
 * addition either way: results do not change).  Generated code adds a
 * strip's increments through maps to their rows with it, in element order;
 * loomc uses it only for the (T, n) below.  -DLOOM_NO_VECTOR_ROWS: the
 * plain loop. */
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ROW_TYPE(T, n, bytes)                                            \
  typedef T loom__row_##T##_##n                                                \
      __attribute__((vector_size(bytes), aligned(sizeof(T)), may_alias))
LOOM__ROW_TYPE(double, 2, 16);
LOOM__ROW_TYPE(double, 4, 32);
LOOM__ROW_TYPE(double, 8, 64);
LOOM__ROW_TYPE(float, 4, 16);
LOOM__ROW_TYPE(float, 8, 32);
LOOM__ROW_TYPE(float, 16, 64);
LOOM__ROW_TYPE(int, 4, 16);
LOOM__ROW_TYPE(int, 8, 32);
LOOM__ROW_TYPE(int, 16, 64);
#undef LOOM__ROW_TYPE
#define LOOM__ADD_ROW(T, n, p, ...)                                            \
  ((void)(*(loom__row_##T##_##n *)(p) += (loom__row_##T##_##n){__VA_ARGS__}))
#else
#define LOOM__ADD_ROW(T, n, p, ...)                                            \
  do {                                                                         \
    const T loom__row_[n] = {__VA_ARGS__};                                     \
    T *const loom__at_ = (p);                                                  \
    for (int loom__k_ = 0; loom__k_ < (n); loom__k_++)                         \
      loom__at_[loom__k_] += loom__row_[loom__k_];                             \
  } while (0)
#endif

/* Eight elements' rows at a time, for a strip laid out component by
 * component (a strip local T[n][stride]): loom__rows8_double_N(r, c,
 * stride) sets r[k] to the row of element k, whose component v is
 * c[v * stride + k] (c: the first element's component 0); then
 * LOOM__ADD_ROWV(T, n, p, r[k]) adds a row to p[0..n-1], element by element
 * as generated code calls it.  Where __builtin_shufflevector exists the
 * rows come from the components' vectors by shuffles (a transposition in
 * registers: a few instructions instead of n loads per row); else one by
 * one (or with -DLOOM_NO_ROW_SHUFFLES).  Either way the sums are those of
 * LOOM__ADD_ROW.  For double x 2 and x 4, the rows loomc adds this way. */
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ADD_ROWV(T, n, p, row)                                           \
  ((void)(*(loom__row_##T##_##n *)(p) += (row)))
#if defined(__has_builtin) && !defined(LOOM_NO_ROW_SHUFFLES)
#if __has_builtin(__builtin_shufflevector)
#define LOOM__ROWS_BY_SHUFFLES 1
#endif
#endif
#else
typedef struct loom__row_double_2 {
  double v[2];
} loom__row_double_2;
typedef struct loom__row_double_4 {
  double v[4];
} loom__row_double_4;
#define LOOM__ADD_ROWV(T, n, p, row)                                           \
  do {                                                                         \
    T *const loom__at_ = (p);                                                  \
    for (int loom__k_ = 0; loom__k_ < (n); loom__k_++)                         \
      loom__at_[loom__k_] += (row).v[loom__k_];                                \
  } while (0)
#endif
#if defined(LOOM__ROWS_BY_SHUFFLES)
typedef double loom__v8_double
    __attribute__((vector_size(64), aligned(sizeof(double)), may_alias));
#define LOOM__SHUF __builtin_shufflevector
static inline __attribute__((always_inline)) void
loom__rows8_double_2(loom__row_double_2 r[8], const double *c, int stride) {
  const loom__v8_double c0 = *(const loom__v8_double *)c;
  const loom__v8_double c1 = *(const loom__v8_double *)(c + stride);
  const loom__v8_double lo = LOOM__SHUF(c0, c1, 0, 8, 1, 9, 2, 10, 3, 11);
  const loom__v8_double hi = LOOM__SHUF(c0, c1, 4, 12, 5, 13, 6, 14, 7, 15);
  r[0] = LOOM__SHUF(lo, lo, 0, 1), r[1] = LOOM__SHUF(lo, lo, 2, 3);
  r[2] = LOOM__SHUF(lo, lo, 4, 5), r[3] = LOOM__SHUF(lo, lo, 6, 7);
  r[4] = LOOM__SHUF(hi, hi, 0, 1), r[5] = LOOM__SHUF(hi, hi, 2, 3);
  r[6] = LOOM__SHUF(hi, hi, 4, 5), r[7] = LOOM__SHUF(hi, hi, 6, 7);
}
static inline __attribute__((always_inline)) void
loom__rows8_double_4(loom__row_double_4 r[8], const double *c, int stride) {
  const loom__v8_double c0 = *(const loom__v8_double *)c;
  const loom__v8_double c1 = *(const loom__v8_double *)(c + stride);
  const loom__v8_double c2 = *(const loom__v8_double *)(c + 2 * stride);
  const loom__v8_double c3 = *(const loom__v8_double *)(c + 3 * stride);
  /* t0: components 0, 1 of elements 0, 2, 4, 6; t1: of 1, 3, 5, 7; t2, t3:
   * components 2, 3 of the same; u0: rows 0 and 4, u1: 1 and 5, ... */
  const loom__v8_double t0 = LOOM__SHUF(c0, c1, 0, 8, 2, 10, 4, 12, 6, 14);
  const loom__v8_double t1 = LOOM__SHUF(c0, c1, 1, 9, 3, 11, 5, 13, 7, 15);
  const loom__v8_double t2 = LOOM__SHUF(c2, c3, 0, 8, 2, 10, 4, 12, 6, 14);
  const loom__v8_double t3 = LOOM__SHUF(c2, c3, 1, 9, 3, 11, 5, 13, 7, 15);
  const loom__v8_double u0 = LOOM__SHUF(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
  const loom__v8_double u1 = LOOM__SHUF(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
  const loom__v8_double u2 = LOOM__SHUF(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  const loom__v8_double u3 = LOOM__SHUF(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
  r[0] = LOOM__SHUF(u0, u0, 0, 1, 2, 3), r[4] = LOOM__SHUF(u0, u0, 4, 5, 6, 7);
  r[1] = LOOM__SHUF(u1, u1, 0, 1, 2, 3), r[5] = LOOM__SHUF(u1, u1, 4, 5, 6, 7);
  r[2] = LOOM__SHUF(u2, u2, 0, 1, 2, 3), r[6] = LOOM__SHUF(u2, u2, 4, 5, 6, 7);
  r[3] = LOOM__SHUF(u3, u3, 0, 1, 2, 3), r[7] = LOOM__SHUF(u3, u3, 4, 5, 6, 7);
}
#undef LOOM__SHUF
#else
#define LOOM__ROWS8_ONE_BY_ONE(n)                                              \
  static inline void loom__rows8_double_##n(loom__row_double_##n r[8],         \
                                            const double *c, int stride) {     \
    for (int k = 0; k < 8; k++)                                                \
      for (int v = 0; v < (n); v++)                                            \
        LOOM__ROW_SET(r[k], v, c[v * stride + k]);                             \
  }
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ROW_SET(row, comp, x) ((row)[comp] = (x))
#else
#define LOOM__ROW_SET(row, comp, x) ((row).v[comp] = (x))
#endif
LOOM__ROWS8_ONE_BY_ONE(2)
LOOM__ROWS8_ONE_BY_ONE(4)
#undef LOOM__ROWS8_ONE_BY_ONE
#undef LOOM__ROW_SET
#endif

/* Raw storage, element-major.  loom__set_size: the number of elements
 * (after MPI partitioning: the owned ones, see loom__set_owned). */
int loom__set_size(loom_set set);
const int *loom__map_values(loom_map map);
loom_set loom__map_to(loom_map map); /* the target set, NULL on NULL */
/* How many distinct target elements the map reaches from the owned
 * elements of its set (computed once; for loom__loop_traffic). */
int loom__map_reach(loom_map map);
void *loom__dat_values(loom_dat dat);
/* Temporary t uses owner's storage from now on (same size; loomc emits
 * this where their lifetimes in a block do not overlap).  The values of t
 * before its next write are unspecified. */
int loom__dat_share(loom_dat t, loom_dat owner);

/* Temporary t keeps `dim` values per element from now on, the components
 * its readers name (loomc emits this before each loop naming a temporary
 * it narrowed, transform/narrow.h; the loops are compiled for that dim).
 * Its storage is reallocated, zero-filled, at the first call: before any
 * loop has written t.  LOOM_OK, also when t has that dim already. */
int loom__dat_narrow(loom_dat t, int dim);

/* ---- distributed memory (generated code for --target=mpi) -------------- */

/* Called at the start of every generated loop function: partitions the
 * mesh at the first call (loom_partition(NULL, NULL), after a pending
 * $LOOM_RENUMBER=1, which renumbers the global mesh first, so blocks and
 * sections inherit its locality).  LOOM_OK, or the partition's status.
 * Without MPI: LOOM_OK. */
int loom__mpi_ready(void);

/* Local numbering of a set after partitioning, one contiguous range per
 * section (the isl domain [c, o, x] of the compiler):
 *   [0, core)      core: owned elements whose every entry, through every
 *                  map from the set, is an owned element (they need no
 *                  halo data);
 *   [core, owned)  owned boundary: the other owned elements;
 *   [owned, exec)  executed halo: elements owned by another rank that
 *                  some map from the set links to an element owned here
 *                  (executed redundantly, so increments into owned
 *                  elements are complete without reverse communication);
 *   [exec, total)  non-executed halo: elements owned elsewhere, not in the
 *                  executed halo, that an executed element (owned or
 *                  executed halo, of any set) reaches through a map.
 * Core and owned elements are in increasing global order; each halo
 * section is ordered by owner rank, then global order.  Map rows of local
 * elements in [0, exec) hold local indices of the target set (always
 * < its total); rows in [exec, total) hold -1 (never executed).  Dats
 * have `total` rows.  loom__set_size returns `owned` (the direct loop
 * bound), loom_set_size the global size.  Before partitioning and
 * without MPI: core == owned == exec == total == size. */
int loom__set_core(loom_set set);
int loom__set_owned(loom_set set);
int loom__set_exec(loom_set set);
int loom__set_total(loom_set set);
/* The declared (global) index of each of the `total` local elements (of
 * each element in storage order, after loom_renumber without MPI); NULL
 * when every element's index is its declared one (neither partitioned
 * nor renumbered).  Borrowed: valid until the next renumbering. */
const int *loom__set_global(loom_set set);

/* Halo exchange of one dat: its values at the set's halo elements (both
 * executed and non-executed halo) are received from their owners.  One
 * message per neighbour rank and direction, non-blocking (MPI_Isend /
 * MPI_Irecv), through send/receive buffers allocated at the dat's first
 * exchange and reused.  A dat whose halo is clean is not exchanged: begin
 * and end then do nothing.  Halos are clean after partitioning (every rank
 * had the global values); generated code calls loom__dat_dirty(d) after a
 * loop writes d (any mode but read), and loom__halo_end cleans it.
 * Collective in program order: every rank must call these for the same
 * dats in the same order (they do: the host program is the same).
 * begin twice without end is LOOM_ESTATE.  end without begin makes a stale
 * halo current on the spot, without overlap (loom__halo_unscheduled counts
 * those).  Without MPI: no-ops that return LOOM_OK. */
int loom__halo_begin(loom_dat dat);
int loom__halo_end(loom_dat dat);
void loom__dat_dirty(loom_dat dat);
int loom__dat_is_dirty(loom_dat dat); /* 1 dirty, 0 clean, -1 bad handle */
/* Messages sent by this rank's halo exchanges so far in this session
 * (for tests and diagnostics). */
long loom__halo_messages(void);
/* Exchanges made by a halo end without a begin, so far in this session. */
long loom__halo_unscheduled(void);
/* Lets MPI move the exchanges in flight along (MPI_Testall): called by
 * generated code between strips of core elements, so that messages too
 * large to be sent eagerly are transferred while the core computes. */
int loom__halo_progress(void);
/* Seconds this rank has spent waiting in loom__halo_end (printed per rank
 * at loom_exit under LOOM_DIAG=1, with the exchanges and messages). */
double loom__halo_wait(void);

/* Global reductions of a loop's global arguments, non-blocking
 * (MPI_Iallreduce in place): begin starts combining `count` values of
 * `type` at `values` across ranks, end waits; between them the values
 * must not be touched.  `values` holds this rank's contribution, which
 * should start from the identity of the operation (0 for inc; generated
 * code reduces into a local and then combines it with the user's
 * variable), since every rank's contribution is combined.  Sums of
 * floating-point values are not bit-identical to seq (MPI's order).
 * Without MPI: begin records, end returns LOOM_OK (values unchanged). */
enum { LOOM_REDUCE_INC = 1, LOOM_REDUCE_MIN = 2, LOOM_REDUCE_MAX = 3 };
typedef struct loom__reduction {
  void *values;
  int count;
  loom_type type;
  int op;
  int active; /* between begin and end */
  int copied; /* values is loom__reduce_start's copy */
  /* MPI_Request storage (opaque; an MPI_Request fits in it). */
  union {
    void *p;
    long long ll;
    double d;
    unsigned char bytes[32];
  } request;
} loom__reduction;
int loom__reduce_begin(loom__reduction *r, void *values, int count,
                       loom_type type, int op);
int loom__reduce_end(loom__reduction *r);
/* The same for a result needed later than the loop (the region's schedule
 * places the end where host code first uses the variable, dsl-spec/mpi.md):
 * start copies the `count` values (this rank's partial result) and starts
 * combining the copy; fold waits, folds the result into `var` — added for
 * inc, stored for min and max (whose partial results started from the
 * variable's value) — and frees the copy.  fold on a reduction that was not
 * started does nothing; starting one again before its fold is an error.
 * `r` must live until fold (the generated code makes it a static). */
int loom__reduce_start(loom__reduction *r, const void *values, int count,
                       loom_type type, int op);
int loom__reduce_fold(loom__reduction *r, void *var);

#ifdef __cplusplus
}
#endif

#endif /* LOOM_GEN_H */
