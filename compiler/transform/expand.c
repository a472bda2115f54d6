/*
 * expand.c — unrolled loops and calls seen through, written out (see
 * expand.h): the pieces to write instead of the user's text (edits) are
 * collected, sorted, and written between copies of the text.
 */
#include "transform/expand.h"

#include <string.h>

#include "frontend/cursor.h"
#include "transform/inline.h"
#include "transform/version.h"
#include "transform/writer.h"
#include "util/text.h"

/* ---- which loops ------------------------------------------------------------ */

int expand_names(const char *s, const char *end, const char *w) {
  size_t n = strlen(w);
  for (const char *p = s; (p = strstr(p, w)) && p + n <= end; p += n) {
    if ((p > s && text_ident_char(p[-1])) || text_ident_char(p[n]))
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
  if (expand_names(prog->text + li->r->loc.offset, prog->text + li->r->end, li->var))
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
  int n = program_loops_in(prog, l->start, l->end);
  if (n > UNROLL_LOOPS)
    return arena_printf(a, "its body runs %d par_loops (the budget of a loop unrolled, "
                        "UNROLL_LOOPS, is %d)", n, UNROLL_LOOPS);
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
static loop_info_list unrolled(const program *prog, const loop_info_list *loops, arena *a) {
  loop_info_list v = {0};
  for (int i = 0; i < loops->len; i++) {
    const loop_info *li = loops->items[i];
    int holds = 0;
    for (int k = 0; k < loops->len && !holds; k++)
      holds = candidate(loops->items[k], prog, a) && inside(loops->items[k], li);
    if (candidate(li, prog, a) && !holds) {
      int at = v.len;
      vec_push(a, &v, (loop_info *)li);
      for (; at > 0 && ((const loop_info *)v.items[at - 1])->r->loop->start > li->r->loop->start;
           at--)
        v.items[at] = v.items[at - 1];
      v.items[at] = (loop_info *)li;
    }
  }
  return v;
}

/* ---- writing ------------------------------------------------------------------ */

static void add_note(arena *a, expand_note_list *notes, unsigned line, int done, int call, const char *text) {
  expand_note *n = arena_alloc(a, sizeof *n);
  *n = (expand_note){line, done, call, text};
  vec_push(a, notes, n);
}

/* The site of the analysed loop li. */
static unroll_site *site_of(const loop_info *li, arena *a) {
  const loop_stmt *l = li->r->loop;
  unroll_site *u = arena_alloc(a, sizeof *u);
  *u = (unroll_site){l->start, l->end, li->r->loc.offset, li->r->end, l->what, l->loc.line,
                     li->var, li->trip, li->first, li->step};
  return u;
}

static void unroll(writer *w, const unroll_site *u) {
  const program *prog = w->prog;
  writer_puts(w, arena_printf(w->a, "/* loomc: the %s of line %u unrolled: %ld iterations */\n",
                              u->what, u->line, u->trip));
  for (long c = 0; c < u->trip; c++) {
    writer_line_at(w, program_line(prog, u->open), writer_column(prog, u->start));
    writer_puts(w, arena_printf(w->a, "/* %s = %ld */", u->var, u->first + c * u->step));
    writer_copy(w, u->open + 1, u->close);
    writer_puts(w, "\n");
  }
  writer_line_at(w, program_line(prog, u->end - 1), writer_column(prog, u->end - 1) + 1);
}

/* A piece written instead of the text [start, end): an unrolled loop, a
 * call seen through, a body written twice, or (start == end) the attribute that keeps the C
 * compiler quiet about a static function whose calls are all seen through. */
typedef struct piece {
  unsigned start, end;
  const unroll_site *loop;
  const call_site *call;
  const version_site *version;
} piece;

/* Adds the piece in order of its start (an attribute only once). */
static void add_piece(arena *a, vec *v, piece x) {
  int attribute = !x.loop && !x.call && !x.version;
  for (int i = 0; i < v->len && attribute; i++) {
    const piece *p = v->items[i];
    if (p->start == x.start && p->end == x.end)
      return; /* that attribute is there already */
  }
  piece *p = arena_alloc(a, sizeof *p);
  *p = x;
  int at = v->len;
  vec_push(a, v, p);
  for (; at > 0 && ((const piece *)v->items[at - 1])->start > x.start; at--)
    v->items[at] = v->items[at - 1];
  v->items[at] = p;
}

static void unrolled_notes(const unroll_site_list *todo, expansion *x, arena *a) {
  for (int i = 0; i < todo->len; i++) {
    const unroll_site *u = todo->items[i];
    add_note(a, &x->notes, u->line, 1, 0,
             arena_printf(a, "unrolled the %s at line %u: its %ld iterations written out "
                          "here, so that their loops stand in this block, where they may "
                          "fuse and rotate with its loops", u->what, u->line, u->trip));
  }
}

static void unroll_notes(const program *prog, const loop_info_list *loops,
                         const unroll_site_list *todo, expansion *x, arena *a) {
  for (int i = 0; i < loops->len; i++) {
    const loop_info *li = loops->items[i];
    const char *why = unroll_problem(li, prog, a);
    if (why && *why)
      add_note(a, &x->notes, li->r->loop->loc.line, 0, 0, arena_printf(a, "not unrolled: %s", why));
  }
  unrolled_notes(todo, x, a);
}

/* What marks a static function whose calls are all seen through. */
#define UNUSED "__attribute__((unused)) "

/* Whether [start, end) lies inside a loop being unrolled: the call is then
 * seen through in the next round, once per copy. */
static int in_unrolled(const unroll_site_list *todo, unsigned start, unsigned end) {
  for (int i = 0; i < todo->len; i++) {
    const unroll_site *u = todo->items[i];
    if (start >= u->start && end <= u->end)
      return 1;
  }
  return 0;
}

static void call_pieces(const frontend *fe, const program *prog, const unroll_site_list *todo,
                        vec *pieces,
                        expansion *x, arena *a) {
  call_site_list calls = inline_calls(fe, prog, a);
  for (int i = 0; i < calls.len; i++) {
    const call_site *c = calls.items[i];
    unsigned start, end;
    call_site_range(c, &start, &end);
    const char *why = call_site_why(c);
    if (why) {
      add_note(a, &x->notes, call_site_line(c), 0, 1,
               arena_printf(a, "did not see through the call of %s: %s", call_site_callee(c), why));
      continue;
    }
    if (in_unrolled(todo, start, end))
      continue;
    add_note(a, &x->notes, call_site_line(c), 1, 1,
             arena_printf(a, "saw through the call of %s: its loops stand in this block, where "
                          "they may fuse with its loops and share its exchanges",
                          call_site_callee(c)));
    add_piece(a, pieces, (piece){.start = start, .end = end, .call = c});
    unsigned def = call_site_static_def(c);
    if (def && strncmp(prog->text + def, UNUSED, sizeof UNUSED - 1) != 0) /* not already */
      add_piece(a, pieces, (piece){.start = def, .end = def});
  }
}

/* Bodies written twice (version.h); round: NULL, or the other edits of
 * the round (only the bodies it leaves alone). */
static void version_pieces(const frontend *fe, const program *prog, const dag_list *dags,
                           const version_round *round, vec *pieces, expansion *x, arena *a) {
  version_site_list sites = version_sites(fe, prog, dags, round, a);
  for (int i = 0; i < sites.len; i++) {
    const version_site *v = sites.items[i];
    const char *why = version_why(v);
    add_note(a, &x->notes, version_line(v), !why, 1,
             why ? arena_printf(a, "did not write the body of %s twice (%s may be one dat): %s",
                                version_func(v), version_handles(v, a), why)
                 : arena_printf(a, "wrote the body of %s twice: the first copy, for %s distinct "
                                "(tested each time it runs), treats them as distinct dats",
                                version_func(v), version_handles(v, a)));
    if (why)
      continue;
    unsigned start, end;
    version_range(v, &start, &end);
    add_piece(a, pieces, (piece){.start = start, .end = end, .version = v});
  }
}

static void write_piece(writer *w, const piece *p) {
  if (p->version)
    version_write(w, p->version);
  else if (p->loop)
    unroll(w, p->loop);
  else if (p->call)
    inline_write(w, p->call);
  else
    writer_puts(w, UNUSED);
}

/* The text of prog with the pieces written instead of theirs, into x. */
static expansion *write_pieces(const program *prog, const vec *pieces, expansion *x, arena *a) {
  if (!pieces->len)
    return x;
  writer w;
  writer_init(&w, prog, a);
  unsigned pos = 0;
  for (int i = 0; i < pieces->len; i++) {
    const piece *p = pieces->items[i];
    writer_copy(&w, pos, p->start);
    write_piece(&w, p);
    pos = p->end;
  }
  writer_copy(&w, pos, (unsigned)prog->len);
  writer_finish(&w, &x->text, &x->len, &x->lines, &x->nlines);
  return x;
}

static void unroll_pieces(const unroll_site_list *todo, vec *pieces, arena *a) {
  for (int i = 0; i < todo->len; i++) {
    const unroll_site *u = todo->items[i];
    add_piece(a, pieces, (piece){.start = u->start, .end = u->end, .loop = u});
  }
}

/* x with the pieces and the bodies written twice that they leave alone
 * (version.h's round): decided on this analysis, they cost no round of
 * their own. */
static expansion *with_versions(const frontend *fe, const program *prog, const dag_list *dags,
                                vec *pieces, expansion *x, arena *a) {
  if (!pieces->len) {
    version_pieces(fe, prog, dags, NULL, pieces, x, a);
    return write_pieces(prog, pieces, x, a);
  }
  expansion others = {0};
  write_pieces(prog, pieces, &others, a);
  unsigned *edits = arena_alloc(a, (size_t)pieces->len * sizeof *edits);
  for (int i = 0; i < pieces->len; i++)
    edits[i] = ((const piece *)pieces->items[i])->start;
  version_round round = {others.text, edits, pieces->len};
  int before = pieces->len;
  version_pieces(fe, prog, dags, &round, pieces, x, a);
  if (pieces->len == before) {
    *x = (expansion){others.text, others.len, others.lines, others.nlines, x->notes, NULL};
    return x;
  }
  return write_pieces(prog, pieces, x, a);
}

expansion *expand(const frontend *fe, const program *prog, const loop_info_list *loops,
                  const dag_list *dags,
                  int what, arena *a) {
  expansion *x = arena_alloc(a, sizeof *x);
  loop_info_list chosen = (what & EXPAND_UNROLL) ? unrolled(prog, loops, a) : (loop_info_list){0};
  unroll_site_list todo = {0};
  for (int i = 0; i < chosen.len; i++)
    vec_push(a, &todo, site_of(chosen.items[i], a));
  vec pieces = {0};
  if (what & EXPAND_UNROLL)
    unroll_notes(prog, loops, &todo, x, a);
  unroll_pieces(&todo, &pieces, a);
  if (what & EXPAND_INLINE)
    call_pieces(fe, prog, &todo, &pieces, x, a);
  if (what & EXPAND_VERSION)
    return with_versions(fe, prog, dags, &pieces, x, a);
  vec *kept = arena_alloc(a, sizeof *kept);
  *kept = pieces;
  x->pieces = kept;
  return write_pieces(prog, &pieces, x, a);
}

expansion *expand_versions(const frontend *fe, const program *prog, const dag_list *dags,
                           const expansion *x, arena *a) {
  expansion *y = arena_alloc(a, sizeof *y);
  for (int i = 0; i < x->notes.len; i++)
    vec_push(a, &y->notes, x->notes.items[i]);
  vec pieces = {0};
  const vec *had = x->pieces;
  for (int i = 0; had && i < had->len; i++)
    vec_push(a, &pieces, had->items[i]);
  return with_versions(fe, prog, dags, &pieces, y, a);
}

expansion *expand_unrolled(const program *prog, const unroll_site_list *sites, arena *a) {
  expansion *x = arena_alloc(a, sizeof *x);
  vec pieces = {0};
  unrolled_notes(sites, x, a);
  unroll_pieces(sites, &pieces, a);
  return write_pieces(prog, &pieces, x, a);
}

static int seen(const expand_note_list *notes, int upto, const expand_note *n) {
  for (int i = 0; i < upto; i++) {
    const expand_note *m = notes->items[i];
    if (m->line == n->line && strcmp(m->text, n->text) == 0)
      return 1;
  }
  return 0;
}

void expand_notes(const expand_note_list *notes, int from, dag_list *dags, int expanded,
                  arena *a) {
  for (int i = from; i < notes->len; i++) {
    const expand_note *n = notes->items[i];
    dag *best = NULL;
    if ((n->done && !expanded) || seen(notes, i, n))
      continue;
    for (int r = 0; r < dags->len; r++) {
      dag *d = dags->items[r];
      const region *reg = d->r;
      if (!n->done && !n->call && reg->loop && reg->loop->loc.line == n->line) {
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
