/*
 * version.c — function bodies written twice (see version.h).
 *
 * The handles come from the translation's regions (their loops' arguments
 * and their host code's objects); the checks and the renames read the
 * body's libclang tokens (directives included) and its cursors.
 */
#include "transform/version.h"

#include <string.h>

#include "analysis/dag.h"
#include "frontend/cursor.h"
#include "frontend/summary.h"
#include "frontend/tokens.h"

struct version_site {
  const char *func;
  unsigned open, close; /* the body's '{' and '}' */
  vec members;          /* obj*: the handles tested */
  vec locals;           /* const char*: their names in the first copy */
  text_edit_list renames; /* over the body */
  const char *why;
  int group;
  unsigned line;        /* of the '{' */
};

typedef struct ctx {
  const frontend *fe;
  const program *prog;
  const char *names; /* the text whose words the locals' names avoid */
  arena *a;
} ctx;

/* ---- the handles ------------------------------------------------------------------------- */

static void add_unique(arena *a, vec *v, void *p) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == p)
      return;
  vec_push(a, v, p);
}

static int in_body(const region *r, unsigned off) { return off > r->loc.offset && off < r->end; }

/* Whether region r is the function body `body` or a block inside it. */
static int within(const region *r, const region *body) {
  return strcmp(r->func, body->func) == 0 && r->loc.offset >= body->loc.offset &&
         r->end <= body->end;
}

/* The loops kept apart in the body where handles that may be one dat
 * (one of them written) were involved (transform/fuse.c). */
static int alias_refusals(const dag_list *dags, const region *body) {
  int n = 0;
  for (int d = 0; d < dags->len; d++) {
    const dag *g = dags->items[d];
    n += within(g->r, body) ? g->alias_refusals : 0;
  }
  return n;
}

/* The dats of an alias class the body names: its loops' and host code's. */
static vec class_dats(const ctx *c, const dag_list *dags, const region *body) {
  vec v = {0};
  for (int i = 0; i < c->prog->loops.len; i++) {
    const loop *lp = c->prog->loops.items[i];
    if (!in_body(body, lp->loc.offset))
      continue;
    for (int k = 0; k < lp->nargs; k++) {
      obj *o = lp->args[k].obj;
      if (o && o->kind == OBJ_DAT && o->var)
        add_unique(c->a, &v, o);
    }
  }
  for (int d = 0; d < dags->len; d++) {
    const region *r = ((const dag *)dags->items[d])->r;
    if (!within(r, body))
      continue;
    for (int i = 0; i < r->items.len; i++) {
      const item *it = r->items.items[i];
      for (int k = 0; k < it->objs.len; k++) {
        obj *o = it->objs.items[k];
        if (o->kind == OBJ_DAT && o->var)
          add_unique(c->a, &v, o);
      }
    }
  }
  return v;
}

/* The members of classes of which the body names two or more. */
static vec tested(const ctx *c, const vec *dats) {
  vec v = {0};
  for (int i = 0; i < dats->len; i++) {
    const obj *o = dats->items[i];
    int n = 0;
    for (int k = 0; k < dats->len; k++)
      n += ((const obj *)dats->items[k])->var == o->var;
    if (n >= 2)
      vec_push(c->a, &v, dats->items[i]);
  }
  return v;
}

/* ---- the body's tokens and cursors --------------------------------------------------------- */

/* The words of a member chain: "m->p_q" as m, ->, p_q. */
static vec chain_words(const ctx *c, const char *expr) {
  vec v = {0};
  for (const char *p = expr; *p;) {
    size_t n = *p == '-' ? 2 : *p == '.' ? 1 : strcspn(p, "-.");
    vec_push(c->a, &v, arena_strndup(c->a, p, n));
    p += n;
  }
  return v;
}

/* The index of the chain's last token if the tokens at i spell it, else -1. */
static int chain_at(const tok_list *toks, int i, const vec *words) {
  const tok *p = tok_at(toks, i - 1);
  if (tok_is(p, "->") || tok_is(p, "."))
    return -1;
  for (int k = 0; k < words->len; k++)
    if (!tok_is(tok_at(toks, i + k), words->items[k]))
      return -1;
  const tok *n = tok_at(toks, i + words->len);
  if (tok_is(n, "->") || tok_is(n, "."))
    return -1; /* a longer chain (a directive's `m->p_q[map[0]]` is this one) */
  return i + words->len - 1;
}

/* Whether the token names a dat handle (a variable or member of its type). */
static int names_handle(const ctx *c, const tok *t) {
  CXCursor cur = clang_getCursor(c->fe->tu, t->loc);
  CXType ty = clang_getCanonicalType(clang_getCursorType(cur));
  if (ty.kind != CXType_Pointer)
    return 0;
  return strcmp(frontend_type_spelling(c->fe, clang_getPointeeType(ty)), "struct loom_dat_s") == 0;
}

typedef struct cursor_check {
  const ctx *c;
  const char *why;
} cursor_check;

static enum CXChildVisitResult check_cursor(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  cursor_check *k = data;
  enum CXCursorKind kind = clang_getCursorKind(cur);
  if (kind == CXCursor_CallExpr) {
    CXCursor callee = clang_getCursorReferenced(cur);
    const char *name = frontend_spelling(k->c->fe, cur);
    if (clang_Cursor_isNull(callee))
      k->why = "it calls through a pointer";
    else if (strncmp(name, "loom_", 5) != 0 && !summary_is_system(callee))
      k->why = arena_printf(k->c->a, "it calls %s, which could change the handles", name);
  } else {
    k->why = cursor_copy_problem(cur);
  }
  return k->why ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The function definition whose body's '{' is at open. */
typedef struct fn_find {
  const frontend *fe;
  unsigned open;
  CXCursor found;
} fn_find;

static enum CXChildVisitResult find_fn(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  fn_find *f = data;
  if (clang_getCursorKind(cur) != CXCursor_FunctionDecl || !clang_isCursorDefinition(cur))
    return CXChildVisit_Continue;
  CXSourceRange e = clang_getCursorExtent(cur);
  if (!frontend_in_main_file(f->fe, clang_getRangeStart(e)) ||
      frontend_offset(clang_getRangeStart(e)) > f->open ||
      frontend_offset(clang_getRangeEnd(e)) <= f->open)
    return CXChildVisit_Continue;
  f->found = cur;
  return CXChildVisit_Break;
}

static int is_param(const ctx *c, CXCursor fn, const char *name) {
  int n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; i++)
    if (strcmp(frontend_spelling(c->fe, clang_Cursor_getArgument(fn, (unsigned)i)), name) == 0)
      return 1;
  return 0;
}

/* ---- the checks and the renames ------------------------------------------------------------ */

static const char *base_of(const ctx *c, const obj *o) {
  return arena_strndup(c->a, o->expr, strcspn(o->expr, "-."));
}

static const char *fresh(const ctx *c, const char *name, const vec *taken) {
  for (int n = 1;; n++) {
    const char *s = arena_printf(c->a, "%s_%d", name, n);
    int clash = text_names(c->names, s);
    for (int i = 0; i < taken->len && !clash; i++)
      clash = strcmp(taken->items[i], s) == 0;
    if (!clash)
      return s;
  }
}

/* Why a use of the parameter `base` (token i) keeps the body from being
 * written twice. */
static const char *base_problem(const tok_list *toks, int i, const char *base, int chain, arena *a) {
  const tok *p = tok_at(toks, i - 1), *n = tok_at(toks, i + 1);
  if (tok_is(p, "->") || tok_is(p, "."))
    return NULL;
  if (tok_changed(p, n))
    return arena_printf(a, "it changes %s, or takes its address", base);
  if (chain && !tok_is(n, "->") && !tok_is(n, "."))
    return arena_printf(a, "it uses %s itself, not only its members", base);
  return NULL;
}

/* The checks on the body's tokens, and the renames of the handles. */
static const char *scan(const ctx *c, version_site *v, const tok_list *toks) {
  for (int i = 0; i < toks->len; i++) {
    const tok *t = toks->items[i];
    if (t->kind != CXToken_Identifier)
      continue;
    for (int m = 0; m < v->members.len; m++) {
      const obj *o = v->members.items[m];
      const char *base = base_of(c, o);
      int chain = o->expr[strlen(base)] != 0;
      if (strcmp(t->text, base) != 0)
        continue;
      const char *why = base_problem(toks, i, base, chain, c->a);
      if (why)
        return why;
      vec words = chain_words(c, o->expr);
      int last = chain_at(toks, i, &words);
      if (last < 0)
        continue;
      if (tok_changed(tok_at(toks, i - 1), tok_at(toks, last + 1)))
        return arena_printf(c->a, "it changes %s, or takes its address", o->expr);
      text_edit *e = arena_alloc(c->a, sizeof *e);
      *e = (text_edit){t->start, ((const tok *)toks->items[last])->end, v->locals.items[m]};
      vec_push(c->a, &v->renames, e);
    }
    if (names_handle(c, t) && tok_changed(tok_at(toks, i - 1), tok_at(toks, i + 1)))
      return arena_printf(c->a, "it assigns the dat handle %s", t->text);
  }
  return NULL;
}

static const char *problem(const ctx *c, version_site *v) {
  fn_find f = {c->fe, v->open, clang_getNullCursor()};
  frontend_visit_top(c->fe, FE_ALL, find_fn, &f);
  if (clang_Cursor_isNull(f.found))
    return "loomc did not find its definition";
  for (int m = 0; m < v->members.len; m++) {
    const obj *o = v->members.items[m];
    if (!is_param(c, f.found, base_of(c, o)))
      return arena_printf(c->a, "%s is not a parameter or a member chain from one", o->expr);
    vec_push(c->a, &v->locals, (void *)fresh(c, o->name, &v->locals));
  }
  cursor_check k = {c, NULL};
  clang_visitChildren(f.found, check_cursor, &k);
  if (k.why)
    return k.why;
  tok_list toks = tokens_between(c->fe, v->open + 1, v->close, c->a);
  return scan(c, v, &toks);
}

/* Whether the body of r is left to the analysis of round's text: an edit
 * of the round lies in it, or it names a dat that is not opaque. */
static int waits(const ctx *c, const dag_list *dags, const region *r, const version_round *round) {
  for (int i = 0; round && i < round->nedits; i++)
    if (in_body(r, round->edits[i]))
      return 1;
  for (int i = 0; round && i < c->prog->loops.len; i++) {
    const loop *lp = c->prog->loops.items[i];
    for (int k = 0; in_body(r, lp->loc.offset) && k < lp->nargs; k++) {
      const obj *o = lp->args[k].obj;
      if (o && o->kind == OBJ_DAT && !o->opaque)
        return 1;
    }
  }
  for (int d = 0; round && d < dags->len; d++) {
    const region *b = ((const dag *)dags->items[d])->r;
    for (int i = 0; within(b, r) && i < b->items.len; i++) {
      const item *it = b->items.items[i];
      for (int k = 0; k < it->objs.len; k++) {
        const obj *o = it->objs.items[k];
        if (o->kind == OBJ_DAT && !o->opaque)
          return 1;
      }
    }
  }
  return 0;
}

version_site_list version_sites(const frontend *fe, const program *prog, const dag_list *dags,
                                const version_round *round, arena *a) {
  ctx c = {fe, prog, round ? round->text : prog->text, a};
  version_site_list sites = {0};
  int groups = 0;
  for (const char *p = prog->text; (p = strstr(p, "LOOM__DISTINCT(")); p++)
    groups++;
  for (int d = 0; dags && d < dags->len; d++) {
    const region *r = ((const dag *)dags->items[d])->r;
    if (r->depth != 0 || r->loop)
      continue;
    if (!alias_refusals(dags, r) || waits(&c, dags, r, round))
      continue; /* the alias classes cost it nothing (a refusal implies a write) */
    vec dats = class_dats(&c, dags, r);
    vec members = tested(&c, &dats);
    const char *body = arena_strndup(a, prog->text + r->loc.offset, r->end - r->loc.offset);
    if (members.len < 2 || strstr(body, "loom__dats_distinct"))
      continue; /* written twice already (an earlier round) */
    version_site *v = arena_alloc(a, sizeof *v);
    *v = (version_site){r->func, r->loc.offset, r->end, members, {0}, {0}, NULL, 0, r->loc.line};
    int n = program_loops_in(prog, r->loc.offset, r->end);
    v->why = n > VERSION_LOOPS
                 ? arena_printf(a, "its body runs %d par_loops (the budget of a body written "
                                "twice, VERSION_LOOPS, is %d)", n, VERSION_LOOPS)
                 : problem(&c, v);
    v->group = v->why ? 0 : ++groups;
    vec_push(a, &sites, v);
  }
  return sites;
}

/* ---- the two copies ------------------------------------------------------------------------ */

const char *version_why(const version_site *v) { return v->why; }

void version_range(const version_site *v, unsigned *start, unsigned *end) {
  *start = v->open + 1;
  *end = v->close;
}

unsigned version_line(const version_site *v) { return v->line; }

const char *version_func(const version_site *v) { return v->func; }

const char *version_handles(const version_site *v, arena *a) {
  strbuf sb;
  sb_init(&sb);
  for (int i = 0; i < v->members.len; i++)
    sb_printf(&sb, "%s%s", i == 0 ? "" : i + 1 < v->members.len ? ", " : " and ",
              obj_label(v->members.items[i]));
  const char *out = arena_strdup(a, sb.data);
  sb_free(&sb);
  return out;
}

void version_write(writer *w, const version_site *v) {
  const program *prog = w->prog;
  unsigned open_line = program_line(prog, v->open), close_line = program_line(prog, v->close);
  unsigned col = writer_column(prog, v->close) + 2;
  writer_line_at(w, open_line, col);
  writer_puts(w, arena_printf(w->a, "/* loomc: the body of %s written twice: for %s distinct, "
                              "and as written */", v->func, version_handles(v, w->a)));
  writer_line_at(w, open_line, col);
  strbuf sb;
  sb_init(&sb);
  sb_printf(&sb, "if (loom__dats_distinct(%d", v->members.len);
  for (int i = 0; i < v->members.len; i++)
    sb_printf(&sb, ", %s", ((const obj *)v->members.items[i])->expr);
  sb_puts(&sb, ")) {");
  for (int i = 0; i < v->members.len; i++) {
    const obj *o = v->members.items[i];
    sb_printf(&sb, " loom_dat %s LOOM__DISTINCT(%d) LOOM_DAT_FACTS(%s, %d, %s) = %s;",
              (const char *)v->locals.items[i], v->group, o->set->expr, o->dim,
              o->type->c_name, o->expr);
  }
  writer_puts(w, sb.data);
  sb_free(&sb);
  writer_line_at(w, open_line, 1);
  writer_copy_edited(w, v->open + 1, v->close, &v->renames);
  writer_line_at(w, close_line, writer_column(prog, v->close));
  writer_puts(w, "} else {");
  writer_line_at(w, open_line, 1);
  writer_copy(w, v->open + 1, v->close);
  writer_line_at(w, close_line, writer_column(prog, v->close));
  writer_puts(w, "} ");
}
