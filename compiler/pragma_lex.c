/*
 * pragma_lex.c — stage 2: find `#pragma loom` directives (see pragma_lex.h).
 *
 * libclang drops unknown pragmas from the AST but keeps them in the token
 * stream of clang_tokenize(), with physical locations.  Newlines are not
 * tokens, so a directive's extent comes from the file text: it runs from
 * its '#' to the first newline that is not escaped by a backslash and not
 * inside a comment.  The tokens of that extent after `loom` are the
 * directive's.
 */
#include "pragma_lex.h"

#include <string.h>

typedef struct lexer {
  const frontend *fe;
  program *prog;
  arena *arena;
  CXToken *toks;
  unsigned ntoks;
  CXSourceRangeList *skipped;
  unsigned define_end; /* end of the #define directive we are in, or 0 */
} lexer;

static unsigned skip_block_comment(const char *t, unsigned len, unsigned i) {
  for (i += 2; i + 1 < len; i++)
    if (t[i] == '*' && t[i + 1] == '/')
      return i + 2;
  return len;
}

static unsigned skip_literal(const char *t, unsigned len, unsigned i) {
  char q = t[i];
  for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
    if (t[i] == '\\' && i + 1 < len)
      i++;
  return i < len && t[i] == q ? i + 1 : i;
}

static unsigned escaped_newline(const char *t, unsigned len, unsigned i) {
  if (t[i] != '\\')
    return 0;
  if (i + 1 < len && t[i + 1] == '\n')
    return 2;
  if (i + 2 < len && t[i + 1] == '\r' && t[i + 2] == '\n')
    return 3;
  return 0;
}

unsigned directive_end(const char *t, unsigned len, unsigned i) {
  int line_comment = 0;
  while (i < len && t[i] != '\n') {
    unsigned esc = escaped_newline(t, len, i);
    if (esc)
      i += esc;
    else if (line_comment)
      i++;
    else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*')
      i = skip_block_comment(t, len, i);
    else if (t[i] == '/' && i + 1 < len && t[i + 1] == '/')
      line_comment = 1, i += 2;
    else if (t[i] == '"' || t[i] == '\'')
      i = skip_literal(t, len, i);
    else
      i++;
  }
  if (i > 0 && i <= len && t[i - 1] == '\r')
    i--;
  return i;
}

/* Whether only blanks precede offset on its physical line, and that line
 * does not continue the previous one. */
static int starts_line(const char *t, unsigned off) {
  while (off > 0 && (t[off - 1] == ' ' || t[off - 1] == '\t'))
    off--;
  if (off == 0)
    return 1;
  if (t[off - 1] != '\n')
    return 0;
  unsigned p = off - 1;
  if (p > 0 && t[p - 1] == '\r')
    p--;
  return !(p > 0 && t[p - 1] == '\\');
}

static unsigned tok_offset(const lexer *lx, unsigned i) {
  return frontend_offset(clang_getTokenLocation(lx->fe->tu, lx->toks[i]));
}

static int tok_is(const lexer *lx, unsigned i, const char *s) {
  if (i >= lx->ntoks)
    return 0;
  CXString sp = clang_getTokenSpelling(lx->fe->tu, lx->toks[i]);
  int eq = strcmp(clang_getCString(sp), s) == 0;
  clang_disposeString(sp);
  return eq;
}

static int in_ranges(const CXSourceRangeList *r, unsigned off) {
  for (unsigned i = 0; r && i < r->count; i++)
    if (off >= frontend_offset(clang_getRangeStart(r->ranges[i])) &&
        off < frontend_offset(clang_getRangeEnd(r->ranges[i])))
      return 1;
  return 0;
}

static int in_skipped_range(const lexer *lx, unsigned off) {
  return in_ranges(lx->skipped, off);
}

static int is_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

static srcloc offset_loc(const lexer *lx, unsigned off) {
  CXSourceLocation l =
      clang_getLocationForOffset(lx->fe->tu, lx->fe->file, off);
  return frontend_loc(lx->fe, l);
}

static ptok make_ptok(const lexer *lx, unsigned i) {
  CXTranslationUnit tu = lx->fe->tu;
  ptok p;
  CXString sp = clang_getTokenSpelling(tu, lx->toks[i]);
  p.text = arena_strdup(lx->arena, clang_getCString(sp));
  clang_disposeString(sp);
  p.loc = frontend_loc(lx->fe, clang_getTokenLocation(tu, lx->toks[i]));
  switch (clang_getTokenKind(lx->toks[i])) {
  case CXToken_Identifier:
  case CXToken_Keyword:
    p.kind = PT_IDENT;
    break;
  case CXToken_Literal:
    p.kind = (p.text[0] >= '0' && p.text[0] <= '9') ? PT_NUMBER : PT_STRING;
    break;
  default:
    p.kind = PT_PUNCT;
  }
  return p;
}

static int is_comment(const lexer *lx, unsigned i) {
  return clang_getTokenKind(lx->toks[i]) == CXToken_Comment;
}

/* Records the directive whose '#' is token i; returns the index of the
 * first token after it.  Comments inside the directive are dropped. */
static unsigned take_directive(lexer *lx, unsigned i) {
  unsigned start = tok_offset(lx, i);
  unsigned end = directive_end(lx->prog->text, (unsigned)lx->prog->len, start);
  directive *d = arena_alloc(lx->arena, sizeof *d);
  d->loc = offset_loc(lx, start);
  d->start = start;
  d->end = end;
  d->end_loc = offset_loc(lx, end);
  unsigned j = i + 3, n = 0, last = j;
  while (last < lx->ntoks && tok_offset(lx, last) < end)
    n += !is_comment(lx, last++);
  d->toks = arena_alloc(lx->arena, sizeof *d->toks * (n ? n : 1));
  for (unsigned k = j; k < last; k++)
    if (!is_comment(lx, k))
      d->toks[d->ntoks++] = make_ptok(lx, k);
  vec_push(lx->arena, &lx->prog->directives, d);
  return last;
}

/* `_Pragma("loom ...")`: a loom directive out of reach of the token scan
 * once a macro expands it. */
static int is_loom_Pragma(const lexer *lx, unsigned i) {
  if (!tok_is(lx, i, "_Pragma") || !tok_is(lx, i + 1, "("))
    return 0;
  if (i + 2 >= lx->ntoks)
    return 0;
  CXString sp = clang_getTokenSpelling(lx->fe->tu, lx->toks[i + 2]);
  const char *s = clang_getCString(sp);
  if (*s == 'L' || *s == 'u' || *s == 'U')
    s++;
  if (*s == '"')
    s++;
  while (*s == ' ' || *s == '\t')
    s++;
  int yes = strncmp(s, "loom", 4) == 0 && !is_ident_char(s[4]);
  clang_disposeString(sp);
  return yes;
}

static void error_macro_pragma(const lexer *lx, unsigned i, int via_Pragma) {
  ptok t = make_ptok(lx, i);
  if (via_Pragma)
    diag(DIAG_ERROR, t.loc, 7,
         "'_Pragma(\"loom ...\")' is not supported: write the loom directive "
         "as a '#pragma loom' line of its own, outside any macro");
  else
    diag(DIAG_ERROR, t.loc, 1,
         "'#pragma loom' inside a macro definition is not supported: write "
         "the directive as a line of its own, outside any macro");
}

static unsigned scan_token(lexer *lx, unsigned i) {
  unsigned off = tok_offset(lx, i);
  if (lx->define_end && off >= lx->define_end)
    lx->define_end = 0;
  int hash = clang_getTokenKind(lx->toks[i]) == CXToken_Punctuation &&
             tok_is(lx, i, "#");
  if (hash && starts_line(lx->prog->text, off) && !in_skipped_range(lx, off)) {
    if (tok_is(lx, i + 1, "pragma") && tok_is(lx, i + 2, "loom"))
      return take_directive(lx, i);
    if (tok_is(lx, i + 1, "define"))
      lx->define_end =
          directive_end(lx->prog->text, (unsigned)lx->prog->len, off);
    return i + 1;
  }
  if (in_skipped_range(lx, off))
    return i + 1;
  if (is_loom_Pragma(lx, i))
    error_macro_pragma(lx, i, 1);
  else if (lx->define_end && tok_is(lx, i, "pragma") && tok_is(lx, i + 1, "loom"))
    error_macro_pragma(lx, i > 0 && tok_is(lx, i - 1, "#") ? i - 1 : i, 0);
  return i + 1;
}

/* ---- directives in included files ---------------------------------------- */

/* The offset of the first `#pragma loom` line of text at or after `from`,
 * or len. */
static unsigned find_loom_line(const char *t, unsigned len, unsigned from) {
  for (unsigned i = from; i < len; i++) {
    if (t[i] != '#' || !starts_line(t, i))
      continue;
    unsigned j = i + 1;
    while (j < len && (t[j] == ' ' || t[j] == '\t'))
      j++;
    if (len - j < 6 || strncmp(t + j, "pragma", 6) != 0)
      continue;
    j += 6;
    unsigned k = j;
    while (k < len && (t[k] == ' ' || t[k] == '\t'))
      k++;
    if (k > j && len - k >= 4 && strncmp(t + k, "loom", 4) == 0 &&
        (k + 4 == len || !is_ident_char(t[k + 4])))
      return i;
  }
  return len;
}


/* Reports the first loom directive of an included (non-system) file:
 * loomc translates the main file only, and a loop that silently stayed a
 * pragma would never run. */
static void visit_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth,
                            CXClientData data) {
  const frontend *fe = data;
  if (depth == 0 || clang_Location_isInSystemHeader(
                        clang_getLocationForOffset(fe->tu, f, 0)))
    return;
  size_t len = 0;
  const char *t = clang_getFileContents(fe->tu, f, &len);
  if (!t)
    return;
  CXSourceRangeList *skipped = clang_getSkippedRanges(fe->tu, f);
  for (unsigned at = find_loom_line(t, (unsigned)len, 0); at < len;
       at = find_loom_line(t, (unsigned)len, at + 1)) {
    if (in_ranges(skipped, at))
      continue;
    diag(DIAG_ERROR, frontend_loc(fe, clang_getLocationForOffset(fe->tu, f, at)), 1,
         "'#pragma loom' in an included file is not translated: loomc "
         "translates the directives of the main file only");
    diag(DIAG_NOTE, frontend_loc(fe, stack[0]), 0, "included from here");
    break;
  }
  clang_disposeSourceRangeList(skipped);
}

void pragma_lex(const frontend *fe, program *prog, arena *a) {
  lexer lx = {fe, prog, a, NULL, 0, NULL, 0};
  CXSourceRange all = clang_getRange(
      clang_getLocationForOffset(fe->tu, fe->file, 0),
      clang_getLocationForOffset(fe->tu, fe->file, (unsigned)prog->len));
  clang_tokenize(fe->tu, all, &lx.toks, &lx.ntoks);
  lx.skipped = clang_getSkippedRanges(fe->tu, fe->file);
  for (unsigned i = 0; i < lx.ntoks;)
    i = scan_token(&lx, i);
  clang_disposeSourceRangeList(lx.skipped);
  clang_disposeTokens(fe->tu, lx.toks, lx.ntoks);
  clang_getInclusions(fe->tu, visit_inclusion, (CXClientData)fe);
}
