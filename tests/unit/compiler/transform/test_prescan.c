/*
 * test_prescan.c — unit tests of the unrolling decided on the syntax
 * (transform/prescan.c): the loops it chooses, with what the writer needs
 * of them, and every shape for which it decides nothing (the analysis of
 * the input decides then).
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "transform/prescan.h"

#define K_LOOP(head, body)                                                     \
  "  for (int it = 0; it < argc; it++) {\n"                                    \
  "    " head " {\n"                                                           \
  "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"           \
  body                                                                         \
  "    }\n"                                                                    \
  "  }\n"

#define KERNELS "static void set(const double *a, double *b) { b[0] = a[0]; }\n"

static arena *a;
static syntax sx;
static const char *text;

static unroll_site_list sites_of(const char *src) {
  a = arena_new();
  options o = {0};
  o.input = "t.c";
  o.input_text = src;
  o.input_len = strlen(src);
  text = src;
  cr_assert_eq(syntax_parse(&o, &sx, a), 0);
  unroll_site_list v = prescan(&sx, a);
  /* the look at the text never passes over a text the syntax decides on */
  cr_assert(!v.len || prescan_worth(src, strlen(src)));
  return v;
}

static void done(void) {
  syntax_dispose(&sx);
  arena_free(a);
}

TestSuite(prescan, .fini = done);

#define BODY(b) PROGRAM(KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n" b)

Test(prescan, chooses_a_k_loop_with_what_the_writer_needs) {
  unroll_site_list v = sites_of(BODY(K_LOOP("for (int k = 0; k < 2; k++)", "      gsum = 0.0;\n")));
  cr_assert_eq(v.len, 1);
  const unroll_site *u = v.items[0];
  cr_assert_str_eq(u->var, "k");
  cr_assert_str_eq(u->what, "for");
  cr_assert_eq(u->trip, 2);
  cr_assert_eq(u->first, 0);
  cr_assert_eq(u->step, 1);
  cr_assert_eq(strncmp(text + u->start, "for (int k", 10), 0);
  cr_assert_eq(text[u->open], '{');
  cr_assert_eq(text[u->close], '}');
  cr_assert_eq(text[u->end - 1], '}');
  cr_assert(u->open < u->close && u->close < u->end);
  int line = 1;
  for (unsigned i = 0; i < u->start; i++)
    line += text[i] == '\n';
  cr_assert_eq(u->line, (unsigned)line);
}

Test(prescan, reads_each_form_of_the_header) {
  static const struct {
    const char *head;
    long trip, first, step;
  } cases[] = {
      {"for (int k = 0; k <= 3; ++k)", 4, 0, 1},
      {"for (int k = 3; k > 0; k--)", 3, 3, -1},
      {"for (long k = 4; k >= 1; k -= 2)", 2, 4, -2},
      {"for (unsigned k = 1u; k < 9u; k += 4)", 2, 1, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char prog[4096];
    snprintf(prog, sizeof prog,
             PROGRAM(KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                              "  for (int it = 0; it < argc; it++) {\n"
                              "    %s {\n"
                              "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
                              "    }\n"
                              "  }\n"),
             cases[i].head);
    unroll_site_list v = sites_of(prog);
    cr_assert_eq(v.len, 1, "%s", cases[i].head);
    const unroll_site *u = v.items[0];
    cr_assert_eq(u->trip, cases[i].trip, "%s", cases[i].head);
    cr_assert_eq(u->first, cases[i].first, "%s", cases[i].head);
    cr_assert_eq(u->step, cases[i].step, "%s", cases[i].head);
    if (i + 1 < sizeof cases / sizeof *cases)
      done();
  }
}

/* Shapes the syntax does not decide: nothing is chosen, the clean k loop
 * before them included. */
Test(prescan, decides_nothing_where_the_syntax_cannot_tell) {
  static const char *const refused[] = {
      K_LOOP("for (int j = 0; j < 2; j++)", "      set(xs, xs);\n"),            /* a call */
      K_LOOP("for (int j = 0; j < 2; j++)", "      double v = 1.0;\n      gsum = v;\n"), /* a declaration */
      K_LOOP("for (int j = 0; j < 2; j++)", "      gsum = j;\n"),                /* uses its variable */
      K_LOOP("for (int j = 0; j < 2; j++)", "      if (gsum > 1.0)\n        break;\n"), /* a jump */
      K_LOOP("for (int j = 0; j < 5; j++)", ""),                               /* too many iterations */
      K_LOOP("for (int j = 0; j < argc; j++)", ""),                            /* not a literal */
      K_LOOP("for (j = 0; j < 2; j++)", ""),                                   /* declares nothing */
      K_LOOP("for (int j = 0; j != 2; j++)", ""),                              /* no trip count */
      K_LOOP("for (long j = 0; j < 9223372036854775807; j++)", ""),            /* a count too large */
      K_LOOP("while (gsum < 2.0)", ""),                                        /* not a for */
      K_LOOP("for (int j = 0; j < 2; j++)", "      gsum = undeclared_name;\n"), /* a doubt */
      K_LOOP("for (int j = 0; j < 2; j++)", "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
                                           "#pragma omp barrier\n"),           /* another directive */
      K_LOOP("for (int j = 0; j < 2; j++)", "      for (int i = 0; i < 2; i++) {\n"
                                           "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
                                           "      }\n"), /* a loop inside */
      "#if 1\n" K_LOOP("for (int j = 0; j < 2; j++)", "") "#endif\n", /* a conditional directive */
  };
  /* a function in a conditional block: its text may be one the full parse
   * does not read */
  char guarded[8192];
  snprintf(guarded, sizeof guarded, "#ifdef NOT_DEFINED\n%s#endif\n",
           PROGRAM(KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                            K_LOOP("for (int k = 0; k < 2; k++)", "")));
  cr_assert_eq(sites_of(guarded).len, 0);
  done();
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    char src[8192];
    snprintf(src, sizeof src,
             PROGRAM(KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                              "  int j = 0;\n" K_LOOP("for (int k = 0; k < 2; k++)", "") "%s"),
             refused[i]);
    unroll_site_list v = sites_of(src);
    cr_assert_eq(v.len, 0, "case %zu:\n%s", i, refused[i]);
    if (i + 1 < sizeof refused / sizeof *refused)
      done();
  }
}

/* Loops that are no candidates for the analysis either (no other loop's
 * body holds them as an item, or they run no par_loop) are passed over:
 * the k loop is still chosen. */
Test(prescan, passes_over_what_is_no_candidate) {
  unroll_site_list v = sites_of(BODY(
      "  for (int j = 0; j < 2; j++) {\n" /* in no loop */
      "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
      "  }\n"
      "  for (int it = 0; it < argc; it++) {\n"
      "    for (int j = 0; j < 3; j++)\n" /* no par_loop */
      "      gsum += 1.0;\n"
      "    if (argc > 1) {\n"
      "      for (int j = 0; j < 2; j++) {\n" /* an item of the if's block */
      "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
      "      }\n"
      "    }\n"
      "    for (int k = 0; k < 2; k++) {\n"
      "#pragma loom par_loop(set) over(nodes) args(read: x, write: y)\n"
      "    }\n"
      "  }\n"));
  cr_assert_eq(v.len, 1);
  cr_assert_str_eq(((const unroll_site *)v.items[0])->var, "k");
}

/* A directive in a comment or a string is none. */
Test(prescan, directives_in_comments_are_none) {
  unroll_site_list v = sites_of(BODY(K_LOOP("for (int k = 0; k < 2; k++)",
                                            "      /*\n#if 0\n */\n"
                                            "      // #pragma omp barrier \\\n"
                                            "#pragma omp barrier\n")));
  cr_assert_eq(v.len, 1);
}

/* The look at the text: a for whose condition reads NAME OP NUMBER, or
 * that it cannot read simply, is worth the parse; other texts are not. */
Test(prescan, worth_a_parse) {
  static const char *const worth[] = {
      "for (int k = 0; k < 2; k++) {}",
      "for(long k=3;k>=1;k--){}",
      "for (int k = 0;\n     k <= 0x3; ++k) {}",
      "for (int k = 0; /* two */ k < N; k++) {}",
      "for (int k = 0; k \\\n< 2; k++) {}",
  };
  static const char *const not_worth[] = {
      "for (int k = 0; k < n; k++) {}",
      "for (int k = 0; k != 2; k++) {}",
      "while (k < 2) {}",
      "int fork = 0; form(x; y < 2;);",
      "for (;;) {}",
  };
  for (size_t i = 0; i < sizeof worth / sizeof *worth; i++)
    cr_assert(prescan_worth(worth[i], strlen(worth[i])), "%s", worth[i]);
  for (size_t i = 0; i < sizeof not_worth / sizeof *not_worth; i++)
    cr_assert(!prescan_worth(not_worth[i], strlen(not_worth[i])), "%s", not_worth[i]);
  a = arena_new(); /* for the fixture's done() */
}
