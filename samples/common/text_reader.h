/*
 * text_reader.h — a small whitespace-separated token reader for the
 * samples' mesh files (Airfoil's grid, the wave mesh): buffered reads, line
 * numbers for messages, and strict number parsing (integers as strtol
 * reads them, reals to strtod's value, which is fscanf's %lf's).
 *
 * Everything here is `static` and plain C11.
 */
#ifndef LOOM_SAMPLES_TEXT_READER_H
#define LOOM_SAMPLES_TEXT_READER_H

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TEXT_READ_BUF = 1 << 16, TEXT_TOKEN_MAX = 64 };

/* Results of text_parse_*: 0, or one of these. */
enum { TEXT_BAD = 1, TEXT_EOF = 2 };

struct text_reader {
  FILE *fp;
  const char *path;
  long line;                /* line of the current position, from 1 */
  size_t pos, len;          /* window into buf */
  char buf[TEXT_READ_BUF];
  char tok[TEXT_TOKEN_MAX]; /* the last token (possibly truncated) */
  long tok_line;            /* the line the last token started on */
};

/* Opens `path` for reading; NULL after printing why. */
static struct text_reader *text_open(const char *path) {
  struct text_reader *r = malloc(sizeof *r);
  if (!r) {
    fprintf(stderr, "%s: out of memory\n", path);
    return NULL;
  }
  r->fp = fopen(path, "rb");
  if (!r->fp) {
    fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
    free(r);
    return NULL;
  }
  r->path = path;
  r->line = 1;
  r->pos = r->len = 0;
  return r;
}

/* Closes r; returns `failed`, or 1 after printing a read error. */
static int text_close(struct text_reader *r, int failed) {
  if (!failed && ferror(r->fp)) {
    fprintf(stderr, "%s: read error\n", r->path);
    failed = 1;
  }
  fclose(r->fp);
  free(r);
  return failed;
}

/* The next character, or EOF. */
static int text_getc(struct text_reader *r) {
  if (r->pos == r->len) {
    r->len = fread(r->buf, 1, sizeof r->buf, r->fp);
    r->pos = 0;
    if (r->len == 0)
      return EOF;
  }
  return (unsigned char)r->buf[r->pos++];
}

static int text_is_space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* Appends the token's characters from the buffer onward (a token that
 * crosses the buffer's end, or the last of the file); the character after
 * it is consumed. */
static size_t text_token_tail(struct text_reader *r, size_t n) {
  int c = text_getc(r);
  while (c != EOF && !text_is_space(c)) {
    if (n + 1 < sizeof r->tok)
      r->tok[n++] = (char)c;
    c = text_getc(r);
  }
  if (c == '\n')
    r->line++;
  return n;
}

/* Reads the next whitespace-separated token into r->tok; 0 at end of file.
 * A token too long for r->tok is truncated (it will not parse).  A token
 * inside the buffer is copied from it at once; one that crosses its end,
 * character by character. */
static int text_next_token(struct text_reader *r) {
  int c;
  for (;;) {
    while (r->pos < r->len && text_is_space((unsigned char)r->buf[r->pos]))
      if (r->buf[r->pos++] == '\n')
        r->line++;
    if (r->pos < r->len)
      break;
    if ((c = text_getc(r)) == EOF) { /* refills the buffer */
      r->tok_line = r->line;
      r->tok[0] = '\0';
      return 0;
    }
    r->pos--; /* c is the buffer's first character */
  }
  r->tok_line = r->line;
  size_t start = r->pos, end = start;
  while (end < r->len && !text_is_space((unsigned char)r->buf[end]))
    end++;
  size_t n = end - start < sizeof r->tok ? end - start : sizeof r->tok - 1;
  memcpy(r->tok, r->buf + start, n);
  r->pos = end;
  if (end == r->len)
    n = text_token_tail(r, n);
  else if (r->buf[r->pos++] == '\n') /* the space after it */
    r->line++;
  r->tok[n] = '\0';
  return n > 0;
}

/* Reports a problem at the current token: "PATH:LINE: WHAT: expected
 * EXPECTED, found 'TOKEN'" (or "found end of file"). */
static void text_read_error(const struct text_reader *r, const char *what,
                            const char *expected, int at_eof) {
  if (at_eof)
    fprintf(stderr, "%s:%ld: %s: expected %s, found end of file\n", r->path,
            r->tok_line, what, expected);
  else
    fprintf(stderr, "%s:%ld: %s: expected %s, found '%s'\n", r->path,
            r->tok_line, what, expected, r->tok);
}

/* The integer spelled from p on, as strtol(p, &end, 10) reads it without
 * blanks before it: a sign, then decimal digits (none past `end`).  The
 * character after the digits, and *v (which stops growing past 2^40:
 * beyond any int either way); NULL when there is no digit. */
static const char *text_digits(const char *p, const char *end, long long *v) {
  int neg = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+'))
    p++;
  const char *first = p;
  *v = 0;
  for (; p < end && *p >= '0' && *p <= '9'; p++)
    if (*v < (1LL << 40))
      *v = 10 * *v + (*p - '0');
  if (neg)
    *v = -*v;
  return p > first ? p : NULL;
}

/* The common case of text_parse_int, read in place: after blanks, an
 * integer ending in a blank, all in the buffer, whose value lies in
 * [lo, hi].  1 and the integer consumed (and the blank after it), or 0
 * and nothing but the blanks before it consumed (text_parse_int then
 * reads it as a token).  r->tok is left as it was: only a bad token is
 * reported. */
static int text_int_in_buffer(struct text_reader *r, long lo, long hi, int *out) {
  while (r->pos < r->len && text_is_space((unsigned char)r->buf[r->pos]))
    if (r->buf[r->pos++] == '\n')
      r->line++;
  long long v;
  const char *end = r->buf + r->len;
  const char *after = text_digits(r->buf + r->pos, end, &v);
  if (!after || after == end || !text_is_space((unsigned char)*after) || v < lo || v > hi)
    return 0;
  r->tok_line = r->line;
  r->line += *after == '\n';
  r->pos = (size_t)(after - r->buf) + 1;
  *out = (int)v;
  return 1;
}

/* The next token as an int in [lo, hi]: 0, TEXT_BAD or TEXT_EOF.  Reports
 * nothing, so the caller can describe the number only when it is wrong.
 * The token must be what strtol(tok, &end, 10) reads whole; it is
 * converted here (the mesh files hold millions of them). */
static int text_parse_int(struct text_reader *r, long lo, long hi, int *out) {
  if (text_int_in_buffer(r, lo, hi, out))
    return 0;
  if (!text_next_token(r))
    return TEXT_EOF;
  long long v;
  const char *end = r->tok + strlen(r->tok), *after = text_digits(r->tok, end, &v);
  if (after != end || v < lo || v > hi)
    return TEXT_BAD;
  *out = (int)v;
  return 0;
}

/* tok as a decimal real when it is short enough to convert exactly here:
 * [sign] digits [. digits] [e|E [sign] digits], at most 15 digits in all
 * and a decimal exponent within +-22.  The digits then make an exact
 * double m, 10^|e| is exact, and one IEEE multiplication or division
 * rounds m * 10^e correctly: strtod's value (Clinger's fast path, which
 * strtod takes itself).  1 and *out, or 0: strtod decides. */
static int text_short_decimal(const char *tok, double *out) {
/* Not where doubles are evaluated in extended precision, nor under
 * -ffast-math, which may turn the division into a product by a rounded
 * reciprocal. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && !defined(__FAST_MATH__)
  static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char *p = tok;
  int neg = *p == '-', digits = 0, frac = 0;
  long long m = 0;
  if (*p == '-' || *p == '+')
    p++;
  for (int point = 0;; p++) {
    if (*p == '.' && !point) {
      point = 1;
      continue;
    }
    if (*p < '0' || *p > '9')
      break;
    m = 10 * m + (*p - '0');
    frac += point;
    if (++digits > 15)
      return 0;
  }
  if (digits == 0)
    return 0;
  int e = 0;
  if (*p == 'e' || *p == 'E') {
    int eneg = p[1] == '-';
    p += 1 + (p[1] == '-' || p[1] == '+');
    if (*p < '0' || *p > '9')
      return 0;
    for (; *p >= '0' && *p <= '9'; p++)
      if ((e = 10 * e + (*p - '0')) > 99)
        return 0;
    e = eneg ? -e : e;
  }
  e -= frac;
  if (*p != '\0' || e < -22 || e > 22)
    return 0;
  double v = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
  *out = neg ? -v : v;
  return 1;
#else
  (void)tok;
  (void)out;
  return 0;
#endif
}

/* The next token as a finite double: 0, TEXT_BAD or TEXT_EOF.  The value
 * is strtod's (text_short_decimal's, when that finds it). */
static int text_parse_double(struct text_reader *r, double *out) {
  if (!text_next_token(r))
    return TEXT_EOF;
  if (text_short_decimal(r->tok, out))
    return 0;
  char *end;
  errno = 0;
  double v = strtod(r->tok, &end);
  if (*end != '\0' || end == r->tok || errno == ERANGE || v != v ||
      v - v != 0.0)
    return TEXT_BAD;
  *out = v;
  return 0;
}

#endif
