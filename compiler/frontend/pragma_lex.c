/*
 * pragma_lex.c — find `#pragma loom` directives (see pragma_lex.h).
 *
 * libclang drops unknown pragmas from the AST but keeps them in the token
 * stream of clang_tokenize(), with physical locations.  Newlines are not
 * tokens, so a directive's extent comes from the file text: it runs from
 * its '#' to the first newline that is not escaped by a backslash and not
 * inside a comment.  The tokens of that extent after `loom` are the
 * directive's; comments are not.
 *
 * Included (non-system) files are scanned the same way, only to report
 * their loom directives: loomc translates the main file, and a loop left a
 * pragma in a header would silently never run.  A file whose text has no
 * word `pragma` or `Pragma` (line splices inside it skipped) cannot
 * spell such a directive, and is not tokenized.  An expansion's text
 * (transform/expand.h) rewrites the main file only: its headers are the
 * ones an earlier parse of the unit scanned (frontend.headers_said), and
 * are not scanned again.
 */
#include "frontend/pragma_lex.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const frontend *fe;
  program *prog;
  arena *arena;
  CXFile file;      /* the file scanned */
  const char *text; /* and its text */
  unsigned len;
  CXToken *toks;
  unsigned ntoks;
  unsigned *skipped; /* the file's skipped ranges (#if 0): start, end, ... */
  unsigned nskipped; /* ranges, in order of their start */
  unsigned define_end; /* end of the #define directive we are in, or 0 */
  CXSourceLocation included_from; /* for an included file */
  int included;
  int reported;     /* an included file's directive was reported */
} lexer;

static unsigned skip_block_comment(const char *t, unsigned len, unsigned i) {
  for (i += 2; i + 1 < len; i++)
    if (t[i] == '*' && t[i + 1] == '/')
      return i + 2;
  return len;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* The length of the line continuation at i, or 0: a backslash, then the
 * newline — with blanks between them too, as C compilers (clang's lexer
 * included) accept them. */
static unsigned escaped_newline(const char *t, unsigned len, unsigned i) {
  if (i >= len || t[i] != '\\')
    return 0;
  unsigned j = i + 1;
  while (j < len && is_blank(t[j]))
    j++;
  if (j < len && t[j] == '\n')
    return j + 1 - i;
  if (j + 1 < len && t[j] == '\r' && t[j + 1] == '\n')
    return j + 2 - i;
  return 0;
}

static unsigned skip_literal(const char *t, unsigned len, unsigned i) {
  char q = t[i];
  for (i++; i < len && t[i] != q && t[i] != '\n'; i++) {
    unsigned esc = escaped_newline(t, len, i);
    if (esc)
      i += esc - 1;
    else if (t[i] == '\\' && i + 1 < len)
      i++;
  }
  return i < len && t[i] == q ? i + 1 : i;
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

/* Whether only blanks and block comments precede offset on its logical
 * line: back over blanks and comments (white space to the preprocessor) to
 * the start of the file or to a newline; a newline escaped by a backslash
 * (a continuation) only joins the previous physical line, where the same
 * holds.  As C's translation phases do it: lines are spliced (phase 2)
 * before comments become spaces (phase 3), and a directive is a line whose
 * first token is '#' (phase 4). */
static int starts_line(const char *t, unsigned off) {
  for (;;) {
    while (off > 0 && is_blank(t[off - 1]))
      off--;
    if (off >= 2 && t[off - 1] == '/' && t[off - 2] == '*') {
      off -= 2; /* back over a comment ending here */
      while (off >= 2 && !(t[off - 2] == '/' && t[off - 1] == '*'))
        off--;
      if (off < 2)
        return 0;
      off -= 2;
      continue;
    }
    if (off == 0)
      return 1;
    if (t[off - 1] != '\n')
      return 0;
    unsigned p = off - 1;
    if (p > 0 && t[p - 1] == '\r')
      p--;
    while (p > 0 && is_blank(t[p - 1]))
      p--;
    if (!(p > 0 && t[p - 1] == '\\'))
      return 1;
    off = p - 1; /* a continuation: the previous physical line goes on */
  }
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

/* Whether offset off lies in a skipped range: the last range starting at
 * or before it, found by bisection, holds it (ranges do not overlap). */
static int in_skipped_range(const lexer *lx, unsigned off) {
  unsigned lo = 0, hi = lx->nskipped; /* ranges [0, lo) start at or before off */
  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (lx->skipped[2 * mid] <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && off < lx->skipped[2 * (lo - 1) + 1];
}

static int by_start(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* lx->file's skipped ranges as offsets, sorted: each token asks. */
static void take_skipped(lexer *lx) {
  CXSourceRangeList *r = clang_getSkippedRanges(lx->fe->tu, lx->file);
  lx->nskipped = r ? r->count : 0;
  lx->skipped = arena_alloc(lx->arena, sizeof *lx->skipped * 2 * (lx->nskipped + 1));
  for (unsigned i = 0; i < lx->nskipped; i++) {
    lx->skipped[2 * i] = frontend_offset(clang_getRangeStart(r->ranges[i]));
    lx->skipped[2 * i + 1] = frontend_offset(clang_getRangeEnd(r->ranges[i]));
  }
  qsort(lx->skipped, lx->nskipped, 2 * sizeof *lx->skipped, by_start);
  if (r)
    clang_disposeSourceRangeList(r);
}

static srcloc offset_loc(const lexer *lx, unsigned off) {
  CXSourceLocation l =
      clang_getLocationForOffset(lx->fe->tu, lx->file, off);
  return frontend_loc(lx->fe, l);
}

/* s without its line continuations. */
static char *unsplice(arena *a, const char *s) {
  unsigned n = (unsigned)strlen(s), k = 0;
  char *out = arena_alloc(a, n + 1);
  for (unsigned i = 0, esc; i < n;)
    if ((esc = escaped_newline(s, n, i)) != 0)
      i += esc;
    else
      out[k++] = s[i++];
  out[k] = '\0';
  return out;
}

/* A token as the parser sees it.  A token right after a line continuation
 * begins, for libclang, at the continuation's backslash, and libclang spells
 * punctuation and literals as written: `args\<newline>(` would give "\\\n("
 * for '(' — so continuations are dropped from the spelling and the location
 * is that of the first character. */
static ptok make_ptok(const lexer *lx, unsigned i) {
  CXTranslationUnit tu = lx->fe->tu;
  ptok p;
  CXString sp = clang_getTokenSpelling(tu, lx->toks[i]);
  p.text = unsplice(lx->arena, clang_getCString(sp));
  clang_disposeString(sp);
  unsigned off = tok_offset(lx, i), lead = 0, esc;
  while ((esc = escaped_newline(lx->text, lx->len, off + lead)) != 0)
    lead += esc;
  p.loc = lead ? offset_loc(lx, off + lead)
               : frontend_loc(lx->fe, clang_getTokenLocation(tu, lx->toks[i]));
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
static unsigned take_directive(lexer *lx, unsigned i, unsigned j) {
  unsigned start = tok_offset(lx, i);
  unsigned end = directive_end(lx->text, lx->len, start);
  directive *d = arena_alloc(lx->arena, sizeof *d);
  d->loc = offset_loc(lx, start);
  d->start = start;
  d->end = end;
  d->end_loc = offset_loc(lx, end);
  unsigned n = 0, last = j;
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
  int yes = strncmp(s, "loom", 4) == 0 && !text_ident_char(s[4]);
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

/* The index of the first token after i that is not a comment. */
static unsigned next_code(const lexer *lx, unsigned i) {
  do
    i++;
  while (i < lx->ntoks && is_comment(lx, i));
  return i;
}

static void report_included(lexer *lx, unsigned i) {
  ptok t = make_ptok(lx, i);
  diag(DIAG_ERROR, t.loc, 1,
       "'#pragma loom' in an included file is not translated: loomc "
       "translates the directives of the main file only");
  diag(DIAG_NOTE, frontend_loc(lx->fe, lx->included_from), 0, "included from here");
  lx->reported = 1;
}

/* A directive line starting at the '#' token i. */
static unsigned scan_directive(lexer *lx, unsigned i, unsigned off) {
  unsigned p = next_code(lx, i), l = next_code(lx, p);
  if (tok_is(lx, p, "pragma") && tok_is(lx, l, "loom")) {
    if (!lx->included)
      return take_directive(lx, i, next_code(lx, l));
    report_included(lx, i);
    return lx->ntoks;
  }
  if (tok_is(lx, p, "define"))
    lx->define_end = directive_end(lx->text, lx->len, off);
  return i + 1;
}

static unsigned scan_token(lexer *lx, unsigned i) {
  unsigned off = tok_offset(lx, i);
  if (lx->define_end && off >= lx->define_end)
    lx->define_end = 0;
  if (is_comment(lx, i) || in_skipped_range(lx, off))
    return i + 1;
  int hash = clang_getTokenKind(lx->toks[i]) == CXToken_Punctuation &&
             tok_is(lx, i, "#");
  if (hash && starts_line(lx->text, off))
    return scan_directive(lx, i, off);
  if (is_loom_Pragma(lx, i))
    error_macro_pragma(lx, i, 1);
  else if (lx->define_end && tok_is(lx, i, "pragma") &&
           tok_is(lx, next_code(lx, i), "loom"))
    error_macro_pragma(lx, i > 0 && tok_is(lx, i - 1, "#") ? i - 1 : i, 0);
  return i + 1;
}

/* Scans the whole of lx->file. */
static void scan_file(lexer *lx) {
  CXTranslationUnit tu = lx->fe->tu;
  CXSourceRange all =
      clang_getRange(clang_getLocationForOffset(tu, lx->file, 0),
                     clang_getLocationForOffset(tu, lx->file, lx->len));
  clang_tokenize(tu, all, &lx->toks, &lx->ntoks);
  take_skipped(lx);
  for (unsigned i = 0; i < lx->ntoks;)
    i = scan_token(lx, i);
  clang_disposeTokens(tu, lx->toks, lx->ntoks);
}

/* ---- the files ------------------------------------------------------------- */

/* The end of the line splice at text[i] (a backslash or `??/`, blanks,
 * a newline), or i when there is none. */
static size_t splice_end(const char *text, size_t len, size_t i) {
  size_t j = i;
  if (j < len && text[j] == '\\')
    j++;
  else if (j + 2 < len && text[j] == '?' && text[j + 1] == '?' && text[j + 2] == '/')
    j += 3;
  else
    return i;
  while (j < len && (text[j] == ' ' || text[j] == '\t'))
    j++;
  if (j < len && text[j] == '\r')
    return j + 1 < len && text[j + 1] == '\n' ? j + 2 : j + 1;
  return j < len && text[j] == '\n' ? j + 1 : i;
}

/* Whether the letters of w follow text[i] (its first letter), line
 * splices inside skipped; the offset after them in *after. */
static int letters_at(const char *text, size_t len, size_t i, const char *w, size_t *after) {
  if (text[i] != w[0])
    return 0;
  for (w++; *w; w++) {
    size_t j = i + 1, e;
    while ((e = splice_end(text, len, j)) != j)
      j = e;
    if (j >= len || text[j] != *w)
      return 0;
    i = j;
  }
  *after = i + 1;
  return 1;
}

/* Whether the word `pragma` or `Pragma` starts at text[i]. */
static int pragma_at(const char *text, size_t len, size_t i) {
  size_t after;
  return letters_at(text, len, i, "pragma", &after) || letters_at(text, len, i, "Pragma", &after);
}

/* Whether `loom` at text[i] ends a word (what follows, splices skipped,
 * is no letter, digit or underscore: not `loom_set`). */
static int loom_at(const char *text, size_t len, size_t i) {
  size_t j, e;
  if (!letters_at(text, len, i, "loom", &j))
    return 0;
  while ((e = splice_end(text, len, j)) != j)
    j = e;
  return j >= len || !text_ident_char(text[j]);
}

/* The offset of the first `pragma` or `Pragma` in text[0, len) (found by
 * memchr: the headers' text is megabytes), or len. */
static size_t first_pragma(const char *text, size_t len) {
  size_t first = len;
  for (const char *c = "pP"; *c; c++) {
    const char *end = text + first;
    for (const char *p = text; p < end && (p = memchr(p, *c, (size_t)(end - p))); p++)
      if (pragma_at(text, len, (size_t)(p - text))) {
        first = (size_t)(p - text);
        break;
      }
  }
  return first;
}

/* Whether text[0, len) may spell `#pragma loom` or `_Pragma("loom")`:
 * the word `loom` somewhere after a `pragma` (what scan_token reports
 * needs both, in that order: a header of other pragmas, loom_gen.h's
 * `_Pragma("omp ...")`, is not tokenized). */
static int may_hold_pragma(const char *text, size_t len) {
  const char *end = text + len;
  for (const char *p = text + first_pragma(text, len); p < end && (p = memchr(p, 'l', (size_t)(end - p))); p++)
    if (loom_at(text, len, (size_t)(p - text)))
      return 1;
  return 0;
}

static void visit_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth,
                            CXClientData data) {
  lexer *main_lx = data;
  const frontend *fe = main_lx->fe;
  /* included from a system header: a system header too (clang's rule),
   * known from the includer's location, which costs no search of the
   * files as f's contents and f's own locations do */
  if (depth == 0 || clang_Location_isInSystemHeader(stack[0]))
    return;
  size_t len = 0;
  const char *text = clang_getFileContents(fe->tu, f, &len);
  /* the text first: a location in a file is found by a search of them all */
  if (!text || !may_hold_pragma(text, len) ||
      clang_Location_isInSystemHeader(clang_getLocationForOffset(fe->tu, f, 0)))
    return;
  lexer lx = *main_lx;
  lx.file = f;
  lx.text = text;
  lx.len = (unsigned)len;
  lx.included = 1;
  lx.included_from = stack[0];
  lx.define_end = 0;
  scan_file(&lx);
}

void pragma_lex(const frontend *fe, program *prog, arena *a) {
  lexer lx = {0};
  lx.fe = fe;
  lx.prog = prog;
  lx.arena = a;
  lx.file = fe->file;
  lx.text = prog->text;
  lx.len = (unsigned)prog->len;
  scan_file(&lx);
  if (!fe->headers_said)
    clang_getInclusions(fe->tu, visit_inclusion, &lx);
}
