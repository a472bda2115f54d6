/*
 * affine.c — resolving affine loops (see affine.h).
 *
 * Resolving reads the domain with isl and builds, per argument, the access
 * relation `[params] -> { STMT[dims] -> ARRAY[subscripts] }`; both are kept
 * as isl text, which the analyses (analysis/affine_isl.h) and the plan of
 * temporaries (transform/affine_plan.h) read back.
 */
#include "frontend/affine.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ctypes.h"
#include "frontend/cursor.h"
#include "util/text.h"

isl_ctx *affine_ctx_new(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  return ctx;
}

/* ---- text ------------------------------------------------------------------ */

static int ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

const char *affine_keep_str(arena *a, char *s) {
  const char *k = s ? arena_strdup(a, s) : NULL;
  free(s);
  return k;
}

const char *affine_arg_text(arena *a, const loop_arg *arg) {
  const char *s = arg->name;
  for (int i = 0; i < arg->nsubs; i++)
    s = arena_printf(a, "%s[%s]", s, arg->subs[i]);
  return s;
}

static int in_list(const char *name, const char **list, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(list[i], name) == 0)
      return 1;
  return 0;
}

const char *affine_join_names(arena *a, const char **list, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++)
    s = arena_printf(a, "%s%s%s", s, i ? ", " : "", list[i]);
  return s;
}

/* The location of byte `off` of the domain string (after its quote). */
static srcloc domain_at(const loop *lp, size_t off) {
  srcloc l = lp->domain_loc;
  l.col += 1 + (unsigned)off;
  l.offset += 1 + (unsigned)off;
  return l;
}

/* ---- resolve: the domain ------------------------------------------------------- */

typedef struct resolver {
  const frontend *fe;
  const symtab *st;
  arena *arena;
  loop *lp;
  affine_loop *al;
  isl_ctx *ctx;
} resolver;

/* The parameter names of `[a, b] -> { ... }`, and where the set begins. */
static vec domain_params(arena *a, const char *s, size_t *body, vec *offs) {
  vec names = {0};
  size_t i = strspn(s, " \t");
  *body = 0;
  if (s[i] != '[')
    return names;
  const char *close = strchr(s + i, ']');
  const char *arrow = close ? strstr(close, "->") : NULL;
  const char *brace = strchr(s, '{');
  if (!arrow || !brace || arrow > brace)
    return names;
  for (size_t k = i + 1; s + k < close; k++)
    if (ident_start(s[k]) && !text_ident_char(s[k - 1])) {
      size_t n = 1;
      while (text_ident_char(s[k + n]))
        n++;
      vec_push(a, &names, arena_strndup(a, s + k, n));
      vec_push(a, offs, (void *)(s + k));
      k += n - 1;
    }
  *body = (size_t)(arrow - s) + 2;
  return names;
}

static const char *const isl_words[] = {"and", "or", "not", "implies", "exists", "mod",
                                        "floor", "ceil", "min", "max", "true", "false"};

static int is_isl_word(const char *w, size_t n) {
  for (size_t k = 0; k < sizeof isl_words / sizeof isl_words[0]; k++)
    if (strlen(isl_words[k]) == n && strncmp(isl_words[k], w, n) == 0)
      return 1;
  return 0;
}

/* Every name in the set part is a parameter, a variable of its tuple, a
 * name bound by `exists (...)`, or an isl word; reports the first that is
 * not.  Returns 0 or -1. */
static int check_domain_names(resolver *r, const vec *params, size_t body) {
  const char *s = r->lp->domain;
  vec bound = {0};
  int in_tuple = 0, in_exists = 0, depth_seen_brace = 0;
  for (size_t k = body; s[k]; k++) {
    char c = s[k];
    if (c == '{')
      depth_seen_brace = 1;
    if (c == '[' && depth_seen_brace)
      in_tuple = 1;
    if (c == ']')
      in_tuple = 0;
    if (c == ':')
      in_exists = 0;
    if (!ident_start(c) || (k > 0 && text_ident_char(s[k - 1])))
      continue;
    size_t n = 1;
    while (text_ident_char(s[k + n]))
      n++;
    const char *w = arena_strndup(r->arena, s + k, n);
    size_t after = k + n + strspn(s + k + n, " \t");
    if (strcmp(w, "exists") == 0)
      in_exists = 1;
    else if (in_tuple || in_exists)
      vec_push(r->arena, &bound, (void *)w);
    else if (s[after] == '[' && depth_seen_brace)
      ; /* the tuple's name */
    else if (!is_isl_word(w, n) && !in_list(w, (const char **)params->items, params->len) &&
             !in_list(w, (const char **)bound.items, bound.len)) {
      diag(DIAG_ERROR, domain_at(r->lp, k), (unsigned)n,
           "unknown name '%s' in the domain: a domain uses its iteration variables "
           "and the parameters listed before '->' ('[%s] -> { ... }')",
           w, params->len ? affine_join_names(r->arena, (const char **)params->items, params->len)
                          : w);
      return -1;
    }
    k += n - 1;
  }
  return 0;
}

static int is_integer_type(CXType t) {
  switch (clang_getCanonicalType(t).kind) {
  case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_UShort:
  case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_Char_S:
  case CXType_SChar: case CXType_Short: case CXType_Int: case CXType_Long:
  case CXType_LongLong: case CXType_Enum:
    return 1;
  default:
    return 0;
  }
}

/* Each parameter is an integer variable in scope at the directive. */
static int check_params(resolver *r, const vec *params, const vec *offs) {
  for (int i = 0; i < params->len; i++) {
    const char *name = params->items[i];
    sym *s = symtab_lookup(r->st, name, r->lp->start);
    enum CXCursorKind k = s ? clang_getCursorKind(s->cursor) : CXCursor_NoDeclFound;
    const char *why = NULL;
    if (!s)
      why = "it is not declared";
    else if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
      why = "it is not a variable";
    else if (!is_integer_type(clang_getCursorType(s->cursor)))
      why = arena_printf(r->arena, "it has type '%s'",
                         frontend_type_spelling(r->fe, clang_getCursorType(s->cursor)));
    if (why) {
      size_t off = (size_t)((const char *)offs->items[i] - r->lp->domain);
      diag(DIAG_ERROR, domain_at(r->lp, off), (unsigned)strlen(name),
           "domain parameter '%s' must be an integer variable in scope at the "
           "directive: %s", name, why);
      return -1;
    }
  }
  return 0;
}

/* The object of a domain parameter (an integer variable): the one it
 * already is, or a new variable object. */
static obj *param_obj(resolver *r, sym *s) {
  sym *home = s->canon;
  if (home->obj)
    return home->obj;
  obj *o = arena_alloc(r->arena, sizeof *o);
  o->kind = OBJ_VAR;
  o->name = s->name;
  o->loc = frontend_cursor_loc(r->fe, s->cursor);
  o->var = home;
  o->dim = 1;
  home->obj = o;
  return o;
}

/* The domain read by isl, with its tuple named; fills al's names. */
static int read_domain(resolver *r) {
  loop *lp = r->lp;
  affine_loop *al = r->al;
  vec offs = {0};
  size_t body;
  vec params = domain_params(r->arena, lp->domain, &body, &offs);
  if (check_domain_names(r, &params, body) || check_params(r, &params, &offs))
    return -1;
  isl_set *set = isl_set_read_from_str(r->ctx, lp->domain);
  if (!set) {
    diag(DIAG_ERROR, lp->domain_loc, (unsigned)strlen(lp->domain) + 2,
         "isl cannot read the domain: it must be one isl set, such as "
         "\"[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }\"");
    return -1;
  }
  int rc = 0;
  isl_size n = isl_set_dim(set, isl_dim_set);
  for (int d = 0; d < n && !rc; d++)
    if (!isl_set_has_dim_name(set, isl_dim_set, d)) {
      diag(DIAG_ERROR, lp->domain_loc, (unsigned)strlen(lp->domain) + 2,
           "dimension %d of the domain has no name: each dimension of an affine "
           "loop's domain is an iteration variable", d + 1);
      rc = -1;
    }
  if (!rc && (n < 1 || isl_set_is_bounded(set) != isl_bool_true)) {
    diag(DIAG_ERROR, lp->domain_loc, (unsigned)strlen(lp->domain) + 2,
         n < 1 ? "the domain has no iteration variable: an affine loop's domain has at least one dimension"
               : "the domain is unbounded: every iteration variable needs a lower "
                 "and an upper bound (for each value of the parameters)");
    rc = -1;
  }
  for (int i = 0; !rc && i < params.len; i++)
    vec_push(r->arena, &lp->domain_vars,
             param_obj(r, symtab_lookup(r->st, params.items[i], lp->start)));
  if (!rc) {
    al->ndims = n;
    al->dims = arena_alloc(r->arena, sizeof *al->dims * (size_t)n);
    for (int d = 0; d < n; d++)
      al->dims[d] = arena_strdup(r->arena, isl_set_get_dim_name(set, isl_dim_set, d));
    al->nparams = params.len;
    al->params = (const char **)params.items;
    set = isl_set_set_tuple_name(set, al->stmt);
    al->domain = affine_keep_str(r->arena, isl_set_to_str(set));
  }
  isl_set_free(set);
  return rc;
}

/* ---- resolve: the arguments ----------------------------------------------------- */

/* The element type after `nsubs` subscripts, or an invalid type. */
static CXType element_type(CXType t, int nsubs) {
  for (int i = 0; i < nsubs; i++) {
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_Pointer)
      t = clang_getPointeeType(c);
    else if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
             c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray)
      t = clang_getArrayElementType(c);
    else
      return (CXType){CXType_Invalid, {0, 0}};
  }
  return t;
}

/* Names in a subscript are iteration variables or parameters. */
static int check_subscript_names(resolver *r, const loop_arg *a, int i) {
  const char *s = a->subs[i];
  for (size_t k = 0; s[k]; k++) {
    if (!ident_start(s[k]) || (k && text_ident_char(s[k - 1])))
      continue;
    size_t n = 1;
    while (text_ident_char(s[k + n]))
      n++;
    const char *w = arena_strndup(r->arena, s + k, n);
    if (!in_list(w, r->al->dims, r->al->ndims) &&
        !in_list(w, r->al->params, r->al->nparams)) {
      diag(DIAG_ERROR, a->sub_locs[i], 0,
           "unknown name '%s' in subscript '%s' of '%s': a subscript uses the "
           "iteration variables (%s) and the domain's parameters%s%s%s", w, s, a->name,
           affine_join_names(r->arena, r->al->dims, r->al->ndims),
           r->al->nparams ? " (" : "", affine_join_names(r->arena, r->al->params, r->al->nparams),
           r->al->nparams ? ")" : "");
      return -1;
    }
    k += n - 1;
  }
  return 0;
}

static const char *access_text(resolver *r, const loop_arg *a, int first, int n) {
  const char *subs = "";
  for (int i = first; i < first + n; i++)
    subs = arena_printf(r->arena, "%s%s%s", subs, i > first ? ", " : "", a->subs[i]);
  return arena_printf(r->arena, "[%s] -> { %s[%s] -> %s[%s] }",
                      affine_join_names(r->arena, r->al->params, r->al->nparams), r->al->stmt,
                      affine_join_names(r->arena, r->al->dims, r->al->ndims), a->name, subs);
}

/* The access relation of a, as isl text; NULL after a diagnostic. */
static const char *build_access(resolver *r, const loop_arg *a) {
  for (int i = 0; i < a->nsubs; i++) {
    if (check_subscript_names(r, a, i))
      return NULL;
    isl_map *one = isl_map_read_from_str(r->ctx, access_text(r, a, i, 1));
    if (!one) {
      diag(DIAG_ERROR, a->sub_locs[i], 0,
           "subscript '%s' of '%s' is not affine: a subscript is a sum of integer "
           "multiples of iteration variables and parameters, plus an integer",
           a->subs[i], a->name);
      return NULL;
    }
    isl_map_free(one);
  }
  isl_map *m = isl_map_read_from_str(r->ctx, access_text(r, a, 0, a->nsubs));
  const char *text = affine_keep_str(r->arena, isl_map_to_str(m));
  isl_map_free(m);
  return text;
}

/* The object of an array (one per variable, so that host code naming it
 * reaches the loops' accesses: region.c), unless the variable is already
 * another kind of object (a global argument too) or has another element
 * type at this number of subscripts: then one of its own, the same
 * variable for dependences (obj.var). */
static obj *array_obj(resolver *r, const loop_arg *a, sym *s, CXType elem) {
  sym *home = s->canon;
  if (home->obj && home->obj->kind == OBJ_ARRAY && home->obj->type == elem_type_of(elem))
    return home->obj;
  obj *o = arena_alloc(r->arena, sizeof *o);
  if (!home->obj)
    home->obj = o;
  o->kind = OBJ_ARRAY;
  o->var = s->canon;
  o->name = a->name;
  o->loc = frontend_cursor_loc(r->fe, s->cursor);
  o->type = elem_type_of(elem);
  o->is_const = clang_isConstQualifiedType(elem);
  o->dim = 1;
  return o;
}

static int bind_arg(resolver *r, int i) {
  loop_arg *a = &r->lp->args[i];
  affine_arg *aa = &r->al->args[i];
  unsigned len = (unsigned)strlen(a->name);
  sym *s = symtab_lookup(r->st, a->name, r->lp->start);
  if (!s) {
    diag(DIAG_ERROR, a->loc, len, "use of undeclared identifier '%s' (expected %s)",
         a->name, "an array");
    return -1;
  }
  if (clang_getCursorKind(s->cursor) == CXCursor_FunctionDecl) {
    diag(DIAG_ERROR, a->loc, len, "'%s' is a function, not %s", a->name, "an array");
    return -1;
  }
  CXType t = clang_getCursorType(s->cursor);
  CXType elem = element_type(t, a->nsubs);
  if (elem.kind == CXType_Invalid || !elem_type_of(elem)) {
    diag(DIAG_ERROR, a->loc, a->len,
         "'%s' has type '%s': %d subscript%s must reach an element of an arithmetic "
         "type (an affine loop's argument is an element of a C array or pointer)",
         a->name, frontend_type_spelling(r->fe, t), a->nsubs, a->nsubs == 1 ? "" : "s");
    diag(DIAG_NOTE, frontend_cursor_loc(r->fe, s->cursor), 0, "'%s' declared here",
         a->name);
    return -1;
  }
  if (in_list(a->name, r->al->dims, r->al->ndims)) {
    diag(DIAG_ERROR, a->loc, len,
         "array '%s' has the name of an iteration variable of the domain, which "
         "hides it in the loop: rename one of them", a->name);
    return -1;
  }
  aa->arg = a;
  aa->array = s;
  aa->elem = elem_type_of(elem)->c_name;
  aa->access = build_access(r, a);
  if (!aa->access)
    return -1;
  a->obj = array_obj(r, a, s, elem);
  return 0;
}

/* ---- resolve: placing ----------------------------------------------------------- */

typedef struct innermost {
  unsigned at, start, end;
  CXCursor repeat; /* the innermost for, while or do around it */
} innermost;

static enum CXChildVisitResult find_block(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  innermost *in = data;
  CXSourceRange ext = clang_getCursorExtent(c);
  unsigned s = frontend_offset(clang_getRangeStart(ext));
  unsigned e = frontend_offset(clang_getRangeEnd(ext));
  if (s > in->at || in->at >= e)
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CompoundStmt) {
    in->start = s;
    in->end = e;
  }
  if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
    in->repeat = c;
  return CXChildVisit_Recurse;
}

int affine_resolve_loop(const frontend *fe, const symtab *st, loop *lp, arena *a) {
  affine_loop *al = arena_alloc(a, sizeof *al);
  al->stmt = arena_printf(a, "%s_%d", lp->kernel, lp->id);
  al->args = arena_alloc(a, sizeof *al->args * (size_t)(lp->nargs + 1));
  resolver r = {fe, st, a, lp, al, affine_ctx_new()};
  int rc = read_domain(&r);
  for (int i = 0; i < lp->nargs && !rc; i++)
    rc = bind_arg(&r, i);
  isl_ctx_free(r.ctx);
  if (rc)
    return -1;
  innermost in = {lp->start, 0, 0, clang_getNullCursor()};
  const func_def *f = symtab_function_at(st, lp->start);
  clang_visitChildren(f->cursor, find_block, &in);
  al->block_start = in.start;
  al->block_end = in.end;
  if (!clang_Cursor_isNull(in.repeat)) {
    al->repeat_line = frontend_cursor_loc(fe, in.repeat).line;
    CXSourceRange ext = clang_getCursorExtent(in.repeat);
    al->repeat_start = frontend_offset(clang_getRangeStart(ext));
    al->repeat_end = frontend_offset(clang_getRangeEnd(ext));
    al->repeat_what = clang_getCursorKind(in.repeat) == CXCursor_ForStmt     ? "for"
                      : clang_getCursorKind(in.repeat) == CXCursor_WhileStmt ? "while"
                                                                             : "do";
  }
  lp->aff = al;
  return 0;
}

