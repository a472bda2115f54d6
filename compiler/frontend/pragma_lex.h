/*
 * pragma_lex.h — find the `#pragma loom` directives of the main file in
 * libclang's token stream.
 */
#ifndef LOOMC_PRAGMA_LEX_H
#define LOOMC_PRAGMA_LEX_H

#include "frontend/frontend.h"

/* Appends one directive per `#pragma loom` line of the main file to
 * prog->directives, in file order.  Directives in skipped preprocessor
 * ranges are ignored; a loom pragma produced by a macro (_Pragma, or inside
 * a #define) is reported as an error. */
void pragma_lex(const frontend *fe, program *prog, arena *a);

/* The offset just past the logical line that starts at `pos`: backslash
 * continuations, comments and literals are followed; the newline (and a
 * '\r' before it) is not included. */
unsigned directive_end(const char *text, unsigned len, unsigned pos);

#endif
