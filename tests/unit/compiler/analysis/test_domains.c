/*
 * test_domains.c — unit tests of the isl domains and access relations of
 * mesh loops, and of fusion legality (analysis/domains.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include "analysis/domains.h"
#include "fuse_harness.h"

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
    loop_list earlier = {0};
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


/* Pairs over a set without layers are decided in closed form: the same
 * answer and reason as isl's, for every pair of kinds of access (direct,
 * through a map to another set and to the loop's own set, whole) and
 * each mode that makes a dependence. */
static const char *const flat_cases[] = {
    "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
    "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n",
    "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n"
    "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n",
    "#pragma loom par_loop(k_scatter) over(edges) args(read: w, inc: x[e2n_map[0]], "
    "x[e2n_map[1]])\n"
    "#pragma loom par_loop(k_scatter) over(edges) args(read: w, inc: x[e2n_map[0]], "
    "x[e2n_map[1]])\n",
    "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
    "#pragma loom par_loop(k_edge) over(edges) args(read: t[ee[0]], t[ee[1]], write: u)\n",
    "#pragma loom par_loop(k_edge) over(edges) args(read: t[ee[0]], t[ee[1]], write: u)\n"
    "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n",
    "#pragma loom par_loop(k_scatter) over(edges) args(read: w, inc: t[ee[0]], t[ee[1]])\n"
    "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n",
    "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
    "#pragma loom par_loop(k_w) over(edges) args(read: gsum, write: u)\n",
    "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
    "#pragma loom par_loop(k_sum) over(edges) args(read: t, inc: gsum)\n",
};

static int fusable_decided(const char *body, int by_isl, const char **why) {
  static char src[1024];
  snprintf(src, sizeof src, "  loom_map ee = loom_decl_map(edges, edges, 2, e2n, \"ee\");\n%s",
           body);
  fused f;
  fuse_body(&f, src, 1);
  loop_list earlier = {0};
  vec_push(f.r.arena, &earlier, (void *)loop_n(&f, 1));
  domains_decide_by_isl(by_isl);
  int ok = domains_fusable(f.r.arena, &earlier, loop_n(&f, 2), why);
  domains_decide_by_isl(0);
  *why = *why ? strdup(*why) : NULL;
  domains_done();
  run_free(&f.r);
  return ok;
}

Test(domains, flat_pairs_as_isl_decides) {
  int fusable = 0;
  for (size_t k = 0; k < sizeof flat_cases / sizeof flat_cases[0]; k++) {
    const char *why_isl = NULL, *why = NULL;
    int by_isl = fusable_decided(flat_cases[k], 1, &why_isl);
    int closed = fusable_decided(flat_cases[k], 0, &why);
    cr_assert_eq(closed, by_isl, "%s", flat_cases[k]);
    cr_assert(by_isl >= 0, "%s", flat_cases[k]);
    cr_assert_str_eq(why ? why : "", why_isl ? why_isl : "", "%s", flat_cases[k]);
    fusable += by_isl;
    free((void *)why_isl);
    free((void *)why);
  }
  /* both answers occur: the two direct pairs fuse, the others do not */
  cr_assert_eq(fusable, 2);
}

/* A loop over an extruded set: a column and a layer of its region; the
 * identity map shifts the layer exactly, so a read one layer up fuses by
 * columns but not layer by layer, and a direct read fuses both ways. */
/* lid writes each column's top; peek, over the interior, reads the same
 * layer of the neighbouring columns (a base map, shift 0): whether they
 * fuse by columns, the columns declared by `decl`. */
static int lid_peek_fusable(const char *decl, char access[static 256]) {
  fused f;
  static char body[1024];
  snprintf(body, sizeof body,
           "  int hs[4] = {3, 1, 4, 2};\n"
           "  loom_map ee = loom_decl_map(edges, edges, 2, e2n, \"ee\");\n"
           "  loom_set cols = %s;\n"
           "  loom_map nb = loom_decl_extruded_map(cols, cols, 2, ee, (const int[]){0, 0},"
           " \"nb\");\n"
           "  loom_dat p = loom_decl_temp(cols, 1, double, \"p\");\n"
           "  loom_dat q = loom_decl_temp(cols, 1, double, \"q\");\n"
           "  loom_dat r = loom_decl_temp(cols, 1, double, \"r\");\n"
           "#pragma loom par_loop(k_one) over(cols) region(top) args(read: q, write: p)\n"
           "#pragma loom par_loop(k_edge) over(cols) region(interior) "
           "args(read: p[nb[0]], p[nb[1]], write: r)\n", decl);
  fuse_body(&f, body, 1);
  const loop *lid = loop_n(&f, 1), *peek = loop_n(&f, 2);
  snprintf(access, 256, "%s", access_text(f.r.arena, peek, &peek->args[0]));
  loop_list first = {0};
  vec_push(f.r.arena, &first, (void *)lid);
  const char *why = NULL;
  int ok = domains_fusable(f.r.arena, &first, peek, &why);
  domains_done();
  run_free(&f.r);
  return ok;
}

/* Over one number of layers the interior never reaches a neighbour's top;
 * over columns of their own heights it may: the access through the base
 * map then reaches any layer of the other column. */
Test(domains, columns_of_their_own_heights) {
  char acc[256];
  cr_assert_eq(lid_peek_fusable("loom_decl_extruded_set(edges, 4, \"cols\")", acc), 1);
  cr_assert(strstr(acc, "[f, l + 0]"), "one number of layers: the same layer, exactly: %s", acc);
  cr_assert_eq(lid_peek_fusable("loom_decl_extruded_set_columns(edges, hs, \"cols\")", acc),
               0);
  cr_assert(strstr(acc, "[f, g]"), "columns: any layer of the other column: %s", acc);
}

Test(domains, extruded_columns_and_layers) {
  fused f;
  fuse_body(&f, "  loom_set cols = loom_decl_extruded_set(edges, 4, \"cols\");\n"
                "  loom_map up = loom_decl_extruded_map(cols, cols, 2, NULL, (const int[]){0, 1},"
                " \"up\");\n"
                "  loom_dat p = loom_decl_temp(cols, 1, double, \"p\");\n"
                "  loom_dat q = loom_decl_temp(cols, 1, double, \"q\");\n"
                "  loom_dat r = loom_decl_temp(cols, 1, double, \"r\");\n"
                "#pragma loom par_loop(k_w) over(cols) args(read: q, write: p)\n"
                "#pragma loom par_loop(k_one) over(cols) args(read: p, write: r)\n"
                "#pragma loom par_loop(k_edge) over(cols) region(interior) "
                "args(read: p[up[0]], p[up[1]], write: q)\n", 1);
  const loop *w = loop_n(&f, 1), *one = loop_n(&f, 2), *edge = loop_n(&f, 3);
  const char *dom = domain_text(f.r.arena, edge);
  cr_assert(strstr(dom, "k_edge_3[e, l]") && strstr(dom, "0 <= l < L_cols - 1"), "%s", dom);
  const char *acc = access_text(f.r.arena, edge, &edge->args[1]);
  cr_assert(strstr(acc, "[e, l + 1]"), "the identity map's slot 1 reaches the layer above: %s",
            acc);
  loop_list first = {0};
  vec_push(f.r.arena, &first, (void *)w);
  const char *why = NULL;
  cr_assert_eq(domains_layer_fusable(f.r.arena, &first, one, &why), 1, "%s", why);
  cr_assert_eq(domains_fusable(f.r.arena, &first, edge, &why), 1, "%s", why);
  cr_assert_eq(domains_layer_fusable(f.r.arena, &first, edge, &why), 0);
  cr_assert(why && strstr(why, "a layer would depend on other layers"), "%s", why);
  domains_done();
  run_free(&f.r);
}

/* A loop that overwrites, at its layer, what an earlier one read there
 * and one layer up: each dependence goes from a cell to it or to the cell
 * above, which a layer-by-layer loop runs later (2); the other way round,
 * reading above what was written, it would not (0). */
Test(domains, layer_order) {
  fused f;
  fuse_body(&f, "  loom_set cols = loom_decl_extruded_set(edges, 4, \"cols\");\n"
                "  loom_map up = loom_decl_extruded_map(cols, cols, 2, NULL, (const int[]){0, 1},"
                " \"up\");\n"
                "  loom_dat p = loom_decl_temp(cols, 1, double, \"p\");\n"
                "  loom_dat r = loom_decl_temp(cols, 1, double, \"r\");\n"
                "#pragma loom par_loop(k_edge) over(cols) region(interior) "
                "args(read: p[up[0]], p[up[1]], write: r)\n"
                "#pragma loom par_loop(k_w) over(cols) args(read: r, write: p)\n", 1);
  const loop *edge = loop_n(&f, 1), *w = loop_n(&f, 2);
  loop_list first = {0};
  vec_push(f.r.arena, &first, (void *)edge);
  const char *why = NULL;
  cr_assert_eq(domains_layer_fusable(f.r.arena, &first, w, &why), 2, "%s", why);
  loop_list second = {0};
  vec_push(f.r.arena, &second, (void *)w);
  cr_assert_eq(domains_layer_fusable(f.r.arena, &second, edge, &why), 0);
  domains_done();
  run_free(&f.r);
}
