/*
 * test_compiler.c — unit tests of loomc's stages on small inputs, through
 * the real libclang: directive finding (pragma_lex), the clause parser
 * (pragma_parse), name resolution (resolve) and kernel checks (check).
 * Table-driven: each table row is an input and what must come out.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

/* ---- directive_end ------------------------------------------------------ */

struct end_case {
  const char *text;
  unsigned expect; /* offset of the end */
};

static const struct end_case end_cases[] = {
    {"#pragma loom x\nnext", 14},
    {"#pragma loom x \\\n  y\nnext", 20},
    {"#pragma loom x \\\r\n  y\r\nnext", 21},
    /* blanks between the backslash and the newline: still a continuation,
     * as for C compilers (found by fuzz/tokenizer_check) */
    {"#pragma loom x \\ \t\n  y\nnext", 22},
    {"#pragma loom x \\  \r\n  y\r\nnext", 23},
    {"#pragma loom \"a\\ \n b\" c\nz", 23},
    {"#pragma loom x /* a\n b */ y\nz", 27},
    {"#pragma loom x // c \\\n still comment\nz", 36},
    {"#pragma loom \"a\\\"b\" c\nz", 21},
    {"#pragma loom x", 14},
};

Test(directive_end, follows_continuations_comments_and_literals) {
  for (size_t i = 0; i < sizeof end_cases / sizeof end_cases[0]; i++) {
    const struct end_case *c = &end_cases[i];
    unsigned got = directive_end(c->text, (unsigned)strlen(c->text), 0);
    cr_expect_eq(got, c->expect, "case %zu (%s): end %u, expected %u", i,
                 c->text, got, c->expect);
  }
}

/* ---- pragma_lex ------------------------------------------------------------ */

struct lex_case {
  const char *src;
  int ndirectives;
  int first_line;         /* line of the first directive's '#' */
  int first_ntoks;        /* its tokens after `loom` */
  const char *diag_has;   /* substring of the diagnostics, or NULL for none */
};

static const struct lex_case lex_cases[] = {
    {"#pragma loom par_loop(k) over(s) args(read: d)\nint x;\n", 1, 1, 14, NULL},
    {"int a;\n  #  pragma   loom par_loop(k)\n", 1, 2, 4, NULL},
    {"#pragma loom par_loop(k) \\\n   over(s)\nint y;\n", 1, 1, 8, NULL},
    {"#if 0\n#pragma loom par_loop(k)\n#endif\n", 0, 0, 0, NULL},
    {"#ifdef NOT_DEFINED\n#pragma loom par_loop(k)\n#else\n#pragma loom x\n#endif\n",
     1, 4, 1, NULL},
    {"#pragma omp parallel\n#pragma once_more\nint z;\n", 0, 0, 0, NULL},
    {"/* #pragma loom par_loop(k) */\nconst char *s = \"#pragma loom x\";\n", 0, 0, 0, NULL},
    {"#pragma loom\n", 1, 1, 0, NULL},
    {"#define L _Pragma(\"loom par_loop(k)\")\n", 0, 0, 0, "_Pragma"},
    {"#define L \\\n  #pragma loom par_loop(k)\n", 0, 0, 0, "inside a macro"},
    {"#pragma loom a\n#pragma loom b\n#pragma loom c\n", 3, 1, 1, NULL},
    {"#pragma /* c */ loom par_loop(k) // t\n", 1, 1, 4, NULL},
    {"/* a */ /* b\n c */ #pragma loom x\n", 1, 2, 1, NULL},
    {"/* lead */ #define X 1\n#pragma loom y\n", 1, 2, 1, NULL},
    {"#/* c */pragma loom par_loop /* d */ (k)\n", 1, 1, 4, NULL},
};

Test(pragma_lex, finds_exactly_the_loom_directives) {
  for (size_t i = 0; i < sizeof lex_cases / sizeof lex_cases[0]; i++) {
    const struct lex_case *c = &lex_cases[i];
    run r;
    run_source(&r, c->src, TO_LEX);
    cr_expect_eq(r.prog.directives.len, c->ndirectives,
                 "case %zu: %d directives, expected %d (%s)", i,
                 r.prog.directives.len, c->ndirectives, r.diags);
    if (c->ndirectives > 0 && r.prog.directives.len > 0) {
      const directive *d = r.prog.directives.items[0];
      cr_expect_eq((int)d->loc.line, c->first_line, "case %zu: line %u", i, d->loc.line);
      cr_expect_eq(d->ntoks, c->first_ntoks, "case %zu: %d tokens", i, d->ntoks);
    }
    if (c->diag_has)
      cr_expect(strstr(r.diags, c->diag_has) != NULL,
                "case %zu: diagnostics '%s' lack '%s'", i, r.diags, c->diag_has);
    else
      cr_expect_eq(r.errors, 0, "case %zu: unexpected errors: %s", i, r.diags);
    run_free(&r);
  }
}

/* ---- pragma_parse ------------------------------------------------------------ */

struct parse_case {
  const char *directive; /* the text after "#pragma loom " */
  const char *error;     /* substring of the one expected error, or NULL */
  const char *kernel, *set;
  int nargs;
  const char *shape; /* per arg: kind letter (n=name, m=mapped, a=all, i=idx)
                        and mode letter (r w x(rw) i(inc) n(min) m(max) -) */
};

static const struct parse_case parse_cases[] = {
    {"par_loop(k) over(s) args(read: a)", NULL, "k", "s", 1, "nr"},
    {"par_loop(k) args(read: a) over(s)", NULL, "k", "s", 1, "nr"},
    {"par_loop(k) over(s) args(read: a, b, write: c, rw: d, inc: e, min: f, max: g)",
     NULL, "k", "s", 7, "nrnrnwnxninnnm"},
    {"par_loop(k) over(s) args(read: a[m[0]], inc: b[m[12]], c[m[*]])", NULL, "k",
     "s", 3, "mrmiai"},
    {"par_loop(k) over(s) args(idx, read: a, idx)", NULL, "k", "s", 3, "i-nrir"},
    {"par_loop(k) over(s) args(a)", "has no access mode", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(reed: a)", "unknown access mode 'reed'", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args()", "is empty", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s)", "no 'args(...)' clause", NULL, NULL, 0, NULL},
    {"par_loop(k) args(read: a)", "no 'over(SET)' clause", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) over(t) args(read: a)", "duplicate 'over'", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a) args(read: b)", "duplicate 'args'", NULL, NULL, 0, NULL},
    {"par_loop k over(s) args(read: a)", "expected '('", NULL, NULL, 0, NULL},
    {"par_loop(k over(s) args(read: a)", "expected ')'", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a[m[x]])", "map slot", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a[m[0000001]])", NULL, "k", "s", 1, "mr"},
    /* continuations right before a token (libclang spells the token with
     * them), and with blanks after the backslash (found by fuzzing) */
    {"par_loop(k) over(s) args\\\n(read: a[m[\\\n0]]\\\n, b)", NULL, "k", "s", 2, "mrnr"},
    {"par_loop(k) over(s) \\  \n args(read: a)", NULL, "k", "s", 1, "nr"},
    {"par_loop(k) over(s) args(read: a[m[10000000]])", "map slot 10000000 is too large",
     NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a[m[0]])  extra", "expected a par_loop clause",
     NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a,)", "expected an argument", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(inc: idx)", "'idx' is read-only", NULL, NULL, 0, NULL},
    {"par_loop(k) over(s) args(read: a[m[0]]", "expected ')' at the end", NULL, NULL, 0, NULL},
    {"parloop(k) over(s) args(read: a)", "unknown loom directive 'parloop'", NULL, NULL, 0, NULL},
    {"", "expected a loom directive", NULL, NULL, 0, NULL},
};

static char kind_letter(arg_kind k) {
  return k == ARG_MAPPED ? 'm' : k == ARG_MAPPED_ALL ? 'a' : k == ARG_IDX ? 'i' : 'n';
}

static char mode_letter(access_mode m) {
  static const char letters[] = "-rwxinm";
  return letters[m];
}

static void expect_parsed(size_t i, const struct parse_case *c, const run *r) {
  cr_assert_eq(r->prog.loops.len, 1, "case %zu: not parsed: %s", i, r->diags);
  const loop *lp = r->prog.loops.items[0];
  cr_expect_str_eq(lp->kernel, c->kernel, "case %zu", i);
  cr_expect_str_eq(lp->set_name, c->set, "case %zu", i);
  cr_expect_eq(lp->nargs, c->nargs, "case %zu: %d args", i, lp->nargs);
  for (int a = 0; a < lp->nargs && a < c->nargs; a++) {
    cr_expect_eq(kind_letter(lp->args[a].kind), c->shape[2 * a], "case %zu arg %d kind", i, a);
    cr_expect_eq(mode_letter(lp->args[a].mode), c->shape[2 * a + 1], "case %zu arg %d mode", i, a);
  }
}

Test(pragma_parse, accepts_the_grammar_and_rejects_with_one_error) {
  for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
    const struct parse_case *c = &parse_cases[i];
    char src[512];
    snprintf(src, sizeof src, "#pragma loom %s\n", c->directive);
    run r;
    run_source(&r, src, TO_PARSE);
    if (c->error) {
      cr_expect_eq(r.errors, 1, "case %zu: %d errors: %s", i, r.errors, r.diags);
      cr_expect(strstr(r.diags, c->error) != NULL, "case %zu: '%s' lacks '%s'", i,
                r.diags, c->error);
      cr_expect(strstr(r.diags, "t.c:1:") != NULL, "case %zu: not located: %s", i, r.diags);
    } else {
      cr_expect_eq(r.errors, 0, "case %zu: %s", i, r.diags);
      expect_parsed(i, c, &r);
    }
    run_free(&r);
  }
}

Test(pragma_parse, records_map_slots_and_locations) {
  run r;
  run_source(&r, "int a;\n#pragma loom par_loop(k) over(s) \\\n  args(rw: d[m[3]])\n", TO_PARSE);
  cr_assert_eq(r.prog.loops.len, 1, "%s", r.diags);
  const loop *lp = r.prog.loops.items[0];
  cr_expect_eq(lp->args[0].slot, 3);
  cr_expect_str_eq(lp->args[0].map_name, "m");
  cr_expect_eq(lp->args[0].loc.line, 3u);
  cr_expect_eq(lp->args[0].loc.col, 12u);
  cr_expect_eq(lp->loc.line, 2u);
  run_free(&r);
}
