/*
 * text_reader.h — a small whitespace-separated token reader for the
 * samples' mesh files (Airfoil's grid, the wave mesh): buffered reads, line
 * numbers for messages, and strict number parsing (strtol / strtod, which
 * round exactly as fscanf's %d / %lf do).
 *
 * Everything here is `static` and plain C11.
 */
#ifndef LOOM_SAMPLES_TEXT_READER_H
#define LOOM_SAMPLES_TEXT_READER_H

#include <errno.h>
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

/* Reads the next whitespace-separated token into r->tok; 0 at end of file.
 * A token too long for r->tok is truncated (it will not parse). */
static int text_next_token(struct text_reader *r) {
  int c;
  while ((c = text_getc(r)) != EOF && text_is_space(c))
    if (c == '\n')
      r->line++;
  r->tok_line = r->line;
  size_t n = 0;
  while (c != EOF && !text_is_space(c)) {
    if (n + 1 < sizeof r->tok)
      r->tok[n++] = (char)c;
    c = text_getc(r);
  }
  if (c == '\n')
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

/* The next token as an int in [lo, hi]: 0, TEXT_BAD or TEXT_EOF.  Reports
 * nothing, so the caller can describe the number only when it is wrong. */
static int text_parse_int(struct text_reader *r, long lo, long hi, int *out) {
  if (!text_next_token(r))
    return TEXT_EOF;
  char *end;
  errno = 0;
  long v = strtol(r->tok, &end, 10);
  if (*end != '\0' || end == r->tok || errno == ERANGE || v < lo || v > hi)
    return TEXT_BAD;
  *out = (int)v;
  return 0;
}

/* The next token as a finite double: 0, TEXT_BAD or TEXT_EOF. */
static int text_parse_double(struct text_reader *r, double *out) {
  if (!text_next_token(r))
    return TEXT_EOF;
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
