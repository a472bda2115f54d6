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
  return expand(&f->r.prog, &f->loops, f->r.arena);
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
