/*
 * test_region.c — unit tests of regions (analysis/region.c): the
 * host-code rule (what a host statement reads and writes, what is no
 * computation at all), and sync items.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "dag_harness.h"

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
  region_list regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  const region *body = regions.items[0];
  const item *first = NULL;
  *nhost = 0;
  for (int i = 0; i < body->items.len; i++) {
    const item *it = body->items.items[i];
    if (it->kind == ITEM_HOST && !it->mesh && (*nhost)++ == 0)
      first = it;
  }
  cr_assert(first, "no host statement");
  return first;
}

static int names(const obj_list *objs, const char *name) {
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

Test(region, host_rule_reads_and_writes) {
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

Test(region, host_rule_unevaluated_and_unrelated_are_not_computations) {
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

/* The calls that change the mesh (summary_changes_mesh) make a statement
 * a barrier, also through a function of the file; a dat's declaration
 * does not, nor a call of a function loomc does not see (it writes the
 * mesh instead: effects.h). */
Test(region, mesh_calls_are_barriers) {
  static const struct {
    const char *stmt;
    int mesh;
  } cases[] = {{"loom_renumber();", 1},
               {"if (loom_renumber() != 0) xs[0] = 1.0;", 1},
               {"renumber_all();", 1},
               {"loom_partition(edges, \"block\");", 1},
               {"{ loom_set s = loom_decl_set(2, \"s\"); (void)s; }", 1},
               {"{ loom_map m = loom_decl_map(edges, nodes, 1, e2n, \"m\"); (void)m; }", 1},
               {"{ loom_dat y = loom_decl_temp(nodes, 1, double, \"y\"); (void)y; }", 0},
               {"use(xs[0]);", 0},
               {"xs[0] = loom_set_size(edges);", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    static char src[8192];
    snprintf(src, sizeof src,
             PROGRAM(HOST_KERNELS "static void renumber_all(void) { loom_renumber(); }\n",
                     "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
                     "  %s\n"
                     "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"),
             cases[i].stmt);
    run r;
    run_source(&r, src, TO_CHECK);
    cr_assert_eq(r.errors, 0, "%s", r.diags);
    region_list regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
    const region *body = regions.items[0];
    const item *it = body->items.len > PRELUDE + 1 ? body->items.items[PRELUDE + 1] : NULL;
    int is_stmt = it && it->kind != ITEM_LOOP;
    cr_expect_eq(is_stmt && it->mesh, cases[i].mesh, "case %zu (%s): changes the mesh", i,
                 cases[i].stmt);
    cr_expect_eq(is_stmt && it->leaves, cases[i].mesh, "case %zu (%s): a barrier", i,
                 cases[i].stmt);
    cr_expect_eq(is_stmt && names(&it->writes, "<mesh>"), strncmp(cases[i].stmt, "use", 3) == 0,
                 "case %zu (%s): writes the mesh", i, cases[i].stmt);
    run_free(&r);
  }
}

/* Stores into memory a local pointer has just allocated, and which no
 * other name reaches (fresh.h), touch no state loomc knows: no
 * computation. */
Test(region, host_rule_fresh_memory_is_no_state) {
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
 * write the unseen state: they are computations, of nothing else but, for
 * the call, the mesh it may change (effects.h). */
Test(region, host_rule_unseen_calls_and_pointer_stores_write_the_unseen_state) {
  static const struct {
    const char *stmt;
    int reads; /* also: a call, which writes the mesh */
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
    cr_expect_eq(names(&it->writes, "<mesh>"), cases[i].reads, "case %zu: the mesh", i);
    cr_expect(!names(&it->reads, "<mesh>"), "case %zu: the mesh is not read", i);
    cr_expect_eq(it->objs.len, 1 + cases[i].reads, "case %zu: nothing else", i);
    run_free(&r);
  }
}

/* A global read by host code waits for the reduction and nothing else; a
 * write orders against readers and reducers. */
Test(region, host_read_waits_only_for_the_reduction) {
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

Test(region, host_write_orders_against_readers_and_reducers) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  gsum = 0.0;\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n",
      "seq");
  cr_assert_eq(d->comps.len, PRELUDE + 5, "and loom_exit and the final return, which reads gsum");
  const comp *first = d->comps.items[PRELUDE], *host = d->comps.items[PRELUDE + 1],
             *second = d->comps.items[PRELUDE + 2];
  cr_expect(is_pred(host, first));
  cr_expect(is_pred(second, host));
  run_free(&r);
}

/* ---- sync ------------------------------------------------------------------ */

Test(region, sync_is_an_item_at_its_position) {
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
  region_list regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
  cr_assert_eq(regions.len, 1, "a block holding only a sync is no region");
  const region *body = regions.items[0];
  cr_assert_eq(body->items.len, PRELUDE + 6, "loop, sync, loop, if, loom_exit, return");
  const item *sync = body->items.items[PRELUDE + 1], *nested = body->items.items[PRELUDE + 3];
  cr_expect_eq(sync->kind, ITEM_SYNC);
  cr_expect(names(&sync->reads, "w") && names(&sync->writes, "w"));
  cr_expect(names(&sync->reads, "gsum") && names(&sync->writes, "gsum"));
  cr_expect_eq(((const item *)body->items.items[PRELUDE + 2])->kind, ITEM_LOOP);
  cr_expect_eq(nested->kind, ITEM_HOST, "an if holding a sync");
  cr_expect(names(&nested->writes, "x"));
  dag_list dags = dag_build(&regions, target_of(TARGET_SEQ), NULL, r.arena);
  const dag *d = dags.items[0];
  const comp *s = d->comps.items[PRELUDE + 1];
  cr_expect_str_eq(s->label, "sync(w,gsum)");
  cr_expect(is_pred(s, d->comps.items[PRELUDE]));
  cr_expect(is_pred(d->comps.items[PRELUDE + 2], s));
  run_free(&r);
}

Test(region, sync_forces_only_what_it_names) {
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
  const comp *s2 = comp_named(d2, "sync(w)");
  cr_expect_eq(s2->preds.len, 1, "only the last barrier of the prelude");
  cr_expect(((const comp *)s2->preds.items[0])->mesh);
  run_free(&r);
}
