/*
 * strbuf.h — a growable output buffer (malloc-backed; the generated file is
 * assembled here in full before anything is written to disk).
 */
#ifndef LOOMC_STRBUF_H
#define LOOMC_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
  char *data;
  size_t len, cap;
} strbuf;

void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
