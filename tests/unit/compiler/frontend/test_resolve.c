/*
 * test_compiler_resolve.c — unit tests of name resolution (resolve.c) and
 * kernel checks (check.c): what each name binds to, the facts read from
 * declarations, C scoping, and one located error per mistake.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#define KERNELS                                                                \
  "static void k_edge(const double *a, const double *b, double *w) {\n"        \
  "  *w = a[0] - b[1];\n}\n"                                                   \
  "static void k_all(const double **a, double *w) { *w = a[0][0] + a[1][0]; }\n" \
  "static void k_glob(const double *w, const int *i, double *s, double *g) {\n" \
  "  *s += *w; g[*i & 1] += 1.0;\n}\n"                                         \
  "static void k_f(float *f) { f[0] = 1.0f; }\n"

struct resolve_case {
  const char *body;  /* statements in main (after the declarations) */
  const char *error; /* substring of the expected error, or NULL */
  int warnings;      /* expected count of "warning:" */
};

static const struct resolve_case resolve_cases[] = {
    /* accepted forms */
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)",
     NULL, 0},
    {"#pragma loom par_loop(k_all) over(edges) args(read: x[e2n_map[*]], write: w)", NULL, 0},
    {"#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: gsum, garr)", NULL, 0},
    {"#pragma loom par_loop(k_f) over(edges) args(write: f)", NULL, 0},
    {"{ loom_dat w = loom_decl_temp(edges, 1, double, \"inner\");\n"
     "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n}",
     NULL, 0},
    /* names */
    {"#pragma loom par_loop(k_f) over(cellz) args(write: f)", "undeclared identifier 'cellz'", 0},
    {"#pragma loom par_loop(k_f) over(x) args(write: f)", "'x' is a dat, not a set", 0},
    {"#pragma loom par_loop(k_f) over(edges) args(write: nodes)", "'nodes' is a set", 0},
    {"#pragma loom par_loop(k_f) over(edges) args(write: q)", "undeclared identifier 'q'", 0},
    {"#pragma loom par_loop(k_fx) over(edges) args(write: f)", "undeclared identifier 'k_fx'", 0},
    {"#pragma loom par_loop(gsum) over(edges) args(write: f)", "'gsum' is not a function", 0},
    /* sets and maps */
    {"#pragma loom par_loop(k_f) over(nodes) args(write: f)",
     "dat 'f' lives on set 'edges', but the loop is over set 'nodes'", 0},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[2]], write: w)",
     "map slot 2 is out of range", 0},
    {"#pragma loom par_loop(k_edge) over(nodes) args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)",
     "map 'e2n_map' maps from set 'edges', but the loop is over set 'nodes'", 0},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: w[e2n_map[0]], x[e2n_map[1]], write: w)",
     "dat 'w' lives on set 'edges', but map 'e2n_map' points into set 'nodes'", 0},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[w[0]], x[e2n_map[1]], write: w)",
     "'w' is a dat, not a map", 0},
    /* modes */
    {"#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, write: gsum, inc: garr)",
     "global 'gsum' cannot be 'write'", 0},
    {"#pragma loom par_loop(k_f) over(edges) args(min: f)", NULL, 0},
    {"#pragma loom par_loop(k_f) over(edges) args(max: f)", NULL, 0},
    /* kernels */
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], write: w)",
     "takes 3 parameters, but the par_loop passes 2 arguments", 0},
    {"#pragma loom par_loop(k_f) over(edges) args(write: w)",
     "argument 1 is dat 'w' of double, but parameter 1 'f' of kernel 'k_f' has type 'float *'", 0},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], read: w)",
     NULL, 1},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], write: x[e2n_map[1]], write: w)",
     "could not write it", 0},
    {"#pragma loom par_loop(k_all) over(edges) args(read: x[e2n_map[0]], write: w)",
     "(expected a pointer to double)", 0},
    {"#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[*]], x[e2n_map[1]], write: w)",
     "(expected a pointer to pointers to double)", 0},
    /* placement */
    {"if (argc > 5)\n#pragma loom par_loop(k_f) over(edges) args(write: f)\n  argc++;",
     "must stand as a statement of a block", 0},
};

Test(resolve, binds_names_with_c_scoping_and_reports_mistakes) {
  for (size_t i = 0; i < sizeof resolve_cases / sizeof resolve_cases[0]; i++) {
    const struct resolve_case *c = &resolve_cases[i];
    char src[4096];
    snprintf(src, sizeof src, PROGRAM(KERNELS, "%s"), c->body);
    run r;
    run_source(&r, src, TO_CHECK);
    if (c->error) {
      cr_expect_eq(r.errors, 1, "case %zu: %d errors:\n%s", i, r.errors, r.diags);
      cr_expect(strstr(r.diags, c->error) != NULL, "case %zu: '%s' lacks '%s'", i,
                r.diags, c->error);
      cr_expect_eq(r.prog.loops.len, 0, "case %zu: failed loop kept", i);
    } else {
      cr_expect_eq(r.errors, 0, "case %zu:\n%s", i, r.diags);
      cr_expect_eq(r.prog.loops.len, 1, "case %zu: loop dropped", i);
    }
    int warnings = 0;
    for (const char *p = r.diags; p && (p = strstr(p, "warning:")); p++)
      warnings++;
    cr_expect_eq(warnings, c->warnings, "case %zu: %d warnings:\n%s", i, warnings, r.diags);
    run_free(&r);
  }
}

Test(resolve, reads_dims_types_and_map_facts_from_declarations) {
  run r;
  run_source(&r, PROGRAM(KERNELS,
      "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n"
      "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: gsum, garr)"),
      TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  cr_assert_eq(r.prog.loops.len, 2);
  const loop *l1 = r.prog.loops.items[0], *l2 = r.prog.loops.items[1];
  cr_expect_str_eq(l1->set->name, "edges");
  const obj *x = l1->args[0].obj, *m = l1->args[0].map;
  cr_expect_eq(x->kind, OBJ_DAT);
  cr_expect_eq(x->dim, 2);
  cr_expect_str_eq(x->type->c_name, "double");
  cr_expect_str_eq(x->set->name, "nodes");
  cr_expect_eq(x->is_temp, 0);
  cr_expect_eq(m->dim, 2);
  cr_expect_str_eq(m->from->name, "edges");
  cr_expect_str_eq(m->to->name, "nodes");
  cr_expect_eq(l1->args[2].obj->is_temp, 1);
  cr_expect_eq(l2->args[1].kind, ARG_IDX);
  cr_expect_eq(l2->args[2].kind, ARG_GLOBAL);
  cr_expect_eq(l2->args[2].obj->dim, 1);
  cr_expect_eq(l2->args[3].obj->is_array, 1);
  cr_expect_eq(l2->args[3].obj->dim, 3);
  cr_expect_str_eq(l1->func_name, "main");
  run_free(&r);
}

Test(resolve, innermost_declaration_wins) {
  run r;
  run_source(&r, PROGRAM(KERNELS,
      "{ loom_dat f = loom_decl_temp(edges, 1, double, \"inner\");\n"
      "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], x[e2n_map[1]], write: f)\n}\n"
      "#pragma loom par_loop(k_f) over(edges) args(write: f)"),
      TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  cr_assert_eq(r.prog.loops.len, 2);
  const loop *inner = r.prog.loops.items[0], *outer = r.prog.loops.items[1];
  cr_expect_str_eq(inner->args[2].obj->type->c_name, "double");
  cr_expect_eq(inner->args[2].obj->dim, 1);
  cr_expect_str_eq(outer->args[0].obj->type->c_name, "float");
  cr_expect_eq(outer->args[0].obj->dim, 3);
  run_free(&r);
}

struct decl_case {
  const char *decl; /* replaces nothing: appended after the standard ones */
  const char *use;
  const char *error;
};

static const struct decl_case decl_cases[] = {
    {"int n = 2; loom_dat v = loom_decl_dat(nodes, n, double, xs, \"v\");",
     "#pragma loom par_loop(k_f) over(nodes) args(write: v)",
     "the dim of 'v' must be an integer constant expression"},
    {"loom_dat v = 0;", "#pragma loom par_loop(k_f) over(nodes) args(write: v)",
     "dat 'v': it is not initialised by a loom_decl_* call in its declaration, so loomc does not see its loom_decl_dat"},
    {"loom_dat v = loom_decl_dat(nodes, 0, double, xs, \"v\");",
     "#pragma loom par_loop(k_f) over(nodes) args(write: v)", "the dim of 'v' is 0"},
    {"double *p = xs;", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: p, garr)",
     "'p' cannot be a global argument: its type is 'double *'"},
    {"const double cg = 1.0;", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: cg, garr)",
     "global 'cg' is const, so it cannot be 'inc'"},
    {"const double ca[3] = {0};", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: gsum, ca)",
     "global 'ca' is const, so it cannot be 'inc'"},
    {"volatile double va[3];", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: gsum, va)",
     "'va' cannot be a global argument: it is volatile"},
    {"volatile double vg = 1.0;", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: vg, garr)",
     "'vg' cannot be a global argument: it is volatile"},
    {"", "#pragma loom par_loop(k_glob) over(edges) args(read: w, idx, inc: gsum, gsum)",
     "global 'gsum' is passed twice"},
    {"int nz = 4; loom_map m2 = loom_decl_map(edges, nodes, nz, e2n, \"m2\");",
     "#pragma loom par_loop(k_edge) over(edges) args(read: x[m2[0]], x[m2[1]], write: w)",
     "the arity of 'm2' must be an integer constant expression"},
};

Test(resolve, declarations_must_give_compile_time_facts) {
  for (size_t i = 0; i < sizeof decl_cases / sizeof decl_cases[0]; i++) {
    const struct decl_case *c = &decl_cases[i];
    char body[1024], src[4096];
    snprintf(body, sizeof body, "  %s\n%s", c->decl, c->use);
    snprintf(src, sizeof src, PROGRAM(KERNELS, "%s"), body);
    run r;
    run_source(&r, src, TO_CHECK);
    cr_expect_eq(r.errors, 1, "case %zu: %d errors:\n%s", i, r.errors, r.diags);
    cr_expect(strstr(r.diags, c->error) != NULL, "case %zu: '%s' lacks '%s'", i, r.diags,
              c->error);
    run_free(&r);
  }
}

Test(check, kernel_writing_a_file_scope_variable_is_an_error) {
  run r;
  run_source(&r, PROGRAM("static double total;\n"
                         "static void k_bad(double *f) { total = f[0]; f[0] += 1.0; }\n",
                         "#pragma loom par_loop(k_bad) over(nodes) args(rw: x)"),
             TO_CHECK);
  cr_expect_eq(r.errors, 1, "%s", r.diags);
  cr_expect(strstr(r.diags, "writes file-scope variable 'total'") != NULL, "%s", r.diags);
  cr_expect(strstr(r.diags, "t.c:3:") != NULL, "not located at the assignment: %s", r.diags);
  run_free(&r);
}

Test(check, kernel_reading_file_scope_constants_is_fine) {
  run r;
  run_source(&r, PROGRAM("static double c0 = 2.0, tab[2];\n"
                         "static void k_ok(double *f) { double t = c0 * tab[1]; f[0] = t; t++; }\n",
                         "#pragma loom par_loop(k_ok) over(nodes) args(write: x)"),
             TO_CHECK);
  cr_expect_eq(r.errors, 0, "%s", r.diags);
  run_free(&r);
}

/* The kernel's floating-point operations (frontend/flops.h): binary and
 * compound + - * / on floating operands, math calls as one, helpers of the
 * file counted through, `for` bodies times their evaluated trip count;
 * not integer arithmetic, negation or comparisons. */
Test(check, kernel_flops_are_counted_from_its_text) {
  run r;
  run_source(&r, PROGRAM("#include <math.h>\n"
                         "static double sq(double v) { return v * v; }\n"
                         "static void k_fl(const double *a, double *y) {\n"
                         "  int n = 3 * 4 + 1;\n"                    /* 0 */
                         "  double d = a[0] - a[1];\n"               /* 1 */
                         "  y[0] = sqrt(d * d + 1.0) / 2.0;\n"       /* 4 */
                         "  for (int i = 0; i < 4; i++)\n"
                         "    y[0] += 0.5 * d;\n"                    /* 2 x 4 */
                         "  for (int i = 0; i <= n; i++) y[0] -= d;\n" /* 1: n not constant */
                         "  y[0] = -y[0] + sq(d) + (d < 0.0);\n"     /* 2 + 1 */
                         "}\n",
                         "#pragma loom par_loop(k_fl) over(edges) args(read: x[e2n_map[0]], write: w)"),
             TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  const loop *lp = r.prog.loops.items[0];
  cr_expect_eq(lp->kernel_flops, 1 + 4 + 8 + 1 + 3, "%ld", lp->kernel_flops);
  run_free(&r);
}

/* Which components a kernel names through each parameter (loop_arg's
 * read_mask, for narrowing) and whether it updates each once (its
 * updated_once, for staging increments): constant subscripts and `*p`
 * count; a subscript that is not constant, an address taken, the pointer
 * passed on or offset count as every component; a component named twice
 * or in a loop is not updated once, one named once on each path of an if
 * is. */
Test(check, kernel_components_named_per_parameter) {
  run r;
  run_source(&r, PROGRAM("static void use(const double *p) { (void)p; }\n"
                         "static void k_m(const double *a, const double *b, const double *c,\n"
                         "                const double *d, const double *e, double *y,\n"
                         "                double *z, float *u) {\n"
                         "  int i = (int)a[0];\n"
                         "  y[0] += a[4 + 1] + *a + b[i];\n"
                         "  const double *q = &c[1];\n"
                         "  use(d);\n"
                         "  y[1] += q[0] + *(e + 1);\n"
                         "  if (a[0] > 0) { z[0] += 1.0; z[1] += 2.0; } else { z[0] -= 1.0; }\n"
                         "  for (int k = 0; k < 2; k++) u[0] += (float)b[k];\n"
                         "}\n",
                         "#pragma loom par_loop(k_m) over(edges) args(read: w, w, w, w, w,"
                         " inc: x[e2n_map[0]], x[e2n_map[1]], f)"),
             TO_CHECK);
  cr_assert_eq(r.errors, 0, "%s", r.diags);
  const loop *lp = r.prog.loops.items[0];
  cr_expect_eq(lp->args[0].read_mask, 1ULL << 0 | 1ULL << 5, "%llx", lp->args[0].read_mask);
  for (int i = 1; i < 5; i++) /* b[i], &c[1], use(d), e + 1 */
    cr_expect_eq(lp->args[i].read_mask, ~0ULL, "argument %d: %llx", i + 1,
                 lp->args[i].read_mask);
  cr_expect_eq(lp->args[5].updated_once, 1); /* y[0], y[1] once each */
  cr_expect_eq(lp->args[6].updated_once, 1); /* z[0] once on each path */
  cr_expect_eq(lp->args[7].updated_once, 0); /* u[0] in a loop */
  cr_expect_eq(lp->args[0].updated_once, 0); /* read */
  run_free(&r);
}
