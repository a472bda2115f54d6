/*
 * target_seq.c — the sequential backend: the reference every other target
 * is compared with.  Elements run in order, one after the other.  A global
 * that is reduced (inc, min, max) is accumulated in a local copy, which the
 * C compiler can keep in a register, and stored back after the loop; the
 * arithmetic is the same, in the same order, as updating it in place, so
 * results are bit-identical to hand-written C calling the same kernels.
 */
#include "emit/codegen.h"

static void seq_loop_begin(cg *g, const group *gr) {
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (arg_is_reduction(a))
      cg_declare_reduction_local(g, a, arena_printf(cg_arena(g), "%s[%%s]", a->obj->name));
  }
}

static void seq_loop_end(cg *g, const group *gr) {
  loop_arg_list args = cg_args(g, gr);
  for (int i = 0; i < args.len; i++) {
    const loop_arg *a = args.items[i];
    if (!arg_is_reduction(a))
      continue;
    const char *local = cg_reduction_local(g, a);
    if (a->obj->dim == 1) {
      cg_line(g, "*%s = %s;", a->obj->name, local);
      continue;
    }
    cg_line(g, "for (int loom_j = 0; loom_j < %d; loom_j++)", a->obj->dim);
    cg_line(g, "  %s[loom_j] = %s[loom_j];", a->obj->name, local);
  }
}

static void seq_iterate_begin(cg *g, const group *gr, int part) {
  (void)part;
  cg_declare_count(g, gr);
  cg_loop_begin(g, "0", cg_count(g));
}

static void seq_iterate_end(cg *g, const group *gr, int part) {
  (void)part;
  (void)gr;
  cg_loop_end(g);
}

const backend backend_seq = {
    .kind = TARGET_SEQ,
    .loop_begin = seq_loop_begin,
    .loop_end = seq_loop_end,
    .iterate_begin = seq_iterate_begin,
    .iterate_end = seq_iterate_end,
    .twins = &cg_cpu_avx512,
};
