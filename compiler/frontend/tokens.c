/*
 * tokens.c — the main file's tokens (see tokens.h).
 */
#include "frontend/tokens.h"
#include "util/text.h"

#include <string.h>

/* The length of the line splice at s (a backslash, blanks, a newline),
 * or 0. */
static size_t splice_at(const char *s) {
  if (*s != '\\')
    return 0;
  size_t j = 1 + strspn(s + 1, " \t");
  if (s[j] == '\r')
    return s[j + 1] == '\n' ? j + 2 : j + 1;
  return s[j] == '\n' ? j + 1 : 0;
}

/* s without its line splices, into buf (cut to size). */
static void unspliced(const char *s, char *buf, size_t size) {
  size_t n = 0;
  for (size_t k; *s && n + 1 < size; s++) {
    while ((k = splice_at(s)))
      s += k;
    if (!*s)
      break;
    buf[n++] = *s;
  }
  buf[n] = '\0';
}

void tok_spelling(CXTranslationUnit tu, CXToken t, char *buf, size_t size) {
  CXString s = clang_getTokenSpelling(tu, t);
  unspliced(clang_getCString(s), buf, size);
  clang_disposeString(s);
}

char *tok_spelling_dup(CXTranslationUnit tu, CXToken t, arena *a) {
  CXString s = clang_getTokenSpelling(tu, t);
  const char *sp = clang_getCString(s);
  size_t size = strlen(sp) + 1;
  char *buf = arena_alloc(a, size);
  unspliced(sp, buf, size);
  clang_disposeString(s);
  return buf;
}

static struct tok_file *file_entry(const frontend *fe, CXFile file);

/* The offset just after token t, which starts at `start` in `file` and is
 * spelled `sp`: read off the file's text where the text there is the
 * spelling (libclang measures a token's extent by lexing it again, 1,200
 * instructions a token); asked of libclang where it is not (a line
 * splice inside the token). */
static unsigned token_end(const frontend *fe, CXToken t, CXFile file, unsigned start,
                          const char *sp);

tok_list tokens_of(const frontend *fe, CXSourceRange range, arena *a) {
  CXToken *t = NULL;
  unsigned n = 0;
  tok_list v = {0};
  clang_tokenize(fe->tu, range, &t, &n);
  for (unsigned i = 0; i < n; i++) {
    tok *k = arena_alloc(a, sizeof *k);
    CXSourceLocation at = clang_getTokenLocation(fe->tu, t[i]);
    char *sp = tok_spelling_dup(fe->tu, t[i], a);
    CXFile file;
    unsigned start;
    clang_getFileLocation(at, &file, NULL, NULL, &start);
    *k = (tok){clang_getTokenKind(t[i]), sp, start, token_end(fe, t[i], file, start, sp), at};
    vec_push(a, &v, k);
  }
  clang_disposeTokens(fe->tu, t, n);
  return v;
}

/* A file of the unit, an item of fe->token_files: its text, taken once
 * per parse (libclang finds a file's text by a search of every source
 * entry), and its tokens, once asked for (tokens_of_file). */
typedef struct tok_file {
  CXFile file;
  const char *text;
  size_t len;
  int tokenized;
  tok_list toks;
} tok_file;

static tok_file *file_entry(const frontend *fe, CXFile file) {
  vec *files = fe->token_files;
  for (int i = 0; i < files->len; i++)
    if (clang_File_isEqual(((tok_file *)files->items[i])->file, file))
      return files->items[i];
  tok_file *f = arena_alloc(fe->arena, sizeof *f);
  f->file = file;
  f->text = clang_getFileContents(fe->tu, file, &f->len);
  vec_push(fe->arena, files, f);
  return f;
}

static unsigned token_end(const frontend *fe, CXToken t, CXFile file, unsigned start,
                          const char *sp) {
  const tok_file *f = file && fe->token_files ? file_entry(fe, file) : NULL;
  size_t n = strlen(sp);
  if (f && f->text && start <= f->len && n <= f->len - start &&
      memcmp(f->text + start, sp, n) == 0)
    return start + (unsigned)n;
  return frontend_offset(clang_getRangeEnd(clang_getTokenExtent(fe->tu, t)));
}

/* The tokens of `file`, tokenized once per parse. */
static const tok_list *tokens_of_file(const frontend *fe, CXFile file) {
  tok_file *f = file_entry(fe, file);
  if (!f->tokenized) {
    f->toks = tokens_of(fe, clang_getRange(clang_getLocationForOffset(fe->tu, file, 0),
                                           clang_getLocationForOffset(fe->tu, file,
                                                                      (unsigned)f->len)),
                        fe->arena);
    f->tokenized = 1;
  }
  return &f->toks;
}

static int blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Whether s[0, n) is one of C's operators (one token). */
static int operator_token(const char *s, unsigned n) {
  static const char *const ops[] = {
      "=",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--",
      "+",  "-",  "*",  "/",  "%",  "<<", ">>", "<",  ">",  "<=",  ">=",  "==", "!=",
      "&",  "^",  "|",  "&&", "||", "!",  "~",  ",",  "?",  ":",   NULL};
  for (const char *const *o = ops; *o; o++)
    if (strlen(*o) == n && memcmp(*o, s, n) == 0)
      return 1;
  return 0;
}

int tok_plain_between(const frontend *fe, CXSourceRange r, unsigned from, unsigned to,
                      char *buf, size_t size, unsigned *at) {
  CXFile file;
  clang_getFileLocation(clang_getRangeStart(r), &file, NULL, NULL, NULL);
  if (!file || !fe->token_files)
    return -1;
  const tok_file *f = file_entry(fe, file);
  if (!f->text || from > to || to > f->len)
    return -1;
  const char *s = f->text;
  unsigned i = from, j;
  while (i < to && blank(s[i]))
    i++;
  if (i == to)
    return 0;
  for (j = i; j < to && !blank(s[j]); j++)
    ;
  for (unsigned k = j; k < to; k++)
    if (!blank(s[k]))
      return -1; /* more than one word */
  if (j - i >= size || !operator_token(s + i, j - i))
    return -1; /* a comment, a name, a splice, two operators run together... */
  memcpy(buf, s + i, j - i);
  buf[j - i] = '\0';
  *at = i;
  return 1;
}

/* A range longer than this many bytes is searched in its file's tokens. */
enum { LONG_RANGE = 256 };

const tok_list *tokens_of_long_range(const frontend *fe, CXSourceRange r) {
  CXFile file;
  unsigned start, end;
  clang_getFileLocation(clang_getRangeStart(r), &file, NULL, NULL, &start);
  clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
  if (!file || end - start <= LONG_RANGE || !fe->token_files)
    return NULL;
  return tokens_of_file(fe, file);
}

int tok_first_at(const tok_list *v, unsigned off) {
  int lo = 0, hi = v->len;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (((const tok *)v->items[mid])->start < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

tok_list tokens_between(const frontend *fe, unsigned from, unsigned to, arena *a) {
  CXSourceRange range = clang_getRange(clang_getLocationForOffset(fe->tu, fe->file, from),
                                       clang_getLocationForOffset(fe->tu, fe->file, to));
  return tokens_of(fe, range, a);
}

const tok *tok_at(const tok_list *v, int i) { return i >= 0 && i < v->len ? v->items[i] : NULL; }

int tok_is(const tok *t, const char *s) { return t && strcmp(t->text, s) == 0; }

int tok_changed(const tok *before, const tok *after) {
  static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                    "<<=", ">>=", "++", "--"};
  if (tok_is(before, "&") || tok_is(before, "++") || tok_is(before, "--"))
    return 1;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    if (tok_is(after, ops[k]))
      return 1;
  return 0;
}

int text_names(const char *text, const char *w) {
  size_t n = strlen(w);
  for (const char *p = text; (p = strstr(p, w)); p += n)
    if ((p == text || !text_ident_char(p[-1])) && !text_ident_char(p[n]))
      return 1;
  return 0;
}
