/*
 * test_dag.c — unit tests of the dependency DAG (analysis/dag.c): what
 * becomes a computation, the sections each one reads and writes, the
 * dependence rule R∩W' ∪ W∩R' ∪ W∩W', halo exchanges merged or removed
 * as the DAG is built, and barriers.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "dag_harness.h"

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
      cr_assert_eq(d->comps.len, PRELUDE + 4, "case %zu: two loops, loom_exit, return", i);
      cr_expect(is_pred(d->comps.items[PRELUDE + 1], d->comps.items[PRELUDE]), "case %zu", i);
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
  cr_assert_eq(d->comps.len, PRELUDE + 6, "four parts, loom_exit and return (barriers)");
  const comp *send = comp_named(d, "HaloSend(x)"), *core = comp_named(d, "k_edge[core]");
  const comp *recv = comp_named(d, "HaloRecv(x)"), *owned = comp_named(d, "k_edge[owned]");
  cr_expect(is_pred(recv, send));
  cr_expect(is_pred(owned, core));
  cr_expect(is_pred(owned, recv));
  cr_expect_eq(core->preds.len, 1, "core waits only for the declarations: overlap");
  cr_expect_eq(core->preds.items[0], d->comps.items[PRELUDE - 1]);
  cr_expect(is_pred(send, d->comps.items[PRELUDE - 1]), "the send partitions: after the mesh");
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
  region_list regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
  cr_assert_eq(regions.len, 2);
  const region *outer = regions.items[0], *inner = regions.items[1];
  cr_assert_eq(outer->items.len, PRELUDE + 4, "loop, for, loom_exit and the return naming gsum");
  cr_expect_eq(((const item *)outer->items.items[PRELUDE])->kind, ITEM_LOOP);
  cr_expect_eq(((const item *)outer->items.items[PRELUDE + 1])->kind, ITEM_NESTED);
  cr_expect_eq(((const item *)outer->items.items[PRELUDE + 2])->kind, ITEM_HOST);
  cr_expect_eq(inner->depth, 1);
  dag_list dags = dag_build(&regions, target_of(TARGET_SEQ), NULL, r.arena);
  const dag *d = dags.items[0];
  cr_expect(is_pred(d->comps.items[PRELUDE + 1], d->comps.items[PRELUDE]), "the for reads w");
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

Test(dag, halo_successive_exchanges_merged) {
  run r;
  const dag *d = dag_of(&r, EDGE_READ_X "  xs[0] = 1.0;\n" EDGE_READ_X, "mpi");
  cr_expect_eq(removed(d, "merged"), 2, "the second send and receive");
  cr_expect(noted(d, "HaloSend(x)/HaloRecv(x) for k_edge merged into the exchange for k_edge"));
  const comp *second_owned = d->comps.items[PRELUDE + 7];
  cr_assert_str_eq(second_owned->label, "k_edge[owned]");
  cr_assert_str_eq(((const comp *)d->comps.items[PRELUDE + 2])->label, "HaloRecv(x)");
  cr_expect(reaches(d->comps.items[PRELUDE + 2], second_owned),
            "reads the first exchange's halo");
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
  cr_expect_eq(d->comps.len, PRELUDE + 4, "two loops, loom_exit, return");
  cr_expect_eq(d->notes.len, 0);
  run_free(&r);
}


/* With MPI a send partitions the mesh: it depends on every call that may
 * change it — a renumbering (a barrier) and a function loomc does not see
 * — but not on a dat's declaration; loops do not wait for the unseen call. */
Test(dag, halo_send_stays_below_what_may_change_the_mesh) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_renumber();\n"
      "  loom_dat y = loom_decl_temp(nodes, 2, double, \"y\");\n"
      "  unseen_setup();\n"
      "#pragma loom par_loop(k_copy) over(nodes) args(read: y, write: y)\n"
      EDGE_READ_X, "mpi");
  const comp *send = comp_named(d, "HaloSend(x)");
  const comp *renumber = d->comps.items[PRELUDE], *unseen = d->comps.items[PRELUDE + 1];
  cr_assert(renumber->barrier && renumber->mesh, "loom_renumber() is a barrier");
  cr_assert(!unseen->barrier && dag_writes(unseen, effects_mesh()),
            "the unseen call (the declaration of y, naming nothing else, is no computation)");
  cr_expect(is_pred(send, unseen), "the send waits for the unseen call");
  cr_expect(reaches(renumber, send));
  cr_expect(!reaches(unseen, comp_named(d, "k_copy[core,owned]")),
            "a loop may still move across the unseen call");
  run_free(&r);
}

/* A loop that assembles a matrix runs its executed halo: with MPI it is
 * split, and a dat it reads directly is exchanged (HaloSend/HaloRecv). */
Test(dag, matrix_loop_exchanges_its_direct_reads) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &e2n_map, &e2n_map, "
      "\"sp\");\n"
      "  loom_mat A = loom_decl_mat(sp, \"A\");\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
      "#pragma loom par_loop(k_mat) over(edges) args(read: w, inc: A[e2n_map, e2n_map])\n",
      "mpi");
  const comp *send = comp_named(d, "HaloSend(w)"), *recv = comp_named(d, "HaloRecv(w)");
  const comp *copy = comp_named(d, "k_copy[core,owned]");
  cr_expect(is_pred(send, copy), "after the loop that writes w");
  cr_expect(is_pred(comp_named(d, "k_mat[owned]"), recv));
  cr_expect(!reaches(recv, comp_named(d, "k_mat[core]")), "its core part does not wait");
  run_free(&r);
}

/* The transitive reduction over a window of computations (dag_link.c,
 * REACH_WINDOW): exact within it, and beyond it an edge another implies
 * may stay, but none is lost.  Two independent chains of loops (each
 * reads what the one before it in its chain wrote) and, after each step of
 * both, a loop reading both chains' latest outputs.  Within the window a
 * chain loop's only predecessor is the one before it; everywhere, a join's
 * predecessors include both chains' latest loops, which nothing else
 * reaches it through. */
static void chains_preds(int steps) {
  size_t cap = 512 + (size_t)steps * 300;
  char *body = malloc(cap), *src = malloc(cap + 4096);
  size_t len = (size_t)snprintf(body, cap,
      "  loom_dat a0 = loom_decl_temp(edges, 1, double, \"a0\");\n"
      "  loom_dat a1 = loom_decl_temp(edges, 1, double, \"a1\");\n"
      "  loom_dat b0 = loom_decl_temp(edges, 1, double, \"b0\");\n"
      "  loom_dat b1 = loom_decl_temp(edges, 1, double, \"b1\");\n");
  for (int k = 0; k < steps; k++)
    len += (size_t)snprintf(body + len, cap - len,
        "#pragma loom par_loop(k_copy) over(edges) args(read: a%d, write: a%d)\n"
        "#pragma loom par_loop(k_copy) over(edges) args(read: b%d, write: b%d)\n"
        "#pragma loom par_loop(k_edge) over(edges) args(read: a%d, b%d, write: w)\n",
        k % 2, 1 - k % 2, k % 2, 1 - k % 2, 1 - k % 2, 1 - k % 2);
  snprintf(src, cap + 4096, PROGRAM(DAG_KERNELS, "%s"), body);
  run r;
  run_source(&r, src, TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  region_list regions = regions_build(&r.fe, &r.st, &r.prog, r.arena);
  dag_list dags = dag_build(&regions, target_of(TARGET_SEQ), NULL, r.arena);
  const dag *d = dags.items[0];
  for (int k = 1; k < steps; k++) {
    int at = PRELUDE + 3 * k;
    const comp *a = d->comps.items[at], *b = d->comps.items[at + 1];
    const comp *join = d->comps.items[at + 2];
    cr_assert(is_pred(a, d->comps.items[at - 3]), "step %d: a chain loop follows its chain", k);
    cr_assert(is_pred(join, a) && is_pred(join, b), "step %d: the join waits for both", k);
  }
  /* every dependence is a path; within the window, no edge is implied by
   * another path (the ids are 1-based, in program order) */
  int n = d->comps.len;
  unsigned char *seen = calloc((size_t)n + 1, 1);
  const comp **todo = malloc(((size_t)n + 1) * sizeof *todo);
  for (int i = 0; i < n; i++) {
    const comp *c = d->comps.items[i];
    for (int e = 0; e < c->preds.len; e++) { /* what reaches c but by edge e */
      memset(seen, 0, (size_t)n + 1);
      int nt = 0;
      for (int k = 0; k < c->preds.len; k++)
        if (k != e)
          todo[nt++] = c->preds.items[k];
      while (nt) {
        const comp *x = todo[--nt];
        if (seen[x->id]++)
          continue;
        for (int k = 0; k < x->preds.len; k++)
          todo[nt++] = x->preds.items[k];
      }
      const comp *p = c->preds.items[e];
      if (c->id < 2048)
        cr_assert(!seen[p->id], "%s -> %s is implied, yet kept", p->label, c->label);
    }
    memset(seen, 0, (size_t)n + 1);
    int nt = 0;
    for (int k = 0; k < c->preds.len; k++)
      todo[nt++] = c->preds.items[k];
    while (nt) {
      const comp *x = todo[--nt];
      if (seen[x->id]++)
        continue;
      for (int k = 0; k < x->preds.len; k++)
        todo[nt++] = x->preds.items[k];
    }
    for (int j = 0; j < i; j++) {
      const comp *e = d->comps.items[j];
      if (dag_depends(c, e))
        cr_assert(seen[e->id], "%s depends on %s, with no path", c->label, e->label);
    }
  }
  free(seen);
  free(todo);
  run_free(&r);
  free(body);
  free(src);
}

Test(dag, reduction_exact_within_its_window) { chains_preds(100); }
Test(dag, reduction_beyond_its_window_loses_no_edge) { chains_preds(760); }

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
      if (((const comp *)d->comps.items[k])->barrier &&
          !((const comp *)d->comps.items[k])->mesh && nbarrier++ == 0)
        barrier = d->comps.items[k];
    cr_expect_eq(nbarrier, c->barrier, "case %zu (%s)", i, c->stmt);
    if (barrier) { /* the reduction ends before it; the next loop waits for it */
      cr_expect(reaches(comp_named(d, "ReductionEnd(gsum)"), barrier), "case %zu", i);
      cr_expect(reaches(barrier, comp_named(d, "k_copy[core,owned]")), "case %zu", i);
    }
    run_free(&r);
  }
}
