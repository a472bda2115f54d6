/*
 * inline.c — calls seen through (see inline.h).
 *
 * The functions of the main file are listed first (their definitions,
 * bodies, parameters and locals); then each block of each of them is
 * walked for call statements.  The body's words are libclang's tokens
 * (directives included: a par_loop names the parameters too), each
 * checked against what libclang says it refers to.
 */
#include "transform/inline.h"

#include <string.h>

#include "frontend/cursor.h"
#include "frontend/tokens.h"
#include "util/text.h"

/* A function defined in the main file. */
typedef struct fn {
  CXCursor def;
  const char *name;
  unsigned start, open, close; /* the definition's first byte, its body's '{' and '}' */
  int runs_loops;
  int is_static;
  vec params;                  /* CXCursor* (ParmDecl) */
  vec locals;                  /* const char*: the names its body declares */
  tok_list toks;               /* its body's */
  int toks_done;
} fn;

/* How a parameter is bound: to the caller's variable, or a local of its own. */
typedef struct binding {
  const char *name;   /* the parameter's (NULL: unnamed) */
  const char *arg;    /* the argument's text, on one line */
  const char *local;  /* the name it goes by in the body written out */
  const char *decl;   /* its declaration (`T p_1 = (ARG);`), or NULL */
} binding;

struct call_site {
  const fn *callee, *caller;
  unsigned start, end, line;
  unsigned call;      /* where the call expression starts */
  const char *decl;   /* `T v = f(...)`: "T v", else NULL */
  const char *why;
  vec bindings;       /* binding* */
  text_edit_list renames; /* over the callee's body */
  unsigned body_end;  /* where the body written out ends (its return, or '}') */
  unsigned ret_start; /* the final return statement, or 0 */
  const char *ret_expr; /* its expression, renamed, on one line, or NULL */
};

typedef struct finder {
  const frontend *fe;
  const program *prog;
  arena *a;
  vec fns;      /* fn* */
  vec macros;   /* CXCursor*: the macro expansions of the main file */
  call_site_list sites;
  fn *caller;
  vec caller_names; /* const char*: the caller's parameters and locals */
  int instance; /* calls written out so far (the suffix of new names) */
} finder;

static const char *text_of(const finder *f, unsigned from, unsigned to) {
  return arena_strndup(f->a, f->prog->text + from, to - from);
}

static unsigned start_of(CXCursor c) { return frontend_offset(clang_getRangeStart(clang_getCursorExtent(c))); }
static unsigned end_of(CXCursor c) { return frontend_offset(clang_getRangeEnd(clang_getCursorExtent(c))); }

static int has_name(const vec *names, const char *s) {
  for (int i = 0; i < names->len; i++)
    if (strcmp(names->items[i], s) == 0)
      return 1;
  return 0;
}

static void add_name(arena *a, vec *names, const char *s) {
  if (!has_name(names, s))
    vec_push(a, names, (void *)s);
}

/* ---- tokens --------------------------------------------------------------------------- */

static tok_list tokens(const finder *f, CXSourceRange range) { return tokens_of(f->fe, range, f->a); }

/* Whether token i is a name the body may bind (an identifier, not a member). */
static int is_word(const tok_list *v, int i) {
  const tok *t = tok_at(v, i), *p = tok_at(v, i - 1);
  return t->kind == CXToken_Identifier && !tok_is(p, ".") && !tok_is(p, "->");
}

/* ---- the functions -------------------------------------------------------------------- */

static enum CXChildVisitResult collect_local(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  void **d = data;
  if (clang_getCursorKind(c) == CXCursor_VarDecl) {
    const finder *f = d[0];
    add_name(f->a, d[1], frontend_spelling(f->fe, c));
  }
  return CXChildVisit_Recurse;
}

static int runs_loops(const finder *f, unsigned open, unsigned close) {
  for (int i = 0; i < f->prog->loops.len; i++) {
    const loop *lp = f->prog->loops.items[i];
    if (lp->start > open && lp->start < close)
      return 1;
  }
  return 0;
}

static void add_fn(finder *f, CXCursor c) {
  CXCursor body = cursor_last_child(c);
  if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
    return;
  fn *g = arena_alloc(f->a, sizeof *g);
  memset(g, 0, sizeof *g);
  g->def = c;
  g->name = frontend_spelling(f->fe, c);
  g->start = start_of(c);
  g->open = start_of(body);
  g->close = end_of(body) - 1;
  g->runs_loops = runs_loops(f, g->open, g->close);
  g->is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
  int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n; i++) {
    CXCursor *p = arena_alloc(f->a, sizeof *p);
    *p = clang_Cursor_getArgument(c, (unsigned)i);
    vec_push(f->a, &g->params, p);
  }
  void *d[2] = {f, &g->locals};
  clang_visitChildren(body, collect_local, d);
  vec_push(f->a, &f->fns, g);
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  finder *f = data; /* c is in the main file */
  if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c))
    add_fn(f, c);
  if (clang_getCursorKind(c) == CXCursor_MacroExpansion) {
    CXCursor *m = arena_alloc(f->a, sizeof *m);
    *m = c;
    vec_push(f->a, &f->macros, m);
  }
  return CXChildVisit_Continue;
}

static fn *fn_of(const finder *f, CXCursor def) {
  for (int i = 0; i < f->fns.len; i++) {
    fn *g = f->fns.items[i];
    if (clang_equalCursors(g->def, def))
      return g;
  }
  return NULL;
}

static const tok_list *body_tokens(const finder *f, fn *g) {
  if (!g->toks_done) {
    g->toks = tokens(f, clang_getCursorExtent(cursor_last_child(g->def)));
    g->toks_done = 1;
  }
  return &g->toks;
}

/* ---- what keeps a call from being seen through ---------------------------------------- */

typedef struct body_scan {
  unsigned close;       /* the body's '}' */
  CXCursor last;        /* its last statement */
  const char *why;
} body_scan;

static enum CXChildVisitResult scan_body(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  body_scan *s = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ReturnStmt && start_of(c) != start_of(s->last))
    s->why = "it returns before its end";
  else
    s->why = cursor_copy_problem(c);
  return s->why ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static const char *body_problem(const fn *g, CXCursor *ret) {
  CXCursor body = cursor_last_child(g->def);
  body_scan s = {g->close, cursor_last_child(body), NULL};
  if (clang_Cursor_isVariadic(g->def))
    return "it takes a variable number of arguments";
  clang_visitChildren(body, scan_body, &s);
  if (s.why)
    return s.why;
  int returns = clang_getCursorKind(s.last) == CXCursor_ReturnStmt;
  *ret = returns ? s.last : clang_getNullCursor();
  int is_void = clang_getResultType(clang_getCursorType(g->def)).kind == CXType_Void;
  if (!is_void && (!returns || clang_Cursor_isNull(cursor_first_child(s.last))))
    return "it does not end in a return of its value";
  return NULL;
}

/* The words of directives that are not names. */
static int directive_word(const char *s) {
  static const char *const words[] = {"pragma", "loom", "par_loop", "over", "args", "read",
                                      "write", "rw", "inc", "min", "max", "idx", "pin",
                                      "pin_cse", "sync", "domain", "vector"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(s, words[i]) == 0)
      return 1;
  return 0;
}

/* Whether name is one of the callee's parameters or locals. */
static int own_name(const finder *f, const fn *g, const char *name) {
  for (int i = 0; i < g->params.len; i++)
    if (strcmp(frontend_spelling(f->fe, *(CXCursor *)g->params.items[i]), name) == 0)
      return 1;
  return has_name(&g->locals, name);
}

/* What token t of g's body refers to, or a null cursor. */
static CXCursor referent(const finder *f, const tok *t) {
  CXCursor c = clang_getCursor(f->fe->tu, t->loc);
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_TypeRef && k != CXCursor_VarDecl &&
      k != CXCursor_ParmDecl)
    return clang_getNullCursor();
  return clang_getCursorReferenced(c);
}

/* Why a word of g's body keeps the call at `at` from being seen through. */
static const char *word_problem(const finder *f, const fn *g, const tok *t, unsigned at) {
  int own = own_name(f, g, t->text);
  if (!own && has_name(&f->caller_names, t->text) && !directive_word(t->text))
    return arena_printf(f->a, "its body names %s, which %s declares too", t->text,
                        f->caller->name);
  CXCursor r = referent(f, t);
  if (clang_Cursor_isNull(r))
    return NULL;
  CXSourceLocation l = clang_getCursorLocation(r);
  unsigned off = frontend_offset(l);
  int inside = frontend_in_main_file(f->fe, l) && off >= g->start && off <= g->close;
  if (own && !inside)
    return arena_printf(f->a, "its body uses %s for two things", t->text);
  if (!inside && frontend_in_main_file(f->fe, l) && off > at)
    return arena_printf(f->a, "its body names %s, declared after the call", t->text);
  return NULL;
}

/* Why a macro g's body uses keeps the call at `at` from being seen through. */
static const char *macro_problem(const finder *f, const fn *g, unsigned at) {
  for (int i = 0; i < f->macros.len; i++) {
    CXCursor m = *(CXCursor *)f->macros.items[i];
    unsigned off = start_of(m);
    if (off <= g->open || off >= g->close)
      continue;
    CXCursor def = clang_getCursorReferenced(m);
    if (clang_Cursor_isNull(def))
      continue;
    const char *name = frontend_spelling(f->fe, m);
    if (frontend_in_main_file(f->fe, clang_getCursorLocation(def)) && start_of(def) > at)
      return arena_printf(f->a, "its body uses the macro %s, defined after the call", name);
    tok_list dt = tokens(f, clang_getCursorExtent(def));
    for (int k = 1; k < dt.len; k++) {
      const tok *t = dt.items[k];
      if (t->kind == CXToken_Identifier && own_name(f, g, t->text))
        return arena_printf(f->a, "the macro %s names %s, which would no longer be %s's",
                            name, t->text, g->name);
    }
  }
  return NULL;
}

/* ---- bindings and new names ----------------------------------------------------------- */

static const char *fresh_name(finder *f, const char *name) {
  for (;;) {
    const char *s = arena_printf(f->a, "%s_%d", name, f->instance);
    if (!text_names(f->prog->text, s))
      return s;
    f->instance++;
  }
}

/* Whether the body changes the parameter `name` or takes its address. */
static int body_changes(const tok_list *v, const char *name) {
  for (int i = 0; i < v->len; i++)
    if (is_word(v, i) && strcmp(tok_at(v, i)->text, name) == 0 &&
        tok_changed(tok_at(v, i - 1), tok_at(v, i + 1)))
      return 1;
  return 0;
}

/* Whether the caller takes the address of its variable `name`. */
static int caller_takes_address(const finder *f, const char *name) {
  const tok_list *v = body_tokens(f, f->caller);
  for (int i = 1; i < v->len; i++)
    if (tok_is(tok_at(v, i - 1), "&") && strcmp(tok_at(v, i)->text, name) == 0)
      return 1;
  return 0;
}

/* The argument's text on one line, or NULL: it continues a line with '\'. */
static const char *one_line(const finder *f, unsigned from, unsigned to) {
  char *s = (char *)text_of(f, from, to);
  for (char *p = s; *p; p++) {
    if (*p == '\\' && p[1] == '\n')
      return NULL;
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  }
  return s;
}

/* Whether arg is a variable of the caller (its parameter or local). */
static int caller_variable(const finder *f, CXCursor arg, const char *text) {
  CXCursor e = cursor_strip_expr(arg);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
    return 0;
  CXCursor d = clang_getCursorReferenced(e);
  enum CXCursorKind k = clang_getCursorKind(d);
  return (k == CXCursor_ParmDecl || (k == CXCursor_VarDecl &&
                                     clang_Cursor_getStorageClass(d) != CX_SC_Static &&
                                     clang_getCursorKind(clang_getCursorSemanticParent(d)) ==
                                         CXCursor_FunctionDecl)) &&
         strcmp(text, frontend_spelling(f->fe, d)) == 0;
}

/* What the parameter's declaration says after its name, up to the ',' or
 * ')' that ends it (its facts: ` LOOM_DAT_FACTS(cells, 4, double)`), on
 * one line, or "". */
static const char *after_name(const finder *f, CXCursor p, const char *name) {
  unsigned from = frontend_offset(clang_getCursorLocation(p)), to;
  size_t n = strlen(name);
  if (from + n > f->prog->len || strncmp(f->prog->text + from, name, n) != 0)
    return "";
  from += (unsigned)n;
  int depth = 0;
  for (to = from; to < f->prog->len; to++) {
    char c = f->prog->text[to];
    if ((c == ',' || c == ')') && depth == 0)
      break;
    depth += c == '(';
    depth -= c == ')';
  }
  const char *s = one_line(f, from, to);
  return s ? s : "";
}

/* The facts (after_name) of a parameter declared anew, with the names of
 * the parameters bound before it as they are bound: `LOOM_DAT_FACTS(s, 2,
 * double)` of a call `f(nodes, x)` says `nodes`.  NULL and *why when a
 * word the facts name would mean another thing in the caller. */
static const char *facts_renamed(finder *f, const call_site *s, const char *facts,
                                 const char **why) {
  strbuf sb;
  sb_init(&sb);
  const char *p = facts;
  while (*p) {
    const char *q = p + 1;
    if (!text_ident_char(*p)) { /* one character of punctuation or space */
      sb_putn(&sb, p++, 1);
      continue;
    }
    while (text_ident_char(*q))
      q++;
    if (*p >= '0' && *p <= '9') { /* a number, suffix included */
      sb_putn(&sb, p, (size_t)(q - p));
      p = q;
      continue;
    }
    const char *w = arena_strndup(f->a, p, (size_t)(q - p)), *to = w;
    int member = (p > facts && p[-1] == '.') || (p > facts + 1 && p[-2] == '-' && p[-1] == '>');
    for (int i = 0; !member && i < s->bindings.len; i++) {
      const binding *b = s->bindings.items[i];
      if (b->name && strcmp(b->name, w) == 0)
        to = b->local;
    }
    if (!member && to == w && has_name(&f->caller_names, w) && !own_name(f, s->callee, w)) {
      *why = arena_printf(f->a, "the facts of its parameters name %s, which %s declares too", w,
                          f->caller->name);
      sb_free(&sb);
      return NULL;
    }
    sb_puts(&sb, to);
    p = q;
  }
  sb_putn(&sb, "", 1);
  const char *out = arena_strdup(f->a, sb.data);
  sb_free(&sb);
  return out;
}

static const char *bind(finder *f, call_site *s, CXCursor call) {
  const fn *g = s->callee;
  int n = clang_Cursor_getNumArguments(call);
  if (n != g->params.len)
    return "its arguments do not match its parameters";
  const tok_list *v = &((fn *)g)->toks;
  for (int i = 0; i < n; i++) {
    CXCursor p = *(CXCursor *)g->params.items[i], arg = clang_Cursor_getArgument(call, (unsigned)i);
    binding *b = arena_alloc(f->a, sizeof *b);
    memset(b, 0, sizeof *b);
    b->name = frontend_spelling(f->fe, p);
    b->arg = one_line(f, start_of(arg), end_of(arg));
    if (!b->arg)
      return "an argument continues its line with '\\'";
    if (!*b->name) {
      b->decl = arena_printf(f->a, "(void)(%s);", b->arg);
    } else if (caller_variable(f, arg, b->arg) && !body_changes(v, b->name) &&
               !caller_takes_address(f, b->arg)) {
      b->local = b->arg;
    } else {
      const char *type = frontend_type_spelling(f->fe, clang_getCursorType(p));
      if (strchr(type, '(') || strchr(type, '['))
        return arena_printf(f->a, "loomc cannot declare its parameter %s (%s)", b->name, type);
      const char *why = NULL, *facts = facts_renamed(f, s, after_name(f, p, b->name), &why);
      if (!facts)
        return why;
      b->local = fresh_name(f, b->name);
      b->decl = arena_printf(f->a, "%s%s%s%s = (%s);", type,
                             type[strlen(type) - 1] == '*' ? "" : " ", b->local, facts, b->arg);
    }
    vec_push(f->a, &s->bindings, b);
  }
  return NULL;
}

/* The new name of a word of the body, or NULL: it keeps its own. */
static const char *renamed(finder *f, call_site *s, const char *w) {
  for (int i = 0; i < s->bindings.len; i++) {
    const binding *b = s->bindings.items[i];
    if (b->name && strcmp(b->name, w) == 0)
      return b->local;
  }
  if (!has_name(&s->callee->locals, w))
    return NULL;
  for (int i = 0; i < s->renames.len; i++) {
    const text_edit *e = s->renames.items[i];
    if (strncmp(f->prog->text + e->start, w, e->end - e->start) == 0 &&
        strlen(w) == e->end - e->start)
      return e->text;
  }
  return fresh_name(f, w);
}

/* The renames of the body's words, and the problems its words pose. */
static const char *rename_body(finder *f, call_site *s) {
  const tok_list *v = &((fn *)s->callee)->toks;
  for (int i = 0; i < v->len; i++) {
    const tok *t = v->items[i];
    if (!is_word(v, i))
      continue;
    const char *why = word_problem(f, s->callee, t, s->start);
    if (why)
      return why;
    const char *to = renamed(f, s, t->text);
    if (!to || strcmp(to, t->text) == 0)
      continue;
    text_edit *e = arena_alloc(f->a, sizeof *e);
    *e = (text_edit){t->start, t->end, to};
    vec_push(f->a, &s->renames, e);
  }
  return macro_problem(f, s->callee, s->start);
}

/* The renamed text [from, to) of the body, on one line. */
static const char *renamed_text(finder *f, const call_site *s, unsigned from, unsigned to) {
  strbuf sb;
  sb_init(&sb);
  for (int i = 0; i < s->renames.len; i++) {
    const text_edit *e = s->renames.items[i];
    if (e->start < from || e->end > to)
      continue;
    sb_putn(&sb, f->prog->text + from, e->start - from);
    sb_puts(&sb, e->text);
    from = e->end;
  }
  sb_putn(&sb, f->prog->text + from, to - from);
  sb_putn(&sb, "", 1);
  char *out = arena_strdup(f->a, sb.data);
  sb_free(&sb);
  for (char *p = out; *p; p++)
    if (*p == '\n' || *p == '\r' || (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
      *p = ' ';
  return out;
}

/* ---- call statements ------------------------------------------------------------------ */

/* The end of a statement: after its ';'. */
static unsigned statement_end(const program *prog, unsigned end) {
  if (end > 0 && prog->text[end - 1] == ';')
    return end;
  while (end < prog->len && (prog->text[end] == ' ' || prog->text[end] == '\t'))
    end++;
  return end < prog->len && prog->text[end] == ';' ? end + 1 : 0;
}

/* Whether the text at off is the name of f then '(': not a macro's. */
static int written_call(const program *prog, unsigned off, const char *name) {
  size_t n = strlen(name);
  if (off + n > prog->len || strncmp(prog->text + off, name, n) != 0)
    return 0;
  off += (unsigned)n;
  while (off < prog->len && (prog->text[off] == ' ' || prog->text[off] == '\t'))
    off++;
  return off < prog->len && prog->text[off] == '(';
}

static const char *site_problem(finder *f, call_site *s, CXCursor call) {
  if (s->callee == f->caller)
    return "it is the function the call stands in";
  if (!s->end || !written_call(f->prog, start_of(call), s->callee->name))
    return "the call is written by a macro";
  int n = program_loops_in(f->prog, s->callee->open, s->callee->close);
  if (n > INLINE_LOOPS)
    return arena_printf(f->a, "it runs %d par_loops (the budget of a call seen through, "
                        "INLINE_LOOPS, is %d)", n, INLINE_LOOPS);
  CXCursor ret;
  const char *why = body_problem(s->callee, &ret);
  if (why)
    return why;
  body_tokens(f, (fn *)s->callee);
  if ((why = bind(f, s, call)) || (why = rename_body(f, s)))
    return why;
  s->body_end = s->callee->close;
  if (!clang_Cursor_isNull(ret)) {
    s->ret_start = s->body_end = start_of(ret);
    while (s->body_end > 0 && (f->prog->text[s->body_end - 1] == ' ' ||
                               f->prog->text[s->body_end - 1] == '\t'))
      s->body_end--; /* the return's indentation */
    CXCursor e = cursor_first_child(ret);
    if (!clang_Cursor_isNull(e))
      s->ret_expr = renamed_text(f, s, start_of(e), end_of(e));
  }
  return NULL;
}

/* The function of the main file a call calls, if it runs loops, or NULL. */
static fn *loop_callee(finder *f, CXCursor call) {
  CXCursor target = clang_getCursorReferenced(call);
  if (clang_getCursorKind(target) != CXCursor_FunctionDecl)
    return NULL;
  fn *g = fn_of(f, clang_getCursorDefinition(target));
  return g && g->runs_loops ? g : NULL;
}

/* A statement of a block: a call, or a declaration of one variable from a call. */
static void statement(finder *f, CXCursor st) {
  CXCursor call = st;
  const char *decl = NULL;
  if (clang_getCursorKind(st) == CXCursor_DeclStmt) {
    CXCursor v = cursor_first_child(st);
    if (clang_getCursorKind(v) != CXCursor_VarDecl || !clang_equalCursors(v, cursor_last_child(st)))
      return;
    call = cursor_strip_expr(cursor_last_child(v));
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
      return;
    const char *d = text_of(f, start_of(st), start_of(call));
    size_t n = strlen(d);
    while (n > 0 && (d[n - 1] == ' ' || d[n - 1] == '\t' || d[n - 1] == '\n'))
      n--;
    if (n == 0 || d[n - 1] != '=' || clang_Cursor_getStorageClass(v) == CX_SC_Static)
      return;
    n--;
    while (n > 0 && (d[n - 1] == ' ' || d[n - 1] == '\t'))
      n--;
    decl = arena_strndup(f->a, d, n);
  }
  if (clang_getCursorKind(call) != CXCursor_CallExpr)
    return;
  fn *g = loop_callee(f, call);
  if (!g)
    return;
  call_site *s = arena_alloc(f->a, sizeof *s);
  memset(s, 0, sizeof *s);
  s->callee = g;
  s->caller = f->caller;
  s->start = start_of(st);
  s->end = statement_end(f->prog, end_of(st));
  s->line = program_line(f->prog, start_of(call));
  s->call = start_of(call);
  s->decl = decl;
  f->instance++;
  s->why = site_problem(f, s, call);
  vec_push(f->a, &f->sites, s);
}

static enum CXChildVisitResult block_statement(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  statement(data, c);
  return CXChildVisit_Continue;
}

/* A call of a function that runs loops that is not a statement: noted. */
static void other_call(finder *f, CXCursor call) {
  fn *g = loop_callee(f, call);
  if (!g)
    return;
  for (int i = 0; i < f->sites.len; i++)
    if (((const call_site *)f->sites.items[i])->call == start_of(call))
      return;
  call_site *s = arena_alloc(f->a, sizeof *s);
  memset(s, 0, sizeof *s);
  *s = (call_site){.callee = g, .caller = f->caller, .line = program_line(f->prog, start_of(call)),
                   .call = start_of(call),
                   .why = "the call is not a statement of its own, nor a declaration's "
                          "initialiser"};
  vec_push(f->a, &f->sites, s);
}

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
    clang_visitChildren(c, block_statement, data);
  if (clang_getCursorKind(c) == CXCursor_CallExpr)
    other_call(data, c);
  return CXChildVisit_Recurse;
}

call_site_list inline_calls(const frontend *fe, const program *prog, arena *a) {
  finder f = {fe, prog, a, {0}, {0}, {0}, NULL, {0}, 0};
  frontend_visit_top(fe, FE_MAIN, top_level, &f);
  for (int i = 0; i < f.fns.len; i++) {
    f.caller = f.fns.items[i];
    f.caller_names = (vec){0};
    for (int k = 0; k < f.caller->params.len; k++)
      add_name(a, &f.caller_names, frontend_spelling(fe, *(CXCursor *)f.caller->params.items[k]));
    for (int k = 0; k < f.caller->locals.len; k++)
      add_name(a, &f.caller_names, f.caller->locals.items[k]);
    CXCursor body = cursor_last_child(f.caller->def);
    clang_visitChildren(body, block_statement, &f);
    clang_visitChildren(body, walk, &f);
  }
  return f.sites;
}

/* ---- access and writing --------------------------------------------------------------- */

const char *call_site_why(const call_site *c) { return c->why; }
void call_site_range(const call_site *c, unsigned *start, unsigned *end) {
  *start = c->start;
  *end = c->end;
}
unsigned call_site_line(const call_site *c) { return c->line; }
const char *call_site_callee(const call_site *c) { return c->callee->name; }
unsigned call_site_static_def(const call_site *c) {
  return c->callee->is_static ? c->callee->start : 0;
}

void inline_write(writer *w, const call_site *c) {
  const program *prog = w->prog;
  writer_puts(w, arena_printf(w->a, "/* loomc: the call of %s seen through */\n", c->callee->name));
  writer_line_at(w, program_line(prog, c->callee->open), 1);
  int written = 0;
  for (int i = 0; i < c->bindings.len; i++) {
    const binding *b = c->bindings.items[i];
    if (b->decl)
      writer_puts(w, arena_printf(w->a, "%*s%s", written++ ? 1 : (int)writer_column(prog, c->start) - 1,
                                  "", b->decl));
  }
  writer_copy_edited(w, c->callee->open + 1, c->body_end, &c->renames);
  if (c->ret_start) {
    writer_line_at(w, program_line(prog, c->ret_start), writer_column(prog, c->ret_start));
    if (c->ret_expr && c->decl)
      writer_puts(w, arena_printf(w->a, "%s = (%s);", c->decl, c->ret_expr));
    else if (c->ret_expr)
      writer_puts(w, arena_printf(w->a, "(void)(%s);", c->ret_expr));
  }
  int rest = c->end < prog->len && prog->text[c->end] != '\n'; /* on the call's line */
  writer_line_at(w, program_line(prog, c->end - 1), rest ? writer_column(prog, c->end - 1) + 1 : 1);
}
