/*
 * frontend.h — parse the input with libclang.
 *
 * The whole file is parsed as C by libclang (the real compiler front end):
 * later stages read declarations, kernels and tokens from this translation
 * unit.  Errors that clang reports (a missing header, a syntax error) are
 * reported through diag() and stop the pipeline.
 */
#ifndef LOOMC_FRONTEND_H
#define LOOMC_FRONTEND_H

#include <clang-c/Index.h>

#include "ir/ir.h"
#include "util/options.h"

typedef struct frontend {
  CXIndex index;
  CXTranslationUnit tu;
  CXFile file;      /* the main file */
  const char *path; /* as named on the command line */
  arena *arena;
  int expanded;     /* the main file is an expansion (options.input_lines):
                       its lines are the #line directives' */
  int headers_said; /* the headers' directives were scanned, and what they
                       called for said, on an earlier parse of this unit
                       (main.c): pragma_lex does not scan them again */
  vec *token_files; /* the files tokenized whole for this parse (tokens.h:
                       tokens_of_long_range's), emptied by each parse */
  struct frontend_tops *tops; /* the unit's top-level cursors, once read
                                 (frontend_visit_top), emptied by each parse */
  int gen;          /* the unit was parsed with LOOM__GENERATED (loom_gen.h) */
} frontend;

/* Parses the input named by o into fe and fills prog's file and text.
 * Returns 0 on success; otherwise diagnostics were printed. */
int frontend_parse(const options *o, frontend *fe, program *prog, arena *a);
/* Parses the input named by o (another text of the same main file, an
 * expansion's) into the unit of fe, parsed before; as frontend_parse.
 * Cursors and texts of the earlier parse are no longer valid. */
int frontend_reparse(const options *o, frontend *fe, program *prog, arena *a);
void frontend_dispose(frontend *fe);
/* clang's arguments for the input of o (argv in a, *argc of them): the
 * user's, and loom.h's directory and macros; gen: LOOM__GENERATED too. */
const char **frontend_clang_argv(const options *o, int gen, arena *a, int *argc);

/* Source locations of libclang as loomc's, with the file named as the user
 * named it (main file) or as clang found it (headers). */
srcloc frontend_loc(const frontend *fe, CXSourceLocation l);
srcloc frontend_cursor_loc(const frontend *fe, CXCursor c);
/* Byte offset of l in its file, and whether that file is the main file. */
unsigned frontend_offset(CXSourceLocation l);
int frontend_in_main_file(const frontend *fe, CXSourceLocation l);
/* clang_visitChildren over the unit's top-level cursors (declarations,
 * and with the preprocessing record macro definitions and expansions),
 * with the unit as their parent: all of them (FE_ALL) or those in the main
 * file (FE_MAIN).  The list, and where each cursor is, are read once per
 * parse: the passes that walk the top level (thousands of a header's
 * declarations) ask libclang once, not each. */
enum { FE_ALL, FE_MAIN };
void frontend_visit_top(const frontend *fe, int which, CXCursorVisitor visit, void *data);

/* The spelling of a cursor or type, copied into the arena. */
char *frontend_spelling(const frontend *fe, CXCursor c);
char *frontend_type_spelling(const frontend *fe, CXType t);

#endif
