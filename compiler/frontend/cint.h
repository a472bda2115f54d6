/*
 * cint.h — an integer constant named in text that loomc reads outside C's
 * own expressions: the dim and arity of LOOM_DAT_FACTS/LOOM_MAP_FACTS
 * (stringified by the macro, so never expanded by the preprocessor).
 *
 * The text is a decimal, octal or hex literal (with u/l suffixes), an enum
 * constant, or an object-like macro whose body is one of these (in
 * parentheses or not), each with a sign or not (a shift of
 * LOOM_EXTRUDED_MAP_FACTS may be negative), as C sees them at a point: in
 * the main file, what is declared or defined before it.
 */
#ifndef LOOMC_CINT_H
#define LOOMC_CINT_H

#include "frontend/frontend.h"

/* The value of text at `at` (a cursor whose location is the point) in
 * *value: 0, or -1 and *why (what text is, in the arena). */
int cint_value(const frontend *fe, const char *text, CXCursor at, long *value,
               const char **why);

#endif
