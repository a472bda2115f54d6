/*
 * target_openmp.c — the OpenMP backend: loops run in parallel on the
 * threads of one process, race-free and deterministic.
 *
 *  - A direct loop with no reduction: `#pragma omp parallel for simd`.
 *  - A loop that writes through a map, or reduces a global, runs on the
 *    runtime's execution plan (loom__plan_get): blocks of consecutive
 *    elements, coloured so that blocks of one colour write disjoint target
 *    elements; colour after colour, the blocks of a colour run in
 *    parallel, the elements of a block in order.
 *  - A reduced global accumulates per block, in a local starting at the
 *    identity (0 for inc; the global's value for min and max); the partial
 *    results are then combined in block order.  Blocks depend on the block
 *    size, not on the number of threads, so results are identical whatever
 *    OMP_NUM_THREADS is.
 */
#include <string.h>

#include "codegen.h"

static int needs_plan(cg *g, const group *gr) {
  vec args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++)
    if (arg_writes_indirectly(args.items[i]) || arg_is_reduction(args.items[i]))
      return 1;
  return 0;
}

/* The per-block partials of reduction argument a, in a runtime scratch
 * buffer (one slot per reduction of the loop). */
static const char *partials(cg *g, const loop_arg *a) {
  return arena_printf(cg_arena(g), "loom_r_%s", a->obj->name);
}

/* The (map, slot) pairs the loops write through, each once. */
static void emit_conflicts(cg *g, const group *gr) {
  arena *ar = cg_arena(g);
  vec seen = {0}, args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (!arg_writes_indirectly(a))
      continue;
    const char *pair = arena_printf(ar, "{%s, %d}", a->map->name, a->slot);
    int dup = 0;
    for (int j = 0; j < seen.len && !dup; j++)
      dup = strcmp(seen.items[j], pair) == 0;
    if (!dup)
      vec_push(ar, &seen, (void *)pair);
  }
  if (seen.len == 0) {
    cg_line(g, "const loom__plan *const loom_plan = loom__plan_get(loom_loop, %s, 0, NULL);",
            cg_set(gr)->name);
    return;
  }
  cg_line(g, "const loom__plan_arg loom_writes[] = {");
  for (int j = 0; j < seen.len; j++)
    cg_line(g, "    %s%s", (const char *)seen.items[j], j + 1 < seen.len ? "," : "");
  cg_line(g, "};");
  cg_line(g, "const loom__plan *const loom_plan = loom__plan_get(loom_loop, %s, %d, loom_writes);",
          cg_set(gr)->name, seen.len);
}

static void emit_partials(cg *g, const group *gr) {
  int slot = 0;
  vec args = cg_args(g, gr);
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

static void omp_loop_begin(cg *g, const group *gr) {
  if (!needs_plan(g, gr))
    return;
  emit_conflicts(g, gr);
  cg_line(g, "if (!loom_plan)");
  cg_line(g, "  return;");
  emit_partials(g, gr);
}

/* A reduction's starting value in each block. */
static const char *identity(cg *g, const loop_arg *a) {
  if (a->mode == MODE_INC)
    return "0";
  return arena_printf(cg_arena(g), "%s[%%s]", a->obj->name);
}

static void omp_iterate_begin(cg *g, const group *gr) {
  if (!needs_plan(g, gr)) {
    cg_declare_count(g, gr);
    cg_line(g, "#pragma omp parallel for simd schedule(static)");
    cg_loop_begin(g, "0", cg_count(g));
    return;
  }
  cg_line(g, "for (int loom_c = 0; loom_c < loom_plan->ncolours; loom_c++) {");
  cg_line(g, "  #pragma omp parallel for schedule(static)");
  cg_line(g, "  for (int loom_k = loom_plan->colour_start[loom_c];");
  cg_line(g, "       loom_k < loom_plan->colour_start[loom_c + 1]; loom_k++) {");
  cg_indent(g, 2);
  cg_line(g, "const int loom_b = loom_plan->blocks_by_colour[loom_k];");
  vec args = cg_args(g, gr);
  for (int k = 0; k < args.len; k++)
    if (arg_is_reduction(args.items[k]))
      cg_declare_reduction_local(g, args.items[k], identity(g, args.items[k]));
  cg_line(g, "const int loom_lo = loom_plan->block_start[loom_b];");
  cg_line(g, "const int loom_hi = loom_plan->block_start[loom_b + 1];");
  cg_loop_begin(g, "loom_lo", "loom_hi");
}

static void store_partials(cg *g, const group *gr) {
  vec args = cg_args(g, gr);
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

static void omp_iterate_end(cg *g, const group *gr) {
  cg_loop_end(g);
  if (!needs_plan(g, gr))
    return;
  store_partials(g, gr);
  cg_indent(g, -2);
  cg_line(g, "  }");
  cg_line(g, "}");
}

/* Folds one partial `p` into the global element `x`. */
static const char *combine(cg *g, const loop_arg *a, const char *x, const char *p) {
  arena *ar = cg_arena(g);
  if (a->mode == MODE_INC)
    return arena_printf(ar, "%s += %s;", x, p);
  return arena_printf(ar, "if (%s %s %s)\n      %s = %s;", p,
                      a->mode == MODE_MIN ? "<" : ">", x, x, p);
}

static void omp_loop_end(cg *g, const group *gr) {
  vec args = cg_args(g, gr);
  for (int k = 0; k < args.len; k++) {
    const loop_arg *a = args.items[k];
    if (!arg_is_reduction(a))
      continue;
    arena *ar = cg_arena(g);
    int d = a->obj->dim;
    cg_line(g, "for (int loom_b = 0; loom_b < loom_plan->nblocks; loom_b++)");
    if (d == 1) {
      cg_line(g, "  %s", combine(g, a, arena_printf(ar, "%s[0]", a->obj->name),
                                 arena_printf(ar, "%s[loom_b]", partials(g, a))));
      continue;
    }
    cg_line(g, "  for (int loom_j = 0; loom_j < %d; loom_j++)", d);
    cg_line(g, "    %s", combine(g, a, arena_printf(ar, "%s[loom_j]", a->obj->name),
                                 arena_printf(ar, "%s[%d * loom_b + loom_j]",
                                              partials(g, a), d)));
  }
}

const backend backend_openmp = {
    .name = "openmp",
    .loop_begin = omp_loop_begin,
    .loop_end = omp_loop_end,
    .iterate_begin = omp_iterate_begin,
    .iterate_end = omp_iterate_end,
};
