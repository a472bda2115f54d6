/*
 * test_compiler_fuse.c — unit tests of the isl domains and access
 * relations of mesh loops (domains.c), of fusion legality, and of the
 * fusion stage (fuse.c): which loops are grouped, and what becomes of
 * each temporary (contracted, pinned, stored, sharing storage).
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler_harness.h"

#include <criterion/criterion.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include "domains.h"
#include "fuse_harness.h"

#define FUSE_KERNELS                                                           \
  "static void k_copy(const double *a, double *b) { b[0] = a[0]; b[1] = a[1]; }\n" \
  "static void k_one(const double *a, double *w) { *w = a[0]; }\n"             \
  "static void k_w(const double *w, double *v) { *v = 2.0 * *w; }\n"           \
  "static void k_sum(const double *a, double *s) { *s += *a; }\n"              \
  "static void k_edge(const double *a, const double *b, double *w) {\n"        \
  "  *w = a[0] - b[1];\n}\n"                                                   \
  "static void k_scatter(const double *w, double *a, double *b) {\n"           \
  "  a[0] += *w; b[0] -= *w;\n}\n"

/* Runs everything up to fusion on `body` (inside main). */
static void fuse_body(fused *f, const char *body, int no_fuse) {
  static char src[8192];
  snprintf(src, sizeof src,
           PROGRAM(FUSE_KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                                 "  loom_dat t = loom_decl_temp(edges, 1, double, \"t\");\n"
                                 "  loom_dat u = loom_decl_temp(edges, 1, double, \"u\");\n"
                                 "%s"),
           body);
  cr_assert_eq(run_to_fusion(f, src, no_fuse), 0, "%s", f->r.diags);
}

static const loop *loop_n(const fused *f, int id) { return f->r.prog.loops.items[id - 1]; }

static const obj *temp_named(const fused *f, const char *name) {
  for (int i = 0; i < f->fu->temps.len; i++) {
    const temp_info *ti = f->fu->temps.items[i];
    if (strcmp(ti->t->name, name) == 0)
      return ti->t;
  }
  cr_assert_fail("no temporary '%s' decided", name);
  return NULL;
}

/* ---- isl domains and access relations ------------------------------------- */

Test(domains, text_of_domain_and_accesses) {
  fused f;
  fuse_body(&f, "#pragma loom par_loop(k_edge) over(edges) "
                "args(read: x[e2n_map[0]], x[e2n_map[1]], write: t)\n"
                "#pragma loom par_loop(k_sum) over(edges) args(read: t, inc: gsum)\n", 1);
  const loop *edge = loop_n(&f, 1), *sum = loop_n(&f, 2);
  cr_assert_str_eq(domain_text(f.r.arena, edge),
                   "[c_edges, o_edges, x_edges] -> { k_edge_1[e] : 0 <= e < x_edges }");
  /* indirect: the whole target set; direct: the identity; global: one */
  const char *ind = access_text(f.r.arena, edge, &edge->args[0]);
  cr_assert(strstr(ind, "k_edge_1[e] -> x_") && strstr(ind, "0 <= f < x_nodes"), "%s", ind);
  const char *dir = access_text(f.r.arena, edge, &edge->args[2]);
  cr_assert(strstr(dir, "k_edge_1[e] -> t_") && strstr(dir, "[e] :"), "%s", dir);
  const char *glob = access_text(f.r.arena, sum, &sum->args[1]);
  cr_assert(strstr(glob, "k_sum_2[e] -> gsum_") && strstr(glob, "[0]"), "%s", glob);
  /* every text is valid isl, and the domain is the expected set */
  isl_ctx *ctx = isl_ctx_alloc();
  isl_set *dom = isl_set_read_from_str(ctx, domain_text(f.r.arena, edge));
  isl_set *want = isl_set_read_from_str(
      ctx, "[c_edges, o_edges, x_edges] -> { k_edge_1[e] : e >= 0 and e <= x_edges - 1 }");
  cr_assert(dom && want && isl_set_is_equal(dom, want) == isl_bool_true);
  isl_set_free(dom);
  isl_set_free(want);
  for (int i = 0; i < edge->nargs; i++) {
    isl_union_map *m = isl_union_map_read_from_str(ctx, access_text(f.r.arena, edge,
                                                                    &edge->args[i]));
    cr_assert(m, "argument %d", i);
    isl_union_map_free(m);
  }
  isl_ctx_free(ctx);
  run_free(&f.r);
}

struct legal_case {
  const char *body;
  int fusable;
  const char *why; /* a part of the reason when not fusable */
};

static const struct legal_case legal_cases[] = {
    /* direct producer -> direct consumer: e -> e */
    {"#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
     "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n", 1, NULL},
    /* siblings reading the same dat: no dependence at all */
    {"#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
     "#pragma loom par_loop(k_w) over(edges) args(read: w, write: u)\n", 1, NULL},
    /* the consumer reads through a map what the producer writes */
    {"#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: y)\n"
     "#pragma loom par_loop(k_edge) over(edges) args(read: y[e2n_map[0]], y[e2n_map[1]], "
     "write: t)\n", 0, "over set nodes"},
    /* write after an indirect read (anti-dependence through a map) */
    {"#pragma loom par_loop(k_scatter) over(edges) args(read: w, inc: x[e2n_map[0]], "
     "x[e2n_map[1]])\n"
     "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
     "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], "
     "write: u)\n", 0, "through map e2n"},
    /* two reductions of one global */
    {"#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
     "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n", 0,
     "interleave"},
};

/* domains_fusable on the last loop of each case after all the earlier ones. */
Test(domains, fusion_legality) {
  for (size_t k = 0; k < sizeof legal_cases / sizeof legal_cases[0]; k++) {
    const struct legal_case *c = &legal_cases[k];
    fused f;
    fuse_body(&f, c->body, 1);
    vec earlier = {0};
    int n = f.r.prog.loops.len;
    for (int i = 1; i < n; i++)
      vec_push(f.r.arena, &earlier, (void *)loop_n(&f, i));
    const char *why = NULL;
    int ok = domains_fusable(f.r.arena, &earlier, loop_n(&f, n), &why);
    cr_assert_eq(ok, c->fusable, "%s: %s", c->body, why ? why : "(no reason)");
    if (!ok)
      cr_assert(why && strstr(why, c->why), "reason '%s' lacks '%s'", why, c->why);
    domains_done();
    run_free(&f.r);
  }
}

/* ---- groups ------------------------------------------------------------------ */

Test(fuse, groups_follow_legality_and_no_fuse) {
  const char *body = "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                     "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n"
                     "#pragma loom par_loop(k_sum) over(edges) args(read: u, inc: gsum)\n"
                     "#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: y)\n";
  fused f;
  fuse_body(&f, body, 0);
  cr_assert_eq(f.fu->groups.len, 2);
  const group *g = fusion_group(f.fu, loop_n(&f, 1));
  cr_assert_eq(g->loops.len, 3);
  cr_assert_eq(g->anchor, loop_n(&f, 3), "a group runs where its last loop stood");
  cr_assert_eq(fusion_group(f.fu, loop_n(&f, 2)), g);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 4)), g);
  run_free(&f.r);
  fuse_body(&f, body, 1);
  cr_assert_eq(f.fu->groups.len, 4, "--no-fuse: one group per loop");
  run_free(&f.r);
}

Test(fuse, host_code_between_blocks_fusion) {
  fused f;
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "  gsum = 1.0;\n"
                "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: w, write: u)\n"
                "  loom_dat_fetch(u, xs, 0);\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n", 0);
  /* k_one and k_sum: the host assignment of gsum is independent of k_one,
   * which moves past it; k_w(u) joins; the fetch of u is not crossed */
  const group *g = fusion_group(f.fu, loop_n(&f, 1));
  cr_assert_eq(g->loops.len, 3);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 4)), g);
  run_free(&f.r);
}

/* ---- temporaries ------------------------------------------------------------- */

Test(fuse, temporaries_contracted_stored_shared) {
  fused f;
  /* t: producer and consumer fused, each reading its own element */
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n", 0);
  cr_assert_eq(fusion_temp(f.fu, temp_named(&f, "t"))->fate, TEMP_CONTRACTED);
  run_free(&f.r);

  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_scatter) over(edges) args(read: t, "
                "inc: x[e2n_map[0]], x[e2n_map[1]])\n"
                "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], "
                "x[e2n_map[1]], write: u)\n"
                "#pragma loom par_loop(k_scatter) over(edges) args(read: u, "
                "inc: x[e2n_map[0]], x[e2n_map[1]])\n", 1);
  /* without fusion both are stored; u is written after t's last use */
  const temp_info *t = fusion_temp(f.fu, temp_named(&f, "t"));
  const temp_info *u = fusion_temp(f.fu, temp_named(&f, "u"));
  cr_assert_eq(t->fate, TEMP_STORED);
  cr_assert_eq(u->fate, TEMP_STORED);
  cr_assert_eq(u->shares, t->t, "u's lifetime starts after t's last use");
  cr_assert_eq(u->first, loop_n(&f, 3));
  cr_assert_null(t->shares);
  run_free(&f.r);
}

Test(fuse, pin_and_pin_cse) {
  fused f;
  fuse_body(&f, "#pragma loom pin(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n"
                "#pragma loom par_loop(k_sum) over(edges) args(read: u, inc: gsum)\n", 0);
  const temp_info *t = fusion_temp(f.fu, temp_named(&f, "t"));
  cr_assert_eq(t->fate, TEMP_PINNED);
  cr_assert_eq(t->producer, loop_n(&f, 1));
  cr_assert_null(fusion_group(f.fu, loop_n(&f, 1)), "a pinned producer has no loop");
  run_free(&f.r);

  fuse_body(&f, "#pragma loom pin_cse(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n", 0);
  cr_assert_eq(fusion_temp(f.fu, temp_named(&f, "t"))->fate, TEMP_STORED);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 1)), fusion_group(f.fu, loop_n(&f, 2)),
                "pin_cse keeps the producer's loop apart");
  run_free(&f.r);
}

Test(fuse, pin_that_cannot_be_honoured) {
  fused f;
  fuse_body(&f, "#pragma loom pin(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n", 0);
  cr_assert_eq(f.r.errors, 1);
  cr_assert(strstr(f.r.diags, "pin(t) cannot be honoured: w, which its producer k_one "
                              "reads, is written"), "%s", f.r.diags);
  run_free(&f.r);
}
