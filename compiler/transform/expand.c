/*
 * expand.c — unrolled loops, written out (see expand.h).
 *
 * The writer copies the user's text and writes its own; it counts the
 * lines it writes and knows, for each, the user's line: a copied line is
 * its own, a line after `#line N` is N, N + 1 ...
 */
#include "transform/expand.h"

#include <string.h>

#include "frontend/cursor.h"
#include "util/strbuf.h"

typedef struct writer {
  const program *prog;
  arena *a;
  strbuf out;
  vec lines;         /* the user's line of each line written (as void*) */
  unsigned presumed; /* ... of the line being written */
} writer;

static void put(writer *w, const char *s, size_t n) {
  sb_putn(&w->out, s, n);
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n')
      vec_push(w->a, &w->lines, (void *)(unsigned long)w->presumed++);
}

static void puts_(writer *w, const char *s) { put(w, s, strlen(s)); }

/* The user's text [from, to): its lines are the user's. */
static void copy(writer *w, unsigned from, unsigned to) {
  w->presumed = program_line(w->prog, from);
  put(w, w->prog->text + from, to - from);
}

/* `#line N "FILE"` on a line of its own, then blanks up to column col. */
static void line_at(writer *w, unsigned line, unsigned col) {
  const char *f = w->prog->file;
  puts_(w, "#line ");
  puts_(w, arena_printf(w->a, "%u \"", line));
  for (; *f; f++) {
    if (*f == '"' || *f == '\\')
      puts_(w, "\\");
    put(w, f, 1);
  }
  puts_(w, "\"\n");
  w->presumed = line;
  for (unsigned c = 1; c < col; c++)
    puts_(w, " ");
}

static unsigned column(const program *prog, unsigned off) {
  unsigned c = 1;
  while (off > 0 && prog->text[off - 1] != '\n')
    off--, c++;
  return c;
}

/* ---- which loops ------------------------------------------------------------ */

static int ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether the word w stands in the text [s, end) as an identifier (not a
 * member: after `.` or `->`). */
static int names(const char *s, const char *end, const char *w) {
  size_t n = strlen(w);
  for (const char *p = s; (p = strstr(p, w)) && p + n <= end; p += n) {
    if ((p > s && ident_char(p[-1])) || ident_char(p[n]))
      continue;
    const char *q = p;
    while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
    if (!(q > s && q[-1] == '.') && !(q > s + 1 && q[-1] == '>' && q[-2] == '-'))
      return 1;
  }
  return 0;
}

static enum CXChildVisitResult find_decl(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_DeclStmt) {
    *(int *)data = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* Why li's iterations cannot be written out one after the other in the
 * block that holds the loop, or NULL: a barrier, a declaration (the
 * copies would declare it twice), or a use of the loop's variable. */
static const char *body_problem(const loop_info *li, const program *prog) {
  for (int i = 0; i < li->r->items.len; i++)
    if (((const item *)li->r->items.items[i])->leaves)
      return "its body has a barrier";
  CXCursor stmt = li->r->loop->stmt;
  CXCursor body = clang_getCursorKind(stmt) == CXCursor_DoStmt ? cursor_first_child(stmt)
                                                                : cursor_last_child(stmt);
  int decl = 0;
  clang_visitChildren(body, find_decl, &decl);
  if (decl)
    return "its body declares something";
  if (names(prog->text + li->r->loc.offset, prog->text + li->r->end, li->var))
    return "its body uses its variable";
  return NULL;
}

/* Why li is not unrolled ("" when it is not even a candidate: no constant
 * trip count, not in the body of another loop), or NULL: it may be. */
static const char *unroll_problem(const loop_info *li, const program *prog, arena *a) {
  const loop_stmt *l = li->r->loop;
  if (li->trip < 1 || !l->parent || !l->parent->loop)
    return "";
  if (li->trip > UNROLL_MAX)
    return arena_printf(a, "%ld iterations (at most %d are)", li->trip, UNROLL_MAX);
  if (!li->type)
    return "its initialisation does not declare its variable";
  return body_problem(li, prog);
}

static int candidate(const loop_info *li, const program *prog, arena *a) {
  return !unroll_problem(li, prog, a);
}

/* Whether the statement of b lies inside the statement of a. */
static int inside(const loop_info *b, const loop_info *a) {
  return b != a && b->r->loop->start >= a->r->loop->start && b->r->loop->end <= a->r->loop->end;
}

/* The loops to unroll, in text order: candidates holding no candidate. */
static vec unrolled(const program *prog, const vec *loops, arena *a) {
  vec v = {0};
  for (int i = 0; i < loops->len; i++) {
    const loop_info *li = loops->items[i];
    int holds = 0;
    for (int k = 0; k < loops->len && !holds; k++)
      holds = candidate(loops->items[k], prog, a) && inside(loops->items[k], li);
    if (candidate(li, prog, a) && !holds) {
      int at = v.len;
      vec_push(a, &v, (void *)li);
      for (; at > 0 && ((const loop_info *)v.items[at - 1])->r->loop->start > li->r->loop->start;
           at--)
        v.items[at] = v.items[at - 1];
      v.items[at] = (void *)li;
    }
  }
  return v;
}

/* ---- writing ------------------------------------------------------------------ */

static void add_note(arena *a, vec *notes, const loop_info *li, int unrolled, const char *text) {
  expand_note *n = arena_alloc(a, sizeof *n);
  n->line = li->r->loop->loc.line;
  n->unrolled = unrolled;
  n->text = text;
  vec_push(a, notes, n);
}

static void unroll(writer *w, const loop_info *li, vec *notes) {
  const loop_stmt *l = li->r->loop;
  const program *prog = w->prog;
  unsigned open = li->r->loc.offset, close = li->r->end;
  add_note(w->a, notes, li, 1, arena_printf(w->a, "unrolled the %s at line %u: its %ld iterations "
                                            "written out here, so that their loops stand in "
                                            "this block, where they may fuse and rotate with "
                                            "its loops", l->what, l->loc.line, li->trip));
  puts_(w, arena_printf(w->a, "/* loomc: the %s of line %u unrolled: %ld iterations */\n",
                        l->what, l->loc.line, li->trip));
  for (long c = 0; c < li->trip; c++) {
    line_at(w, program_line(prog, open), column(prog, l->start));
    puts_(w, arena_printf(w->a, "/* %s = %ld */", li->var, li->first + c * li->step));
    w->presumed = program_line(prog, open);
    put(w, prog->text + open + 1, close - open - 1);
    puts_(w, "\n");
  }
  line_at(w, program_line(prog, l->end - 1), column(prog, l->end - 1) + 1);
}

expansion *expand(const program *prog, const vec *loops, arena *a) {
  expansion *x = arena_alloc(a, sizeof *x);
  for (int i = 0; i < loops->len; i++) {
    const loop_info *li = loops->items[i];
    const char *why = unroll_problem(li, prog, a);
    if (why && *why)
      add_note(a, &x->notes, li, 0, arena_printf(a, "not unrolled: %s", why));
  }
  vec todo = unrolled(prog, loops, a);
  if (!todo.len)
    return x;
  writer w = {prog, a, {0}, {0}, 1};
  sb_init(&w.out);
  unsigned pos = 0;
  for (int i = 0; i < todo.len; i++) {
    const loop_info *li = todo.items[i];
    copy(&w, pos, li->r->loop->start);
    unroll(&w, li, &x->notes);
    pos = li->r->loop->end;
  }
  copy(&w, pos, (unsigned)prog->len);
  vec_push(a, &w.lines, (void *)(unsigned long)w.presumed); /* the last line */
  x->text = arena_strndup(a, w.out.data, w.out.len);
  x->len = w.out.len;
  sb_free(&w.out);
  x->nlines = w.lines.len;
  x->lines = arena_alloc(a, (size_t)x->nlines * sizeof *x->lines);
  for (int i = 0; i < x->nlines; i++)
    x->lines[i] = (unsigned)(unsigned long)w.lines.items[i];
  return x;
}

void expand_notes(const expansion *x, vec *dags, int unrolled, arena *a) {
  for (int i = 0; i < x->notes.len; i++) {
    const expand_note *n = x->notes.items[i];
    dag *best = NULL;
    if (n->unrolled && !unrolled)
      continue;
    for (int r = 0; r < dags->len; r++) {
      dag *d = dags->items[r];
      const region *reg = d->r;
      if (!n->unrolled && reg->loop && reg->loop->loc.line == n->line) {
        best = d; /* a loop not unrolled: its body's */
        break;
      }
      if (reg->loc.line <= n->line && n->line <= reg->end_line &&
          (!best || reg->depth > best->r->depth))
        best = d;
    }
    if (best)
      dag_note(best, a, (srcloc){best->r->loc.file, n->line, 0, 0}, "%s", n->text);
  }
}
