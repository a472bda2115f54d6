/*
 * diag.c — diagnostics in GNU form with the source line and a caret.
 *
 * Kept deliberately small: a table of known source texts, an error count,
 * and one printing function.  Files not registered are read from disk the
 * first time a diagnostic points into them, and released by diag_reset().
 */
#define _POSIX_C_SOURCE 200809L
#include "util/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
  char *file;
  const char *text;
  size_t len;
  char *owned; /* text read from disk by us */
} source;

enum { MAX_SOURCES = 64 };

static source sources[MAX_SOURCES];
static int nsources;
static int nerrors;
static int ndiags; /* of every kind, said or not */
static FILE *stream;
static int quiet;

void diag_set_stream(FILE *f) { stream = f; }
int diag_error_count(void) { return nerrors; }
int diag_count(void) { return ndiags; }
void diag_restore_errors(int n) { nerrors = n; }

int diag_quiet(int on) {
  int was = quiet;
  quiet = on;
  return was;
}

void diag_reset(void) {
  for (int i = 0; i < nsources; i++) {
    free(sources[i].file);
    free(sources[i].owned);
  }
  nsources = 0;
  nerrors = 0;
  ndiags = 0;
}

void diag_add_source(const char *file, const char *text, size_t len) {
  if (nsources == MAX_SOURCES)
    return;
  source *s = &sources[nsources++];
  s->file = strdup(file);
  s->text = text;
  s->len = len;
  s->owned = NULL;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n + 4096 > cap) {
      cap = cap ? cap * 2 : 65536;
      char *p = realloc(buf, cap);
      if (!p)
        break;
      buf = p;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return buf;
}

static const source *find_source(const char *file) {
  for (int i = 0; i < nsources; i++)
    if (strcmp(sources[i].file, file) == 0)
      return &sources[i];
  size_t len;
  char *text = read_file(file, &len);
  if (!text || nsources == MAX_SOURCES) {
    free(text);
    return NULL;
  }
  diag_add_source(file, text, len);
  sources[nsources - 1].owned = text;
  return &sources[nsources - 1];
}

/* Prints the quoted line and the caret line under loc. */
static void print_excerpt(FILE *out, srcloc loc, unsigned len) {
  const source *s = find_source(loc.file);
  if (!s || loc.offset > s->len)
    return;
  size_t start = loc.offset;
  while (start > 0 && s->text[start - 1] != '\n')
    start--;
  size_t end = loc.offset;
  while (end < s->len && s->text[end] != '\n' && s->text[end] != '\r')
    end++;
  if (len > end - loc.offset)
    len = (unsigned)(end - loc.offset);
  int w = fprintf(out, "%5u | ", loc.line) - 2;
  fprintf(out, "%.*s\n%*s| ", (int)(end - start), s->text + start, w, "");
  for (size_t i = start; i < loc.offset; i++)
    fputc(s->text[i] == '\t' ? '\t' : ' ', out);
  fputc('^', out);
  for (unsigned i = 1; i < len; i++)
    fputc('~', out);
  fputc('\n', out);
}

void diag(diag_kind kind, srcloc loc, unsigned len, const char *fmt, ...) {
  static const char *const names[] = {"note", "warning", "error"};
  FILE *out = stream ? stream : stderr;
  if (kind == DIAG_ERROR)
    nerrors++;
  ndiags++;
  if (quiet)
    return;
  if (loc.file)
    fprintf(out, "%s:%u:%u: ", loc.file, loc.line, loc.col);
  else
    fputs("loomc: ", out);
  fprintf(out, "%s: ", names[kind]);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
  if (loc.file)
    print_excerpt(out, loc, len);
}
