/*
 * harness.h — runs loomc's front stages on an in-memory source for
 * the unit tests: the real libclang parse (unsaved file), the real stages,
 * with diagnostics captured into a string.  Include it first (it needs
 * POSIX open_memstream).
 */
#ifndef LOOM_TEST_COMPILER_HARNESS_H
#define LOOM_TEST_COMPILER_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/check.h"
#include "frontend/frontend.h"
#include "frontend/pragma_lex.h"
#include "frontend/pragma_parse.h"
#include "frontend/resolve.h"
#include "frontend/symtab.h"

enum stage { TO_LEX, TO_PARSE, TO_RESOLVE, TO_CHECK };

typedef struct run {
  arena *arena;
  frontend fe;
  program prog;
  symtab st;
  char *diags; /* everything diag() printed */
  size_t diags_len;
  int errors;
} run;

/* Runs the stages up to `last` on `src` (named "t.c"). */
static inline void run_source(run *r, const char *src, enum stage last) {
  memset(r, 0, sizeof *r);
  r->arena = arena_new();
  FILE *mem = open_memstream(&r->diags, &r->diags_len);
  diag_reset();
  diag_set_stream(mem);
  options o = {0};
  o.input = "t.c";
  o.output = "-";
  o.target = target_of(TARGET_SEQ);
  o.input_text = src;
  o.input_len = strlen(src);
  if (frontend_parse(&o, &r->fe, &r->prog, r->arena) == 0) {
    pragma_lex(&r->fe, &r->prog, r->arena);
    if (last >= TO_PARSE)
      pragma_parse(&r->prog, r->arena);
    if (last >= TO_RESOLVE) {
      symtab_build(&r->fe, &r->st, r->arena);
      resolve(&r->fe, &r->st, &r->prog, r->arena);
    }
    if (last >= TO_CHECK)
      check_kernels(&r->fe, &r->st, &r->prog, r->arena);
  }
  r->errors = diag_error_count();
  diag_set_stream(NULL);
  fclose(mem);
}

static inline void run_free(run *r) {
  frontend_dispose(&r->fe);
  diag_reset();
  arena_free(r->arena);
  free(r->diags);
}

/* A program skeleton: declarations of a small mesh, then `body` inside
 * main; `kernels` before main. */
#define PROGRAM(kernels, body)                                                 \
  "#include <loom.h>\n" kernels                                                \
  "\nint main(int argc, char **argv) {\n"                                      \
  "  int e2n[8] = {0, 1, 1, 2, 2, 3, 3, 0};\n"                                 \
  "  double xs[8] = {0}, gsum = 0.0, garr[3] = {0};\n"                         \
  "  loom_init(&argc, &argv);\n"                                               \
  "  loom_set nodes = loom_decl_set(4, \"nodes\");\n"                          \
  "  loom_set edges = loom_decl_set(4, \"edges\");\n"                          \
  "  loom_map e2n_map = loom_decl_map(edges, nodes, 2, e2n, \"e2n\");\n"       \
  "  loom_dat x = loom_decl_dat(nodes, 2, double, xs, \"x\");\n"               \
  "  loom_dat w = loom_decl_temp(edges, 1, double, \"w\");\n"                  \
  "  loom_dat f = loom_decl_temp(edges, 3, float, \"f\");\n"                   \
  body "\n  loom_exit();\n  return (int)gsum + (int)garr[0];\n}\n"

/* The items of PROGRAM's function body before `body`: loom_init and the
 * declarations of the two sets and the map, barriers (they change the
 * mesh: analysis/region.h); the dats' declarations are no computations. */
#define PRELUDE 4

#endif
