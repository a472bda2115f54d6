/*
 * cint.c — integer constants named in text (see cint.h).
 *
 * Enum constants and macro definitions are found among the translation
 * unit's top-level cursors (macros are there with the detailed
 * preprocessing record frontend.c asks for); an enum constant's value is
 * clang's, a macro's body is read token by token.
 */
#include "frontend/cint.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/tokens.h"

enum { CINT_DEPTH = 8 }; /* macros naming macros, at most */

typedef struct finder {
  const frontend *fe;
  const char *name;
  int at_main;       /* the point is in the main file ... */
  unsigned at_off;   /* ... at this offset */
  CXCursor macro;    /* the last definition before the point, or null */
  int enum_found;
  long long enum_value;
} finder;

/* Whether c is declared before the point (anything outside the main file
 * is, when the point is in the main file). */
static int before(const finder *f, CXCursor c) {
  CXSourceLocation l = clang_getCursorLocation(c);
  if (!frontend_in_main_file(f->fe, l))
    return 1;
  return f->at_main && frontend_offset(l) < f->at_off;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  finder *f = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_EnumDecl || k == CXCursor_TypedefDecl)
    return CXChildVisit_Recurse;
  if ((k != CXCursor_MacroDefinition && k != CXCursor_EnumConstantDecl) ||
      strcmp(frontend_spelling(f->fe, c), f->name) != 0 || !before(f, c))
    return CXChildVisit_Continue;
  if (k == CXCursor_MacroDefinition) {
    f->macro = c; /* cursors come in the order of the text: the last wins */
  } else {
    f->enum_found = 1;
    f->enum_value = clang_getEnumConstantDeclValue(c);
  }
  return CXChildVisit_Continue;
}

/* A C integer literal, suffixes allowed. */
static int literal(const char *s, long *value) {
  if (*s < '0' || *s > '9')
    return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 0);
  if (errno || end == s || strspn(end, "uUlL") != strlen(end) || strlen(end) > 3)
    return -1;
  *value = v;
  return 0;
}

static int value_of(const frontend *fe, const char *text, CXCursor at, int depth,
                    long *value, const char **why);

/* The value of a macro's body: one literal or name, in parentheses or not. */
static int macro_value(const frontend *fe, CXCursor def, CXCursor at, int depth, long *value,
                       const char **why) {
  const char *name = frontend_spelling(fe, def);
  if (clang_Cursor_isMacroFunctionLike(def)) {
    *why = arena_printf(fe->arena, "'%s' is a function-like macro", name);
    return -1;
  }
  tok_list toks = tokens_of(fe, clang_getCursorExtent(def), fe->arena);
  int from = 1, to = toks.len; /* the body, after the name */
  while (to - from >= 3 && tok_is(tok_at(&toks, from), "(") && tok_is(tok_at(&toks, to - 1), ")"))
    from++, to--;
  if (to - from == 1)
    return value_of(fe, tok_at(&toks, from)->text, at, depth + 1, value, why);
  if (to - from == 2 && (tok_is(tok_at(&toks, from), "-") || tok_is(tok_at(&toks, from), "+"))) {
    int rc = value_of(fe, tok_at(&toks, from + 1)->text, at, depth + 1, value, why);
    if (rc == 0 && tok_is(tok_at(&toks, from), "-"))
      *value = -*value;
    return rc;
  }
  *why = arena_printf(fe->arena, "the macro '%s' is not one integer", name);
  return -1;
}

static int value_of(const frontend *fe, const char *text, CXCursor at, int depth,
                    long *value, const char **why) {
  if ((text[0] == '-' || text[0] == '+') && text[1] != '-' && text[1] != '+') {
    const char *rest = text + 1 + strspn(text + 1, " \t");
    int rc = value_of(fe, rest, at, depth, value, why);
    if (rc == 0 && text[0] == '-')
      *value = -*value;
    return rc;
  }
  if (literal(text, value) == 0)
    return 0;
  if (depth > CINT_DEPTH) {
    *why = arena_printf(fe->arena, "macros name macros more than %d deep", CINT_DEPTH);
    return -1;
  }
  CXSourceLocation l = clang_getCursorLocation(at);
  finder f = {fe, text, frontend_in_main_file(fe, l), frontend_offset(l), clang_getNullCursor(),
              0, 0};
  if (!*text || strspn(text, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") !=
                    strlen(text)) {
    *why = arena_printf(fe->arena, "'%s' is neither a literal nor a name", text);
    return -1;
  }
  frontend_visit_top(fe, FE_ALL, visit, &f);
  if (!clang_Cursor_isNull(f.macro))
    return macro_value(fe, f.macro, at, depth, value, why);
  if (f.enum_found) {
    *value = (long)f.enum_value;
    return 0;
  }
  *why = arena_printf(fe->arena, "'%s' is not an enum constant or a macro defined before it",
                      text);
  return -1;
}

int cint_value(const frontend *fe, const char *text, CXCursor at, long *value,
               const char **why) {
  return value_of(fe, text, at, 0, value, why);
}
