/*
 * lanes.c — a kernel's text and its parameters' uses (see lanes.h).
 *
 * The uses are found on the AST (an ArraySubscriptExpr or a `*` whose
 * operand names a parameter) and checked on the text: a use must read
 * `p [ ... ]` or `* p` where the AST puts it, which a use made by a macro
 * does not.  (check.c counts the same uses per parameter and path, for
 * staging; this walk keeps where each one is, for the copy.)
 */
#include "frontend/lanes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cursor.h"
#include "frontend/cwalk.h"

typedef struct lane_walk {
  const frontend *fe;
  CXCursor def;
  const char *file_text; /* the whole file the definition is in */
  unsigned from, to;     /* the copied text: after the name, to the end */
  vec uses;              /* kernel_use*, offsets into the file */
  const char *why;       /* the first reason the kernel does not qualify */
  arena *a;
} lane_walk;

/* The parameter c names (stripped of parentheses and conversions), or -1. */
static int param_of(const lane_walk *w, CXCursor c) {
  c = cursor_strip_expr(c);
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
    return -1;
  CXCursor ref = clang_getCursorReferenced(c);
  int n = clang_Cursor_getNumArguments(w->def);
  for (int i = 0; i < n; i++)
    if (clang_equalCursors(ref, clang_Cursor_getArgument(w->def, (unsigned)i)))
      return i;
  return -1;
}

static const char *param_name(const lane_walk *w, int i) {
  return frontend_spelling(w->fe, clang_Cursor_getArgument(w->def, (unsigned)i));
}

static unsigned skip_space(const lane_walk *w, unsigned at, unsigned end) {
  while (at < end && isspace((unsigned char)w->file_text[at]))
    at++;
  return at;
}

/* Whether the text at [at, end) starts with the identifier `name`, whole. */
static int spells(const lane_walk *w, unsigned at, unsigned end, const char *name) {
  size_t n = strlen(name);
  if (at + n > end || strncmp(w->file_text + at, name, n) != 0)
    return 0;
  char next = at + n < end ? w->file_text[at + n] : ' ';
  return !(isalnum((unsigned char)next) || next == '_');
}

static void refuse(lane_walk *w, const char *why) {
  if (!w->why)
    w->why = why;
}

/* A use of parameter p over c's extent; `deref`: `*p`, else `p[e]`. */
static void add_use(lane_walk *w, CXCursor c, int p, int deref) {
  CXSourceRange ext = clang_getCursorExtent(c);
  unsigned s = frontend_offset(clang_getRangeStart(ext));
  unsigned e = frontend_offset(clang_getRangeEnd(ext));
  const char *name = param_name(w, p);
  kernel_use *u = arena_alloc(w->a, sizeof *u);
  *u = (kernel_use){s, e, p, "0"};
  unsigned at = s;
  int ok = s >= w->from && e <= w->to && s < e;
  if (ok && deref) {
    at = skip_space(w, s + 1, e);
    ok = w->file_text[s] == '*' && spells(w, at, e, name) && at + strlen(name) == e;
  } else if (ok) {
    at = skip_space(w, s + (unsigned)strlen(name), e);
    ok = spells(w, s, e, name) && at < e && w->file_text[at] == '[' &&
         w->file_text[e - 1] == ']';
    if (ok)
      u->subscript = arena_strndup(w->a, w->file_text + at + 1, e - 1 - (at + 1));
  }
  if (!ok) {
    refuse(w, arena_printf(w->a, "its kernel names parameter '%s' through a macro", name));
    return;
  }
  vec_push(w->a, &w->uses, u);
}

/* Whether unary operator c is `&` (a use under it escapes its row). */
static int takes_address(const lane_walk *w, CXCursor c) {
  unsigned s = frontend_offset(clang_getRangeStart(clang_getCursorExtent(c)));
  return s >= w->from && s < w->to && w->file_text[s] == '&';
}

static void walk(lane_walk *w, CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_list kids = cwalk_kids(w->a, c);
  CXCursor first = kids.len ? *(CXCursor *)kids.items[0] : clang_getNullCursor();
  int p = kids.len ? param_of(w, first) : -1;
  if (k == CXCursor_ArraySubscriptExpr && kids.len == 2 && p >= 0) {
    add_use(w, c, p, 0);
    walk(w, *(CXCursor *)kids.items[1]);
    return;
  }
  if (k == CXCursor_UnaryOperator && kids.len == 1 && p >= 0 &&
      cursor_unary_kind(w->fe->tu, c) == 1) {
    add_use(w, c, p, 1);
    return;
  }
  int named = k == CXCursor_DeclRefExpr ? param_of(w, c) : -1;
  if (named >= 0) {
    const char *n = param_name(w, named);
    refuse(w, arena_printf(w->a, "its kernel uses parameter '%s' otherwise than as "
                           "'%s[...]' or '*%s'", n, n, n));
    return;
  }
  int before = w->uses.len;
  for (int i = 0; i < kids.len; i++)
    walk(w, *(CXCursor *)kids.items[i]);
  /* &p[k] would point into a row, and rows of increments become strided */
  if (k == CXCursor_UnaryOperator && takes_address(w, c) && w->uses.len > before)
    refuse(w, "its kernel takes the address of a parameter's element");
}

static int by_start(const void *x, const void *y) {
  const kernel_use *a = *(kernel_use *const *)x, *b = *(kernel_use *const *)y;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* The uses in text order, offsets made relative to w->from. */
static kernel_text *text_of(lane_walk *w, unsigned params_end, srcloc at) {
  if (w->uses.len)
    qsort(w->uses.items, (size_t)w->uses.len, sizeof *w->uses.items, by_start);
  kernel_text *t = arena_alloc(w->a, sizeof *t);
  *t = (kernel_text){arena_strndup(w->a, w->file_text + w->from, w->to - w->from),
                     w->to - w->from, at.file, at.line, params_end - w->from, NULL, 0};
  t->uses = arena_alloc(w->a, sizeof *t->uses * (size_t)(w->uses.len + 1));
  for (int i = 0; i < w->uses.len; i++) {
    kernel_use u = *(kernel_use *)w->uses.items[i];
    if (i > 0 && u.start < t->uses[i - 1].end + w->from)
      return NULL; /* one use inside another's subscript */
    t->uses[i] = u;
    t->uses[i].start -= w->from;
    t->uses[i].end -= w->from;
    t->nuses++;
  }
  return t;
}

/* The offset of the parameter list's ')' before the body at `body`, or 0
 * when anything but blanks stands between them (an attribute, a macro). */
static unsigned params_end(const lane_walk *w, unsigned body) {
  unsigned at = body;
  while (at > w->from && isspace((unsigned char)w->file_text[at - 1]))
    at--;
  return at > w->from && w->file_text[at - 1] == ')' ? at - 1 : 0;
}

/* Where the definition's text is: its file's contents and the copied
 * range; a reason when it is not plainly in a file. */
static const char *locate(lane_walk *w, CXCursor def, unsigned *body) {
  CXFile f, fe;
  unsigned name_off, end_off;
  clang_getFileLocation(clang_getCursorLocation(def), &f, NULL, NULL, &name_off);
  clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(def)), &fe, NULL, NULL,
                        &end_off);
  CXCursor b = cursor_last_child(def);
  if (!f || !fe || !clang_File_isEqual(f, fe) ||
      clang_getCursorKind(b) != CXCursor_CompoundStmt)
    return "its kernel's definition is not spelled in one file";
  size_t len = 0;
  w->file_text = clang_getFileContents(w->fe->tu, f, &len);
  const char *name = frontend_spelling(w->fe, def);
  if (!w->file_text || end_off > len || !spells(w, name_off, end_off, name))
    return "its kernel's name is made by a macro";
  w->from = name_off + (unsigned)strlen(name);
  w->to = end_off;
  for (unsigned i = w->from; i + 1 < w->to; i++)
    if (w->file_text[i] == '\n' && w->file_text[skip_space(w, i + 1, w->to)] == '#')
      return "its kernel's body holds a preprocessor line";
  *body = frontend_offset(clang_getRangeStart(clang_getCursorExtent(b)));
  return NULL;
}

const kernel_text *lanes_of(const frontend *fe, CXCursor def, const char **why, arena *a) {
  lane_walk w = {fe, def, NULL, 0, 0, {0}, NULL, a};
  unsigned body = 0, close = 0;
  if (clang_getResultType(clang_getCursorType(def)).kind != CXType_Void)
    w.why = "its kernel returns a value";
  if (!w.why)
    w.why = locate(&w, def, &body);
  if (!w.why && !(close = params_end(&w, body)))
    w.why = "its kernel's parameter list is followed by more than its body";
  if (!w.why)
    walk(&w, cursor_last_child(def));
  kernel_text *t = w.why ? NULL : text_of(&w, close, frontend_cursor_loc(fe, def));
  if (!w.why && !t)
    w.why = "its kernel subscripts a parameter with another parameter's element";
  *why = w.why;
  return w.why ? NULL : t;
}
