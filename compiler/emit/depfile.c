/*
 * depfile.c — the make rule of -MD/-MMD (see depfile.h), from the files
 * libclang included while parsing.
 */
#include "emit/depfile.h"

#include <stdlib.h>
#include <string.h>

#include "emit/output.h"
#include "util/strbuf.h"

typedef struct deps {
  const frontend *fe;
  int skip_system;
  vec files; /* char* */
} deps;

static void visit(CXFile f, CXSourceLocation *stack, unsigned depth,
                  CXClientData data) {
  deps *d = data;
  if (depth == 0)
    return; /* the main file */
  (void)stack;
  if (d->skip_system && clang_Location_isInSystemHeader(
                            clang_getLocationForOffset(d->fe->tu, f, 0)))
    return;
  CXString name = clang_getFileName(f);
  vec_push(d->fe->arena, &d->files, arena_strdup(d->fe->arena, clang_getCString(name)));
  clang_disposeString(name);
}

/* A file name escaped for make: spaces, '#' and '$'. */
static void put_name(strbuf *sb, const char *s) {
  for (; *s; s++) {
    if (*s == ' ' || *s == '#')
      sb_puts(sb, "\\");
    if (*s == '$')
      sb_puts(sb, "$");
    sb_putn(sb, s, 1);
  }
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int depfile_write(const frontend *fe, const options *o) {
  deps d = {fe, o->deps == 2, {0}};
  clang_getInclusions(fe->tu, visit, &d);
  /* clang reports inclusions in no fixed order: sort them, so the same
   * input gives the same bytes. */
  if (d.files.len)
    qsort(d.files.items, (size_t)d.files.len, sizeof d.files.items[0], name_cmp);
  strbuf sb;
  sb_init(&sb);
  put_name(&sb, o->dep_target);
  sb_puts(&sb, ":");
  sb_puts(&sb, " ");
  put_name(&sb, o->input);
  for (int i = 0; i < d.files.len; i++) {
    if (i && strcmp(d.files.items[i], d.files.items[i - 1]) == 0)
      continue;
    sb_puts(&sb, " \\\n  ");
    put_name(&sb, d.files.items[i]);
  }
  sb_puts(&sb, "\n");
  for (int i = 0; i < d.files.len; i++) {
    if (i && strcmp(d.files.items[i], d.files.items[i - 1]) == 0)
      continue;
    sb_puts(&sb, "\n");
    put_name(&sb, d.files.items[i]);
    sb_puts(&sb, ":\n");
  }
  int rc = output_write(o->dep_file, &sb);
  sb_free(&sb);
  return rc;
}
