/*
 * cg_write.c — the shared walk's writing (see codegen.h): lines at the
 * current indentation, the element loops isl generates and the loops over
 * strips, `#line` directives to the user's file and back to the output.
 */
#include "emit/codegen.h"

#include <stdarg.h>
#include <string.h>

#include "emit/cg_internal.h"
#include "emit/isl_loops.h"
#include "transform/vectorize.h"

static void put(cg *g, const char *s, size_t n) {
  if (n)
    cg_flush_self(g);
  sb_putn(g->out, s, n);
  for (size_t i = 0; i < n; i++)
    g->out_lines += s[i] == '\n';
}

static void puts_(cg *g, const char *s) { put(g, s, strlen(s)); }

void cg_line(cg *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = arena_alloc(g->arena, 1);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(text, 1, fmt, ap);
  text = arena_alloc(g->arena, (size_t)n + 1);
  vsnprintf(text, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  if (n > 0)
    for (int i = 0; i < g->indent; i++)
      puts_(g, "  ");
  puts_(g, text);
  puts_(g, "\n");
}

void cg_indent(cg *g, int delta) { g->indent += delta; }

/* Writes the head of a loop isl generated (rc: its status) and opens its
 * body; NULL after an isl error. */
static isl_loop_text *open_loop(cg *g, isl_loop_text *t, int rc, const char *lo,
                                const char *hi) {
  if (rc != 0) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "isl could not generate the loop over [%s, %s)", lo, hi);
    return NULL;
  }
  for (int i = 0; i < t->head.len; i++)
    cg_line(g, "%s", (const char *)t->head.items[i]);
  vec_push(g->arena, &g->loop_tails, t);
  cg_indent(g, t->body_indent);
  return t;
}

/* A group with staged loops runs over strips: the loop over the strips'
 * first elements, loom_s, and the strip's end, loom_e. */
static void strips_begin(cg *g, const char *lo, const char *hi) {
  isl_loop_text *t = arena_alloc(g->arena, sizeof *t);
  int rc = isl_loop_strips(g->arena, lo, hi, "loom_s", STRIP_WIDTH, t);
  if (!open_loop(g, t, rc, lo, hi))
    return;
  g->strips = t;
  cg_line(g, "const int loom_e = loom_s + %d < %s ? loom_s + %d : %s;", STRIP_WIDTH, hi,
          STRIP_WIDTH, hi);
}

void cg_loop_begin(cg *g, const char *lo, const char *hi) {
  if (cg_runs_strips(g, g->group))
    strips_begin(g, lo, hi);
  else
    cg_loop_begin_iter(g, lo, hi, cg_elem(g));
}

const char *cg_every(cg *g, int n) {
  if (g->strips)
    return arena_printf(g->arena, "(loom_s & %d) < %d", n - 1, STRIP_WIDTH);
  return arena_printf(g->arena, "(%s & %d) == %d", cg_elem(g), n - 1, n - 1);
}

void cg_loop_begin_iter(cg *g, const char *lo, const char *hi, const char *iter) {
  isl_loop_text *t = arena_alloc(g->arena, sizeof *t);
  if (open_loop(g, t, isl_loop_range(g->arena, lo, hi, iter, g->group->loops.len, t), lo, hi))
    g->stmt_order = t->order;
}

/* The loop over one strip's elements, [loom_s, loom_e), for one statement. */
void cg_strip_elements_begin(cg *g) {
  isl_loop_text *t = arena_alloc(g->arena, sizeof *t);
  open_loop(g, t, isl_loop_range(g->arena, "loom_s", "loom_e", cg_elem(g), 1, t), "loom_s",
            "loom_e");
}

void cg_loop_end(cg *g) {
  if (g->loop_tails.len == 0)
    return;
  isl_loop_text *t = g->loop_tails.items[--g->loop_tails.len];
  if (t == g->strips)
    g->strips = NULL;
  cg_indent(g, -t->body_indent);
  for (int i = 0; i < t->tail.len; i++)
    cg_line(g, "%s", (const char *)t->tail.items[i]);
}

const char *cg_quoted(cg *g, const char *path) {
  size_t n = strlen(path);
  char *q = arena_alloc(g->arena, 2 * n + 3), *p = q;
  *p++ = '"';
  for (size_t i = 0; i < n; i++) {
    if (path[i] == '"' || path[i] == '\\')
      *p++ = '\\';
    *p++ = path[i];
  }
  *p++ = '"';
  return q;
}

/* A file name inside a comment: no "*" "/" that would end it. */
static const char *comment_safe(cg *g, const char *s) {
  char *c = arena_strdup(g->arena, s);
  for (char *p = c; (p = strstr(p, "*/")) != NULL;)
    *p = '_';
  return c;
}

/* `#line` to a line of the user's file (at the start of an output line). */
static void line_user(cg *g, unsigned line) {
  g->self_pending = 0; /* this one maps the lines that follow */
  sb_printf(g->out, "#line %u %s\n", line, cg_quoted(g, g->prog->file));
  g->out_lines++;
}

/* `#line` back to the output file itself: written with the next line of
 * text, not at all when a `#line` to the user's file comes first (its
 * lines would be no line of the output). */
static void line_self(cg *g) { g->self_pending = 1; }

void cg_flush_self(cg *g) {
  if (!g->self_pending)
    return;
  g->self_pending = 0;
  sb_printf(g->out, "#line %d %s\n", g->out_lines + 2, cg_quoted(g, g->out_name));
  g->out_lines++;
}

void cg_put(cg *g, const char *text) { puts_(g, text); }
void cg_line_user(cg *g, unsigned line) { line_user(g, line); }
void cg_line_self(cg *g) { line_self(g); }

void cg_putn(cg *g, const char *text, size_t n) { put(g, text, n); }

void cg_line_user_next(cg *g, unsigned line) {
  puts_(g, "\n");
  puts_(g, arena_printf(g->arena, "#line %u %s", line, cg_quoted(g, g->prog->file)));
}

const char *cg_comment_safe(cg *g, const char *s) { return comment_safe(g, s); }
