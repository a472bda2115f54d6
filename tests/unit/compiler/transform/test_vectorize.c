/*
 * test_compiler_vectorize.c — unit tests of the vectorization stage
 * (vectorize.c): which loops are staged
 * and why the others are not, which staged loops run as lanes and why
 * the others do not, the arguments gathered, --no-vectorize.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "fuse_harness.h"
#include "transform/vectorize.h"

/* k_alias names its parameter otherwise than p[e] (no lane copy); k_macro
 * through a macro; k_value returns a value. */
#define VEC_KERNELS                                                            \
  "static void k_len(const double *a, const double *b, double *w) {\n"        \
  "  double dx = a[0] - b[0], dy = a[1] - b[1];\n"                            \
  "  *w = sqrt(dx * dx + dy * dy) + sqrt(dx * dx) + sqrt(dy * dy) / 2.0\n"     \
  "       + fabs(dx - dy) * 0.5;\n"                                           \
  "}\n"                                                                        \
  "static void k_copy(const double *a, double *w) { *w = a[0]; }\n"           \
  "static void k_half(const double *w, double *v) { *v = 0.5 * *w; }\n"       \
  "static void k_red(const double *a, const double *b, double *s) {\n"        \
  "  *s += sqrt(a[0] * a[0] + b[0] * b[0] + a[1] * a[1] + b[1] * b[1]);\n}\n" \
  "static void k_inc(const double *a, const double *b, double *n) {\n"        \
  "  n[0] += sqrt(a[0] * a[0] + b[0] * b[0] + a[1] * a[1] + b[1] * b[1]);\n}\n" \
  "static void k_incw(const double *a, const double *b, double *n) {\n"       \
  "  double d = sqrt(a[0] * a[0] + b[0] * b[0]) * exp(a[1] - b[1])\n"          \
  "             / (1.0 + fabs(a[0] - b[1]));\n"                                \
  "  d = d * (1.0 + 0.5 * d * d) - 0.25 * d * d * d\n"                         \
  "      + sqrt(d * d + 1.0) * log(1.0 + d * d);\n"                            \
  "  n[0] += d;\n  n[1] -= d * 0.5;\n}\n"                                      \
  "static void k_self(const double *a, double *y) {\n"                        \
  "  y[0] = sqrt(a[0] * a[0] + a[1] * a[1]) * (y[0] + 1.0) - y[1] / 3.0;\n}\n" \
  "static void k_alias(const double *a, double *w) {\n"                      \
  "  const double *p = a;\n  *w = p[0] + p[1];\n}\n"                          \
  "#define FIRST(v) v[0]\n"                                                    \
  "static void k_macro(const double *a, double *w) { *w = FIRST(a); }\n"     \
  "static int k_value(const double *a, double *w) { *w = a[0]; return 1; }\n" \
  "static void k_addr(const double *a, double *w) {\n"                       \
  "  const double *p = &a[1];\n  *w = p[0];\n}\n"

typedef fused vectorized;

/* Runs everything up to vectorization on `body` (inside main). */
static void vectorize_body(vectorized *v, const char *body, int disabled) {
  static char src[16384];
  snprintf(src, sizeof src,
           PROGRAM("#include <math.h>\n" VEC_KERNELS,
                   "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                   "  loom_dat t = loom_decl_temp(edges, 1, double, \"t\");\n"
                   "  loom_dat u = loom_decl_temp(edges, 1, double, \"u\");\n"
                   "%s"),
           body);
  cr_assert_eq(run_to_fusion(v, src, 0), 0, "%s", v->r.diags);
  cr_assert_eq(v->r.errors, 0, "%s", v->r.diags);
  v->opt.no_vectorize = disabled;
  v->staged = vectorize(&v->t, v->fu, NULL, v->r.arena);
}

/* The notes of the first region, one per line. */
static const char *notes_of(vectorized *v) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  dag_write_report(mem, &v->t.dags);
  fclose(mem);
  const char *s = arena_strdup(v->r.arena, text);
  free(text);
  return s;
}

static int staged(const vectorized *v, const loop *lp) {
  return vectorize_staged(v->staged, lp);
}

struct decision_case {
  const char *body;
  int staged;      /* the first loop */
  const char *why; /* a part of its note */
};

static const struct decision_case decision_cases[] = {
    /* reads through a map, writes its own element, enough work */
    {"#pragma loom par_loop(k_len) over(edges) "
     "args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n",
     1, "k_len staged: x through e2n_map (2 reads) gathered per strip of 16"},
    /* however little work: whether staging pays is measured when it runs */
    {"#pragma loom par_loop(k_copy) over(edges) args(read: x[e2n_map[1]], write: w)\n", 1,
     "k_copy staged: x through e2n_map gathered per strip of 16 elements; its kernel runs "
     "as lanes: a copy takes each argument as base and offset; each call runs staged or "
     "element by element, as timed over its first calls (LOOM_VECTOR)"},
    /* staged, not as lanes: why */
    {"#pragma loom par_loop(k_alias) over(edges) args(read: x[e2n_map[1]], write: w)\n", 1,
     "over the strip's rows (not as lanes: its kernel uses parameter 'a' otherwise than "
     "as 'a[...]' or '*a')"},
    {"#pragma loom par_loop(k_macro) over(edges) args(read: x[e2n_map[1]], write: w)\n", 1,
     "(not as lanes: its kernel names parameter 'a' through a macro)"},
    {"#pragma loom par_loop(k_value) over(edges) args(read: x[e2n_map[1]], write: w)\n", 1,
     "(not as lanes: its kernel returns a value)"},
    {"#pragma loom par_loop(k_addr) over(edges) args(read: x[e2n_map[1]], write: w)\n", 1,
     "(not as lanes: its kernel takes the address of a parameter's element)"},
    /* a reduction keeps element order */
    {"#pragma loom par_loop(k_red) over(edges) "
     "args(read: x[e2n_map[0]], x[e2n_map[1]], inc: gsum)\n",
     0, "it reduces gsum"},
    /* increments through a map with enough work: taken per element in a
     * strip local, added after the strip's kernels */
    {"#pragma loom par_loop(k_incw) over(edges) "
     "args(read: x[e2n_map[0]], x[e2n_map[1]], inc: y[e2n_map[0]])\n",
     1, "y through e2n_map incremented in a local per element and added after the "
        "strip's kernels, in element order"},
    /* the same with little work */
    {"#pragma loom par_loop(k_inc) over(edges) "
     "args(read: x[e2n_map[0]], x[e2n_map[1]], inc: y[e2n_map[0]])\n",
     1, "k_inc staged"},
    /* a minimum through a map is not deferred: elements of a strip may collide */
    {"#pragma loom par_loop(k_incw) over(edges) "
     "args(read: x[e2n_map[0]], x[e2n_map[1]], min: y[e2n_map[0]])\n",
     0, "y through map e2n_map (elements of one strip may update the same target)"},
};

/* (A table walked in one test: Criterion's parameters would cross into
 * another process, where the strings' addresses differ.) */
Test(vectorize, decisions) {
  for (size_t i = 0; i < sizeof decision_cases / sizeof decision_cases[0]; i++) {
    const struct decision_case *c = &decision_cases[i];
    vectorized v;
    vectorize_body(&v, c->body, 0);
    cr_assert_eq(staged(&v, loop_n(&v, 1)), c->staged, "case %zu: %s", i, notes_of(&v));
    int lanes = strstr(notes_of(&v), "its kernel runs as lanes") != NULL;
    cr_assert_eq(vectorize_lanes(v.staged, loop_n(&v, 1)), lanes, "case %zu: %s", i,
                 notes_of(&v));
    cr_assert(strstr(notes_of(&v), c->why), "case %zu: %s", i, notes_of(&v));
    run_free(&v.r);
  }
}

Test(vectorize, staged_loop_gathers_only_its_map_reads) {
  vectorized v;
  vectorize_body(&v, "#pragma loom par_loop(k_len) over(edges) "
                     "args(read: x[e2n_map[0]], x[e2n_map[1]], write: t)\n"
                     "#pragma loom par_loop(k_half) over(edges) args(read: t, write: u)\n", 0);
  const loop *len = loop_n(&v, 1), *half = loop_n(&v, 2);
  const group *g = fusion_group(v.fu, len);
  cr_assert_eq(g, fusion_group(v.fu, half), "fused: one group, run in strips");
  cr_assert(vectorize_strips(v.staged, g));
  cr_assert(staged(&v, len) && !staged(&v, half));
  cr_assert(vectorize_gathers(v.staged, len, &len->args[0]) && vectorize_gathers(v.staged, len, &len->args[1]));
  cr_assert(!vectorize_gathers(v.staged, len, &len->args[2]), "its direct write is not gathered");
  cr_assert(!vectorize_gathers(v.staged, half, &half->args[0]));
  run_free(&v.r);
}

Test(vectorize, disabled_stages_nothing_and_notes_nothing) {
  vectorized v;
  vectorize_body(&v, "#pragma loom par_loop(k_len) over(edges) "
                     "args(read: x[e2n_map[0]], x[e2n_map[1]], write: t)\n", 1);
  cr_assert(!staged(&v, loop_n(&v, 1)));
  cr_assert_null(strstr(notes_of(&v), "staged"), "%s", notes_of(&v));
  run_free(&v.r);
}
