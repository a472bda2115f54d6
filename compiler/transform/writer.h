/*
 * writer.h — a new text of the main file, written from pieces of the
 * user's text and loomc's own, knowing for each line it writes the user's
 * line it stands for (transform/expand.h): a copied line is its own; a
 * line after `#line N` is N, N + 1 ...
 */
#ifndef LOOMC_WRITER_H
#define LOOMC_WRITER_H

#include "ir/ir.h"
#include "util/strbuf.h"

typedef struct writer {
  const program *prog;
  arena *a;
  strbuf out;
  LIST(unsigned) lines; /* the user's line of each line written */
  unsigned presumed; /* ... of the line being written */
} writer;

/* A replacement of the text [start, end) of the program by `text`. */
typedef struct text_edit {
  unsigned start, end;
  const char *text;
} text_edit;

typedef LIST(text_edit *) text_edit_list;

void writer_init(writer *w, const program *prog, arena *a);
/* Writes s (n bytes) / the string s: loomc's own text. */
void writer_put(writer *w, const char *s, size_t n);
void writer_puts(writer *w, const char *s);
/* Copies the program's text [from, to): its lines are the user's. */
void writer_copy(writer *w, unsigned from, unsigned to);
/* The same, with the edits (text_edit*, sorted, disjoint) that lie inside
 * [from, to) applied; their texts must hold no newline. */
void writer_copy_edited(writer *w, unsigned from, unsigned to, const text_edit_list *edits);
/* `#line LINE "FILE"` on a line of its own (a newline first if the line
 * written is not done), then blanks up to column col. */
void writer_line_at(writer *w, unsigned line, unsigned col);
/* The 1-based column of offset off. */
unsigned writer_column(const program *prog, unsigned off);
/* The text written and the user's line of each of its lines; w is done. */
void writer_finish(writer *w, const char **text, size_t *len, unsigned **lines, int *nlines);

#endif
