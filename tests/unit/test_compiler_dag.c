/*
 * test_compiler_dag.c — unit tests of regions (region.c) and the
 * dependency DAG (dag.c): what becomes a computation, the sections each
 * one reads and writes, and the dependence rule R∩W' ∪ W∩R' ∪ W∩W'.
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler_harness.h"

#include <criterion/criterion.h>

#include "dag.h"
#include "region.h"

#define DAG_KERNELS                                                            \
  "static void k_copy(const double *a, double *b) { *b = *a; }\n"              \
  "static void k_sum(const double *a, double *s) { *s += *a; }\n"              \
  "static void k_edge(const double *a, const double *b, double *w) {\n"        \
  "  *w = a[0] - b[1];\n}\n"                                                   \
  "static void k_scatter(const double *w, double *a, double *b) {\n"           \
  "  a[0] += *w; b[0] -= *w;\n}\n"

/* The DAG of the innermost region of `body`, for `target`. */
static const dag *dag_of(run *r, const char *body, const char *target) {
  static char src[8192];
  snprintf(src, sizeof src, PROGRAM(DAG_KERNELS, "%s"), body);
  run_source(r, src, TO_CHECK);
  cr_assert_eq(r->errors, 0, "%s", r->diags);
  vec regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  cr_assert(regions.len > 0);
  vec dags = dag_build(&regions, target, r->arena);
  return dags.items[dags.len - 1];
}

/* The computation labelled `label` ("host(" matches any host statement). */
static const comp *comp_named(const dag *d, const char *label) {
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (strcmp(c->label, label) == 0 ||
        (strcmp(label, "host(") == 0 && strncmp(c->label, label, 5) == 0))
      return c;
  }
  cr_assert_fail("no computation '%s'", label);
  return NULL;
}

static int is_pred(const comp *c, const comp *p) {
  for (int i = 0; i < c->preds.len; i++)
    if (c->preds.items[i] == p)
      return 1;
  return 0;
}

struct dep_case {
  const char *body;      /* two loops (or loop and host statement) */
  const char *first, *second;
  int depends;           /* second depends on first */
};

static const struct dep_case dep_cases[] = {
    /* read after write */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: w, write: f2)\n"
     "#pragma loom par_loop(k_copy) over(edges) args(read: f2, write: w2)",
     "k_copy(f2)[core,owned]", "k_copy(w2)[core,owned]", 1},
    /* write after read */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: w, write: f2)\n"
     "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w)",
     "k_copy(f2)[core,owned]", "k_copy(w)[core,owned]", 1},
    /* write after write */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: w, write: f2)\n"
     "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: f2)",
     "k_copy(f2)[core,owned]", "k_copy(f2)[core,owned]", -1},
    /* read after read: independent */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: w, write: f2)\n"
     "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w2)",
     "k_copy(f2)[core,owned]", "k_copy(w2)[core,owned]", 0},
    /* a host statement naming a global waits for the reduction */
    {"#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
     "gsum = gsum * 2.0;",
     "k_sum[core,owned]", "host(", 1},
    /* host code naming neither is not a computation */
    {"#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
     "xs[0] = 1.0;\n"
     "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w2)",
     "k_sum[core,owned]", "k_copy[core,owned]", 0},
    /* a host statement naming a dat handle orders both ways */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w2)\n"
     "loom_dat_fetch(w2, xs, sizeof xs);",
     "k_copy[core,owned]", "host(", 1},
};

Test(dag, dependence_rule) {
  for (size_t i = 0; i < sizeof dep_cases / sizeof dep_cases[0]; i++) {
    const struct dep_case *c = &dep_cases[i];
    char body[2048];
    snprintf(body, sizeof body,
             "  loom_dat f2 = loom_decl_temp(edges, 1, double, \"f2\");\n"
             "  loom_dat w2 = loom_decl_temp(edges, 1, double, \"w2\");\n%s",
             c->body);
    run r;
    const dag *d = dag_of(&r, body, "seq");
    if (c->depends < 0) { /* same label twice: the second depends on the first */
      cr_assert_eq(d->comps.len, 2, "case %zu", i);
      cr_expect(is_pred(d->comps.items[1], d->comps.items[0]), "case %zu", i);
    } else {
      const comp *a = comp_named(d, c->first), *b = comp_named(d, c->second);
      cr_expect_eq(is_pred(b, a), c->depends, "case %zu: %s -> %s", i, c->first, c->second);
    }
    run_free(&r);
  }
}

Test(dag, mpi_splits_indirect_loops_as_seed_001) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)",
      "mpi");
  cr_assert_eq(d->comps.len, 4);
  const comp *send = comp_named(d, "HaloSend(x)"), *core = comp_named(d, "k_edge[core]");
  const comp *recv = comp_named(d, "HaloRecv(x)"), *owned = comp_named(d, "k_edge[owned]");
  cr_expect(is_pred(recv, send));
  cr_expect(is_pred(owned, core));
  cr_expect(is_pred(owned, recv));
  cr_expect_eq(core->preds.len, 0, "core waits for nothing: overlap");
  run_free(&r);
}

Test(dag, nested_statement_is_one_computation) {
  run r;
  run_source(&r, PROGRAM(DAG_KERNELS,
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
      "  for (int k = 0; k < 2; k++) {\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  }"), TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  vec regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
  cr_assert_eq(regions.len, 2);
  const region *outer = regions.items[0], *inner = regions.items[1];
  cr_assert_eq(outer->items.len, 3, "loop, for, and the return naming gsum");
  cr_expect_eq(((const item *)outer->items.items[0])->kind, ITEM_LOOP);
  cr_expect_eq(((const item *)outer->items.items[1])->kind, ITEM_NESTED);
  cr_expect_eq(((const item *)outer->items.items[2])->kind, ITEM_HOST);
  cr_expect_eq(inner->depth, 1);
  vec dags = dag_build(&regions, "seq", r.arena);
  const dag *d = dags.items[0];
  cr_expect(is_pred(d->comps.items[1], d->comps.items[0]), "the for reads w");
  run_free(&r);
}
