/*
 * target_mpi.c — the MPI backends (link libloom_mpi.a): every rank runs
 * the loop on its own part of the mesh, owner-computes; `mpi+openmp` runs
 * each part on the rank's threads as well.
 *
 * The runtime numbers each set on each rank as core | owned boundary |
 * executed halo | non-executed halo (dsl-spec/mpi.md), the ranges
 * [0, c), [c, o), [o, x) of the loop's isl domain.  The exchanges begin
 * in the caller, where the region's schedule put their sends (place.h).
 * A group runs as:
 *
 *   loom__mpi_ready()              partitions at the first loop
 *   elements [0, c)                core (when a halo is read): they read
 *                                  no halo; every 4096 elements (between
 *                                  colours, with threads) the main thread
 *                                  lets MPI move the messages along
 *   loom__halo_end(d) ...          each dat read through a map, or read
 *                                  directly when the executed halo runs
 *                                  (the core and this part are one C
 *                                  loop over loom_part, written once)
 *   elements [c, o)                owned boundary, or [c, x) when the
 *                                  group writes through a map: the
 *                                  executed halo's contributions to owned
 *                                  elements are this rank's
 *   elements [o, x)                ... in a part of its own when the group
 *                                  also reduces: its contributions to the
 *                                  reductions are discarded (the owners
 *                                  count those elements)
 *   loom__dat_dirty(d) ...         every dat written: its halo is stale
 *   loom__reduce_start(...)        each reduction, from the identity over
 *                                  owned elements, on a file-scope handle;
 *                                  the caller folds it in where the
 *                                  schedule ends it (loom__reduce_fold)
 *
 * With threads, each part runs on plans for its own range
 * (target_openmp.h), the map rows of non-executed elements being invalid.
 */
#include <string.h>

#include "transform/place.h"
#include "emit/target_openmp.h"

/* Whether the group runs its executed halo (fusion keeps loops that do
 * and loops that do not apart). */
static int writes_through_map(cg *g, const group *gr) {
  (void)g;
  return loop_executes_halo(gr->loops.items[0]);
}

/* Calls `fmt` (one %s: the dat) once per distinct dat whose argument
 * `pick` selects, over the group's loops. */
static void each_dat(cg *g, const group *gr, int (*pick)(const loop *, const loop_arg *),
                     const char *fmt) {
  vec seen = {0};
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      int dup = 0;
      for (int k = 0; k < seen.len && !dup; k++)
        dup = seen.items[k] == a->obj;
      if (dup || !pick(lp, a))
        continue;
      vec_push(cg_arena(g), &seen, (void *)a->obj);
      cg_line(g, fmt, a->obj->name);
    }
  }
}

/* Whether the group reads any halo. */
static int reads_halo(cg *g, const group *gr) { return cg_halo_dats(g, gr).len > 0; }

static int written_dat(const loop *lp, const loop_arg *a) {
  (void)lp;
  return a->obj && a->obj->kind == OBJ_DAT && a->mode != MODE_READ;
}

/* Whether the group runs its executed halo and reduces: the executed
 * halo's contributions to the reductions must then be left out. */
static int split_reductions(cg *g, const group *gr) {
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len && writes_through_map(g, gr); i++)
    if (arg_is_reduction(args.items[i]))
      return 1;
  return 0;
}

/* mpi+openmp: the threads' block partials are combined into this rank's
 * total, loom_rank_NAME; mpi: the kernel accumulates into it directly. */
static int threaded(const cg *g) { return cg_target(g)->threaded; }

static const char *rank_total(cg *g, const loop_arg *a) {
  return threaded(g) ? arena_printf(cg_arena(g), "loom_rank_%s", a->obj->name)
                     : cg_reduction_local(g, a);
}

static void mpi_loop_begin(cg *g, const group *gr) {
  cg_line(g, "if (loom__mpi_ready() != LOOM_OK)");
  cg_line(g, "  return;");
  int exec = writes_through_map(g, gr);
  if (reads_halo(g, gr))
    cg_line(g, "const int loom_core = loom__set_core(%s);", cg_set_handle(g, cg_set(gr)));
  cg_line(g, "const int loom_end = loom__set_%s(%s);", exec ? "exec" : "owned",
          cg_set_handle(g, cg_set(gr)));
  if (split_reductions(g, gr))
    cg_line(g, "const int loom_owned = loom__set_owned(%s);", cg_set_handle(g, cg_set(gr)));
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++)
    if (arg_is_reduction(args.items[i]))
      cg_declare_local(g, args.items[i], rank_total(g, args.items[i]),
                       cg_reduction_identity(g, args.items[i]));
}

/* The element loops of a group:
 *   [0, core)        core elements (only when a halo is read): no halo
 *                    read, the exchanges travel meanwhile;
 *   [core, end)      after the halo ends: the owned boundary, and the
 *                    executed halo when the group writes through a map;
 *   [owned, exec)    when such a group also reduces: the executed halo on
 *                    its own, its contributions to reductions discarded
 *                    (their owners count those elements).
 */
typedef struct part {
  const char *lo, *hi;
  int halo, discard; /* halo: the core, then the rest once the halo is in */
} part;

/* The parts written: the first two ranges, which differ only in their
 * bounds, are one C loop over loom_part (0: the core, 1: the rest), so
 * that the group's loop is written once. */
static int parts_of(cg *g, const group *gr, part *out) {
  int n = 0, split = split_reductions(g, gr);
  const char *end = split ? "loom_owned" : "loom_end";
  if (reads_halo(g, gr))
    out[n++] = (part){"loom_from", "loom_to", 1, 0};
  else
    out[n++] = (part){"0", end, 0, 0};
  if (split)
    out[n++] = (part){"loom_owned", "loom_end", 0, 1};
  return n;
}

static part part_at(cg *g, const group *gr, int k) {
  part ps[3];
  parts_of(g, gr, ps);
  return ps[k];
}

static int mpi_parts(cg *g, const group *gr) {
  part ps[3];
  return parts_of(g, gr, ps);
}

/* The name of a discarded reduction local: the kernels' own (mpi, in a
 * block of its own) or one the threads' partials are combined into. */
static const char *discard_local(cg *g, const loop_arg *a, int threads) {
  return threads ? arena_printf(cg_arena(g), "loom_halo_%s", a->obj->name)
                 : cg_reduction_local(g, a);
}

/* The core, then (loom_part 1) the halo ends and the rest: the loop over
 * the two and their bounds. */
static void halo_parts_begin(cg *g, const group *gr) {
  obj_list halo = cg_halo_dats(g, gr);
  cg_line(g, "for (int loom_part = 0; loom_part < 2; loom_part++) { /* the core, then the rest */");
  cg_indent(g, 1);
  cg_line(g, "if (loom_part == 1)%s /* the core reads no halo; the %s does */",
          halo.len > 1 ? " {" : "", writes_through_map(g, gr) && !split_reductions(g, gr)
                                        ? "owned boundary and executed halo" : "owned boundary");
  for (int i = 0; i < halo.len; i++)
    cg_line(g, "  loom__halo_end(%s);", ((const obj *)halo.items[i])->name);
  if (halo.len > 1)
    cg_line(g, "}");
  cg_line(g, "const int loom_from = loom_part ? loom_core : 0, loom_to = loom_part ? %s : loom_core;",
          split_reductions(g, gr) ? "loom_owned" : "loom_end");
}

/* What precedes a part's loop: for the core and the rest, their loop; for
 * the discarded executed halo, a comment and a block with its own
 * reduction locals; for the threads, a block to scope the part's plan. */
static void part_begin(cg *g, const group *gr, const part *p, int threads) {
  if (p->halo) {
    halo_parts_begin(g, gr);
    return;
  }
  if (p->discard)
    cg_line(g, "/* executed halo: its increments are this rank's to compute, its "
               "reductions its owners' */");
  if (!p->discard && !threads)
    return;
  cg_line(g, "{");
  cg_indent(g, 1);
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; p->discard && i < args.len; i++)
    if (arg_is_reduction(args.items[i]))
      cg_declare_local(g, args.items[i], discard_local(g, args.items[i], threads),
                       cg_reduction_identity(g, args.items[i]));
}

static void part_end(cg *g, const group *gr, const part *p, int threads) {
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; p->discard && threads && i < args.len; i++)
    if (arg_is_reduction(args.items[i]))
      cg_line(g, "(void)%s;", discard_local(g, args.items[i], threads));
  if (!p->discard && !threads && !p->halo)
    return;
  cg_indent(g, -1);
  cg_line(g, "}");
}

static void mpi_iterate_begin(cg *g, const group *gr, int k) {
  part p = part_at(g, gr, k);
  part_begin(g, gr, &p, 0);
  cg_loop_begin(g, p.lo, p.hi);
  if (!p.halo)
    return;
  cg_line(g, "if (%s) /* let MPI move the halo messages along */", cg_every(g, 4096));
  cg_line(g, "  loom__halo_progress();");
}

static void mpi_iterate_end(cg *g, const group *gr, int k) {
  part p = part_at(g, gr, k);
  cg_loop_end(g);
  part_end(g, gr, &p, 0);
}

/* mpi+openmp: each part runs on the threads, on plans for its range (map
 * rows beyond the executed halo are not valid); the core and the rest
 * let MPI progress from the main thread. */
static omp_range part_range(const part *p) {
  return (omp_range){p->lo, p->hi, 1, p->halo, p->discard ? "loom_halo_%s" : "loom_rank_%s"};
}

static void mpiomp_iterate_begin(cg *g, const group *gr, int k) {
  part p = part_at(g, gr, k);
  omp_range r = part_range(&p);
  part_begin(g, gr, &p, 1);
  omp_range_begin(g, gr, &r);
}

static void mpiomp_iterate_end(cg *g, const group *gr, int k) {
  part p = part_at(g, gr, k);
  omp_range r = part_range(&p);
  omp_range_end(g, gr, &r);
  part_end(g, gr, &p, 1);
}

static const char *reduce_op(const loop_arg *a) {
  return a->mode == MODE_INC ? "LOOM_REDUCE_INC"
         : a->mode == MODE_MIN ? "LOOM_REDUCE_MIN" : "LOOM_REDUCE_MAX";
}

/* The rank's partial result starts combining over all ranks; the region's
 * schedule folds it into the variable later (place.h). */
static void emit_reduction(cg *g, const loop *lp, const loop_arg *a) {
  const char *local = rank_total(g, a);
  cg_line(g, "if (loom__reduce_start(%s, %s%s, %d, %s, %s) != LOOM_OK)",
           cg_reduction_handle(g, lp, a), a->obj->dim == 1 ? "&" : "",
           local, a->obj->dim, a->obj->type->loom_name, reduce_op(a));
  cg_line(g, "  return;");
  if (a->mode == MODE_INC) /* its identity is 0, not the variable's value */
    cg_line(g, "(void)%s; /* folded in by loom__reduce_fold */", a->obj->name);
}

/* File scope, before the group's function: the handles of its reductions,
 * which live from their start to their fold. */
static void mpi_prelude(cg *g, const group *gr) {
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (arg_is_reduction(&lp->args[i]))
        cg_line(g, "static loom__reduction %s; /* %s of %s (line %u) */",
                place_reduction_handle(cg_arena(g), lp, lp->args[i].obj),
                mode_name(lp->args[i].mode), lp->args[i].obj->name, lp->loc.line);
  }
}

static void mpi_loop_end(cg *g, const group *gr) {
  each_dat(g, gr, written_dat, "loom__dat_dirty(%s);");
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (arg_is_reduction(&lp->args[i]))
        emit_reduction(g, lp, &lp->args[i]);
  }
}

const backend backend_mpi_openmp = {
    .kind = TARGET_MPI_OPENMP,
    .prelude = mpi_prelude,
    .loop_begin = mpi_loop_begin,
    .loop_end = mpi_loop_end,
    .parts = mpi_parts,
    .iterate_begin = mpiomp_iterate_begin,
    .iterate_end = mpiomp_iterate_end,
    .write_target = omp_write_target,
    .owner_computes = omp_owner_computes,
    .simd = "#pragma omp simd",
    .twins = &cg_cpu_avx512,
    .twin_strips = 1,
    .threads = "omp_get_max_threads()",
    .reduction_handles = 1,
};

const backend backend_mpi = {
    .kind = TARGET_MPI,
    .prelude = mpi_prelude,
    .loop_begin = mpi_loop_begin,
    .loop_end = mpi_loop_end,
    .parts = mpi_parts,
    .iterate_begin = mpi_iterate_begin,
    .iterate_end = mpi_iterate_end,
    .twins = &cg_cpu_avx512,
    .reduction_handles = 1,
};
