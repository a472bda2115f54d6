/*
 * test_rotate.c — unit tests of loop rotation (transform/rotate.c): the
 * head and tail groups of wave's time step, the group before a loop that
 * the first iteration's head joins (Airfoil's save_soln and adt_calc
 * around OP2's k loop), and what refuses a rotation: a barrier, a head
 * that reduces, a head that depends on what runs between, a loop that is
 * not in canonical form, and with MPI a head that needs an exchange in the
 * loop.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "fuse_harness.h"

#define ROT_KERNELS                                                            \
  "static void set(const double *a, double *b) { b[0] = a[0]; }\n"             \
  "static void zero(double *t) { *t = 0.0; }\n"                                \
  "static void spread(const double **a, double **t) {\n"                       \
  "  t[0][0] += a[1][0]; t[1][0] += a[0][0];\n}\n"                             \
  "static void use(const double *t, double *b) { b[0] += t[0]; }\n"            \
  "static void sum(const double *a, double *s) { *s += a[0]; }\n"              \
  "static void edge(const double *a, const double *b, double *w) { *w = a[0] - b[0]; }\n"

#define ROT_DECLS                                                              \
  "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"               \
  "  loom_dat t = loom_decl_temp(nodes, 1, double, \"t\");\n"                  \
  "  loom_dat v = loom_decl_temp(edges, 1, double, \"v\");\n"

/* head: set + zero over nodes; then spread over edges; tail: use over
 * nodes (reads t, which spread writes) */
#define STEP                                                                   \
  "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"           \
  "#pragma loom par_loop(zero) over(nodes) args(write: t)\n"                   \
  "#pragma loom par_loop(spread) over(edges) args(read: y[e2n_map[*]], inc: t[e2n_map[*]])\n" \
  "#pragma loom par_loop(use) over(nodes) args(read: t, rw: x)\n"

static void rotated(fused *f, const char *body, const char *target) {
  static char src[16384];
  snprintf(src, sizeof src, PROGRAM(ROT_KERNELS, ROT_DECLS "%s"), body);
  cr_assert_eq(run_transforms(f, src, target, 0, 1), 0, "%s", f->r.diags);
  cr_assert_eq(f->r.errors, 0, "%s", f->r.diags);
}

static const loop *nth_loop(const fused *f, int id) { return f->r.prog.loops.items[id - 1]; }

/* Whether a note of the loop body's DAG contains text. */
static int body_noted(const fused *f, const char *text) {
  for (int i = 0; i < f->t.loops.len; i++) {
    const dag *d = f->t.loops.items[i]->body;
    for (int k = 0; k < d->notes.len; k++)
      if (strstr(((const note *)d->notes.items[k])->text, text))
        return 1;
  }
  return 0;
}

Test(rotate, the_next_iterations_head_joins_the_tail) {
  fused f;
  rotated(&f, "  for (int s = 0; s < 5; s++) {\n" STEP "  }\n", "seq");
  cr_assert_eq(f.rotations.len, 1);
  const rotation *rot = f.rotations.items[0];
  const group *h = fusion_group(f.fu, nth_loop(&f, 1)), *t = fusion_group(f.fu, nth_loop(&f, 4));
  cr_assert_eq(rot->head, h);
  cr_assert_eq(h->loops.len, 2, "set and zero fuse");
  cr_assert_eq(rot->tail, t);
  cr_assert_eq(rot->fused->loops.len, 3);
  cr_assert_eq(rot->fused->loops.items[0], nth_loop(&f, 4), "the tail's loops first");
  cr_assert_eq(rot->fused->loops.items[1], nth_loop(&f, 1));
  cr_assert_eq(rot->fused->anchor, t->anchor);
  cr_assert_null(rot->pre, "no group before the loop");
  cr_assert_str_eq(rot->li->next, "s + 1 < 5");
  cr_assert(body_noted(&f, "set + zero of the next iteration fused into use when one "
                          "follows (s + 1 < 5)"));
  run_free(&f.r);
}

Test(rotate, the_first_iterations_head_joins_the_group_before_the_loop) {
  fused f;
  rotated(&f, "  for (int it = 0; it < 3; it++) {\n"
              "#pragma loom par_loop(sum) over(nodes) args(read: x, inc: gsum)\n"
              "    for (int k = 0; k < 2; k++) {\n" STEP "    }\n"
              "  }\n", "seq");
  cr_assert_eq(f.rotations.len, 1, "the k loop; the outer loop has one group");
  const rotation *rot = f.rotations.items[0];
  cr_assert_eq(rot->pre, fusion_group(f.fu, nth_loop(&f, 1)));
  cr_assert_eq(rot->pre_fused->loops.len, 3, "sum, then set and zero");
  cr_assert_eq(rot->tail, fusion_group(f.fu, nth_loop(&f, 5)));
  cr_assert(body_noted(&f, "of the first iteration of the for at line"));
  run_free(&f.r);
}

Test(rotate, what_refuses_a_rotation) {
  static const struct {
    const char *body, *why;
  } cases[] = {
      {"  for (int s = 0; s < 5; s++) {\n" STEP "    if (xs[0] > 1.0) break;\n  }\n",
       "not rotated: its body has a barrier"},
      {"  int s = 0;\n  while (s < 5) {\n" STEP "    s++;\n  }\n",
       "not rotated: it is not a for statement in canonical form"},
      /* the head reduces a global */
      {"  for (int s = 0; s < 5; s++) {\n"
       "#pragma loom par_loop(sum) over(nodes) args(read: x, inc: gsum)\n"
       "#pragma loom par_loop(spread) over(edges) args(read: y[e2n_map[*]], inc: t[e2n_map[*]])\n"
       "#pragma loom par_loop(use) over(nodes) args(read: t, rw: x)\n  }\n",
       "sum + use cannot run early: sum reduces the global gsum"},
      /* host code after the tail writes what the head reads */
      {"  for (int s = 0; s < 5; s++) {\n" STEP "    loom_dat_fetch(y, xs, 0);\n  }\n",
       "which runs between"},
      /* the head names a temporary each iteration declares */
      {"  for (int s = 0; s < 5; s++) {\n    loom_dat u = loom_decl_temp(nodes, 1, double, \"u\");\n"
       "#pragma loom par_loop(zero) over(nodes) args(write: u)\n"
       "#pragma loom par_loop(spread) over(edges) args(read: y[e2n_map[*]], inc: t[e2n_map[*]])\n"
       "#pragma loom par_loop(use) over(nodes) args(read: u, rw: x)\n  }\n",
       "zero names u, declared in the loop's body"},
      /* pin_cse keeps the temporary's producer apart from its consumer */
      {"  for (int s = 0; s < 5; s++) {\n#pragma loom pin_cse(t)\n"
       "#pragma loom par_loop(zero) over(nodes) args(write: t)\n"
       "#pragma loom par_loop(use) over(nodes) args(read: t, rw: x)\n  }\n",
       "pin_cse(t) keeps its producer's loop apart"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fused f;
    rotated(&f, cases[i].body, "seq");
    cr_assert_eq(f.rotations.len, 0, "case %zu rotated", i);
    cr_assert(body_noted(&f, cases[i].why), "case %zu: no note '%s'", i, cases[i].why);
    run_free(&f.r);
  }
}

Test(rotate, with_mpi_the_head_needs_its_halos_current) {
  fused f;
  /* the head reads x through a map, and x is written in the loop (by use):
   * its exchange stays in the body */
  rotated(&f, "  for (int s = 0; s < 5; s++) {\n"
              "#pragma loom par_loop(edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: v)\n"
              "#pragma loom par_loop(zero) over(nodes) args(write: t)\n"
              "#pragma loom par_loop(spread) over(edges) args(read: y[e2n_map[*]], inc: t[e2n_map[*]])\n"
              "#pragma loom par_loop(use) over(nodes) args(read: t, rw: x)\n"
              "#pragma loom par_loop(edge) over(edges) args(read: y[e2n_map[0]], y[e2n_map[1]], write: v)\n"
              "  }\n", "mpi");
  cr_assert_eq(f.rotations.len, 1);
  const rotation *rot = f.rotations.items[0];
  cr_assert_eq(rot->head, fusion_group(f.fu, nth_loop(&f, 2)),
               "not the edges' group (it needs x's halo), but zero");
  cr_assert_eq(rot->tail, fusion_group(f.fu, nth_loop(&f, 4)));
  run_free(&f.r);
}
