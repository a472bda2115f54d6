/*
 * target_mpi.c — the MPI backend (links libloom_mpi.a): every rank runs
 * the loop on its own part of the mesh, owner-computes, the loop's halo
 * exchanges overlapped with its core elements.
 *
 * The runtime numbers each set on each rank as core | owned boundary |
 * executed halo | non-executed halo (dsl-spec/mpi.md), the ranges
 * [0, c), [c, o), [o, x) of the loop's isl domain.  A group runs as:
 *
 *   loom__mpi_ready()              partitions at the first loop
 *   loom__halo_begin(d) ...        for each dat read through a map (and,
 *                                  when the executed halo runs, each dat
 *                                  read directly): sent only when dirty
 *   elements [0, c)                core: they read no halo; every 4096
 *                                  elements, loom__halo_progress() lets
 *                                  MPI transfer messages too large to go
 *                                  eagerly (else they wait for the end)
 *   loom__halo_end(d) ...
 *   elements [c, o)                owned boundary, or [c, x) when the
 *                                  group increments or writes through a
 *                                  map: the executed halo's contributions
 *                                  to owned elements are this rank's
 *   loom__dat_dirty(d) ...         every dat written: its halo is stale
 *   reductions                     a local from the identity over owned
 *                                  elements, then MPI_Iallreduce
 *                                  (loom__reduce_begin/end), folded into
 *                                  the variable
 *
 * `idx` passes the element's declared number (loom__set_global).  The
 * exchanges of one loop overlap its own core elements; moving them across
 * loops by the region's schedule (dag.c) is not done yet.
 */
#include <string.h>

#include "place.h"
#include "target_openmp.h"

static int writes_through_map(cg *g, const group *gr) {
  vec args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++)
    if (arg_writes_indirectly(args.items[i]))
      return 1;
  return 0;
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
static int reads_halo(const group *gr) {
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (loop_arg_needs_halo(lp, &lp->args[i]))
        return 1;
  }
  return 0;
}

static int written_dat(const loop *lp, const loop_arg *a) {
  (void)lp;
  return a->obj && a->obj->kind == OBJ_DAT && a->mode != MODE_READ;
}

/* What the MPI code cannot do yet: reduce while running the executed
 * halo (its elements would count twice). */
static void check_supported(cg *g, const group *gr) {
  int exec = writes_through_map(g, gr);
  vec args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (exec && arg_is_reduction(a))
      diag(DIAG_ERROR, a->loc, a->len ? a->len : 1,
           "reducing '%s' in a loop that writes through a map is not supported "
           "with --target=mpi yet", a->name);
  }
}

/* mpi+openmp: the threads' block partials are combined into this rank's
 * total, loom_rank_NAME; mpi: the kernel accumulates into it directly. */
static int threaded(const cg *g) { return strcmp(cg_target(g), "mpi+openmp") == 0; }

static const char *rank_total(cg *g, const loop_arg *a) {
  return threaded(g) ? arena_printf(cg_arena(g), "loom_rank_%s", a->obj->name)
                     : cg_reduction_local(g, a);
}

static void mpi_loop_begin(cg *g, const group *gr) {
  check_supported(g, gr);
  cg_line(g, "if (loom__mpi_ready() != LOOM_OK)");
  cg_line(g, "  return;");
  vec args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++)
    if (arg_is_reduction(args.items[i]))
      cg_declare_local(g, args.items[i], rank_total(g, args.items[i]),
                       cg_reduction_identity(g, args.items[i]));
  int exec = writes_through_map(g, gr);
  if (reads_halo(gr))
    cg_line(g, "const int loom_core = loom__set_core(%s);", cg_set(gr)->name);
  cg_line(g, "const int loom_end = loom__set_%s(%s);", exec ? "exec" : "owned",
          cg_set(gr)->name);
}

/* Two element loops around the halo exchanges; one when there is none. */
static int mpi_parts(cg *g, const group *gr) {
  (void)g;
  return reads_halo(gr) ? 2 : 1;
}

static void mpi_iterate_begin(cg *g, const group *gr, int part) {
  if (!reads_halo(gr)) {
    cg_loop_begin(g, "0", "loom_end");
    return;
  }
  if (part == 0) {
    cg_line(g, "/* core elements: they read no halo (its exchange began at the "
               "point the region's schedule chose) */");
    cg_loop_begin(g, "0", "loom_core");
    cg_line(g, "if ((%s & 4095) == 4095) /* let MPI move the halo messages along */",
            cg_elem(g));
    cg_line(g, "  loom__halo_progress();");
    return;
  }
  each_dat(g, gr, loop_arg_needs_halo, "loom__halo_end(%s);");
  cg_line(g, "/* owned boundary%s */",
          writes_through_map(g, gr) ? " and executed halo" : "");
  cg_loop_begin(g, "loom_core", "loom_end");
}

static void mpi_iterate_end(cg *g, const group *gr, int part) {
  (void)gr;
  (void)part;
  cg_loop_end(g);
}

/* mpi+openmp: each part runs on the threads, on plans for its range (map
 * rows beyond the executed halo are not valid); the core part lets MPI
 * progress from the main thread. */
static omp_range part_range(const group *gr, int part) {
  int two = reads_halo(gr);
  return (omp_range){two && part == 1 ? "loom_core" : "0", two && part == 0 ? "loom_core"
                                                                             : "loom_end",
                     1, two && part == 0, "loom_rank_%s"};
}

static void mpiomp_iterate_begin(cg *g, const group *gr, int part) {
  if (reads_halo(gr) && part == 1) {
    each_dat(g, gr, loop_arg_needs_halo, "loom__halo_end(%s);");
    cg_line(g, "/* owned boundary%s */", writes_through_map(g, gr) ? " and executed halo" : "");
  } else if (reads_halo(gr)) {
    cg_line(g, "/* core elements: they read no halo */");
  }
  cg_line(g, "{");
  cg_indent(g, 1);
  omp_range r = part_range(gr, part);
  omp_range_begin(g, gr, &r);
}

static void mpiomp_iterate_end(cg *g, const group *gr, int part) {
  omp_range r = part_range(gr, part);
  omp_range_end(g, gr, &r);
  cg_indent(g, -1);
  cg_line(g, "}");
}

static const char *reduce_op(const loop_arg *a) {
  return a->mode == MODE_INC ? "LOOM_REDUCE_INC"
         : a->mode == MODE_MIN ? "LOOM_REDUCE_MIN" : "LOOM_REDUCE_MAX";
}

/* The rank's partial result starts combining over all ranks; the region's
 * schedule folds it into the variable later (place.h). */
static void emit_reduction(cg *g, const loop *lp, const loop_arg *a) {
  const char *local = rank_total(g, a);
  cg_line(g, "if (loom__reduce_start(&%s, %s%s, %d, %s, %s) != LOOM_OK)",
           place_reduction_handle(cg_arena(g), lp, a->obj), a->obj->dim == 1 ? "&" : "",
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

/* `idx` is the element's declared (global) number, as in seq: the rank's
 * local element `elem` maps to it through loom__set_global. */
static const char *mpi_idx_value(cg *g, const loop *lp, const char *elem) {
  /* NULL when linked with the serial libloom: then local == declared */
  return arena_printf(cg_arena(g), "loom__set_global(%s) ? loom__set_global(%s)[%s] : %s",
                      lp->set->name, lp->set->name, elem, elem);
}

const backend backend_mpi_openmp = {
    .name = "mpi+openmp",
    .prelude = mpi_prelude,
    .loop_begin = mpi_loop_begin,
    .loop_end = mpi_loop_end,
    .parts = mpi_parts,
    .iterate_begin = mpiomp_iterate_begin,
    .iterate_end = mpiomp_iterate_end,
    .write_target = omp_write_target,
    .idx_value = mpi_idx_value,
};

const backend backend_mpi = {
    .name = "mpi",
    .prelude = mpi_prelude,
    .loop_begin = mpi_loop_begin,
    .loop_end = mpi_loop_end,
    .parts = mpi_parts,
    .iterate_begin = mpi_iterate_begin,
    .iterate_end = mpi_iterate_end,
    .idx_value = mpi_idx_value,
};
