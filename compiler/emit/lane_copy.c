/*
 * lane_copy.c — a kernel's lane copy (see lane_copy.h).
 */
#include "emit/lane_copy.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

int lane_copy_offset(const loop *lp, const int *strides, int i) {
  for (int u = 0; strides[i] && u < lp->lanes->nuses; u++)
    if (lp->lanes->uses[u].param == i)
      return 1;
  return 0;
}

/* Whether s is a plain number (no parentheses needed around it). */
static int number(const char *s) {
  while (isspace((unsigned char)*s))
    s++;
  if (!isdigit((unsigned char)*s))
    return 0;
  while (isalnum((unsigned char)*s))
    s++;
  while (isspace((unsigned char)*s))
    s++;
  return *s == '\0';
}

static void put_use(strbuf *b, const loop *lp, const kernel_use *u, int stride) {
  const kernel_text *t = lp->lanes;
  const char *p = lp->args[u->param].param_name;
  const char *e = u->subscript;
  if (!stride) {
    sb_putn(b, t->text + u->start, u->end - u->start);
  } else if (number(e) && strtol(e, NULL, 0) == 0) {
    sb_printf(b, "%s[loom_o_%s]", p, p);
  } else if (stride == 1) {
    sb_printf(b, number(e) ? "%s[loom_o_%s + %s]" : "%s[loom_o_%s + (%s)]", p, p, e);
  } else {
    sb_printf(b, number(e) ? "%s[loom_o_%s + %d * %s]" : "%s[loom_o_%s + %d * (%s)]", p, p,
              stride, e);
  }
}

const char *lane_copy(arena *a, const loop *lp, const char *name, const int *strides) {
  const kernel_text *t = lp->lanes;
  strbuf b;
  sb_init(&b);
  sb_printf(&b, "static inline void %s", name);
  sb_putn(&b, t->text, t->params_end);
  for (int i = 0; i < lp->nargs; i++)
    if (lane_copy_offset(lp, strides, i))
      sb_printf(&b, ", int loom_o_%s", lp->args[i].param_name);
  unsigned at = t->params_end;
  for (int u = 0; u < t->nuses; u++) {
    sb_putn(&b, t->text + at, t->uses[u].start - at);
    put_use(&b, lp, &t->uses[u], strides[t->uses[u].param]);
    at = t->uses[u].end;
  }
  sb_putn(&b, t->text + at, t->len - at);
  const char *s = arena_strndup(a, b.data, b.len);
  sb_free(&b);
  return s;
}
