/*
 * region.c — regions and their items, from libclang's AST (see region.h).
 *
 * Directives are not in the AST: a loop or a sync belongs to the innermost
 * compound statement whose extent holds its directive, and stands between
 * that statement's children, ordered by offset.
 *
 * What host code reads and writes is found by one walk over the
 * statement's expression tree carrying the context of each subexpression
 * (read as a value, stored into, updated, address escaping, unevaluated):
 * a name's access is decided by the context it appears in, so `rms = 0.0`
 * writes rms while `printf("%g", rms)` only reads it.  libclang 14 has no
 * operator-kind query, so `=` versus `==`, and prefix/postfix ++/--, are
 * read from the tokens (as check.c does): the operator is the one token
 * between the operands (before or after a unary operator's operand).  When
 * that token is part of a macro invocation (`SET(g)`, `ASSIGN(g, 1.0)`),
 * the operator is spelled in the macro and cannot be told: its operands
 * are taken as read and written.
 */
#include "region.h"

#include <string.h>

typedef struct builder {
  const frontend *fe;
  const symtab *st;
  const program *prog;
  arena *arena;
  vec regions;
  vec macros; /* range*: the macro expansions of the main file */
} builder;

typedef struct range {
  unsigned start, end;
} range;

static void extent(CXCursor c, unsigned *start, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  *start = frontend_offset(clang_getRangeStart(r));
  *end = frontend_offset(clang_getRangeEnd(r));
}

/* Loops whose directive lies in [start, end). */
static vec loops_in(const builder *b, unsigned start, unsigned end) {
  vec v = {0};
  for (int i = 0; i < b->prog->loops.len; i++) {
    loop *lp = b->prog->loops.items[i];
    if (lp->start >= start && lp->start < end)
      vec_push(b->arena, &v, lp);
  }
  return v;
}

/* sync directives in [start, end). */
static vec syncs_in(const builder *b, unsigned start, unsigned end) {
  vec v = {0};
  for (int i = 0; i < b->prog->hints.len; i++) {
    hint *h = b->prog->hints.items[i];
    if (h->kind == HINT_SYNC && h->start >= start && h->start < end)
      vec_push(b->arena, &v, h);
  }
  return v;
}

static void add_unique(arena *a, vec *v, void *p) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == p)
      return;
  vec_push(a, v, p);
}

/* ---- what host code accesses ---------------------------------------------- */

typedef enum ctx {
  CTX_READ,   /* its value is used */
  CTX_STORE,  /* the left operand of `=` */
  CTX_UPDATE, /* of `op=`, `++`, `--` */
  CTX_ESCAPE, /* its address is taken (`&g`, an array decaying) */
  CTX_NONE    /* unevaluated (sizeof, _Alignof) */
} ctx;

enum { USE_READ = 1, USE_WRITE = 2 };

static const unsigned ctx_use[] = {USE_READ, USE_WRITE, USE_READ | USE_WRITE,
                                   USE_READ | USE_WRITE, 0};

typedef struct accesses {
  const builder *b;
  item *it;
} accesses;

static void record(accesses *x, obj *o, unsigned use) {
  if (!use)
    return;
  arena *a = x->b->arena;
  add_unique(a, &x->it->objs, o);
  if (use & USE_READ)
    add_unique(a, &x->it->reads, o);
  if (use & USE_WRITE)
    add_unique(a, &x->it->writes, o);
}

static enum CXChildVisitResult take_cursor(CXCursor c, CXCursor parent,
                                           CXClientData data) {
  (void)parent;
  void **v = data;
  arena *a = v[0];
  CXCursor *keep = arena_alloc(a, sizeof *keep);
  *keep = c;
  vec_push(a, v[1], keep);
  return CXChildVisit_Continue;
}

/* The children of c, in order (CXCursor*). */
static vec kids(arena *a, CXCursor c) {
  vec v = {0};
  void *data[2] = {a, &v};
  clang_visitChildren(c, take_cursor, data);
  return v;
}

static unsigned start_of(CXCursor c) {
  return frontend_offset(clang_getRangeStart(clang_getCursorExtent(c)));
}

static unsigned end_of(CXCursor c) {
  return frontend_offset(clang_getRangeEnd(clang_getCursorExtent(c)));
}

static enum CXChildVisitResult take_macro(CXCursor c, CXCursor parent,
                                          CXClientData data) {
  (void)parent;
  builder *b = data;
  if (clang_getCursorKind(c) == CXCursor_MacroExpansion &&
      frontend_in_main_file(b->fe, clang_getCursorLocation(c))) {
    range *r = arena_alloc(b->arena, sizeof *r);
    r->start = start_of(c);
    r->end = end_of(c);
    vec_push(b->arena, &b->macros, r);
  }
  return CXChildVisit_Continue;
}

/* Whether the token at offset `off` is part of a macro invocation. */
static int in_macro(const builder *b, unsigned off) {
  for (int i = 0; i < b->macros.len; i++) {
    const range *r = b->macros.items[i];
    if (r->start <= off && off < r->end)
      return 1;
  }
  return 0;
}

/* The one token of e's extent in [from, to) that is not part of a macro
 * invocation, into buf (empty when there is none, or more than one:
 * then the operator is spelled in a macro). */
static void token_in(const builder *b, CXCursor e, unsigned from, unsigned to,
                     char *buf, size_t size) {
  CXToken *toks;
  unsigned n, found = 0;
  buf[0] = '\0';
  clang_tokenize(b->fe->tu, clang_getCursorExtent(e), &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    unsigned off = frontend_offset(clang_getTokenLocation(b->fe->tu, toks[i]));
    if (off < from || off >= to)
      continue;
    if (found++ || in_macro(b, off)) {
      buf[0] = '\0';
      break;
    }
    CXString sp = clang_getTokenSpelling(b->fe->tu, toks[i]);
    strncpy(buf, clang_getCString(sp), size - 1);
    buf[size - 1] = '\0';
    clang_disposeString(sp);
  }
  clang_disposeTokens(b->fe->tu, toks, n);
}

static void walk(accesses *x, CXCursor c, ctx cx, int subscripted);
static void walk_all_sub(accesses *x, const vec *v, ctx cx, int subscripted);

static void walk_all(accesses *x, const vec *v, int from, ctx cx) {
  for (int i = from; i < v->len; i++)
    walk(x, *(CXCursor *)v->items[i], cx, 0);
}

static void name_use(accesses *x, CXCursor ref, ctx cx, int subscripted) {
  sym *s = symtab_of_cursor(x->b->st, clang_getCursorReferenced(ref));
  obj *o = s ? s->obj : NULL;
  if (!o || cx == CTX_NONE)
    return;
  if (o->kind == OBJ_DAT)
    record(x, o, USE_READ | USE_WRITE); /* any use of the handle */
  else if (o->kind == OBJ_GLOBAL)
    record(x, o, o->is_array && !subscripted ? USE_READ | USE_WRITE : ctx_use[cx]);
}

/* `a = b` stores into a; any other binary operator reads both.  The
 * operator is the token between the operands. */
static void binary(accesses *x, CXCursor e, const vec *k, ctx cx) {
  if (k->len != 2)
    return walk_all(x, k, 0, cx);
  CXCursor lhs = *(CXCursor *)k->items[0], rhs = *(CXCursor *)k->items[1];
  char op[8];
  token_in(x->b, e, end_of(lhs), start_of(rhs), op, sizeof op);
  if (!op[0]) { /* cannot tell: could be `=` */
    walk_all(x, k, 0, CTX_ESCAPE);
  } else if (strcmp(op, "=") == 0) {
    walk(x, lhs, CTX_STORE, 0);
    walk(x, rhs, cx, 0);
  } else {
    walk_all(x, k, 0, cx);
  }
}

/* The operator is the token before the operand (prefix) or after it. */
static void unary(accesses *x, CXCursor e, const vec *k, ctx cx) {
  if (k->len != 1)
    return walk_all(x, k, 0, cx);
  CXCursor operand = *(CXCursor *)k->items[0];
  char pre[8], post[8];
  token_in(x->b, e, start_of(e), start_of(operand), pre, sizeof pre);
  token_in(x->b, e, end_of(operand), end_of(e), post, sizeof post);
  if (!strcmp(pre, "++") || !strcmp(pre, "--") || !strcmp(post, "++") ||
      !strcmp(post, "--"))
    walk(x, operand, CTX_UPDATE, 0);
  else if (!strcmp(pre, "&"))
    walk(x, operand, CTX_ESCAPE, 0);
  else if (!strcmp(pre, "*")) /* *garr: an element, like garr[0] */
    walk(x, operand, cx, 1);
  else if (pre[0])
    walk(x, operand, CTX_READ, 0);
  else /* cannot tell: could be ++ or & */
    walk(x, operand, CTX_ESCAPE, 0);
}

/* The accesses of expression or statement c, appearing in context cx;
 * `subscripted`: c is the base of a subscript or the operand of `*`. */
static void walk(accesses *x, CXCursor c, ctx cx, int subscripted) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_DeclRefExpr)
    return name_use(x, c, cx, subscripted);
  vec k = kids(x->b->arena, c);
  ctx inner = cx == CTX_NONE ? CTX_NONE : CTX_READ;
  switch (kind) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr: /* implicit conversions */
    return walk_all_sub(x, &k, cx, subscripted);
  case CXCursor_ArraySubscriptExpr:
    if (k.len == 2) {
      walk(x, *(CXCursor *)k.items[0], cx, 1);
      walk(x, *(CXCursor *)k.items[1], inner, 0);
      return;
    }
    break;
  case CXCursor_MemberRefExpr:
    return walk_all_sub(x, &k, cx, 1);
  case CXCursor_UnaryExpr: /* sizeof, _Alignof: not evaluated */
    return walk_all(x, &k, 0, CTX_NONE);
  case CXCursor_BinaryOperator:
    if (cx != CTX_NONE)
      return binary(x, c, &k, inner);
    break;
  case CXCursor_CompoundAssignOperator:
    if (cx != CTX_NONE && k.len == 2) {
      walk(x, *(CXCursor *)k.items[0], CTX_UPDATE, 0);
      walk(x, *(CXCursor *)k.items[1], CTX_READ, 0);
      return;
    }
    break;
  case CXCursor_UnaryOperator:
    if (cx != CTX_NONE)
      return unary(x, c, &k, cx);
    break;
  default:
    break;
  }
  walk_all(x, &k, 0, inner);
}

static void walk_all_sub(accesses *x, const vec *v, ctx cx, int subscripted) {
  for (int i = 0; i < v->len; i++)
    walk(x, *(CXCursor *)v->items[i], cx, subscripted);
}

/* What the host code of a statement reads and writes, into it. */
static void host_accesses(const builder *b, CXCursor stmt, item *it) {
  accesses x = {b, it};
  walk(&x, stmt, CTX_READ, 0);
}

/* A sync reads and writes everything of the objects it names. */
static void sync_accesses(const builder *b, const hint *h, item *it) {
  accesses x = {b, it};
  for (int i = 0; i < h->nnames; i++)
    if (h->objs && h->objs[i])
      record(&x, h->objs[i], USE_READ | USE_WRITE);
}

/* ---- regions ------------------------------------------------------------------ */

static const char *keyword(enum CXCursorKind k) {
  switch (k) {
  case CXCursor_ForStmt: return "for";
  case CXCursor_WhileStmt: return "while";
  case CXCursor_DoStmt: return "do";
  case CXCursor_IfStmt: return "if";
  case CXCursor_SwitchStmt: return "switch";
  case CXCursor_CompoundStmt: return "block";
  default: return "statement";
  }
}

static void build_region(builder *b, CXCursor compound, int depth);

typedef struct walk_nested {
  builder *b;
  int depth;
} walk_nested;

/* The compound statements inside a nested statement that hold loops. */
static enum CXChildVisitResult find_compounds(CXCursor c, CXCursor parent,
                                              CXClientData data) {
  (void)parent;
  walk_nested *w = data;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
    return CXChildVisit_Recurse;
  build_region(w->b, c, w->depth);
  return CXChildVisit_Continue;
}

/* Whether stmt is a barrier: control may leave it other than by its end,
 * or enter it other than at its start — a return, a goto, a label (or a
 * case of a switch outside stmt), a break not bound by a loop or switch
 * inside stmt, a continue not bound by a loop inside it — or it calls
 * loom_exit(), which ends the session.  Calls that do not return (exit,
 * longjmp) are not seen. */
typedef struct jumps {
  int in_loop, in_switch, found;
} jumps;

static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  jumps *j = data, inner = *j;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ReturnStmt:
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
  case CXCursor_LabelStmt:
    j->found = 1;
    return CXChildVisit_Break;
  case CXCursor_BreakStmt:
    j->found = !j->in_loop && !j->in_switch;
    return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
  case CXCursor_ContinueStmt:
    j->found = !j->in_loop;
    return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
  case CXCursor_CallExpr: { /* loom_exit() ends the session: nothing may
                               stay pending across it */
    CXString name = clang_getCursorSpelling(c);
    j->found = strcmp(clang_getCString(name), "loom_exit") == 0;
    clang_disposeString(name);
    if (j->found)
      return CXChildVisit_Break;
    break;
  }
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    if (!j->in_switch) { /* a label of a switch around the region */
      j->found = 1;
      return CXChildVisit_Break;
    }
    break;
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
    inner.in_loop = 1;
    break;
  case CXCursor_SwitchStmt:
    inner.in_switch = 1;
    break;
  default:
    break;
  }
  clang_visitChildren(c, find_jump, &inner);
  j->found = inner.found;
  return j->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int leaves_region(CXCursor stmt) {
  jumps j = {0, 0, 0};
  find_jump(stmt, clang_getNullCursor(), &j);
  return j.found;
}

static item *new_item(builder *b, item_kind kind, srcloc loc) {
  item *it = arena_alloc(b->arena, sizeof *it);
  it->kind = kind;
  it->loc = loc;
  return it;
}

/* The item of one child statement, or NULL when it is not a computation. */
static item *statement_item(builder *b, CXCursor stmt, int depth) {
  unsigned start, end;
  extent(stmt, &start, &end);
  vec inner = loops_in(b, start, end);
  item *it = new_item(b, inner.len ? ITEM_NESTED : ITEM_HOST,
                      frontend_cursor_loc(b->fe, stmt));
  host_accesses(b, stmt, it);
  vec syncs = syncs_in(b, start, end);
  for (int i = 0; i < syncs.len; i++)
    sync_accesses(b, syncs.items[i], it);
  it->leaves = leaves_region(stmt);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(stmt)), NULL, NULL,
                             NULL, &it->start);
  if (inner.len == 0 && it->objs.len == 0 && !it->leaves)
    return NULL;
  it->loops = inner;
  it->what = keyword(clang_getCursorKind(stmt));
  if (inner.len) {
    walk_nested w = {b, depth + 1};
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt)
      build_region(b, stmt, depth + 1);
    else
      clang_visitChildren(stmt, find_compounds, &w);
  }
  return it;
}

/* Appends the loops and syncs standing directly in [from, to) to the
 * region, in source order. */
static void add_directives_between(builder *b, region *r, unsigned from, unsigned to) {
  vec loops = loops_in(b, from, to), syncs = syncs_in(b, from, to);
  int i = 0, j = 0;
  while (i < loops.len || j < syncs.len) {
    loop *lp = i < loops.len ? loops.items[i] : NULL;
    hint *h = j < syncs.len ? syncs.items[j] : NULL;
    item *it;
    if (lp && (!h || lp->start < h->start)) {
      it = new_item(b, ITEM_LOOP, lp->loc);
      it->lp = lp;
      it->start = lp->start;
      i++;
    } else {
      it = new_item(b, ITEM_SYNC, h->loc);
      it->sync = h;
      it->start = h->start;
      sync_accesses(b, h, it);
      j++;
    }
    vec_push(b->arena, &r->items, it);
  }
}

static void build_region(builder *b, CXCursor compound, int depth) {
  unsigned start, end;
  extent(compound, &start, &end);
  if (loops_in(b, start, end).len == 0)
    return;
  region *r = arena_alloc(b->arena, sizeof *r);
  r->loc = frontend_cursor_loc(b->fe, compound);
  r->end = end > start ? end - 1 : start;
  while (r->end > start && b->prog->text[r->end] != '}')
    r->end--;
  r->end_line = r->loc.line;
  for (unsigned i = r->loc.offset; i < r->end; i++)
    r->end_line += b->prog->text[i] == '\n';
  r->depth = depth;
  const func_def *f = symtab_function_at(b->st, start);
  r->func = f ? f->name : "?";
  vec_push(b->arena, &b->regions, r);
  vec ch = kids(b->arena, compound);
  unsigned pos = start;
  for (int i = 0; i < ch.len; i++) {
    CXCursor c = *(CXCursor *)ch.items[i];
    unsigned cs, ce;
    extent(c, &cs, &ce);
    add_directives_between(b, r, pos, cs);
    item *it = statement_item(b, c, depth);
    if (it)
      vec_push(b->arena, &r->items, it);
    pos = ce;
  }
  add_directives_between(b, r, pos, end);
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
    *(CXCursor *)data = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

vec regions_build(const frontend *fe, const symtab *st, const program *prog,
                  arena *a) {
  builder b = {fe, st, prog, a, {0}, {0}};
  clang_visitChildren(clang_getTranslationUnitCursor(fe->tu), take_macro, &b);
  for (int i = 0; i < st->funcs.len; i++) {
    const func_def *f = st->funcs.items[i];
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(f->cursor, find_body, &body);
    if (!clang_Cursor_isNull(body))
      build_region(&b, body, 0);
  }
  return b.regions;
}
