/*
 * target_openmp.c — the OpenMP backend: loops run in parallel on the
 * threads of one process, race-free and deterministic.
 *
 *  - A direct loop with no reduction: `#pragma omp parallel for simd`; in
 *    strips (vectorize.h), `parallel for` over the strips, the staged
 *    kernels' loops marked `omp simd` (the backend's simd line).
 *  - A loop whose only writes are increments (or min, max) through maps
 *    into one target set (no direct write, no reduction) runs on an
 *    owner-computes plan
 *    (loom__ocplan_get): the target set is split into one contiguous range
 *    per thread; each thread runs, in order, the elements incrementing its
 *    range and applies only those increments, the others going to a
 *    scratch local.  Results are bit-identical to seq.
 *  - Any other loop that writes through a map, or reduces a global, runs
 *    on the runtime's colouring plan (loom__plan_get): blocks of consecutive
 *    elements, coloured so that blocks of one colour write disjoint target
 *    elements; colour after colour, the blocks of a colour run in
 *    parallel, the elements of a block in order (LOOM_OMP_BLOCKS,
 *    loom_gen.h).
 *  - A reduced global accumulates per block, in a local starting at the
 *    identity (0 for inc; the global's value for min and max); the partial
 *    results are then combined in block order.  Blocks depend on the block
 *    size, not on the number of threads, so results are identical whatever
 *    OMP_NUM_THREADS is.
 */
#include <string.h>

#include "emit/target_openmp.h"

/* Whether e and f may reach one dat.  Within a loop that is its group's
 * only one, two arguments of one alias class (alias.h) where one writes
 * and one goes through a map, not both increments, are distinct: the loop
 * checks it before it runs (codegen.c, loom__check_distinct). */
static int may_be_one(const group *gr, const effect *e, const effect *f) {
  if (gr->loops.len == 1 && e->arg && f->arg && e->by == f->by &&
      e->by == gr->loops.items[0] && (effect_writes(e) || effect_writes(f)) &&
      (e->via == VIA_MAP || f->via == VIA_MAP) &&
      !modes_commute(e->mode, f->mode))
    return e->o == f->o;
  return effects_overlap(e->o, f->o);
}

/* The target set of an owner-computes group, or NULL: every write is an
 * inc, min or max through a map into that set, and no dat it writes is
 * also accessed otherwise (its effects, effects.h). */
static const obj *oc_target(cg *g, const group *gr) {
  const obj *target = NULL;
  if (cg_extruded(gr))
    return NULL; /* a column's increments reach other columns' layers */
  effect_list fx = cg_effects(g, gr);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    if (!effect_writes(e))
      continue;
    if (e->via != VIA_MAP || !mode_commutes(e->mode) || (target && e->map->to != target))
      return NULL;
    target = e->map->to;
    for (int k = 0; k < fx.len; k++) {
      const effect *f = fx.items[k];
      if (may_be_one(gr, e, f) && !modes_commute(e->mode, f->mode))
        return NULL;
    }
  }
  return target;
}

/* A plan is needed to write through maps, and for reductions (their
 * partials are per block). */
static int needs_plan(cg *g, const group *gr) {
  effect_list fx = cg_effects(g, gr);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    if (effect_writes(e) && (e->via == VIA_MAP || e->o->kind == OBJ_GLOBAL))
      return 1;
  }
  return 0;
}

/* The per-block partials of reduction argument a, in a runtime scratch
 * buffer (one slot per reduction of the loop). */
static const char *partials(cg *g, const loop_arg *a) {
  return arena_printf(cg_arena(g), "loom_r_%s", a->obj->name);
}

/* Whether e writes a dat at the element itself that the group also
 * writes through a map (`inc: x, x[next[0]]`): the element's own values
 * must be coloured with the targets of the others. */
static int writes_own_and_mapped(const group *gr, const effect_list *fx, const effect *e) {
  if (e->via != VIA_ELEM || !effect_writes(e))
    return 0;
  for (int k = 0; k < fx->len; k++) {
    const effect *f = fx->items[k];
    if (may_be_one(gr, e, f) && f->via == VIA_MAP && effect_writes(f))
      return 1;
  }
  return 0;
}

/* The (map, slot) pairs the loops write through, each once, as
 * loom_writes[] ({NULL, 0}: the element itself, written directly where
 * the dat is also written through a map); returns how many. */
static int emit_write_list(cg *g, const group *gr) {
  arena *ar = cg_arena(g);
  vec seen = {0};
  effect_list fx = cg_effects(g, gr);
  for (int i = 0; i < fx.len; i++) {
    const effect *e = fx.items[i];
    int own = writes_own_and_mapped(gr, &fx, e);
    if (!(effect_writes(e) && e->via == VIA_MAP) && !own)
      continue;
    const char *map = own ? "NULL" : cg_map_handle(g, e->map);
    const char *pair = strcmp(map, "NULL") == 0 ? "{NULL, 0}"
                                                 : arena_printf(ar, "{%s, %d}", map, e->slot);
    int dup = 0;
    for (int j = 0; j < seen.len && !dup; j++)
      dup = strcmp(seen.items[j], pair) == 0;
    if (!dup)
      vec_push(ar, &seen, (void *)pair);
  }
  cg_line(g, "const loom__plan_arg loom_writes[] = {");
  for (int j = 0; j < seen.len; j++)
    cg_line(g, "    %s%s", (const char *)seen.items[j], j + 1 < seen.len ? "," : "");
  cg_line(g, "};");
  return seen.len;
}

static void emit_ocplan(cg *g, const group *gr, const omp_range *r) {
  int n = emit_write_list(g, gr);
  cg_line(g, "const loom__ocplan *const loom_oc =");
  if (r->ranged) {
    cg_line(g, "    loom__ocplan_get_range(loom_loop, %s, %s, %s, omp_get_max_threads(),",
            cg_set_handle(g, cg_set(gr)), r->lo, r->hi);
    cg_line(g, "                           %d, loom_writes);", n);
  } else
    cg_line(g, "    loom__ocplan_get(loom_loop, %s, omp_get_max_threads(), %d, loom_writes);",
            cg_set_handle(g, cg_set(gr)), n);
  cg_line(g, "if (!loom_oc)");
  cg_line(g, "  return;");
}

/* The scratch local taking argument a's increments into other parts. */
static const char *elsewhere(cg *g, const loop_arg *a) {
  const loop *owner = NULL;
  const group *gr = cg_group(g);
  for (int i = 0; i < gr->loops.len && !owner; i++) {
    const loop *lp = gr->loops.items[i];
    if (a >= lp->args && a < lp->args + lp->nargs)
      owner = lp;
  }
  return arena_printf(cg_arena(g), "loom_x%d_%d", owner ? cg_loop_num(g, owner) : 0, a->pos);
}

int omp_owner_computes(cg *g, const group *gr) { return oc_target(g, gr) != NULL; }

const char *omp_write_target(cg *g, const loop_arg *a, const char *index, const char *ptr) {
  if (!oc_target(g, cg_group(g)))
    return ptr;
  return arena_printf(cg_arena(g),
                      "(unsigned)(%s - loom_lo) < (unsigned)(loom_hi - loom_lo) ? %s : %s",
                      index, ptr, elsewhere(g, a));
}

/* A parallel region of n threads (a C expression), each noting when its
 * share ends (loom__thread_ends: LOOM_DIAG's waiting); `pragma` opens it. */
static void region_begin(cg *g, const char *n, const char *pragma) {
  cg_line(g, "double *const loom_ends = loom__thread_ends(%s);", n);
  cg_line(g, "%s", pragma);
  cg_line(g, "{");
  cg_indent(g, 1);
}

static void region_end(cg *g, const char *n) {
  cg_line(g, "if (loom_ends) /* this thread's share ends */");
  cg_line(g, "  loom_ends[omp_get_thread_num()] = loom__wall();");
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_line(g, "loom__threads_done(loom_loop, loom_ends, %s);", n);
}

static void oc_iterate_begin(cg *g, const group *gr, const omp_range *r) {
  emit_ocplan(g, gr, r);
  region_begin(g, "loom_oc->nparts", "#pragma omp parallel num_threads(loom_oc->nparts)");
  cg_line(g, "for (int loom_p = omp_get_thread_num(); loom_p < loom_oc->nparts;");
  cg_line(g, "     loom_p += omp_get_num_threads()) {");
  cg_indent(g, 1);
  cg_line(g, "const int loom_lo = loom_oc->part_lo[loom_p];");
  cg_line(g, "const int loom_hi = loom_oc->part_lo[loom_p + 1];");
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (mode_commutes(a->mode) && a->map)
      cg_line(g, "%s %s[%d] = {0}; /* %s into other parts */", a->obj->type->c_name,
              elsewhere(g, a), a->obj->dim,
              a->mode == MODE_INC ? "increments" : a->mode == MODE_MIN ? "minima" : "maxima");
  }
  cg_line(g, "const int loom_r1 = loom_oc->run_start[loom_p + 1];");
  cg_line(g, "for (int loom_r = loom_oc->run_start[loom_p]; loom_r < loom_r1; loom_r++) {");
  cg_indent(g, 1);
  cg_line(g, "const int loom_a = loom_oc->runs[2 * loom_r], loom_b = loom_oc->runs[2 * loom_r + 1];");
  cg_loop_begin(g, "loom_a", "loom_b");
  if (r->progress) {
    cg_line(g, "if (loom_p == 0 && %s) /* the main thread: MPI */", cg_every(g, 4096));
    cg_line(g, "  loom__halo_progress();");
  }
}

/* The colouring plan, for the (map, slot) pairs the loops write through. */
static void emit_conflicts(cg *g, const group *gr, const omp_range *r) {
  effect_list fx = cg_effects(g, gr);
  int any = 0;
  for (int i = 0; i < fx.len; i++)
    any |= effect_writes(fx.items[i]) && ((const effect *)fx.items[i])->via == VIA_MAP;
  int n = any ? emit_write_list(g, gr) : 0;
  const char *list = any ? "loom_writes" : "NULL";
  if (r->ranged) {
    cg_line(g, "const loom__plan *const loom_plan =");
    cg_line(g, "    loom__plan_get_range(loom_loop, %s, %s, %s, %d, %s);", cg_set_handle(g, cg_set(gr)),
            r->lo, r->hi, n, list);
  } else
    cg_line(g, "const loom__plan *const loom_plan = loom__plan_get(loom_loop, %s, %d, %s);",
            cg_set_handle(g, cg_set(gr)), n, list);
  cg_line(g, "if (!loom_plan)");
  cg_line(g, "  return;");
}

static void emit_partials(cg *g, const group *gr) {
  int slot = 0;
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (!arg_is_reduction(a))
      continue;
    const char *t = a->obj->type->c_name;
    cg_line(g, "%s *const %s = loom__scratch(%d, (size_t)loom_plan->nblocks * %d * sizeof(%s));",
            t, partials(g, a), slot++, a->obj->dim, t);
    cg_line(g, "if (!%s)", partials(g, a));
    cg_line(g, "  return;");
  }
}

/* A direct loop: its elements (or strips, whose kernel loops are simd)
 * shared among the threads. */
static void direct_begin(cg *g, const group *gr, const omp_range *r) {
  int simd = !r->progress && !cg_runs_strips(g, gr) && !cg_extruded(gr);
  region_begin(g, "omp_get_max_threads()", "#pragma omp parallel");
  cg_line(g, "#pragma omp for%s schedule(static) nowait", simd ? " simd" : "");
  cg_loop_begin(g, r->lo, r->hi);
  if (!r->progress)
    return;
  cg_line(g, "if (omp_get_thread_num() == 0 && %s) /* MPI: main thread */",
          cg_every(g, 4096));
  cg_line(g, "  loom__halo_progress();");
}

static void colours_begin(cg *g, const group *gr, const omp_range *r) {
  emit_conflicts(g, gr, r);
  emit_partials(g, gr);
  cg_line(g, "LOOM_OMP_BLOCKS%s(loom_plan, loom_b, loom_lo, loom_hi) {",
          r->progress ? "_POLLING" : "");
  cg_indent(g, 1);
  loop_arg_list args = cg_args(g, gr);
  for (int k = 0; k < args.len; k++)
    if (arg_is_reduction(args.items[k]))
      cg_declare_reduction_local(g, args.items[k], cg_reduction_identity(g, args.items[k]));
  cg_loop_begin(g, "loom_lo", "loom_hi");
}

void omp_range_begin(cg *g, const group *gr, const omp_range *r) {
  if (oc_target(g, gr))
    oc_iterate_begin(g, gr, r);
  else if (!needs_plan(g, gr))
    direct_begin(g, gr, r);
  else
    colours_begin(g, gr, r);
}

static void store_partials(cg *g, const group *gr) {
  loop_arg_list args = cg_args(g, gr);
  for (int k = 0; k < args.len; k++) {
    const loop_arg *a = args.items[k];
    if (!arg_is_reduction(a))
      continue;
    const char *local = cg_reduction_local(g, a);
    if (a->obj->dim == 1) {
      cg_line(g, "%s[loom_b] = %s;", partials(g, a), local);
      continue;
    }
    cg_line(g, "for (int loom_j = 0; loom_j < %d; loom_j++)", a->obj->dim);
    cg_line(g, "  %s[%d * loom_b + loom_j] = %s[loom_j];", partials(g, a),
            a->obj->dim, local);
  }
}

/* Folds one partial `p` into the element `x`, as the body of a loop
 * (`pad`: its indentation). */
static void combine(cg *g, const loop_arg *a, const char *pad, const char *x, const char *p) {
  if (a->mode == MODE_INC) {
    cg_line(g, "%s%s += %s;", pad, x, p);
    return;
  }
  cg_line(g, "%sif (%s %s %s)", pad, p, a->mode == MODE_MIN ? "<" : ">", x);
  cg_line(g, "%s  %s = %s;", pad, x, p);
}

/* The block partials, in block order, into the global (r->into NULL) or
 * the local r->into names. */
static void combine_partials(cg *g, const group *gr, const omp_range *r) {
  loop_arg_list args = cg_args(g, gr);
  arena *ar = cg_arena(g);
  for (int k = 0; k < args.len; k++) {
    const loop_arg *a = args.items[k];
    if (!arg_is_reduction(a))
      continue;
    int d = a->obj->dim;
    const char *into = r->into ? arena_printf(ar, r->into, a->obj->name) : a->obj->name;
    cg_line(g, "for (int loom_b = 0; loom_b < loom_plan->nblocks; loom_b++)");
    if (d == 1) {
      combine(g, a, "  ", r->into ? into : arena_printf(ar, "%s[0]", into),
              arena_printf(ar, "%s[loom_b]", partials(g, a)));
      continue;
    }
    cg_line(g, "  for (int loom_j = 0; loom_j < %d; loom_j++)", d);
    combine(g, a, "    ", arena_printf(ar, "%s[loom_j]", into),
            arena_printf(ar, "%s[%d * loom_b + loom_j]", partials(g, a), d));
  }
}

void omp_range_end(cg *g, const group *gr, const omp_range *r) {
  cg_loop_end(g);
  if (oc_target(g, gr)) {
    for (int i = 0; i < 2; i++) { /* the runs, the parts */
      cg_indent(g, -1);
      cg_line(g, "}");
    }
    region_end(g, "loom_oc->nparts");
    return;
  }
  if (!needs_plan(g, gr)) {
    region_end(g, "omp_get_max_threads()");
    return;
  }
  store_partials(g, gr);
  cg_indent(g, -1);
  cg_line(g, "}");
  combine_partials(g, gr, r);
}

/* ---- the openmp backend: the whole set, one range ------------------------------ */

static omp_range whole(cg *g) {
  return (omp_range){"0", cg_count(g), 0, 0, NULL};
}

static void omp_iterate_begin(cg *g, const group *gr, int part) {
  (void)part;
  omp_range r = whole(g);
  if (!oc_target(g, gr) && !needs_plan(g, gr))
    cg_declare_count(g, gr);
  omp_range_begin(g, gr, &r);
}

static void omp_iterate_end(cg *g, const group *gr, int part) {
  (void)part;
  omp_range r = whole(g);
  omp_range_end(g, gr, &r);
}

static void omp_loop_nothing(cg *g, const group *gr) {
  (void)g;
  (void)gr;
}

const backend backend_openmp = {
    .kind = TARGET_OPENMP,
    .loop_begin = omp_loop_nothing,
    .loop_end = omp_loop_nothing,
    .iterate_begin = omp_iterate_begin,
    .iterate_end = omp_iterate_end,
    .write_target = omp_write_target,
    .owner_computes = omp_owner_computes,
    .simd = "#pragma omp simd",
    .twins = &cg_cpu_avx512,
    .twin_strips = 1,
    .threads = "omp_get_max_threads()",
};
