/*
 * prescan.c — loops to unroll, read off the syntax (see prescan.h).
 *
 * The directives are found by a scan of the text that skips comments
 * and literals (the single-file parse hides them from the cursors); the
 * loops by a walk of the cursors of each function that holds a par_loop,
 * into the statements that hold one.
 */
#include "transform/prescan.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/loops.h"
#include "frontend/cursor.h"
#include "frontend/tokens.h"
#include "util/text.h"

/* ---- directives ---------------------------------------------------------------- */

typedef enum { DIR_PAR_LOOP, DIR_CONDITIONAL, DIR_OTHER } dir_kind;

/* How a conditional directive nests: #if, #ifdef, #ifndef open a block,
 * #endif closes one, #elif and #else do neither. */
typedef enum { NEST_NONE, NEST_OPEN, NEST_CLOSE } nest;

typedef struct dir {
  unsigned at; /* the offset of its '#' */
  dir_kind kind;
  nest nest;
} dir;

typedef LIST(dir) dir_list;

typedef struct scan {
  const syntax *sx;
  dir_list dirs; /* in text order */
  unroll_site_list sites;
  int undecided; /* the syntax cannot tell */
  arena *a;
} scan;

/* The offset after blanks (spaces and tabs) and line continuations. */
static size_t blanks(const char *s, size_t n, size_t i) {
  for (;;) {
    if (i < n && (s[i] == ' ' || s[i] == '\t'))
      i++;
    else if (i + 1 < n && s[i] == '\\' && s[i + 1] == '\n')
      i += 2;
    else
      return i;
  }
}

/* Whether the word w stands at offset *i (then *i is after it and its blanks). */
static int word(const char *s, size_t n, size_t *i, const char *w) {
  size_t k = strlen(w);
  if (*i + k > n || memcmp(s + *i, w, k) != 0 || (*i + k < n && text_ident_char(s[*i + k])))
    return 0;
  *i = blanks(s, n, *i + k);
  return 1;
}

static dir dir_at(const char *s, size_t n, size_t i) {
  dir d = {(unsigned)i, DIR_OTHER, NEST_NONE};
  i = blanks(s, n, i + 1);
  if (word(s, n, &i, "pragma")) {
    if (word(s, n, &i, "loom") && word(s, n, &i, "par_loop"))
      d.kind = DIR_PAR_LOOP;
    return d;
  }
  static const char *const conditionals[] = {"if", "ifdef", "ifndef", "elif", "else", "endif", NULL};
  for (int c = 0; conditionals[c]; c++)
    if (word(s, n, &i, conditionals[c])) {
      d.kind = DIR_CONDITIONAL;
      d.nest = c < 3 ? NEST_OPEN : c == 5 ? NEST_CLOSE : NEST_NONE;
      break;
    }
  return d;
}

/* The offset after the comment or literal at i (which starts one), or i. */
static size_t skip_token(const char *s, size_t n, size_t i) {
  if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
    const char *e = i + 2 < n ? strstr(s + i + 2, "*/") : NULL;
    return e && (size_t)(e - s) + 2 <= n ? (size_t)(e - s) + 2 : n;
  }
  if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
    for (i += 2; i < n && !(s[i] == '\n' && s[i - 1] != '\\'); i++)
      ;
    return i;
  }
  if (s[i] == '"' || s[i] == '\'') {
    char q = s[i];
    for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
      if (s[i] == '\\' && i + 1 < n)
        i++;
    return i < n ? i + 1 : n;
  }
  return i;
}

/* The directives of the text, in order. */
static void find_directives(scan *sc) {
  const char *s = sc->sx->text;
  size_t n = sc->sx->len, i = 0;
  int line_start = 1, in_directive = 0;
  while (i < n) {
    size_t j = skip_token(s, n, i);
    if (j != i) {
      i = j;
      continue;
    }
    char c = s[i];
    if (c == '\n') {
      line_start = 1;
      in_directive = in_directive && i > 0 && s[i - 1] == '\\';
    } else if (c == '#' && line_start && !in_directive) {
      vec_push(sc->a, &sc->dirs, dir_at(s, n, i));
      in_directive = 1;
      line_start = 0;
    } else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
      line_start = 0;
    }
    i++;
  }
}

/* The index of the first directive at or after off. */
static int first_dir(const scan *sc, unsigned off) {
  int lo = 0, hi = sc->dirs.len;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (sc->dirs.items[mid].at < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* How many directives of kind k lie in [start, end); *others: how many
 * of other kinds. */
static int dirs_in(const scan *sc, unsigned start, unsigned end, dir_kind k, int *others) {
  int n = 0;
  *others = 0;
  for (int i = first_dir(sc, start); i < sc->dirs.len && sc->dirs.items[i].at < end; i++) {
    if (sc->dirs.items[i].kind == k)
      n++;
    else
      (*others)++;
  }
  return n;
}

/* Whether offset off lies inside a conditional block (#if ... #endif). */
static int in_conditional(const scan *sc, unsigned off) {
  int depth = 0;
  for (int i = 0; i < sc->dirs.len && sc->dirs.items[i].at < off; i++)
    depth += (sc->dirs.items[i].nest == NEST_OPEN) - (sc->dirs.items[i].nest == NEST_CLOSE);
  return depth > 0;
}

/* ---- the loops ----------------------------------------------------------------- */

static void extent(CXCursor c, unsigned *start, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, start);
  clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, end);
}

static int in_main(const scan *sc, CXCursor c) {
  CXFile f;
  clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, sc->sx->file);
}

static int holds_loops(const scan *sc, CXCursor c) {
  unsigned start, end;
  int others;
  extent(c, &start, &end);
  return dirs_in(sc, start, end, DIR_PAR_LOOP, &others) > 0;
}

static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

/* The body of a loop statement. */
static CXCursor body_of(CXCursor loop) {
  return clang_getCursorKind(loop) == CXCursor_DoStmt ? cursor_first_child(loop)
                                                       : cursor_last_child(loop);
}

/* What a loop's body must not hold (prescan.h). */
static enum CXChildVisitResult find_unsafe(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CallExpr:
  case CXCursor_DeclStmt:
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
  case CXCursor_SwitchStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
  case CXCursor_ReturnStmt:
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
  case CXCursor_LabelStmt:
  case CXCursor_BreakStmt:
  case CXCursor_ContinueStmt:
  case CXCursor_AsmStmt:
  case CXCursor_MSAsmStmt:
  case CXCursor_UnexposedStmt:
  case CXCursor_StmtExpr:
    *(int *)data = 1;
    return CXChildVisit_Break;
  default:
    return CXChildVisit_Recurse;
  }
}

/* ---- the header: for (TYPE v = A; v OP B; STEP) ----------------------------- */

static int is(const tok_list *h, int i, const char *s) { return tok_is(tok_at(h, i), s); }

static int kind_is(const tok_list *h, int i, CXTokenKind k) {
  const tok *t = tok_at(h, i);
  return t && t->kind == k;
}

enum { BIG = 1 << 30 };

/* The header's variable, first value, step and trip count into u, read
 * as analysis/loops.c reads them; 0 when it is not of the form. */
static int read_header(const tok_list *h, unroll_site *u) {
  int semi[3], ns = 0, depth = 0;
  if (!is(h, 0, "for") || !is(h, 1, "(") || !is(h, h->len - 1, ")"))
    return 0;
  for (int i = 1; i < h->len && ns < 3; i++) {
    depth += is(h, i, "(") - is(h, i, ")");
    if (depth == 1 && is(h, i, ";"))
      semi[ns++] = i;
  }
  if (ns != 2)
    return 0;
  /* init: TYPE... v = A (tokens 2 .. semi[0]) */
  int eq = semi[0] - 2, ok = 1;
  if (eq < 4 || !is(h, eq, "=") || !kind_is(h, eq - 1, CXToken_Identifier))
    return 0;
  for (int i = 2; i < eq - 1; i++)
    if (!kind_is(h, i, CXToken_Keyword) && !kind_is(h, i, CXToken_Identifier))
      return 0;
  const char *v = tok_at(h, eq - 1)->text, *op = tok_at(h, semi[0] + 2)->text;
  long first = loops_literal(tok_at(h, eq + 1), &ok);
  /* cond: v OP B; step */
  long bound = loops_literal(tok_at(h, semi[0] + 3), &ok);
  long step = loops_step(h, semi[1] + 1, h->len - 1, v);
  if (!ok || semi[1] != semi[0] + 4 || !is(h, semi[0] + 1, v) || !step ||
      labs(first) > BIG || labs(bound) > BIG || labs(step) > BIG)
    return 0; /* (counts near LONG_MAX would overflow the trip count) */
  u->var = v;
  u->first = first;
  u->step = step;
  u->trip = loops_trip_count(first, bound, step, op);
  return u->trip >= 1 && u->trip <= UNROLL_MAX;
}

/* The tokens of [start, end) of the main file. */
static tok_list tokens(const scan *sc, unsigned start, unsigned end) {
  CXTranslationUnit tu = sc->sx->tu;
  CXSourceRange r = clang_getRange(clang_getLocationForOffset(tu, sc->sx->file, start),
                                   clang_getLocationForOffset(tu, sc->sx->file, end));
  CXToken *toks;
  unsigned n;
  tok_list v = {0};
  clang_tokenize(tu, r, &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    unsigned off;
    clang_getFileLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
    if (off >= end) /* the token at the range's end (the body's `{`) */
      break;
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    tok *t = arena_alloc(sc->a, sizeof *t);
    t->kind = clang_getTokenKind(toks[i]);
    t->text = arena_strdup(sc->a, clang_getCString(sp));
    t->start = off;
    t->end = off + (unsigned)strlen(t->text);
    vec_push(sc->a, &v, t);
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, toks, n);
  return v;
}

/* ---- the walk ------------------------------------------------------------------ */

/* Loop s, an item of another loop's body, as a site; NULL when it is not
 * one the analysis surely unrolls. */
static unroll_site *site(scan *sc, CXCursor s) {
  CXCursor body = body_of(s);
  unsigned start, end, open, close;
  int others, unsafe = 0;
  extent(s, &start, &end);
  extent(body, &open, &close);
  if (clang_getCursorKind(s) != CXCursor_ForStmt ||
      clang_getCursorKind(body) != CXCursor_CompoundStmt || close <= open || close > sc->sx->len ||
      sc->sx->text[close - 1] != '}' || !syntax_trusted(sc->sx, start, end))
    return NULL;
  int n = dirs_in(sc, start, end, DIR_PAR_LOOP, &others);
  if (n < 1 || n > UNROLL_LOOPS || others)
    return NULL;
  clang_visitChildren(body, find_unsafe, &unsafe);
  tok_list h = unsafe ? (tok_list){0} : tokens(sc, start, open);
  unroll_site *u = arena_alloc(sc->a, sizeof *u);
  if (unsafe || !read_header(&h, u) ||
      expand_names(sc->sx->text + open, sc->sx->text + close - 1, u->var))
    return NULL;
  u->start = start;
  u->end = end;
  u->open = open;
  u->close = close - 1;
  u->what = "for";
  clang_getFileLocation(clang_getCursorLocation(s), NULL, &u->line, NULL, NULL);
  return u;
}

typedef struct frame {
  enum CXCursorKind kind;
  CXCursor cursor;
  const struct frame *up;
} frame;

typedef struct walk {
  scan *sc;
  const frame *at; /* the parent's frame */
} walk;

/* Whether a statement whose parent frame is f is an item of a loop's body
 * region: its parent a compound statement, the body of a loop that is
 * itself an item of a compound statement. */
static int in_loop_body(const frame *f) {
  return f && f->kind == CXCursor_CompoundStmt && f->up && is_loop(f->up->kind) &&
         clang_equalCursors(body_of(f->up->cursor), f->cursor) && f->up->up &&
         f->up->up->kind == CXCursor_CompoundStmt;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walk *w = data;
  scan *sc = w->sc;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (sc->undecided)
    return CXChildVisit_Break;
  if (!holds_loops(sc, c))
    return CXChildVisit_Continue;
  if (is_loop(k) && in_loop_body(w->at)) {
    unroll_site *u = site(sc, c);
    if (u)
      vec_push(sc->a, &sc->sites, u);
    else
      sc->undecided = 1;
    return CXChildVisit_Continue;
  }
  frame f = {k, c, w->at};
  walk inner = {sc, &f};
  clang_visitChildren(c, visit, &inner);
  return CXChildVisit_Continue;
}

/* A function definition of the main file that holds par_loops: walked,
 * when it has no conditional directive and stands in no conditional
 * block (the single-file parse reads every branch of one whose condition
 * names a macro it does not know). */
static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  scan *sc = data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
      !in_main(sc, c) || !holds_loops(sc, c))
    return CXChildVisit_Continue;
  unsigned start, end;
  int others;
  extent(c, &start, &end);
  if (dirs_in(sc, start, end, DIR_CONDITIONAL, &others) > 0 || in_conditional(sc, start)) {
    sc->undecided = 1;
    return CXChildVisit_Break;
  }
  frame f = {CXCursor_FunctionDecl, c, NULL};
  walk w = {sc, &f};
  clang_visitChildren(c, visit, &w);
  return sc->undecided ? CXChildVisit_Break : CXChildVisit_Continue;
}

unroll_site_list prescan(const syntax *sx, arena *a) {
  scan sc = {sx, {0}, {0}, 0, a};
  find_directives(&sc);
  clang_visitChildren(clang_getTranslationUnitCursor(sx->tu), visit_top, &sc);
  if (sc.undecided)
    return (unroll_site_list){0};
  return sc.sites;
}

/* Whether [p, end) reads `NAME OP NUMBER` between blanks (1), cannot be
 * read so simply (1: a comment, a splice), or reads otherwise (0). */
static int bound_condition(const char *p, const char *end) {
  for (const char *q = p; q < end; q++)
    if (*q == '/' || *q == '\\')
      return 1;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  if (p == end || !text_ident_char(*p) || (*p >= '0' && *p <= '9'))
    return 0;
  while (p < end && text_ident_char(*p))
    p++;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  if (p == end || (*p != '<' && *p != '>'))
    return 0;
  p += p + 1 < end && p[1] == '=' ? 2 : 1;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p < end && *p >= '0' && *p <= '9';
}

int prescan_worth(const char *s, size_t n) {
  const char *end = s + n;
  for (const char *p = s; (p = memchr(p, 'f', (size_t)(end - p))); p++) {
    if (end - p < 3 || memcmp(p, "for", 3) != 0 || (p > s && text_ident_char(p[-1])) ||
        (end - p > 3 && text_ident_char(p[3])))
      continue;
    const char *a = memchr(p, ';', (size_t)(end - p));
    const char *b = a ? memchr(a + 1, ';', (size_t)(end - a - 1)) : NULL;
    if (b && bound_condition(a + 1, b))
      return 1;
  }
  return 0;
}