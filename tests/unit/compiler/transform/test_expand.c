/*
 * test_expand.c — unit tests of the expansion (transform/expand.c): a k
 * loop of a time loop written out, each copy's lines mapped to the user's
 * lines; the loops not unrolled and why.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "fuse_harness.h"
#include "transform/expand.h"

#define EXP_KERNELS                                                            \
  "static void set(const double *a, double *b) { b[0] = a[0]; }\n"             \
  "static void sum(const double *a, double *s) { *s += a[0]; }\n"

static expansion *expanded(fused *f, const char *body) {
  static char src[8192];
  snprintf(src, sizeof src, PROGRAM(EXP_KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n%s"), body);
  cr_assert_eq(run_transforms(f, src, "seq", 0, 0), 0, "%s", f->r.diags);
  return expand(&f->r.fe, &f->t.prog, &f->t.loops, NULL, EXPAND_UNROLL, f->r.arena);
}

/* The line of text (from 1) holding offset off. */
static int line_at(const char *text, const char *at) {
  int n = 1;
  for (const char *p = text; p < at; p++)
    n += *p == '\n';
  return n;
}

static int noted(const expansion *x, const char *text) {
  for (int i = 0; i < x->notes.len; i++)
    if (strstr(((const expand_note *)x->notes.items[i])->text, text))
      return 1;
  return 0;
}

Test(expand, a_k_loop_written_out_with_its_lines) {
  fused f;
  expansion *x = expanded(&f, "  for (int it = 0; it < argc; it++) {\n"
                              "    for (int k = 0; k < 2; k++) {\n"
                              "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
                              "    }\n"
                              "  }\n");
  cr_assert_not_null(x->text);
  const char *c0 = strstr(x->text, "/* k = 0 */"), *c1 = strstr(x->text, "/* k = 1 */");
  cr_assert(c0 && c1 && c0 < c1, "%s", x->text);
  cr_assert_null(strstr(x->text, "for (int k"), "the loop is gone");
  const char *d0 = strstr(c0, "#pragma loom par_loop(set)"), *d1 = strstr(c1, "#pragma loom par_loop(set)");
  cr_assert(d0 && d1 && d0 < c1);
  /* both copies' directives map to the user's directive line */
  const char *user = f.r.prog.text;
  int want = line_at(user, strstr(user, "#pragma loom par_loop(set)"));
  cr_assert_eq(x->lines[line_at(x->text, d0) - 1], (unsigned)want);
  cr_assert_eq(x->lines[line_at(x->text, d1) - 1], (unsigned)want);
  /* and the line after the loop to its own */
  const char *after = strstr(x->text, "  loom_exit");
  int after_user = line_at(user, strstr(user, "  loom_exit"));
  cr_assert(after);
  cr_assert_eq(x->lines[line_at(x->text, after) - 1], (unsigned)after_user);
  /* #line directives say the same to the C compiler: each copy's first
   * line is the for's (its body's brace) */
  int for_line = line_at(user, strstr(user, "for (int k"));
  cr_assert(strstr(x->text, arena_printf(f.r.arena, "#line %d \"", for_line)));
  cr_assert(noted(x, "unrolled the for at line"));
  run_free(&f.r);
}

Test(expand, what_is_not_unrolled) {
  static const struct {
    const char *inner, *why;
  } cases[] = {
      {"    for (int k = 0; k < 5; k++) {\n", "not unrolled: 5 iterations (at most 4 are)"},
      {"    for (int k = 0; k < 2; k++) {\n      xs[0] = k;\n", "its body uses its variable"},
      {"    for (int k = 0; k < 2; k++) {\n      double v = 1.0;\n      xs[0] = v;\n",
       "its body declares something"},
      {"    for (int k = 0; k < 2; k++) {\n      if (xs[0] > 1.0) break;\n",
       "its body has a barrier"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fused f;
    char body[2048];
    snprintf(body, sizeof body, "  for (int it = 0; it < argc; it++) {\n%s"
             "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n    }\n  }\n",
             cases[i].inner);
    expansion *x = expanded(&f, body);
    cr_assert_null(x->text, "case %zu was unrolled", i);
    cr_assert(noted(x, cases[i].why), "case %zu: no note '%s'", i, cases[i].why);
    run_free(&f.r);
  }
  /* a loop of a constant trip count outside any loop: rotated, not unrolled */
  fused f;
  expansion *x = expanded(&f, "  for (int k = 0; k < 2; k++) {\n"
                              "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
                              "  }\n");
  cr_assert_null(x->text);
  cr_assert_eq(x->notes.len, 0);
  run_free(&f.r);
}

/* A program whose kernels part also defines `copy2`, a function running a
 * loop, and `extra` (text after it, before main). */
static expansion *inlined(fused *f, const char *extra, const char *body) {
  static char kernels[4096], src[8192];
  snprintf(kernels, sizeof kernels, "%s%s%s", EXP_KERNELS,
           "static void copy2(loom_set s, loom_dat a LOOM_DAT_FACTS(s, 2, double),\n"
           "                  loom_dat b LOOM_DAT_FACTS(s, 2, double)) {\n"
           "#pragma loom par_loop(set) over(s) args(read: a, write: b)\n"
           "}\n",
           extra);
  snprintf(src, sizeof src,
           PROGRAM("%s", "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n%s"),
           kernels, body);
  cr_assert_eq(run_transforms(f, src, "seq", 0, 0), 0, "%s", f->r.diags);
  return expand(&f->r.fe, &f->t.prog, &f->t.loops, NULL, EXPAND_INLINE, f->r.arena);
}

Test(expand, a_call_seen_through_names_the_callers_handles) {
  fused f;
  expansion *x = inlined(&f, "", "  copy2(nodes, x, y);\n");
  cr_assert_not_null(x->text);
  const char *at = strstr(x->text, "/* loomc: the call of copy2 seen through */");
  cr_assert(at, "%s", x->text);
  /* the arguments are the caller's variables, unchanged by the body: they
   * stand for the parameters */
  cr_assert(strstr(at, "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)"), "%s",
            x->text);
  cr_assert_null(strstr(at, "copy2(nodes, x, y);"), "the call is gone");
  /* copy2 is static: marked unused once its only call is written out */
  cr_assert(strstr(x->text, "__attribute__((unused)) static void copy2"), "%s", x->text);
  cr_assert(noted(x, "saw through the call of copy2"));
  run_free(&f.r);
}

Test(expand, a_parameter_the_body_changes_is_declared_anew) {
  fused f;
  expansion *x = inlined(&f,
                         "static double again(loom_set s, loom_dat a LOOM_DAT_FACTS(s, 2, double),\n"
                         "                    loom_dat b LOOM_DAT_FACTS(s, 2, double)) {\n"
                         "  double t = 0.0;\n"
                         "  a = b;\n"
                         "#pragma loom par_loop(sum) over(s) args(read: a, inc: t)\n"
                         "  return t;\n"
                         "}\n",
                         "  double r = again(nodes, x, y);\n  gsum += r;\n");
  cr_assert_not_null(x->text);
  cr_assert(strstr(x->text, "loom_dat a_1 LOOM_DAT_FACTS(nodes, 2, double) = (x);"), "%s", x->text);
  cr_assert(strstr(x->text, "double t_1 = 0.0;"), "%s", x->text);
  cr_assert(strstr(x->text, "double r = (t_1);"), "%s", x->text);
  run_free(&f.r);
}

Test(expand, calls_not_seen_through_and_why) {
  static const struct {
    const char *extra, *body, *why;
  } cases[] = {
      {"static double early(loom_set s, loom_dat a LOOM_DAT_FACTS(s, 2, double)) {\n"
       "  double t = 0.0;\n  if (!a) return 0.0;\n"
       "#pragma loom par_loop(sum) over(s) args(read: a, inc: t)\n  return t;\n}\n",
       "  gsum += 2.0 * early(nodes, x);\n",
       "not a statement of its own, nor a declaration's initialiser"},
      {"static double early(loom_set s, loom_dat a LOOM_DAT_FACTS(s, 2, double)) {\n"
       "  double t = 0.0;\n  if (!a) return 0.0;\n"
       "#pragma loom par_loop(sum) over(s) args(read: a, inc: t)\n  return t;\n}\n",
       "  double r = early(nodes, x);\n  gsum += r;\n", "returns before its end"},
      {"static void counted(loom_set s, loom_dat a LOOM_DAT_FACTS(s, 2, double)) {\n"
       "  static int calls;\n  calls++;\n"
       "#pragma loom par_loop(set) over(s) args(read: a, write: a)\n}\n",
       "  counted(nodes, x);\n", "it declares a static variable"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fused f;
    expansion *x = inlined(&f, cases[i].extra, cases[i].body);
    cr_assert(noted(x, cases[i].why), "case %zu: no note '%s'", i, cases[i].why);
    run_free(&f.r);
  }
}
