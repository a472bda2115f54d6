/*
 * test_loops.c — unit tests of loops as loops (analysis/loops.c): the
 * DAG of two successive iterations of seed 001's wave time step, checked
 * by reachability (carried edges, allocations and frees of the
 * temporaries, exchanges merged across iterations); the canonical form
 * (the next iteration's condition, the trip count) and what defeats it;
 * and the exchanges hoisted out of the loop (transform/hoist.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "analysis/loops.h"
#include "dag_harness.h"
#include "transform/hoist.h"

#define WAVE_KERNELS                                                           \
  "#include <stdlib.h>\nvoid hidden(int *p);\n"                                \
  "static void phi_expr(const double *p, double *phi) { *phi -= 0.5 * *p; }\n" \
  "static void zero(double *t) { *t = 0.0; }\n"                                \
  "static void assemble1(const double **v, const double **phi, double **t1) {\n" \
  "  for (int i = 0; i < 3; i++) t1[i][0] += v[i][0] * phi[0][0];\n}\n"       \
  "static void assemble2(const double **v, double **t2) {\n"                   \
  "  for (int i = 0; i < 3; i++) t2[i][0] += v[i][0];\n}\n"                    \
  "static void expr(const double *t1, const double *t2, double *p) { *p += *t1 / *t2; }\n"

#define WAVE_DECLS                                                             \
  "  int c2n[6] = {0, 1, 2, 1, 3, 2};\n"                                       \
  "  loom_set cells = loom_decl_set(2, \"cells\");\n"                          \
  "  loom_map cn = loom_decl_map(cells, nodes, 3, c2n, \"cn\");\n"             \
  "  loom_dat v = loom_decl_dat(nodes, 1, double, xs, \"v\");\n"               \
  "  loom_dat p = loom_decl_dat(nodes, 1, double, xs, \"p\");\n"               \
  "  loom_dat phi = loom_decl_dat(nodes, 1, double, xs, \"phi\");\n"           \
  "  loom_dat t1 = loom_decl_temp(nodes, 1, double, \"t1\");\n"                \
  "  loom_dat t2 = loom_decl_temp(nodes, 1, double, \"t2\");\n"

#define WAVE_STEP                                                              \
  "#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)\n"      \
  "#pragma loom par_loop(zero) over(nodes) args(write: t1)\n"                  \
  "#pragma loom par_loop(assemble1) over(cells) args(read: v[cn[*]], phi[cn[*]], inc: t1[cn[*]])\n" \
  "#pragma loom par_loop(zero) over(nodes) args(write: t2)\n"                  \
  "#pragma loom par_loop(assemble2) over(cells) args(read: v[cn[*]], inc: t2[cn[*]])\n" \
  "#pragma loom par_loop(expr) over(nodes) args(read: t1, t2, rw: p)\n"        \
  "#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)\n"

typedef struct looped {
  run r;
  dag_list dags;
  loop_info_list loops;
  hoist_list hoists;
} looped;

/* The stages up to the loops' analysis (and the hoisted exchanges) on a
 * program whose main holds `body`. */
static void loops_of_body(looped *l, const char *body, const char *target) {
  static char src[16384];
  snprintf(src, sizeof src, PROGRAM(WAVE_KERNELS, WAVE_DECLS "%s"), body);
  run_source(&l->r, src, TO_CHECK);
  cr_assert_eq(l->r.errors, 0, "%s", l->r.diags);
  region_list regions = regions_build(&l->r.fe, &l->r.st, &l->r.prog, l->r.arena);
  l->dags = dag_build(&regions, target_named(target), NULL, l->r.arena);
  l->loops = loops_analyse(&l->r.fe, &l->r.st, &l->r.prog, &regions, &l->dags,
                           target_named(target), NULL, l->r.arena);
  l->hoists = hoist_exchanges(&l->loops, l->r.arena);
}

static const loop_info *only_loop(const looped *l) {
  cr_assert_eq(l->loops.len, 1);
  return l->loops.items[0];
}

/* The n-th computation (from 1) labelled `label` in d. */
static const comp *nth(const dag *d, const char *label, int n) {
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (strcmp(c->label, label) == 0 && --n == 0)
      return c;
  }
  cr_assert_fail("no computation '%s' (%d)", label, n);
  return NULL;
}

Test(loops, wave_two_iterations_by_reachability) {
  looped l;
  loops_of_body(&l, "  for (int step = 1; step <= 10; step++) {\n" WAVE_STEP "  }\n", "mpi");
  const loop_info *li = only_loop(&l);
  const dag *s = li->steps;
  cr_assert(s->two);
  /* the temporaries live within one iteration: allocated and freed in each */
  cr_assert_eq(li->temps.len, 2);
  const comp *m1 = comp_named(s, "malloc(t1)"), *f1 = comp_named(s, "free(t1)");
  const comp *m1n = comp_named(s, "malloc(t1)'"), *z1n = comp_named(s, "zero(t1)[core,owned]'");
  const comp *expr = comp_named(s, "expr[core,owned]");
  cr_assert(reaches(m1, comp_named(s, "zero(t1)[core,owned]")));
  cr_assert(reaches(comp_named(s, "assemble1[owned]"), f1), "t1 is freed after its last use");
  cr_assert(reaches(expr, f1));
  cr_assert(is_pred(m1n, f1) && f1->step == 0 && m1n->step == 1,
            "a carried edge: the next iteration's malloc after this one's free");
  cr_assert(reaches(expr, z1n), "iteration i+1 zeroes t1 after iteration i read it");
  cr_assert(is_pred(z1n, m1n));
  /* phi carries from one step's last phi_expr to the next step's first */
  const comp *last_phi = nth(s, "phi_expr[core,owned]", 2);
  const comp *next_phi = comp_named(s, "phi_expr[core,owned]'");
  cr_assert(is_pred(next_phi, last_phi) && last_phi->step == 0 && next_phi->step == 1);
  /* nothing of iteration i+1 precedes iteration i */
  for (int i = 0; i < s->comps.len; i++) {
    const comp *x = s->comps.items[i];
    for (int k = 0; x->step == 0 && k < s->comps.len; k++) {
      const comp *y = s->comps.items[k];
      cr_assert(!(y->step == 1 && reaches(y, x)), "%s reaches %s", y->label, x->label);
    }
  }
  /* v is never written: the next iteration's exchanges of it go */
  cr_assert_str_eq(comp_named(s, "HaloSend(v)'")->removed, "merged");
  cr_assert_null(nth(s, "HaloSend(v)", 1)->removed);
  cr_assert_null(comp_named(s, "HaloSend(phi)'")->removed, "phi is written every step");
  run_free(&l.r);
}

Test(loops, exchanges_the_loop_needs_once_are_hoisted) {
  looped l;
  loops_of_body(&l, "  for (int step = 1; step <= 10; step++) {\n" WAVE_STEP "  }\n", "mpi");
  const loop_info *li = only_loop(&l);
  cr_assert_eq(l.hoists.len, 1, "v's exchange, once; phi is written in the loop");
  const hoist *h = l.hoists.items[0];
  cr_assert_str_eq(h->send->o->name, "v");
  cr_assert_str_eq(h->send->removed, "hoisted");
  cr_assert_str_eq(h->send->partner->removed, "hoisted");
  cr_assert_null(comp_named(li->body, "HaloSend(phi)")->removed);
  /* the body's DAG was linked anew: no edge touches the hoisted exchange */
  for (int i = 0; i < li->body->comps.len; i++) {
    const comp *c = li->body->comps.items[i];
    cr_assert(!is_pred(c, h->send) && !is_pred(c, h->send->partner));
  }
  run_free(&l.r);
  /* without MPI there is nothing to hoist */
  loops_of_body(&l, "  for (int step = 1; step <= 10; step++) {\n" WAVE_STEP "  }\n", "seq");
  cr_assert_eq(l.hoists.len, 0);
  run_free(&l.r);
}

Test(loops, canonical_form_and_trip_count) {
  looped l;
  loops_of_body(&l, "  for (int step = 1; step <= 10; step++) {\n" WAVE_STEP "  }\n", "seq");
  const loop_info *li = only_loop(&l);
  cr_assert_str_eq(li->var, "step");
  cr_assert_str_eq(li->next, "step + 1 <= 10");
  cr_assert_eq(li->trip, 10);
  run_free(&l.r);

  loops_of_body(&l, "  int n = argc * 4;\n"
                    "  for (int k = n; k > 0; k -= 2) {\n" WAVE_STEP "  }\n", "seq");
  li = only_loop(&l);
  cr_assert_str_eq(li->next, "k - 2 > 0");
  cr_assert_eq(li->trip, -1, "the start is not a constant");
  run_free(&l.r);

  loops_of_body(&l, "  for (int k = 0; k < 2; k++) {\n" WAVE_STEP "  }\n", "seq");
  cr_assert_eq(only_loop(&l)->trip, 2);
  run_free(&l.r);

  /* a local bound whose address is taken: canonical while the body calls
   * nothing that could write through a pointer it does not name */
  loops_of_body(&l, "  int n = argc;\n  int *pn = &n;\n  (void)pn;\n"
                    "  for (int k = 0; k < n; k++) {\n    xs[0] = (double)abs(k);\n"
                    WAVE_STEP "  }\n", "seq");
  cr_assert_str_eq(only_loop(&l)->next, "k + 1 < n");
  run_free(&l.r);
}

Test(loops, what_defeats_the_canonical_form) {
  static const char *const heads[] = {
      /* the body writes the bound */
      "  int n = argc;\n  for (int k = 0; k < n; k++) {\n    n--;\n",
      /* the address of the bound escapes, and the body calls what it cannot see */
      "  int n = argc;\n  int *pn = &n;\n  for (int k = 0; k < n; k++) {\n    hidden(pn);\n",
      /* a call in the bound */
      "  for (int k = 0; k < abs(argc); k++) {\n",
      /* not a for */
      "  int k = 0;\n  while (k < 10) {\n    k++;\n",
      /* the variable is written in the body */
      "  for (int k = 0; k < 10; k++) {\n    k += 0;\n",
  };
  for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
    looped l;
    char body[4096];
    snprintf(body, sizeof body, "%s" WAVE_STEP "  }\n", heads[i]);
    loops_of_body(&l, body, "seq");
    const loop_info *li = only_loop(&l);
    cr_assert_null(li->next, "case %zu: %s", i, li->next);
    cr_assert_eq(li->trip, -1);
    run_free(&l.r);
  }
}
