/*
 * syntax.h — the main file alone, parsed without its headers: the shape
 * of its statements, for decisions taken before the full parse
 * (transform/prescan.h).
 *
 * libclang's single-file parse (CXTranslationUnit_SingleFileParse) skips
 * every #include: a few milliseconds where the full parse takes tens.
 * What the headers declare is unknown to it, so a statement that names a
 * type or a macro of theirs may be misread; the offsets of its
 * diagnostics say where (syntax_trusted).  Its conditional directives are
 * not evaluated as the full parse evaluates them: a caller trusts no text
 * inside one.
 */
#ifndef LOOMC_SYNTAX_H
#define LOOMC_SYNTAX_H

#include <clang-c/Index.h>

#include "util/arena.h"
#include "util/options.h"

typedef struct syntax {
  CXIndex index;
  CXTranslationUnit tu;
  CXFile file;      /* the main file */
  const char *text; /* the main file's (owned by tu) */
  size_t len;
  LIST(unsigned) doubts; /* the offsets of its diagnostics in the main
                            file, ascending */
} syntax;

/* Parses the input named by o alone into *sx: 0, or -1 when libclang
 * cannot (nothing said: the full parse says why; sx holds nothing to
 * dispose of). */
int syntax_parse(const options *o, syntax *sx, arena *a);
/* Whether no diagnostic of the parse lies in the text [start, end). */
int syntax_trusted(const syntax *sx, unsigned start, unsigned end);
void syntax_dispose(syntax *sx);

#endif
