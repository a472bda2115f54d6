/*
 * target_seq.c — the sequential backend: the reference every other target
 * is compared with.  Elements run in order, one after the other.  A global
 * that is reduced (inc, min, max) is accumulated in a local copy, which the
 * C compiler can keep in a register, and stored back after the loop; the
 * arithmetic is the same, in the same order, as updating it in place, so
 * results are bit-identical to hand-written C calling the same kernels.
 */
#include "codegen.h"

static int is_reduction(const loop_arg *a) {
  return a->kind == ARG_GLOBAL && a->mode != MODE_READ;
}

static const char *local_name(cg *g, const loop_arg *a) {
  return arena_printf(cg_arena(g), "loom_g_%s", a->obj->name);
}

static void seq_loop_begin(cg *g, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!is_reduction(a) || !cg_first_use(lp, a))
      continue;
    const char *t = a->obj->type->c_name, *name = a->obj->name;
    if (a->obj->dim == 1) {
      cg_line(g, "%s %s = *%s;", t, local_name(g, a), name);
      continue;
    }
    cg_line(g, "%s %s[%d];", t, local_name(g, a), a->obj->dim);
    cg_line(g, "for (int loom_k = 0; loom_k < %d; loom_k++)", a->obj->dim);
    cg_line(g, "  %s[loom_k] = %s[loom_k];", local_name(g, a), name);
  }
}

static void seq_loop_end(cg *g, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!is_reduction(a) || !cg_first_use(lp, a))
      continue;
    if (a->obj->dim == 1) {
      cg_line(g, "*%s = %s;", a->obj->name, local_name(g, a));
      continue;
    }
    cg_line(g, "for (int loom_k = 0; loom_k < %d; loom_k++)", a->obj->dim);
    cg_line(g, "  %s[loom_k] = %s[loom_k];", a->obj->name, local_name(g, a));
  }
}

static void seq_iterate_begin(cg *g, const loop *lp) {
  (void)lp;
  cg_line(g, "for (int %s = 0; %s < %s; %s++) {", cg_elem(g), cg_elem(g),
          cg_count(g), cg_elem(g));
  cg_indent(g, 1);
}

static void seq_iterate_end(cg *g, const loop *lp) {
  (void)lp;
  cg_indent(g, -1);
  cg_line(g, "}");
}

static const char *seq_global_ref(cg *g, const loop *lp, const loop_arg *a) {
  (void)lp;
  if (!is_reduction(a))
    return a->obj->name;
  if (a->obj->dim == 1)
    return arena_printf(cg_arena(g), "&%s", local_name(g, a));
  return local_name(g, a);
}

const backend backend_seq = {
    .name = "seq",
    .loop_begin = seq_loop_begin,
    .loop_end = seq_loop_end,
    .iterate_begin = seq_iterate_begin,
    .iterate_end = seq_iterate_end,
    .global_ref = seq_global_ref,
};
