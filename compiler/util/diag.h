/*
 * diag.h — the one diagnostic function of loomc.
 *
 * Every message has the GNU form
 *     file:line:col: error: message
 * followed by the source line and a caret under the offending text, like
 * gcc and clang print them.  Source text is looked up in files registered
 * with diag_add_source() (the main file, possibly an in-memory buffer) and
 * otherwise read from disk on demand.
 */
#ifndef LOOMC_DIAG_H
#define LOOMC_DIAG_H

#include <stdio.h>

/* A position in a source file.  Lines and columns count from 1; offset is
 * the byte offset in the file.  A NULL file means "no location". */
typedef struct srcloc {
  const char *file;
  unsigned line, col, offset;
} srcloc;

typedef enum diag_kind { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_kind;

/* Reports a diagnostic at loc, underlining `len` bytes (0: just a caret). */
void diag(diag_kind kind, srcloc loc, unsigned len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Registers the text of a file so that diagnostics can quote it.  The text
 * is borrowed and must outlive the diagnostics. */
void diag_add_source(const char *file, const char *text, size_t len);

void diag_set_stream(FILE *f); /* default stderr */
int diag_error_count(void);
/* How many diagnostics of every kind were issued, said or quiet. */
int diag_count(void);
/* While quiet, diagnostics are counted but not printed (a second
 * translation of a program whose diagnostics the first one gave); returns
 * the previous setting.  diag_restore_errors sets the error count back
 * (after such a translation failed). */
int diag_quiet(int on);
void diag_restore_errors(int n);
/* Forgets counts and sources (for tools that run the frontend repeatedly). */
void diag_reset(void);

#endif
