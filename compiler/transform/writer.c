/*
 * writer.c — a new text of the main file (see writer.h).
 */
#include "transform/writer.h"

#include <string.h>

void writer_init(writer *w, const program *prog, arena *a) {
  *w = (writer){prog, a, {0}, {0}, 1};
  sb_init(&w->out);
}

void writer_put(writer *w, const char *s, size_t n) {
  sb_putn(&w->out, s, n);
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n')
      vec_push(w->a, &w->lines, w->presumed++);
}

void writer_puts(writer *w, const char *s) { writer_put(w, s, strlen(s)); }

/* Each copied line is the user's line the program says it is (an
 * expansion's text holds #line directives of its own). */
void writer_copy(writer *w, unsigned from, unsigned to) {
  const char *t = w->prog->text;
  while (from < to) {
    const char *nl = memchr(t + from, '\n', to - from);
    unsigned stop = nl ? (unsigned)(nl - t) + 1 : to;
    w->presumed = program_line(w->prog, from);
    writer_put(w, t + from, stop - from);
    from = stop;
  }
}

void writer_copy_edited(writer *w, unsigned from, unsigned to, const text_edit_list *edits) {
  for (int i = 0; i < edits->len; i++) {
    const text_edit *e = edits->items[i];
    if (e->start < from || e->end > to)
      continue;
    writer_copy(w, from, e->start);
    writer_puts(w, e->text);
    from = e->end;
  }
  writer_copy(w, from, to);
}

void writer_line_at(writer *w, unsigned line, unsigned col) {
  const char *f = w->prog->file;
  if (w->out.len && w->out.data[w->out.len - 1] != '\n')
    writer_puts(w, "\n");
  writer_puts(w, arena_printf(w->a, "#line %u \"", line));
  for (; *f; f++) {
    if (*f == '"' || *f == '\\')
      writer_puts(w, "\\");
    writer_put(w, f, 1);
  }
  writer_puts(w, "\"\n");
  w->presumed = line;
  for (unsigned c = 1; c < col; c++)
    writer_puts(w, " ");
}

unsigned writer_column(const program *prog, unsigned off) {
  unsigned c = 1;
  while (off > 0 && prog->text[off - 1] != '\n')
    off--, c++;
  return c;
}

void writer_finish(writer *w, const char **text, size_t *len, unsigned **lines, int *nlines) {
  vec_push(w->a, &w->lines, w->presumed); /* the last line */
  *text = arena_strndup(w->a, w->out.data, w->out.len);
  *len = w->out.len;
  sb_free(&w->out);
  *nlines = w->lines.len;
  *lines = w->lines.items;
}
