/*
 * fuzz_pragma.c — libFuzzer target over loomc's directive scanner and
 * parser (pragma_lex.c: directive_end, pragma_parse.c), without libclang.
 *
 * The input is the text that follows `#pragma loom ` on a directive line
 * (it may run over several lines, and past the directive's end).  Each run:
 *
 *   1. text = "#pragma loom " + input, registered with diag as "fuzz.c";
 *   2. directive_end(text) finds the end of the logical line, as
 *      pragma_lex does for a real directive;
 *   3. a small tokenizer — a stand-in for clang_tokenize over that extent,
 *      plus what make_ptok does with libclang's tokens — turns the text
 *      after `loom` into ptoks with file locations (tokenizer_check.c
 *      checks it against libclang);
 *   4. pragma_parse_directive() parses them.
 *
 * Oracles besides the sanitizers: directive_end stays in bounds and never
 * goes backwards; a directive either parses into a well-formed loop with
 * no diagnostic, or is rejected with exactly one error (pragma_parse.c
 * promises one diagnostic per malformed directive).
 *
 * Diagnostics are printed (to /dev/null), so diag's excerpt and caret code
 * runs too.  Everything is freed every run: the arena, diag's table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "ir/ir.h"
#include "frontend/pragma_lex.h"
#include "frontend/pragma_parse.h"

#define FILE_NAME "fuzz.c"
static const char PREFIX[] = "#pragma loom ";
enum { PREFIX_LEN = sizeof PREFIX - 1, MAX_INPUT = 1 << 16 };

static FILE *devnull;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz_pragma: check failed: %s (line %d)\n", #cond,      \
              __LINE__);                                                       \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* ---- a tokenizer that mirrors clang_tokenize + make_ptok ---------------- */
/*
 * What libclang's raw lexer (clang 14, C17) does with the text of a
 * directive, in so far as loomc can see it:
 *  - backslash, optional blanks, newline ("\\\n", "\\ \r\n", ...) is
 *    spliced out everywhere, even inside a token; a token begins where
 *    lexing began, so one right after a splice *starts at the backslash*
 *    and its spelling holds the splice — except identifiers, whose
 *    spelling is clean (clang_getTokenSpelling returns the identifier's
 *    name, UCNs expanded);
 *  - comments are tokens that take_directive drops;
 *  - pp-numbers, string and character literals (with L, u, U, u8
 *    prefixes; an unterminated or empty one is an unknown token, which
 *    libclang calls punctuation), identifiers (with '$', UTF-8 and UCNs
 *    in C11's ranges), C's punctuators and digraphs, anything else a one
 *    character unknown token;
 *  - lines end at '\n', '\r' or "\r\n" (for line:col).
 * make_ptok (pragma_lex.c) then drops line continuations from the
 * spelling and moves the location past leading ones, and names literals
 * starting with a digit numbers, other literals strings, and every unknown
 * token punctuation.
 * fuzz/tokenizer_check.c compares this with libclang on any input.
 */

typedef struct lexer {
  const char *t;
  unsigned len; /* the whole text (tokens may run past the directive) */
  unsigned end; /* the directive's end: tokens start before it */
  unsigned pos;
  arena *a;
  unsigned line, line_start, scanned; /* for locations */
} lexer;

static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
static int is_space(int c) { return is_blank(c) || c == '\n' || c == '\r'; }

/* Length of the splice (backslash, blanks, newline) at i, or 0. */
static unsigned splice_at(const lexer *lx, unsigned i) {
  const char *t = lx->t;
  if (i >= lx->len || t[i] != '\\')
    return 0;
  unsigned j = i + 1;
  while (j < lx->len && is_blank(t[j]))
    j++;
  if (j >= lx->len || (t[j] != '\n' && t[j] != '\r'))
    return 0;
  if (j + 1 < lx->len && (t[j + 1] == '\n' || t[j + 1] == '\r') && t[j + 1] != t[j])
    j++;
  return j + 1 - i;
}

/* The byte at i after splices, or -1 at the end; *next gets the offset
 * after it. */
static int char_at(const lexer *lx, unsigned i, unsigned *next) {
  unsigned n;
  while ((n = splice_at(lx, i)) != 0)
    i += n;
  if (i >= lx->len) {
    *next = lx->len;
    return -1;
  }
  *next = i + 1;
  return (unsigned char)lx->t[i];
}

static srcloc loc_of(lexer *lx, unsigned off) {
  for (; lx->scanned < off; lx->scanned++) {
    char c = lx->t[lx->scanned];
    if (c == '\r' && lx->scanned + 1 < off && lx->t[lx->scanned + 1] == '\n')
      continue; /* "\r\n": the line ends at the '\n' */
    if (c == '\n' || c == '\r') {
      lx->line++;
      lx->line_start = lx->scanned + 1;
    }
  }
  srcloc l = {FILE_NAME, lx->line, off - lx->line_start + 1, off};
  return l;
}

/* ---- Unicode: UTF-8 and UCNs in identifiers (C11 annex D) ---- */

static const uint32_t C11_ALLOWED[][2] = {
    {0x00A8, 0x00A8},   {0x00AA, 0x00AA},   {0x00AD, 0x00AD},   {0x00AF, 0x00AF},
    {0x00B2, 0x00B5},   {0x00B7, 0x00BA},   {0x00BC, 0x00BE},   {0x00C0, 0x00D6},
    {0x00D8, 0x00F6},   {0x00F8, 0x00FF},   {0x0100, 0x167F},   {0x1681, 0x180D},
    {0x180F, 0x1FFF},   {0x200B, 0x200D},   {0x202A, 0x202E},   {0x203F, 0x2040},
    {0x2054, 0x2054},   {0x2060, 0x206F},   {0x2070, 0x218F},   {0x2460, 0x24FF},
    {0x2776, 0x2793},   {0x2C00, 0x2DFF},   {0x2E80, 0x2FFF},   {0x3004, 0x3007},
    {0x3021, 0x302F},   {0x3031, 0x303F},   {0x3040, 0xD7FF},   {0xF900, 0xFD3D},
    {0xFD40, 0xFDCF},   {0xFDF0, 0xFE44},   {0xFE47, 0xFFFD},   {0x10000, 0x1FFFD},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}, {0x40000, 0x4FFFD}, {0x50000, 0x5FFFD},
    {0x60000, 0x6FFFD}, {0x70000, 0x7FFFD}, {0x80000, 0x8FFFD}, {0x90000, 0x9FFFD},
    {0xA0000, 0xAFFFD}, {0xB0000, 0xBFFFD}, {0xC0000, 0xCFFFD}, {0xD0000, 0xDFFFD},
    {0xE0000, 0xEFFFD}};
static const uint32_t C11_NOT_INITIAL[][2] = {
    {0x0300, 0x036F}, {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF}, {0xFE20, 0xFE2F}};
static const uint32_t UNICODE_SPACE[][2] = {
    {0x0085, 0x0085}, {0x00A0, 0x00A0}, {0x1680, 0x1680}, {0x180E, 0x180E},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
    {0x3000, 0x3000}};

static int in_table(const uint32_t (*r)[2], size_t n, uint32_t c) {
  for (size_t i = 0; i < n; i++)
    if (c >= r[i][0] && c <= r[i][1])
      return 1;
  return 0;
}
#define IN(table, c) in_table(table, sizeof table / sizeof table[0], c)

static int id_char(uint32_t c) { return c == '$' || IN(C11_ALLOWED, c); }
static int id_initial(uint32_t c) { return id_char(c) && !IN(C11_NOT_INITIAL, c); }
static int unicode_space(uint32_t c) { return IN(UNICODE_SPACE, c); }

/* A strict UTF-8 sequence at i (raw bytes: clang does not splice inside
 * one); returns its length and *cp, or 0. */
static unsigned utf8_at(const lexer *lx, unsigned i, uint32_t *cp) {
  const unsigned char *s = (const unsigned char *)lx->t + i;
  unsigned avail = lx->len - i, n;
  uint32_t c, min;
  if (avail == 0 || s[0] < 0xC2 || s[0] > 0xF4)
    return 0;
  if (s[0] < 0xE0)
    n = 2, c = s[0] & 0x1F, min = 0x80;
  else if (s[0] < 0xF0)
    n = 3, c = s[0] & 0x0F, min = 0x800;
  else
    n = 4, c = s[0] & 0x07, min = 0x10000;
  if (avail < n)
    return 0;
  for (unsigned k = 1; k < n; k++) {
    if ((s[k] & 0xC0) != 0x80)
      return 0;
    c = c << 6 | (s[k] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *cp = c;
  return n;
}

static int hex_value(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A UCN (\uXXXX, \UXXXXXXXX) whose backslash is the character at i (after
 * splices): 1 with its end and code point, or 0. */
static int ucn_syntax(const lexer *lx, unsigned i, unsigned *end, uint32_t *cp) {
  unsigned next;
  if (char_at(lx, i, &next) != '\\')
    return 0;
  int u = char_at(lx, next, &next);
  int digits = u == 'u' ? 4 : u == 'U' ? 8 : 0;
  if (!digits)
    return 0;
  uint32_t c = 0;
  for (int k = 0; k < digits; k++) {
    int h = hex_value(char_at(lx, next, &next));
    if (h < 0)
      return 0;
    c = c << 4 | (uint32_t)h;
  }
  *end = next;
  *cp = c;
  return 1;
}

/* The code point of a UCN that clang accepts at i, or 0. */
static uint32_t ucn_at(const lexer *lx, unsigned i, unsigned *end) {
  uint32_t c;
  if (!ucn_syntax(lx, i, end, &c) ||
      (c < 0xA0 && c != 0x24 && c != 0x40 && c != 0x60) ||
      (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
    return 0;
  return c;
}

/* One more identifier (or pp-number) character at i: ASCII ones by the
 * caller; here a UCN or a UTF-8 character.  Clang 14 takes any non-ASCII,
 * non-space code point here (an invalid one only draws a diagnostic). */
static int unicode_cont(const lexer *lx, unsigned i, unsigned *end) {
  unsigned next;
  int c = char_at(lx, i, &next);
  uint32_t cp;
  if (c == '\\') {
    cp = ucn_at(lx, i, end);
    return cp && (id_char(cp) || (cp >= 0x80 && !unicode_space(cp)));
  }
  if (c < 0x80 || next - 1 != i) /* clang reads UTF-8 here only unspliced */
    return 0;
  unsigned n = utf8_at(lx, next - 1, &cp);
  if (!n || unicode_space(cp))
    return 0;
  *end = next - 1 + n;
  return 1;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_ident_ascii(int c) {
  return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         is_digit(c);
}
static int is_number_body(int c) {
  return is_digit(c) || c == '_' || c == '.' || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

/* C's punctuators of more than one character (digraphs included), longest
 * first. */
static const char *const PUNCT[] = {
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=",
    "==",   "!=",  "&&",  "||",  "*=", "/=", "%=", "+=", "-=", "&=", "^=",
    "|=",   "##",  "<:",  ":>",  "<%", "%>", "%:", NULL};

/* Whether the spliced text at i starts with s; *end gets the offset after. */
static int match_at(const lexer *lx, unsigned i, const char *s, unsigned *end) {
  for (; *s; s++) {
    unsigned next;
    if (char_at(lx, i, &next) != (unsigned char)*s)
      return 0;
    i = next;
  }
  *end = i;
  return 1;
}

static void put_utf8(char *s, unsigned *n, uint32_t c) {
  if (c < 0x80) {
    s[(*n)++] = (char)c;
  } else if (c < 0x800) {
    s[(*n)++] = (char)(0xC0 | c >> 6);
    s[(*n)++] = (char)(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s[(*n)++] = (char)(0xE0 | c >> 12);
    s[(*n)++] = (char)(0x80 | (c >> 6 & 0x3F));
    s[(*n)++] = (char)(0x80 | (c & 0x3F));
  } else {
    s[(*n)++] = (char)(0xF0 | c >> 18);
    s[(*n)++] = (char)(0x80 | (c >> 12 & 0x3F));
    s[(*n)++] = (char)(0x80 | (c >> 6 & 0x3F));
    s[(*n)++] = (char)(0x80 | (c & 0x3F));
  }
}

/* An identifier's name: splices removed, UCNs as UTF-8. */
static char *ident_name(lexer *lx, unsigned b, unsigned e) {
  char *s = arena_alloc(lx->a, e - b + 1);
  unsigned n = 0;
  for (unsigned i = b, next; i < e;) {
    int c = char_at(lx, i, &next);
    unsigned uend;
    uint32_t cp;
    if (c < 0 || next > e)
      break;
    if (c == '\\' && (cp = ucn_at(lx, i, &uend)) != 0 && uend <= e) {
      put_utf8(s, &n, cp);
      i = uend;
      continue;
    }
    s[n++] = (char)c;
    i = next;
  }
  s[n] = '\0';
  return s;
}

/* The rest of a string or character literal whose opening quote ends at
 * i.  Returns the end of the token; *closed: whether a quote closed it. */
static unsigned literal_rest(const lexer *lx, unsigned i, int quote, int *closed) {
  unsigned next;
  int c = char_at(lx, i, &next);
  *closed = 0;
  if (quote == '\'' && c == '\'')
    return next; /* '': empty character constant, an unknown token */
  while (c != quote) {
    if (c == '\\') {
      i = next;
      c = char_at(lx, i, &next);
    }
    if (c < 0)
      return lx->len;
    if (c == '\n' || c == '\r')
      return next - 1; /* unterminated: up to the newline */
    i = next;
    c = char_at(lx, i, &next);
  }
  *closed = 1;
  return next;
}

/* make_ptok's notion of a line continuation (escaped_newline in
 * pragma_lex.c): backslash, blanks, then "\n" or "\r\n". */
static unsigned loom_continuation(const char *t, unsigned len, unsigned i) {
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

/* make_ptok's part: spelling without continuations, location after the
 * leading ones, kind. */
static void finish_token(lexer *lx, ptok *out, unsigned start, const char *spelling) {
  unsigned n = (unsigned)strlen(spelling), k = 0, lead = 0, esc;
  char *text = arena_alloc(lx->a, n + 1);
  for (unsigned i = 0; i < n;)
    if ((esc = loom_continuation(spelling, n, i)) != 0)
      i += esc;
    else
      text[k++] = spelling[i++];
  text[k] = '\0';
  while ((esc = loom_continuation(lx->t, lx->len, start + lead)) != 0)
    lead += esc;
  out->text = text;
  out->loc = loc_of(lx, start + lead);
  if (out->kind == PT_STRING && is_digit((unsigned char)text[0]))
    out->kind = PT_NUMBER;
}

/* One token beginning before the directive's end, or 0. */
static int next_token(lexer *lx, ptok *out) {
  unsigned i = lx->pos, next, end = 0;
  int c;
  uint32_t cp;
  for (;;) { /* whitespace and comments */
    c = char_at(lx, i, &next);
    if (c < 0 || i >= lx->end)
      return 0;
    if (is_space(c) || c == '\0') {
      i = next;
      continue;
    }
    unsigned after;
    if (c == '/' && char_at(lx, next, &after) == '*') {
      int prev = 0, d;
      for (i = after; (d = char_at(lx, i, &next)) >= 0; prev = d) {
        i = next;
        if (prev == '*' && d == '/')
          break;
      }
      if (d < 0)
        i = lx->len;
      continue;
    }
    if (c == '/' && char_at(lx, next, &after) == '/') {
      for (i = after; (c = char_at(lx, i, &next)) >= 0 && c != '\n' && c != '\r';)
        i = next;
      continue;
    }
    break; /* (raw lexing: Unicode white space is an unknown token) */
  }
  unsigned start = i; /* where lexing began: splices included */
  int quote = 0;
  out->kind = PT_PUNCT;
  if (is_digit(c) || (c == '.' && is_digit(char_at(lx, next, &end)))) {
    int prev = 0, d; /* a pp-number */
    end = start;
    for (;;) {
      unsigned e;
      d = char_at(lx, end, &next);
      if (is_number_body(d) ||
          ((d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))) {
        prev = is_number_body(d) ? d : 0;
        end = next;
      } else if (unicode_cont(lx, end, &e)) {
        prev = 0;
        end = e;
      } else
        break;
    }
    out->kind = PT_STRING; /* a literal: make_ptok looks at its first byte */
  } else if (c == '"' || c == '\'') {
    quote = c;
    end = next;
  } else if ((c == 'L' || c == 'u' || c == 'U') &&
             (match_at(lx, next, "\"", &end) || match_at(lx, next, "'", &end))) {
    quote = (unsigned char)lx->t[end - 1];
  } else if (c == 'u' && match_at(lx, next, "8\"", &end)) {
    quote = '"';
  } else if (is_ident_ascii(c) ||
             (c >= 0x80 && utf8_at(lx, next - 1, &cp) && id_initial(cp)) ||
             (c == '\\' && (cp = ucn_at(lx, start, &end)) != 0 && id_initial(cp))) {
    if (c >= 0x80)
      end = next - 1 + utf8_at(lx, next - 1, &cp);
    else if (c != '\\')
      end = next;
    for (;;) {
      unsigned e;
      int d = char_at(lx, end, &next);
      if (d >= 0 && is_ident_ascii(d))
        end = next;
      else if (unicode_cont(lx, end, &e))
        end = e;
      else
        break;
    }
    out->kind = PT_IDENT;
    finish_token(lx, out, start, ident_name(lx, start, end));
    lx->pos = end;
    return 1;
  } else if (c >= 0x80) {
    unsigned n = utf8_at(lx, next - 1, &cp); /* an unknown character */
    end = n ? next - 1 + n : next;
  } else if (c == '\\' && ucn_syntax(lx, start, &end, &cp)) {
    /* a UCN that cannot start an identifier: an unknown token */
  } else {
    end = next; /* one character, unless a longer punctuator matches */
    for (int k = 0; PUNCT[k]; k++) {
      unsigned e;
      if ((unsigned char)PUNCT[k][0] == c && match_at(lx, start, PUNCT[k], &e)) {
        end = e;
        break;
      }
    }
  }
  if (quote) {
    int closed;
    end = literal_rest(lx, end, quote, &closed);
    out->kind = closed ? PT_STRING : PT_PUNCT;
  }
  finish_token(lx, out, start, arena_strndup(lx->a, lx->t + start, end - start));
  lx->pos = end;
  return 1;
}

/* The directive whose text (from '#') is text[0, len), as pragma_lex's
 * take_directive() would record it: extent from directive_end(), tokens
 * after `#pragma loom`. */
static directive *make_directive(const char *text, unsigned len, arena *a) {
  unsigned end = directive_end(text, len, 0);
  CHECK(end >= PREFIX_LEN && end <= len);
  lexer lx = {text, len, end, PREFIX_LEN, a, 1, 0, 0};
  directive *d = arena_alloc(a, sizeof *d);
  d->start = 0;
  d->end = end;
  d->loc = loc_of(&lx, 0);
  vec toks = {0};
  ptok t;
  while (next_token(&lx, &t)) {
    ptok *p = arena_alloc(a, sizeof *p);
    *p = t;
    vec_push(a, &toks, p);
  }
  d->end_loc = loc_of(&lx, end);
  d->ntoks = toks.len;
  d->toks = arena_alloc(a, sizeof *d->toks * (size_t)(toks.len ? toks.len : 1));
  for (int i = 0; i < toks.len; i++)
    d->toks[i] = *(ptok *)toks.items[i];
  return d;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  devnull = fopen("/dev/null", "w");
  if (!devnull)
    abort();
  return 0;
}

#ifndef FUZZ_PRAGMA_NO_TARGET
/* ---- checks of a parsed loop --------------------------------------------- */

static void check_loc(srcloc l, unsigned len) {
  CHECK(l.file != NULL);
  CHECK(l.line >= 1 && l.col >= 1);
  CHECK(l.offset <= len);
}

static void check_loop(const loop *lp, const directive *d, unsigned len) {
  CHECK(lp->kernel && lp->kernel[0]);
  /* a mesh loop has a set; an affine loop a domain instead */
  CHECK(lp->domain ? !lp->set_name : lp->set_name && lp->set_name[0]);
  CHECK(lp->nargs >= 1 && lp->args);
  CHECK(lp->start == d->start && lp->end == d->end);
  check_loc(lp->kernel_loc, len);
  check_loc(lp->domain ? lp->domain_loc : lp->set_loc, len);
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    CHECK(a->pos == i + 1);
    CHECK(a->name && a->name[0]);
    check_loc(a->loc, len);
    CHECK(a->loc.offset + a->len <= d->end);
    switch (a->kind) {
    case ARG_IDX:
      CHECK(a->mode == MODE_NONE || a->mode == MODE_READ);
      break;
    case ARG_NAME:
      CHECK(a->mode >= MODE_READ && a->mode <= MODE_MAX);
      break;
    case ARG_MAPPED:
    case ARG_MAPPED_ALL:
      CHECK(a->mode >= MODE_READ && a->mode <= MODE_MAX);
      CHECK(a->map_name && a->map_name[0]);
      check_loc(a->map_loc, len);
      check_loc(a->slot_loc, len);
      CHECK(a->kind == ARG_MAPPED ? a->slot >= 0 && a->slot < 1000000
                                  : a->slot == -1);
      break;
    case ARG_AFFINE:
      CHECK(lp->domain != NULL);
      CHECK(a->mode >= MODE_READ && a->mode <= MODE_MAX);
      CHECK(a->nsubs >= 0);
      break;
    default:
      CHECK(!"unexpected argument kind from the parser");
    }
  }
}

/* ---- the target ------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  unsigned len = (unsigned)(PREFIX_LEN + size);
  /* exactly len bytes, so ASan sees any read past the text */
  char *text = malloc(len);
  memcpy(text, PREFIX, PREFIX_LEN);
  if (size)
    memcpy(text + PREFIX_LEN, data, size);

  diag_reset();
  diag_set_stream(devnull);
  diag_add_source(FILE_NAME, text, len);
  arena *a = arena_new();

  /* directive_end on the raw input too: it may start inside a comment or
   * a literal, or with a continuation */
  unsigned e0 = directive_end((const char *)text + PREFIX_LEN, (unsigned)size, 0);
  CHECK(e0 <= size);

  directive *d = make_directive(text, len, a);
  loop *lp = pragma_parse_directive(d, a);
  if (lp) {
    CHECK(diag_error_count() == 0);
    check_loop(lp, d, len);
  } else {
    CHECK(diag_error_count() == 1);
  }

  diag_reset();
  arena_free(a);
  free(text);
  return 0;
}
#endif
