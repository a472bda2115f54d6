/*
 * check.c — kernels against loops (see check.h).
 */
#include "frontend/check.h"

#include <string.h>

#include "frontend/affine.h"
#include "frontend/cursor.h"
#include "frontend/ctypes.h"
#include "frontend/cwalk.h"
#include "frontend/flops.h"
#include "frontend/lanes.h"
#include "frontend/summary.h"
#include "frontend/tokens.h"

/* What a kernel's definition alone decides, found once however many
 * loops call it. */
enum { KERNEL_BUCKETS = 1024 };
typedef struct kernel_facts {
  CXCursor def;
  struct uses *uses;     /* one per parameter */
  long flops;
  const kernel_text *lanes;
  const char *lanes_why;
  int body_checked;      /* its body was walked (check_body) */
  struct kernel_facts *next;
} kernel_facts;

typedef struct checker {
  const frontend *fe;
  const symtab *st;
  arena *arena;
  loop *lp;
  struct kernel_facts *kernels[KERNEL_BUCKETS]; /* by clang_hashCursor */
  vec written;        /* sym*: file-scope variables the kernel's own body
                         writes (each reported there) */
  int body_errors;
} checker;

/* ---- parameters ----------------------------------------------------------- */

static const char *describe_arg(const checker *c, const loop_arg *a) {
  switch (a->kind) {
  case ARG_IDX:
    return "the iteration index 'idx' (an int)";
  case ARG_GLOBAL:
    return arena_printf(c->arena, "global '%s' of type %s%s", a->name,
                        a->obj->type->c_name, a->obj->is_array ? " array" : "");
  case ARG_AFFINE:
    return arena_printf(c->arena, "element '%s' of %s", affine_arg_text(c->arena, a),
                        a->obj->type->c_name);
  case ARG_MAPPED_ALL:
    return arena_printf(c->arena, "all slots of dat '%s' of %s (an array of "
                        "pointers)", a->name, a->obj->type->c_name);
  case ARG_MAT:
    return arena_printf(c->arena, "the %dx%d element matrix of matrix '%s'",
                        a->map->dim * a->obj->dim, a->map2->dim * a->obj->dim2, a->name);
  default:
    return arena_printf(c->arena, "dat '%s' of %s", a->name, a->obj->type->c_name);
  }
}

static void note_param(const checker *c, CXCursor param, int pos) {
  diag(DIAG_NOTE, frontend_cursor_loc(c->fe, param), 0,
       "parameter %d of kernel '%s' declared here", pos, c->lp->kernel);
}

static int param_mismatch(checker *c, const loop_arg *a, CXCursor param,
                          const char *expect) {
  diag(DIAG_ERROR, a->loc, a->len,
       "argument %d is %s, but parameter %d '%s' of kernel '%s' has type "
       "'%s' (expected %s)", a->pos, describe_arg(c, a), a->pos,
       frontend_spelling(c->fe, param), c->lp->kernel,
       frontend_type_spelling(c->fe, clang_getCursorType(param)), expect);
  note_param(c, param, a->pos);
  return -1;
}

static const elem_type *arg_elem_type(const loop_arg *a) {
  static const elem_type int_type = {"int", "LOOM_INT", sizeof(int)};
  return a->kind == ARG_IDX ? &int_type : a->obj->type;
}

static int check_const(checker *c, const loop_arg *a, CXCursor param,
                       CXType pointee) {
  int is_const = clang_isConstQualifiedType(pointee);
  int reads = a->mode == MODE_READ || a->kind == ARG_IDX;
  if (!reads && is_const) {
    diag(DIAG_ERROR, a->loc, a->len,
         "argument %d '%s' is '%s', but parameter %d '%s' of kernel '%s' "
         "points to const ('%s'): the kernel could not write it", a->pos,
         a->name, mode_name(a->mode), a->pos, frontend_spelling(c->fe, param),
         c->lp->kernel, frontend_type_spelling(c->fe, clang_getCursorType(param)));
    note_param(c, param, a->pos);
    return -1;
  }
  if (reads && !is_const) {
    diag(DIAG_WARNING, a->loc, a->len,
         "argument %d '%s' is read-only, but parameter %d '%s' of kernel '%s' "
         "is not a pointer to const ('%s')", a->pos, a->name, a->pos,
         frontend_spelling(c->fe, param), c->lp->kernel,
         frontend_type_spelling(c->fe, clang_getCursorType(param)));
    note_param(c, param, a->pos);
  }
  return 0;
}

/* A matrix argument's parameter: `double *` (the element matrix row after
 * row; `double A[N]` is that pointer, whatever N, as any array parameter)
 * or `double A[R][C]` / `double (*A)[C]`, R and C the element matrix's
 * rows and columns; never const (the kernel adds to it). */
static int check_mat_param(checker *c, loop_arg *a, CXCursor param) {
  long rows = a->map->dim * a->obj->dim, cols = a->map2->dim * a->obj->dim2;
  const char *expect = arena_printf(c->arena, "'double *' or 'double [%ld][%ld]'", rows, cols);
  CXType t = clang_getCanonicalType(clang_getCursorType(param));
  int array = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
  if (t.kind != CXType_Pointer && !array)
    return param_mismatch(c, a, param, expect);
  CXType pointee = array ? clang_getArrayElementType(t) : clang_getPointeeType(t);
  CXType elem = pointee;
  if (pointee.kind == CXType_ConstantArray) { /* rows of C entries: R of them */
    if (clang_getArraySize(pointee) != cols ||
        (t.kind == CXType_ConstantArray && clang_getArraySize(t) != rows))
      return param_mismatch(c, a, param, expect);
    elem = clang_getArrayElementType(pointee);
  }
  const elem_type *got = elem_type_of(elem);
  if (!got || strcmp(got->c_name, "double") != 0)
    return param_mismatch(c, a, param, expect);
  a->param_name = frontend_spelling(c->fe, param);
  a->param_pointee = frontend_type_spelling(c->fe, pointee);
  return check_const(c, a, param, elem);
}

static int check_param(checker *c, loop_arg *a, CXCursor param) {
  if (a->kind == ARG_MAT)
    return check_mat_param(c, a, param);
  const elem_type *want = arg_elem_type(a);
  const char *expect =
      a->kind == ARG_MAPPED_ALL
          ? arena_printf(c->arena, "a pointer to pointers to %s", want->c_name)
          : arena_printf(c->arena, "a pointer to %s", want->c_name);
  CXType t = clang_getCanonicalType(clang_getCursorType(param));
  int array = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
              t.kind == CXType_VariableArray;
  if (t.kind != CXType_Pointer && !array)
    return param_mismatch(c, a, param, expect);
  /* a parameter declared as an array is a pointer to its elements */
  CXType pointee = array ? clang_getArrayElementType(clang_getCursorType(param))
                         : clang_getPointeeType(t);
  CXType elem = pointee;
  if (a->kind == ARG_MAPPED_ALL) {
    if (pointee.kind != CXType_Pointer)
      return param_mismatch(c, a, param, expect);
    elem = clang_getPointeeType(pointee);
  }
  const elem_type *got = elem_type_of(elem);
  if (!got || strcmp(got->loom_name, want->loom_name) != 0)
    return param_mismatch(c, a, param, expect);
  CXType declared = clang_getCursorType(param);
  if (declared.kind != CXType_Pointer)
    declared = t;
  a->param_name = frontend_spelling(c->fe, param);
  a->param_pointee = frontend_type_spelling(
      c->fe, array ? pointee : clang_getPointeeType(declared));
  return check_const(c, a, param, elem);
}

/* ---- writes to file-scope variables ---------------------------------------- */

/* The spelling of the first token at or after offset `from` in e's extent
 * (an operator), copied to buf.  A long expression's tokens are its
 * file's, tokenized once (tokens_of_long_range). */
static void operator_after(const checker *c, CXCursor e, unsigned from,
                           char *buf, size_t size) {
  CXSourceRange r = clang_getCursorExtent(e);
  const tok_list *v = tokens_of_long_range(c->fe, r);
  buf[0] = '\0';
  if (v) {
    unsigned start = frontend_offset(clang_getRangeStart(r));
    const tok *t = tok_at(v, tok_first_at(v, from > start ? from : start));
    if (t && t->start < frontend_offset(clang_getRangeEnd(r))) {
      strncpy(buf, t->text, size - 1);
      buf[size - 1] = '\0';
    }
    return;
  }
  CXToken *toks;
  unsigned n;
  clang_tokenize(c->fe->tu, r, &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    if (frontend_offset(clang_getTokenLocation(c->fe->tu, toks[i])) < from)
      continue;
    tok_spelling(c->fe->tu, toks[i], buf, size);
    break;
  }
  clang_disposeTokens(c->fe->tu, toks, n);
}

/* The expression an assignment-like cursor writes, or a null cursor. */
static CXCursor written_expr(const checker *c, CXCursor e) {
  enum CXCursorKind k = clang_getCursorKind(e);
  CXCursor lhs = cursor_first_child(e);
  char op[8];
  if (k == CXCursor_CompoundAssignOperator)
    return lhs;
  if (k == CXCursor_BinaryOperator) {
    operator_after(c, e, frontend_offset(clang_getRangeEnd(clang_getCursorExtent(lhs))),
                   op, sizeof op);
    return strcmp(op, "=") == 0 ? lhs : clang_getNullCursor();
  }
  if (k == CXCursor_UnaryOperator) {
    operator_after(c, e, 0, op, sizeof op);
    if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
      return lhs;
    CXSourceRange r = clang_getCursorExtent(lhs);
    operator_after(c, e, frontend_offset(clang_getRangeEnd(r)), op, sizeof op);
    if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
      return lhs;
  }
  return clang_getNullCursor();
}

/* The variable at the root of an lvalue (x, x[i], x.f, *x, (x)), or null. */
static CXCursor root_variable(CXCursor e) {
  for (;;) {
    e = cursor_strip_expr(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr)
      return clang_getCursorReferenced(e);
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_MemberRefExpr &&
        k != CXCursor_UnaryOperator && k != CXCursor_CStyleCastExpr)
      return clang_getNullCursor();
    e = k == CXCursor_CStyleCastExpr ? cursor_last_child(e) : cursor_first_child(e);
  }
}

static int is_file_scope_var(CXCursor v) {
  return clang_getCursorKind(v) == CXCursor_VarDecl &&
         clang_getCursorKind(clang_getCursorSemanticParent(v)) ==
             CXCursor_TranslationUnit;
}

static enum CXChildVisitResult visit_kernel_body(CXCursor e, CXCursor parent,
                                                 CXClientData data) {
  (void)parent;
  checker *c = data;
  CXCursor lhs = written_expr(c, e);
  if (clang_Cursor_isNull(lhs))
    return CXChildVisit_Recurse;
  CXCursor v = root_variable(lhs);
  if (!clang_Cursor_isNull(v) && is_file_scope_var(v)) {
    const char *name = frontend_spelling(c->fe, v);
    sym *s = symtab_of_cursor(c->st, v);
    if (s)
      vec_push(c->arena, &c->written, s);
    diag(DIAG_ERROR, frontend_cursor_loc(c->fe, e), 0,
         "kernel '%s' writes file-scope variable '%s': file-scope variables "
         "are constants inside kernels (pass it as a global argument to "
         "reduce into it)", c->lp->kernel, name);
    diag(DIAG_NOTE, c->lp->kernel_loc, (unsigned)strlen(c->lp->kernel),
         "kernel '%s' is called by this par_loop", c->lp->kernel);
    c->body_errors++;
  }
  return CXChildVisit_Recurse;
}

static void callee_writes(checker *c, CXCursor def);
static void warn_inline(const checker *c, CXCursor def);

/* Walks a kernel's body once, however many loops call it. */
static int check_body(checker *c, kernel_facts *k) {
  CXCursor def = k->def;
  if (k->body_checked)
    return 0;
  k->body_checked = 1;
  int before = c->body_errors;
  c->written = (vec){0};
  clang_visitChildren(def, visit_kernel_body, c);
  callee_writes(c, def);
  warn_inline(c, def);
  return c->body_errors > before ? -1 : 0;
}

/* ---- what the kernel reads beyond its arguments -------------------------------- */

static int written_in_body(const checker *c, const sym *s) {
  for (int i = 0; i < c->written.len; i++)
    if (c->written.items[i] == s)
      return 1;
  return 0;
}

/* The object of a file-scope variable a kernel reads: its own (a global
 * argument's, or one built by an earlier kernel), or a new OBJ_VAR. */
static obj *variable_obj(checker *c, sym *s) {
  if (s->canon->obj)
    return s->canon->obj;
  obj *o = arena_alloc(c->arena, sizeof *o);
  o->kind = OBJ_VAR;
  o->name = s->name;
  o->loc = frontend_cursor_loc(c->fe, s->cursor);
  o->var = s->canon;
  o->dim = 1;
  s->canon->obj = o;
  return o;
}

/* A variable that can change: not const, not the C library's. */
static int may_change(const sym *s) {
  CXType t = clang_getCanonicalType(clang_getCursorType(s->cursor));
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
    t = clang_getArrayElementType(t);
  return !clang_isConstQualifiedType(t) &&
         !clang_Location_isInSystemHeader(clang_getCursorLocation(s->cursor));
}

/* The file-scope variables the kernel reads, and a function it calls
 * whose body loomc does not see, from its summary. */
static void kernel_state(checker *c, CXCursor def) {
  const summary *sm = summary_of(c->fe, c->st, def, c->arena);
  if (!sm)
    return;
  for (int i = 0; i < sm->reads.len; i++)
    if (may_change(sm->reads.items[i]))
      vec_push(c->arena, &c->lp->kernel_vars, variable_obj(c, sm->reads.items[i]));
  c->lp->kernel_unseen = sm->unseen;
  c->lp->kernel_unseen_loc = sm->unseen_loc;
}

/* A write of a file-scope variable by a function the kernel calls is an
 * error, like one in its own body (reported there). */
static void callee_writes(checker *c, CXCursor def) {
  const summary *sm = summary_of(c->fe, c->st, def, c->arena);
  for (int i = 0; sm && i < sm->writes.len; i++) {
    const sym *s = sm->writes.items[i];
    if (written_in_body(c, s))
      continue;
    diag(DIAG_ERROR, c->lp->kernel_loc, (unsigned)strlen(c->lp->kernel),
         "kernel '%s' calls a function that writes file-scope variable '%s': "
         "file-scope variables are constants inside kernels (pass it as a global "
         "argument to reduce into it)", c->lp->kernel, s->name);
    diag(DIAG_NOTE, frontend_cursor_loc(c->fe, s->cursor), 0, "'%s' declared here",
         s->name);
    c->body_errors++;
  }
}

/* A plain `inline` definition (no `static`, no `extern` on any declaration)
 * is, in C unlike C++, no external definition: a call the C compiler does
 * not inline (at -O0, say) finds no function to link. */
static int c99_inline(const checker *c, CXCursor def) {
  if (!clang_Cursor_isFunctionInlined(def))
    return 0;
  CXCursor first = clang_getCanonicalCursor(def);
  const char *name = frontend_spelling(c->fe, def); /* its declarations' */
  for (const sym *s = symtab_first_named(c->st, name); s; s = symtab_next_named(s)) {
    if (clang_getCursorKind(s->cursor) != CXCursor_FunctionDecl ||
        !clang_equalCursors(clang_getCanonicalCursor(s->cursor), first))
      continue;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(s->cursor);
    if (sc == CX_SC_Static || sc == CX_SC_Extern || !clang_Cursor_isFunctionInlined(s->cursor))
      return 0;
  }
  return 1;
}

static void warn_inline(const checker *c, CXCursor def) {
  if (!c99_inline(c, def))
    return;
  diag(DIAG_WARNING, frontend_cursor_loc(c->fe, def), 0,
       "kernel '%s' is an inline definition ('inline' without 'static' or 'extern'): "
       "in C, unlike C++, it is not an external definition, so the program fails to "
       "link wherever the C compiler does not inline the call (at -O0, say); declare "
       "it 'static inline'", c->lp->kernel);
  diag(DIAG_NOTE, c->lp->kernel_loc, (unsigned)strlen(c->lp->kernel),
       "kernel '%s' is called by this par_loop", c->lp->kernel);
}

/* ---- one dat, several accesses ------------------------------------------------ */

static int arg_mapped(const loop_arg *a) {
  return a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL;
}

/* Whether the accesses of one dat by a loop's arguments have a meaning
 * that does not depend on the order of the elements: all reads, all
 * increments (they commute), all direct (each element its own values), or
 * all writes through maps (write or rw; the runtime checks that no target
 * is reached by two elements). */
static int order_free(const loop *lp, const obj *d) {
  int n = 0, reads = 0, same = 0, direct = 0, mapped_writes = 0;
  access_mode first = MODE_NONE;
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (a->obj != d || a->kind == ARG_IDX)
      continue;
    n++;
    reads += a->mode == MODE_READ;
    first = first == MODE_NONE ? a->mode : first;
    same += modes_commute(a->mode, first);
    direct += a->kind == ARG_DAT;
    mapped_writes += arg_mapped(a) && (a->mode == MODE_WRITE || a->mode == MODE_RW);
  }
  return reads == n || same == n || direct == n || mapped_writes == n;
}

/* A dat written by the loop and reached through a map by another of its
 * arguments: an element could meet values another element writes, so the
 * result would depend on the order of the elements (and differ between
 * targets).  An error, at the access through the map. */
static int check_order(checker *c) {
  const loop *lp = c->lp;
  if (lp->domain)
    return 0; /* affine loops: isl's exact dependences */
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i], *m = NULL, *w = NULL;
    if (a->kind == ARG_IDX || !a->obj || a->obj->kind != OBJ_DAT || order_free(lp, a->obj))
      continue;
    for (int x = 0; x < lp->nargs; x++) /* a mapped one and a writing one */
      for (int y = 0; y < lp->nargs; y++) {
        const loop_arg *p = &lp->args[x], *q = &lp->args[y];
        if (p->obj == a->obj && q->obj == a->obj && arg_mapped(p) && q->mode != MODE_READ &&
            (!m || (m == w && p != q))) {
          m = p;
          w = q;
        }
      }
    const loop_arg *other = w;
    for (int k = 0; m == w && k < lp->nargs; k++)
      if (lp->args[k].obj == a->obj && &lp->args[k] != m)
        other = &lp->args[k];
    diag(DIAG_ERROR, m->loc, m->len,
         "argument %d %s dat '%s' through map '%s', and argument %d %s it: an element "
         "could meet values that another element writes, so the result would depend on "
         "the order of the elements (use two dats, or only one of 'inc', 'min' and 'max', "
         "which commute)",
         m->pos, mode_verb(m->mode), a->name, obj_label(m->map), other->pos,
         mode_verb(other->mode));
    return -1;
  }
  return 0;
}

/* ---- the kernel's work ------------------------------------------------------ */

/* ---- how often the kernel names a parameter ------------------------------- */

/* One walk of the kernel's body counts the uses of every parameter. */
typedef struct uses {
  int count[64]; /* uses with constant subscript i (`*p`: 0) */
  int other;     /* uses with another subscript */
  int looped;    /* a use in a loop or in a call's arguments */
  int escaped;   /* the pointer itself named, or an element's address taken */
} uses;

typedef struct use_walk {
  const checker *ck;
  const CXCursor *params;
  int n;
} use_walk;

/* The constant subscript of `param[e]` (or 0 for `*param`), -1 if not. */
static long use_index(CXCursor parent, int subscript) {
  if (!subscript)
    return 0;
  long long v;
  return cursor_int_value(cursor_last_child(parent), &v) ? (long)v : -1;
}

/* The parameter the reference c names, or -1. */
static int param_referenced(const use_walk *w, CXCursor c) {
  CXCursor r = clang_getCursorReferenced(c);
  for (int i = 0; i < w->n; i++)
    if (clang_equalCursors(r, w->params[i]))
      return i;
  return -1;
}

/* The parameter c names (parentheses and casts the AST leaves out
 * stripped), or -1. */
static int param_named(const use_walk *w, CXCursor c) {
  c = cursor_strip_expr(c);
  return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? param_referenced(w, c) : -1;
}

static void count_uses(const use_walk *w, CXCursor c, uses *u, int looped, int addr);

static void count_kids(const use_walk *w, const cursor_list *kids, int from, uses *u, int looped,
                       int addr) {
  for (int j = from; j < kids->len; j++)
    count_uses(w, *(CXCursor *)kids->items[j], u, looped, addr);
}

/* The uses of either branch: the larger count of each. */
static void join_branches(uses *u, const uses *t, const uses *e) {
  for (int i = 0; i < 64; i++)
    u->count[i] = t->count[i] > e->count[i] ? t->count[i] : e->count[i];
  u->other = t->other > e->other ? t->other : e->other;
  u->looped = t->looped || e->looped;
  u->escaped = t->escaped || e->escaped;
}

/* `if`: the branches exclude each other, so a component named once in
 * each is named once. */
static void count_if(const use_walk *w, const cursor_list *kids, uses *u, int looped) {
  count_uses(w, *(CXCursor *)kids->items[0], u, looped, 0);
  size_t size = sizeof *u * (size_t)w->n;
  uses *t = arena_alloc(w->ck->arena, size), *e = arena_alloc(w->ck->arena, size);
  memcpy(t, u, size);
  memcpy(e, u, size);
  if (kids->len > 1)
    count_uses(w, *(CXCursor *)kids->items[1], t, looped, 0);
  count_kids(w, kids, 2, e, looped, 0);
  for (int p = 0; p < w->n; p++)
    join_branches(&u[p], &t[p], &e[p]);
}

/* One use of the parameter, `param[i]` or `*param` (i: -1 not constant). */
static void count_use(uses *u, long i, int looped, int addr) {
  u->looped |= looped;
  u->escaped |= addr;
  if (i >= 0 && i < 64)
    u->count[i]++;
  else
    u->other++;
}

/* Walks c: `looped` inside a loop or a call's arguments, `addr` under `&`;
 * u: one record per parameter. */
static void count_uses(const use_walk *w, CXCursor c, uses *u, int looped, int addr) {
  enum CXCursorKind k = clang_getCursorKind(c);
  cursor_list kids = cwalk_kids(w->ck->arena, c);
  int unary = k == CXCursor_UnaryOperator ? cursor_unary_kind(w->ck->fe->tu, c) : 0;
  int deref = unary == 1, p;
  if ((k == CXCursor_ArraySubscriptExpr || deref) && kids.len > 0 &&
      (p = param_named(w, *(CXCursor *)kids.items[0])) >= 0) {
    count_use(&u[p], use_index(c, !deref), looped, addr);
    count_kids(w, &kids, 1, u, looped, 0);
    return;
  }
  if (k == CXCursor_DeclRefExpr && (p = param_referenced(w, c)) >= 0)
    u[p].escaped = 1; /* the pointer itself: copied, compared, passed on */
  if (k == CXCursor_IfStmt && kids.len > 0) {
    count_if(w, &kids, u, looped);
    return;
  }
  looped |= k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
            k == CXCursor_CallExpr;
  addr = unary == 2 || (addr && (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr));
  count_kids(w, &kids, 0, u, looped, addr);
}

/* The uses of each of the kernel def's n parameters, in one walk. */
static uses *param_uses(const checker *ck, CXCursor def, int n) {
  CXCursor *params = arena_alloc(ck->arena, sizeof *params * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    params[i] = clang_Cursor_getArgument(def, (unsigned)i);
  uses *u = arena_alloc(ck->arena, sizeof *u * (size_t)(n ? n : 1)); /* zeroed */
  use_walk w = {ck, params, n};
  count_uses(&w, cursor_last_child(def), u, 0, 0);
  return u;
}

/* Whether each component is named once (loop_arg's updated_once). */
static int named_once(const uses *u) {
  int total = u->other, dup = 0;
  for (int i = 0; i < 64; i++) {
    total += u->count[i];
    dup |= u->count[i] > 1;
  }
  return !u->escaped && !u->looped && !dup && (u->other == 0 || total == 1);
}

/* The components named, one bit each (loop_arg's read_mask). */
static unsigned long long named_mask(const uses *u) {
  unsigned long long m = 0;
  for (int i = 0; i < 64; i++)
    m |= u->count[i] ? 1ULL << i : 0;
  return u->escaped || u->other ? ~0ULL : m;
}

/* ---- the kernel ------------------------------------------------------------ */

/* The kernel's definition, or a null cursor after a diagnostic. */
static CXCursor find_kernel(checker *c) {
  loop *lp = c->lp;
  unsigned len = (unsigned)strlen(lp->kernel);
  sym *s = symtab_lookup(c->st, lp->kernel, lp->start);
  if (!s || clang_getCursorKind(s->cursor) != CXCursor_FunctionDecl) {
    diag(DIAG_ERROR, lp->kernel_loc, len,
         s ? "'%s' is not a function: a par_loop's kernel is a C function"
           : "use of undeclared identifier '%s' (expected a kernel function)",
         lp->kernel);
    return clang_getNullCursor();
  }
  if (!s->file_scope || (s->in_main && s->decl_off > lp->func_start)) {
    diag(DIAG_ERROR, lp->kernel_loc, len,
         "kernel '%s' must be declared at file scope before function '%s', "
         "where loomc places the loop's code", lp->kernel, lp->func_name);
    return clang_getNullCursor();
  }
  CXCursor def = clang_getCursorDefinition(s->cursor);
  if (clang_Cursor_isNull(def)) {
    diag(DIAG_ERROR, lp->kernel_loc, len,
         "kernel '%s' has no definition in this translation unit: define it "
         "in this file or in a header it includes", lp->kernel);
    return clang_getNullCursor();
  }
  return def;
}

static int check_arity(checker *c, CXCursor def) {
  int n = clang_Cursor_getNumArguments(def);
  if (n == c->lp->nargs)
    return 0;
  diag(DIAG_ERROR, c->lp->kernel_loc, (unsigned)strlen(c->lp->kernel),
       "kernel '%s' takes %d parameter%s, but the par_loop passes %d "
       "argument%s", c->lp->kernel, n, n == 1 ? "" : "s", c->lp->nargs,
       c->lp->nargs == 1 ? "" : "s");
  diag(DIAG_NOTE, frontend_cursor_loc(c->fe, def), 0, "'%s' defined here",
       c->lp->kernel);
  return -1;
}

/* The facts of the kernel def of n parameters, found the first time. */
static kernel_facts *facts_of(checker *c, CXCursor def, int n) {
  kernel_facts **at = &c->kernels[clang_hashCursor(def) % KERNEL_BUCKETS];
  for (kernel_facts *k = *at; k; k = k->next)
    if (clang_equalCursors(k->def, def))
      return k;
  kernel_facts *k = arena_alloc(c->arena, sizeof *k);
  k->def = def;
  k->uses = param_uses(c, def, n);
  k->flops = frontend_kernel_flops(c->fe, def, c->arena);
  k->lanes = lanes_of(c->fe, def, &k->lanes_why, c->arena);
  k->next = *at;
  *at = k;
  return k;
}

static int check_loop(checker *c) {
  CXCursor def = find_kernel(c);
  if (clang_Cursor_isNull(def) || check_arity(c, def))
    return -1;
  for (int i = 0; i < c->lp->nargs; i++)
    if (check_param(c, &c->lp->args[i], clang_Cursor_getArgument(def, (unsigned)i)))
      return -1;
  kernel_facts *k = facts_of(c, def, c->lp->nargs);
  for (int i = 0; i < c->lp->nargs; i++) {
    c->lp->args[i].updated_once = c->lp->args[i].mode != MODE_READ && named_once(&k->uses[i]);
    c->lp->args[i].read_mask = named_mask(&k->uses[i]);
  }
  c->lp->kernel_flops = k->flops;
  c->lp->lanes = k->lanes;
  c->lp->lanes_why = k->lanes_why;
  if (check_order(c))
    return -1;
  if (check_body(c, k))
    return -1;
  kernel_state(c, def);
  return 0;
}

void check_kernels(const frontend *fe, const symtab *st, program *prog, arena *a) {
  checker c = {fe, st, a, NULL, {0}, {0}, 0};
  loop_list ok = {0};
  for (int i = 0; i < prog->loops.len; i++) {
    c.lp = prog->loops.items[i];
    if (check_loop(&c) == 0)
      vec_push(a, &ok, c.lp);
  }
  prog->loops = ok;
}
