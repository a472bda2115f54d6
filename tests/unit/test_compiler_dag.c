/*
 * test_compiler_dag.c — unit tests of regions (region.c) and the
 * dependency DAG (dag.c): what becomes a computation, the sections each
 * one reads and writes, and the dependence rule R∩W' ∪ W∩R' ∪ W∩W'; the
 * host-code rule (what a host statement reads and writes), sync items,
 * and each transformation in isolation: halo exchanges merged or removed,
 * and the mpi schedule (sends early, receives late).
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
  vec dags = dag_build(&regions, target, NULL, r->arena);
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

/* Whether `from` reaches `to` through the DAG's edges. */
static int reaches(const comp *from, const comp *to) {
  for (int i = 0; i < to->preds.len; i++)
    if (to->preds.items[i] == from || reaches(from, to->preds.items[i]))
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
      cr_assert_eq(d->comps.len, 4, "case %zu: two loops, loom_exit, return", i);
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
  cr_assert_eq(d->comps.len, 6, "four parts, loom_exit and return (barriers)");
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
  cr_assert_eq(outer->items.len, 4, "loop, for, loom_exit and the return naming gsum");
  cr_expect_eq(((const item *)outer->items.items[0])->kind, ITEM_LOOP);
  cr_expect_eq(((const item *)outer->items.items[1])->kind, ITEM_NESTED);
  cr_expect_eq(((const item *)outer->items.items[2])->kind, ITEM_HOST);
  cr_expect_eq(inner->depth, 1);
  vec dags = dag_build(&regions, "seq", NULL, r.arena);
  const dag *d = dags.items[0];
  cr_expect(is_pred(d->comps.items[1], d->comps.items[0]), "the for reads w");
  run_free(&r);
}

/* ---- the host-code rule ---------------------------------------------------- */

#define HOST_KERNELS                                                           \
  "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" DAG_KERNELS     \
  "static void k_arr(const double *a, double *g) { g[0] += *a; }\n"            \
  "extern void use(double v);\n"                                               \
  "extern void take(double *p);\n"                                             \
  "#define SET(a) a = 1.0\n"                                                  \
  "#define ASSIGN(a, b) a = b\n"                                              \
  "#define INC(a) a++\n"                                                      \
  "#define TWO 2.0\n"

/* The first host statement of the function body after three loops that
 * make gsum, garr and x objects (the body ends with a host statement
 * that reads gsum and garr: `return`). */
static const item *host_item(run *r, const char *stmt, int *nhost) {
  static char src[8192];
  snprintf(src, sizeof src,
           PROGRAM(HOST_KERNELS,
                   "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
                   "#pragma loom par_loop(k_arr) over(edges) args(read: w, inc: garr)\n"
                   "#pragma loom par_loop(k_edge) over(edges) "
                   "args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n"
                   "  %s"),
           stmt);
  run_source(r, src, TO_CHECK);
  cr_assert_eq(r->errors, 0, "%s", r->diags);
  vec regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  const region *body = regions.items[0];
  const item *first = NULL;
  *nhost = 0;
  for (int i = 0; i < body->items.len; i++) {
    const item *it = body->items.items[i];
    if (it->kind == ITEM_HOST && (*nhost)++ == 0)
      first = it;
  }
  cr_assert(first, "no host statement");
  return first;
}

static int names(const vec *objs, const char *name) {
  for (int i = 0; i < objs->len; i++)
    if (strcmp(((const obj *)objs->items[i])->name, name) == 0)
      return 1;
  return 0;
}

struct host_case {
  const char *stmt;
  const char *name; /* the object it names */
  int reads, writes;
};

static const struct host_case host_cases[] = {
    {"use(gsum);", "gsum", 1, 0},
    {"xs[0] = gsum * 2.0;", "gsum", 1, 0},
    {"use(gsum == 1.0);", "gsum", 1, 0},
    {"gsum = 0.0;", "gsum", 0, 1},
    {"(gsum) = 0.0;", "gsum", 0, 1},
    {"gsum += 1.0;", "gsum", 1, 1},
    {"gsum++;", "gsum", 1, 1},
    {"--gsum;", "gsum", 1, 1},
    {"take(&gsum);", "gsum", 1, 1},
    {"if (gsum > 0.0) gsum = 0.0;", "gsum", 1, 1},
    {"gsum = gsum + 1.0;", "gsum", 1, 1},
    {"SET(gsum);", "gsum", 1, 1}, /* an operator from a macro: both */
    {"ASSIGN(gsum, 1.0);", "gsum", 1, 1},
    {"INC(gsum);", "gsum", 1, 1},
    {"xs[0] = gsum * TWO;", "gsum", 1, 0}, /* a macro operand is no matter */
    {"xs[0] = TWO, gsum = TWO;", "gsum", 0, 1},
    {"garr[1] = 2.0;", "garr", 0, 1},
    {"*garr = 2.0;", "garr", 0, 1},
    {"xs[1] = garr[0];", "garr", 1, 0},
    {"garr[2]++;", "garr", 1, 1},
    {"take(garr);", "garr", 1, 1}, /* decays to a pointer */
    {"memcpy(xs, garr, sizeof garr);", "garr", 1, 0}, /* ... to const: only read */
    {"memcpy(garr, xs, sizeof garr);", "garr", 1, 1},
    {"memcpy(xs, &garr[1], sizeof(double));", "garr", 1, 0},
    {"take(&garr[0]);", "garr", 1, 1},
    {"loom_dat_fetch(x, xs, sizeof xs);", "x", 1, 1},
    {"{ loom_dat y = x; (void)y; }", "x", 1, 1},
};

Test(dag, host_rule_reads_and_writes) {
  for (size_t i = 0; i < sizeof host_cases / sizeof host_cases[0]; i++) {
    const struct host_case *c = &host_cases[i];
    run r;
    int nhost;
    const item *it = host_item(&r, c->stmt, &nhost);
    cr_expect_eq(nhost, 3, "case %zu (%s): it, loom_exit, return", i, c->stmt);
    cr_expect(names(&it->objs, c->name), "case %zu (%s): names %s", i, c->stmt, c->name);
    cr_expect_eq(names(&it->reads, c->name), c->reads, "case %zu (%s): reads", i, c->stmt);
    cr_expect_eq(names(&it->writes, c->name), c->writes, "case %zu (%s): writes", i,
                 c->stmt);
    run_free(&r);
  }
}

Test(dag, host_rule_unevaluated_and_unrelated_are_not_computations) {
  static const char *const stmts[] = {"xs[0] = sizeof gsum;", "xs[0] = sizeof(garr[0]);",
                                      "xs[1] = xs[0] + 1.0;", "printf(\"%g\", xs[0]);"};
  for (size_t i = 0; i < sizeof stmts / sizeof stmts[0]; i++) {
    run r;
    int nhost;
    host_item(&r, stmts[i], &nhost);
    cr_expect_eq(nhost, 2, "case %zu (%s): only loom_exit and the return", i, stmts[i]);
    run_free(&r);
  }
}

/* Stores into memory a local pointer has just allocated, and which no
 * other name reaches (fresh.h), touch no state loomc knows: no
 * computation. */
Test(dag, host_rule_fresh_memory_is_no_state) {
  static const char *const stmts[] = {
      "{ double *b = malloc(8 * sizeof *b); b[0] = 1.0; free(b); }",
      "{ double *b = calloc(8, sizeof *b); memcpy(b, xs, sizeof xs); if (b) b[1] += 2.0; "
      "free(b); }",
      "{ int *b = malloc(4 * sizeof *b); for (int i = 0; i < 4; i++) *(b + i) = i; "
      "b = realloc(b, 8 * sizeof *b); b[7] = 0; free(b); }",
      "{ double *b; b = malloc(8 * sizeof *b); if (b == NULL) return 1; b[2] = xs[0]; "
      "printf(\"%g\", b[2]); free(b); }"};
  for (size_t i = 0; i < sizeof stmts / sizeof stmts[0]; i++) {
    run r;
    int nhost;
    const item *it = host_item(&r, stmts[i], &nhost);
    cr_expect(!names(&it->writes, "<unseen>"), "case %zu (%s)", i, stmts[i]);
    run_free(&r);
  }
}

/* A call of a function loomc does not see (use, take: declared, defined
 * elsewhere), and a store through a pointer that names no object, read and
 * write the unseen state: they are computations, of nothing else. */
Test(dag, host_rule_unseen_calls_and_pointer_stores_write_the_unseen_state) {
  static const struct {
    const char *stmt;
    int reads;
  } cases[] = {{"use(xs[0]);", 1},
               {"take(xs);", 1},
               {"{ double *p = xs; p[1] = 2.0; }", 0},
               /* fresh memory, but its pointer escapes: no longer fresh */
               {"{ double *p = malloc(8 * sizeof *p); double *q = p; q[0] = 1.0; free(p); }", 0},
               {"{ double *p = malloc(8 * sizeof *p); take(p); p[0] = 1.0; free(p); }", 1},
               {"{ double *p = malloc(8 * sizeof *p); p = xs; p[0] = 1.0; }", 0},
               {"{ double *p = malloc(8 * sizeof *p); double **pp = &p; (*pp)[0] = 1.0; }", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run r;
    int nhost;
    const item *it = host_item(&r, cases[i].stmt, &nhost);
    cr_expect_eq(nhost, 3, "case %zu (%s): it, loom_exit, return", i, cases[i].stmt);
    cr_expect(names(&it->writes, "<unseen>"), "case %zu: writes the unseen state", i);
    cr_expect_eq(names(&it->reads, "<unseen>"), cases[i].reads, "case %zu: reads", i);
    cr_expect_eq(it->objs.len, 1, "case %zu: nothing else", i);
    run_free(&r);
  }
}

/* A global read by host code waits for the reduction and nothing else; a
 * write orders against readers and reducers. */
Test(dag, host_read_waits_only_for_the_reduction) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  xs[0] = gsum;\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n",
      "mpi");
  const comp *host = comp_named(d, "host("), *end = comp_named(d, "ReductionEnd(gsum)");
  const comp *copy = comp_named(d, "k_copy[core,owned]");
  cr_expect(is_pred(host, end));
  cr_expect_eq(host->preds.len, 1);
  cr_expect_eq(host->nsuccs, 1, "only the barrier loom_exit waits for a read of gsum");
  cr_expect(comp_named(d, "host(")->barrier == 0);
  cr_expect_eq(copy->preds.len, 1, "k_copy waits only for k_sum (it writes w)");
  run_free(&r);
}

Test(dag, host_write_orders_against_readers_and_reducers) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  gsum = 0.0;\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n",
      "seq");
  cr_assert_eq(d->comps.len, 5, "and loom_exit and the final return, which reads gsum");
  const comp *first = d->comps.items[0], *host = d->comps.items[1], *second = d->comps.items[2];
  cr_expect(is_pred(host, first));
  cr_expect(is_pred(second, host));
  run_free(&r);
}

/* ---- sync ------------------------------------------------------------------ */

Test(dag, sync_is_an_item_at_its_position) {
  run r;
  run_source(&r, PROGRAM(DAG_KERNELS,
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
      "  xs[0] = 1.0;\n"
      "#pragma loom sync(w, gsum)\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  if (xs[0] > 0.0) {\n"
      "#pragma loom sync(x)\n"
      "  }"), TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  vec regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
  cr_assert_eq(regions.len, 1, "a block holding only a sync is no region");
  const region *body = regions.items[0];
  cr_assert_eq(body->items.len, 6, "loop, sync, loop, if, loom_exit, return");
  const item *sync = body->items.items[1], *nested = body->items.items[3];
  cr_expect_eq(sync->kind, ITEM_SYNC);
  cr_expect(names(&sync->reads, "w") && names(&sync->writes, "w"));
  cr_expect(names(&sync->reads, "gsum") && names(&sync->writes, "gsum"));
  cr_expect_eq(((const item *)body->items.items[2])->kind, ITEM_LOOP);
  cr_expect_eq(nested->kind, ITEM_HOST, "an if holding a sync");
  cr_expect(names(&nested->writes, "x"));
  vec dags = dag_build(&regions, "seq", NULL, r.arena);
  const dag *d = dags.items[0];
  const comp *s = d->comps.items[1];
  cr_expect_str_eq(s->label, "sync(w,gsum)");
  cr_expect(is_pred(s, d->comps.items[0]));
  cr_expect(is_pred(d->comps.items[2], s));
  run_free(&r);
}

Test(dag, sync_forces_only_what_it_names) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_dat w2 = loom_decl_temp(edges, 1, double, \"w2\");\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w2)\n"
      "#pragma loom sync(w)\n",
      "seq");
  const comp *s = comp_named(d, "sync(w)");
  cr_expect_eq(s->preds.len, 1, "the loop reads w: a sync writes it, so after it");
  run_free(&r);
  const dag *d2 = dag_of(&r,
      "  loom_dat w2 = loom_decl_temp(edges, 1, double, \"w2\");\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w2)\n"
      "#pragma loom sync(w)\n",
      "seq");
  cr_expect_eq(comp_named(d2, "sync(w)")->preds.len, 0);
  run_free(&r);
}

/* ---- halo exchanges ----------------------------------------------------------- */

#define EDGE_READ_X                                                            \
  "#pragma loom par_loop(k_edge) over(edges) "                                 \
  "args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n"

static int removed(const dag *d, const char *kind) {
  int n = 0;
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    n += c->removed && strcmp(c->removed, kind) == 0;
  }
  return n;
}

static int noted(const dag *d, const char *text) {
  for (int i = 0; i < d->notes.len; i++)
    if (strstr(((const note *)d->notes.items[i])->text, text))
      return 1;
  return 0;
}

Test(dag, halo_successive_exchanges_merged) {
  run r;
  const dag *d = dag_of(&r, EDGE_READ_X "  xs[0] = 1.0;\n" EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "merged"), 2, "the second send and receive");
  cr_expect(noted(d, "HaloSend(x)/HaloRecv(x) for k_edge merged into the exchange for k_edge"));
  const comp *second_owned = d->comps.items[7];
  cr_assert_str_eq(second_owned->label, "k_edge[owned]");
  cr_expect(reaches(d->comps.items[2], second_owned), "reads the first exchange's halo");
  run_free(&r);
}

Test(dag, halo_up_to_date_exchange_removed) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_dat y = loom_decl_temp(nodes, 2, double, \"y\");\n"
      EDGE_READ_X
      "#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: y)\n"
      EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "removed"), 2);
  cr_expect(noted(d, "x's halo is up to date since the exchange for k_edge"));
  cr_expect(noted(d, "k_copy[core,owned] reads x in between"));
  run_free(&r);
}

Test(dag, halo_exchange_after_a_write_stays) {
  run r;
  const dag *d = dag_of(&r,
      EDGE_READ_X
      "#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: x)\n"
      EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "removed") + removed(d, "merged"), 0);
  run_free(&r);
  /* a host statement naming the handle may write it */
  d = dag_of(&r, EDGE_READ_X "  loom_dat_fetch(x, xs, sizeof xs);\n" EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "removed") + removed(d, "merged"), 0);
  run_free(&r);
}

Test(dag, halo_first_exchange_stays_and_seq_has_none) {
  run r;
  const dag *d = dag_of(&r, EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "removed") + removed(d, "merged"), 0);
  run_free(&r);
  d = dag_of(&r, EDGE_READ_X EDGE_READ_X, "seq");
  cr_expect_eq(d->comps.len, 4, "two loops, loom_exit, return");
  cr_expect_eq(d->notes.len, 0);
  run_free(&r);
}

/* ---- the schedule ---------------------------------------------------------------- */

static int pos(const dag *d, const char *label) {
  for (int i = 0; i < d->order.len; i++)
    if (strcmp(((const comp *)d->order.items[i])->label, label) == 0 ||
        (strcmp(label, "host(") == 0 &&
         strncmp(((const comp *)d->order.items[i])->label, label, 5) == 0))
      return i;
  cr_assert_fail("'%s' not scheduled", label);
  return -1;
}

static int topological(const dag *d) {
  for (int i = 0; i < d->order.len; i++) {
    const comp *c = d->order.items[i];
    for (int p = 0; p < c->preds.len; p++) {
      int found = 0;
      for (int j = 0; j < i; j++)
        found |= d->order.items[j] == c->preds.items[p];
      if (!found)
        return 0;
    }
  }
  return 1;
}

Test(dag, schedule_sends_early_receives_late) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_dat w2 = loom_decl_temp(edges, 1, double, \"w2\");\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w2)\n"
      "#pragma loom par_loop(k_edge) over(edges) "
      "args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w2)\n"
      "  xs[0] = gsum;\n",
      "mpi");
  cr_expect(topological(d));
  cr_expect_eq(d->order.len, d->comps.len);
  cr_expect_eq(pos(d, "HaloSend(x)"), 0, "the send waits for nothing: first");
  cr_expect_eq(pos(d, "HaloRecv(x)") + 1, pos(d, "k_edge[owned]"), "right before its consumer");
  cr_expect_eq(pos(d, "ReductionBegin(gsum)"), pos(d, "k_sum[core,owned]") + 1);
  cr_expect_eq(pos(d, "ReductionEnd(gsum)") + 1, pos(d, "host("), "after the second k_copy");
  cr_expect(noted(d, "HaloSend(x) for k_edge moved before k_copy[core,owned]"));
  cr_expect(noted(d, "ReductionEnd(gsum) for k_sum moved after k_copy[core,owned]"));
  run_free(&r);
}

Test(dag, schedule_keeps_program_order_otherwise) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  xs[0] = gsum;\n",
      "seq");
  cr_assert_eq(d->order.len, 5);
  for (int i = 0; i < 5; i++)
    cr_expect_eq(d->order.items[i], d->comps.items[i]);
  cr_expect_eq(d->notes.len, 0);
  run_free(&r);
}

Test(dag, schedule_end_with_no_consumer_goes_last) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n",
      "mpi");
  /* the final return reads gsum: the end waits until just before it */
  cr_expect_eq(pos(d, "ReductionEnd(gsum)") + 1, pos(d, "host("));
  cr_expect(pos(d, "k_copy[core,owned]") < pos(d, "ReductionEnd(gsum)"));
  run_free(&r);
}

/* ---- barriers ---------------------------------------------------------------- */

struct barrier_case {
  const char *stmt; /* after a loop, in the body of a for */
  int barrier;      /* it is an item, a barrier */
};

static const struct barrier_case barrier_cases[] = {
    {"if (xs[0] > 1.0) break;", 1},
    {"if (xs[0] > 1.0) continue;", 1},
    {"if (xs[0] > 1.0) return 1;", 1},
    {"if (xs[0] > 1.0) goto out;", 1},
    {"loom_exit();", 1},
    {"for (int j = 0; j < 2; j++) { if (xs[j] > 0.0) break; }", 0},
    {"while (xs[0] > 1.0) { xs[0] -= 1.0; continue; }", 0},
    {"switch ((int)xs[0]) { case 1: xs[1] = 0.0; break; default: break; }", 0},
    {"switch ((int)xs[0]) { case 1: continue; default: break; }", 1},
    {"xs[0] = 2.0;", 0},
};

Test(dag, barriers_are_the_statements_control_may_leave_by) {
  for (size_t i = 0; i < sizeof barrier_cases / sizeof barrier_cases[0]; i++) {
    const struct barrier_case *c = &barrier_cases[i];
    char body[1024];
    snprintf(body, sizeof body,
             "  for (int it = 0; it < 2; it++) {\n"
             "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
             "    %s\n"
             "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
             "  }\n"
             "out:;\n",
             c->stmt);
    run r;
    const dag *d = dag_of(&r, body, "mpi");
    int nbarrier = 0;
    const comp *barrier = NULL;
    for (int k = 0; k < d->comps.len; k++)
      if (((const comp *)d->comps.items[k])->barrier && nbarrier++ == 0)
        barrier = d->comps.items[k];
    cr_expect_eq(nbarrier, c->barrier, "case %zu (%s)", i, c->stmt);
    if (barrier) { /* the reduction ends before it; the next loop waits for it */
      cr_expect(reaches(comp_named(d, "ReductionEnd(gsum)"), barrier), "case %zu", i);
      cr_expect(reaches(barrier, comp_named(d, "k_copy[core,owned]")), "case %zu", i);
    }
    run_free(&r);
  }
}
