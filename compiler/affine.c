/*
 * affine.c — affine loops: resolving them, their isl views, their
 * temporaries and the pin / pin_cse hints (see affine.h).
 *
 * Resolving reads the domain with isl and builds, per argument, the access
 * relation `[params] -> { STMT[dims] -> ARRAY[subscripts] }`; both are kept
 * as isl text.  Planning finds the temporaries of each block — an array
 * written by exactly one affine loop (the producer) and read by later
 * affine loops of the same compound statement (the consumers) — and
 * decides, per temporary, between
 *   store    the producer runs as written, consumers read memory;
 *   pin      the producer's iterations that write an element are run
 *            inside the consumer, per use, into a local;
 *   pin_cse  those iterations run once per element the consumer reads, in
 *            a loop nest of their own (the duplicated domain: the
 *            producer's domain restricted to the preimage of the
 *            consumer's footprint), storing into the array.
 * A hint that cannot be honoured is an error that says why; without a
 * hint loomc picks one and --report says why.  Moving the producer to its
 * consumer is sound only when nothing between them changes what the
 * producer reads and nothing else reads the temporary: those are the
 * obstacles checked below, conservatively (by name, on the source text).
 */
#include "affine.h"

#include "effects.h"
#include "region.h"

#include <isl/aff.h>
#include <isl/options.h>
#include <isl/space.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "resolve.h"

isl_ctx *affine_ctx_new(void) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  return ctx;
}

/* ---- text ------------------------------------------------------------------ */

static int ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* An isl string (no ownership) copied into the arena and freed. */
static const char *keep_str(arena *a, char *s) {
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

static const char *join_names(arena *a, const char **list, int n) {
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
    if (ident_start(s[k]) && !ident_char(s[k - 1])) {
      size_t n = 1;
      while (ident_char(s[k + n]))
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
    if (!ident_start(c) || (k > 0 && ident_char(s[k - 1])))
      continue;
    size_t n = 1;
    while (ident_char(s[k + n]))
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
           w, params->len ? join_names(r->arena, (const char **)params->items, params->len)
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
    al->domain = keep_str(r->arena, isl_set_to_str(set));
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
    if (!ident_start(s[k]) || (k && ident_char(s[k - 1])))
      continue;
    size_t n = 1;
    while (ident_char(s[k + n]))
      n++;
    const char *w = arena_strndup(r->arena, s + k, n);
    if (!in_list(w, r->al->dims, r->al->ndims) &&
        !in_list(w, r->al->params, r->al->nparams)) {
      diag(DIAG_ERROR, a->sub_locs[i], 0,
           "unknown name '%s' in subscript '%s' of '%s': a subscript uses the "
           "iteration variables (%s) and the domain's parameters%s%s%s", w, s, a->name,
           join_names(r->arena, r->al->dims, r->al->ndims),
           r->al->nparams ? " (" : "", join_names(r->arena, r->al->params, r->al->nparams),
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
                      join_names(r->arena, r->al->params, r->al->nparams), r->al->stmt,
                      join_names(r->arena, r->al->dims, r->al->ndims), a->name, subs);
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
  const char *text = keep_str(r->arena, isl_map_to_str(m));
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

/* ---- isl views -------------------------------------------------------------------- */

__isl_give isl_set *affine_domain(isl_ctx *ctx, const loop *lp) {
  return isl_set_read_from_str(ctx, lp->aff->domain);
}

__isl_give isl_map *affine_access(isl_ctx *ctx, const loop *lp, int i) {
  isl_map *m = isl_map_read_from_str(ctx, lp->aff->args[i].access);
  return isl_map_intersect_domain(m, affine_domain(ctx, lp));
}

static int reads(access_mode m) { return m != MODE_WRITE; }
static int writes(access_mode m) { return m != MODE_READ; }

__isl_give isl_set *affine_footprint(isl_ctx *ctx, const loop *lp, const sym *array) {
  isl_set *fp = NULL;
  for (int i = 0; i < lp->nargs; i++) {
    if (lp->aff->args[i].array != array || !reads(lp->args[i].mode))
      continue;
    isl_set *part = isl_map_range(affine_access(ctx, lp, i));
    fp = fp ? isl_set_union(fp, part) : part;
  }
  return fp ? isl_set_coalesce(fp) : NULL;
}

__isl_give isl_map *affine_dependences(isl_ctx *ctx, const loop *lp) {
  isl_set *dom = affine_domain(ctx, lp);
  isl_map *deps = isl_map_empty(isl_space_map_from_set(isl_set_get_space(dom)));
  isl_set_free(dom);
  for (int i = 0; i < lp->nargs; i++)
    for (int j = 0; j < lp->nargs; j++) {
      const affine_arg *x = &lp->aff->args[i], *y = &lp->aff->args[j];
      if (x->array != y->array || !(writes(x->arg->mode) || writes(y->arg->mode)) ||
          x->arg->nsubs != y->arg->nsubs)
        continue;
      isl_map *ax = affine_access(ctx, lp, i), *ay = affine_access(ctx, lp, j);
      isl_map *pairs = isl_map_apply_range(ax, isl_map_reverse(ay));
      deps = isl_map_union(deps, pairs);
    }
  /* an iteration does not depend on itself */
  isl_map *self = isl_map_identity(isl_map_get_space(deps));
  return isl_map_coalesce(isl_map_subtract(deps, self));
}

int affine_outer_parallel(isl_ctx *ctx, __isl_keep isl_set *domain,
                          __isl_keep isl_map *deps) {
  (void)ctx;
  isl_map *d = isl_map_intersect_range(
      isl_map_intersect_domain(isl_map_copy(deps), isl_set_copy(domain)),
      isl_set_copy(domain));
  isl_set *delta = isl_map_deltas(d);
  isl_size n = isl_set_dim(delta, isl_dim_set);
  delta = isl_set_project_out(delta, isl_dim_set, 1, (unsigned)(n > 1 ? n - 1 : 0));
  isl_set *zero = isl_set_universe(isl_set_get_space(delta));
  zero = isl_set_fix_si(zero, isl_dim_set, 0, 0);
  isl_bool ok = isl_set_is_subset(delta, zero);
  isl_set_free(delta);
  isl_set_free(zero);
  return ok == isl_bool_error ? -1 : ok == isl_bool_true;
}

__isl_give isl_set *affine_dup_domain(isl_ctx *ctx, const affine_temp *t) {
  isl_set *need = NULL;
  for (int c = 0; c < t->consumers.len; c++) {
    isl_set *fp = affine_footprint(ctx, t->consumers.items[c], t->array);
    if (fp)
      need = need ? isl_set_union(need, fp) : fp;
  }
  isl_map *w = affine_access(ctx, t->producer, t->prod_arg);
  if (!need)
    need = isl_set_empty(isl_space_range(isl_map_get_space(w)));
  isl_set *dup = isl_map_domain(isl_map_intersect_range(w, need));
  return isl_set_coalesce(isl_set_remove_redundancies(dup));
}

/* ---- plan: finding temporaries ------------------------------------------------------ */

typedef struct planner {
  const frontend *fe;
  const symtab *st;
  program *prog;
  const vec *regions; /* region*: their items' effects (effects.h) */
  arena *arena;
  vec temps; /* affine_temp* */
} planner;

static int loop_reads(const loop *lp, const sym *array) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->aff->args[i].array == array && reads(lp->args[i].mode))
      return 1;
  return 0;
}

static int loop_writes(const loop *lp, const sym *array) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->aff->args[i].array == array && writes(lp->args[i].mode))
      return 1;
  return 0;
}



/* One array object per declaration, shared by every loop that passes it. */
static void share_objects(planner *p) {
  const vec *loops = &p->prog->loops;
  for (int l = 0; l < loops->len; l++) {
    loop *lp = loops->items[l];
    for (int i = 0; lp->aff && i < lp->nargs; i++)
      for (int m = 0; m <= l; m++) {
        const loop *q = loops->items[m];
        int found = 0;
        for (int j = 0; q->aff && j < q->nargs && !found; j++)
          if (q->aff->args[j].array == lp->aff->args[i].array && (m < l || j < i)) {
            lp->args[i].obj = q->args[j].obj;
            found = 1;
          }
        if (found)
          break;
      }
  }
}

typedef struct aff_temp {
  affine_temp t;
  const loop *other_writer; /* a second loop writing it, or the producer again */
} aff_temp;

static aff_temp *temp_of(planner *p, const sym *array) {
  for (int i = 0; i < p->temps.len; i++) {
    aff_temp *ti = p->temps.items[i];
    if (ti->t.array == array)
      return ti;
  }
  return NULL;
}

static void find_temps(planner *p) {
  const vec *loops = &p->prog->loops;
  for (int l = 0; l < loops->len; l++) {
    loop *lp = loops->items[l];
    for (int i = 0; lp->aff && i < lp->nargs; i++) {
      if (!writes(lp->args[i].mode))
        continue;
      aff_temp *ti = temp_of(p, lp->aff->args[i].array);
      if (ti) {
        if (!ti->other_writer)
          ti->other_writer = lp;
        continue;
      }
      ti = arena_alloc(p->arena, sizeof *ti);
      ti->t.name = lp->args[i].name;
      ti->t.array = lp->aff->args[i].array;
      ti->t.producer = lp;
      ti->t.prod_arg = i;
      vec_push(p->arena, &p->temps, ti);
    }
  }
  for (int k = 0; k < p->temps.len; k++) {
    aff_temp *ti = p->temps.items[k];
    const loop *prod = ti->t.producer;
    for (int l = 0; l < loops->len; l++) {
      loop *lp = loops->items[l];
      if (lp->aff && lp->start > prod->start && lp->aff->block_start == prod->aff->block_start &&
          loop_reads(lp, ti->t.array) && !loop_writes(lp, ti->t.array))
        vec_push(p->arena, &ti->t.consumers, lp);
    }
  }
}

/* ---- plan: what stands in the way ------------------------------------------------------ */

/* The regions' items of the function holding lp (an inner region's items
 * appear also, whole, as a nested statement of the region around it). */
static vec function_items(planner *p, const loop *lp) {
  vec v = {0};
  const func_def *f = symtab_function_at(p->st, lp->start);
  for (int r = 0; f && r < p->regions->len; r++) {
    const region *reg = p->regions->items[r];
    if (reg->loc.offset < f->start || reg->loc.offset >= f->end)
      continue;
    for (int i = 0; i < reg->items.len; i++)
      vec_push(p->arena, &v, reg->items.items[i]);
  }
  return v;
}

static int is_consumer(const affine_temp *t, const loop *lp) {
  for (int i = 0; i < t->consumers.len; i++)
    if (t->consumers.items[i] == lp)
      return 1;
  return 0;
}

/* What an item is, for messages: "host code", "the par_loop", "the for". */
static const char *item_what(planner *p, const item *it) {
  return it->kind == ITEM_LOOP ? "the par_loop" : it->kind == ITEM_SYNC ? "the sync"
         : it->kind == ITEM_HOST ? "host code" : arena_printf(p->arena, "the %s", it->what);
}

/* What the producer reads must be the same variables at each consumer, and
 * unchanged in between (effects.h: host code, loops and syncs that write
 * one of its inputs — the arrays and parameters it reads, the file-scope
 * variables its kernel reads — or the unseen state). */
static const char *inputs_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  vec in = effects_of_loop(p->arena, prod, NULL), items = function_items(p, prod);
  for (int c = 0; c < t->consumers.len; c++) {
    const loop *con = t->consumers.items[c];
    unsigned cl = con->loc.line;
    for (int i = 0; i < prod->nargs; i++) /* the names must denote the same */
      if (prod->aff->args[i].array != t->array &&
          symtab_lookup(p->st, prod->args[i].name, con->start) != prod->aff->args[i].array)
        return arena_printf(p->arena, "'%s' at its consumer (line %u) is not the '%s' its "
                            "producer (line %u) reads", prod->args[i].name, cl,
                            prod->args[i].name, prod->loc.line);
    for (int i = 0; i < prod->aff->nparams; i++) {
      const char *name = prod->aff->params[i];
      if (symtab_lookup(p->st, name, con->start) != symtab_lookup(p->st, name, prod->start))
        return arena_printf(p->arena, "'%s' at its consumer (line %u) is not the '%s' its "
                            "producer (line %u) reads", name, cl, name, prod->loc.line);
    }
    vec cx = effects_of_loop(p->arena, con, NULL);
    for (int i = 0; i < in.len; i++) {
      const effect *e = in.items[i];
      if (!effect_reads(e) || e->o == prod->args[t->prod_arg].obj)
        continue;
      for (int k = 0; k < cx.len; k++)
        if (effect_writes(cx.items[k]) && effects_overlap(((const effect *)cx.items[k])->o, e->o))
          return arena_printf(p->arena, "its consumer at line %u writes '%s', which its "
                              "producer reads", cl, e->o->name);
      for (int k = 0; k < items.len; k++) {
        const item *it = items.items[k];
        if (it->start >= prod->end && it->end <= con->start &&
            effects_item_writes(p->arena, it, e->o))
          return arena_printf(p->arena, "'%s', which its producer reads, is written by %s "
                              "at line %u before its consumer at line %u", e->o->name,
                              item_what(p, it), it->loc.line, cl);
      }
    }
  }
  return NULL;
}

/* Nothing but the consumers may see the temporary after its producer: no
 * item of the function that runs after it (later in the text, or anywhere
 * in a loop statement around it, whose next iteration follows) accesses
 * it.  free(t) is no access.  A write of the unseen state is none either:
 * only a later read could tell, and a read through another pointer is
 * not seen (a limitation: affine.md). */
static const char *others_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  const affine_loop *al = prod->aff;
  const obj *tmp = prod->args[t->prod_arg].obj;
  vec items = function_items(p, prod);
  for (int k = 0; k < items.len; k++) {
    const item *it = items.items[k];
    int later = it->start >= prod->end ||
                (al->repeat_line && it->start >= al->repeat_start && it->start < al->repeat_end);
    if (!later || (it->start <= prod->start && prod->start < it->end) ||
        (it->kind == ITEM_LOOP && (it->lp == prod || is_consumer(t, it->lp))) ||
        !effects_item_names(p->arena, it, tmp))
      continue;
    if (it->kind == ITEM_LOOP)
      return arena_printf(p->arena, "the par_loop at line %u uses it but is not one of its "
                          "consumers (later affine loops of the producer's block that only "
                          "read it)", it->loc.line);
    return arena_printf(p->arena, "%s at line %u uses it, but a pinned temporary has no "
                        "value outside its consumers", item_what(p, it), it->loc.line);
  }
  return NULL;
}

static const char *producer_obstacle(planner *p, const aff_temp *ti) {
  const affine_temp *t = &ti->t;
  const loop *prod = t->producer;
  if (ti->other_writer)
    return ti->other_writer == prod
               ? arena_printf(p->arena, "its producer (line %u) writes it through two "
                              "arguments", prod->loc.line)
               : arena_printf(p->arena, "it is written by two affine loops (lines %u and "
                              "%u): a pinned temporary has one producer", prod->loc.line,
                              ti->other_writer->loc.line);
  for (int i = 0; i < prod->nargs; i++) {
    const affine_arg *a = &prod->aff->args[i];
    if (a->array != t->array && writes(prod->args[i].mode))
      return arena_printf(p->arena, "its producer (line %u) also writes '%s', which would "
                          "then not be computed", prod->loc.line, prod->args[i].name);
    if (a->array == t->array && i != t->prod_arg)
      return arena_printf(p->arena, "its producer (line %u) also reads it (%s): its "
                          "elements depend on each other", prod->loc.line,
                          affine_arg_text(p->arena, &prod->args[i]));
  }
  if (prod->aff->uses.len)
    return arena_printf(p->arena, "its producer (line %u) evaluates pinned temporary '%s' "
                        "itself: loomc does not pin chains of temporaries", prod->loc.line,
                        ((const affine_temp *)prod->aff->uses.items[0])->name);
  if (t->consumers.len == 0)
    return "no later affine loop of the same block reads it: there is no consumer to "
           "compute it in";
  return NULL;
}

/* pin of a producer that writes (not inc/rw): every element a consumer
 * reads must be written by it, or the local would be undefined. */
static const char *coverage_obstacle(planner *p, const affine_temp *t) {
  if (t->producer->args[t->prod_arg].mode != MODE_WRITE)
    return NULL;
  isl_ctx *ctx = affine_ctx_new();
  const char *why = NULL;
  isl_set *written = isl_map_range(affine_access(ctx, t->producer, t->prod_arg));
  for (int c = 0; c < t->consumers.len && !why; c++) {
    const loop *con = t->consumers.items[c];
    isl_set *fp = affine_footprint(ctx, con, t->array);
    isl_set *missing = isl_set_coalesce(isl_set_subtract(fp, isl_set_copy(written)));
    if (isl_set_is_empty(missing) != isl_bool_true)
      why = arena_printf(p->arena, "its consumer at line %u reads elements its producer "
                         "does not write: %s", con->loc.line,
                         keep_str(p->arena, isl_set_to_str(missing)));
    isl_set_free(missing);
  }
  isl_set_free(written);
  isl_ctx_free(ctx);
  return why;
}

/* pin of a producer that increments or updates its temporary (inc, rw)
 * inside a loop statement: each run of the producer starts from the values
 * the previous one left in memory, which a pinned producer never stores. */
static const char *carried_obstacle(planner *p, const affine_temp *t) {
  const loop *prod = t->producer;
  access_mode m = prod->args[t->prod_arg].mode;
  if (m == MODE_WRITE || !prod->aff->repeat_line)
    return NULL;
  return arena_printf(p->arena, "its producer (line %u) %s it inside the %s at line %u, "
                      "so each iteration starts from the values the last one left; pinned, "
                      "they would never be stored (pin_cse or no hint store them)",
                      prod->loc.line, m == MODE_INC ? "increments" : "updates",
                      prod->aff->repeat_what, prod->aff->repeat_line);
}

static const char *obstacle(planner *p, const aff_temp *ti, temp_choice kind) {
  const affine_temp *t = &ti->t;
  const char *why = producer_obstacle(p, ti);
  if (!why)
    why = others_obstacle(p, t);
  if (!why)
    why = inputs_obstacle(p, t);
  if (!why && kind == TEMP_PIN)
    why = coverage_obstacle(p, t);
  if (!why && kind == TEMP_PIN)
    why = carried_obstacle(p, t);
  if (!why && kind == TEMP_PIN_CSE && t->consumers.len > 1) {
    const char *lines = "";
    for (int c = 0; c < t->consumers.len; c++)
      lines = arena_printf(p->arena, "%s%s%u", lines, c ? ", " : "",
                           ((const loop *)t->consumers.items[c])->loc.line);
    why = arena_printf(p->arena, "it has %d consumers (lines %s): pin_cse computes a "
                       "temporary for one consumer loop", t->consumers.len, lines);
  }
  return why;
}

/* ---- plan: choosing ------------------------------------------------------------------ */

/* The consumer's uses of the temporary, "k[i], k[j]"; their number. */
static int uses_of(planner *p, const loop *con, const sym *array, const char **text) {
  int n = 0;
  *text = "";
  for (int i = 0; i < con->nargs; i++)
    if (con->aff->args[i].array == array) {
      *text = arena_printf(p->arena, "%s%s%s", *text, n ? ", " : "",
                           affine_arg_text(p->arena, &con->args[i]));
      n++;
    }
  return n;
}

static int use_is_injective(const loop *con, const sym *array) {
  isl_ctx *ctx = affine_ctx_new();
  int inj = 0;
  for (int i = 0; i < con->nargs; i++)
    if (con->aff->args[i].array == array) {
      isl_map *acc = affine_access(ctx, con, i);
      inj = isl_map_is_injective(acc) == isl_bool_true;
      isl_map_free(acc);
    }
  isl_ctx_free(ctx);
  return inj;
}

static void choose(planner *p, aff_temp *ti) {
  affine_temp *t = &ti->t;
  const char *why = obstacle(p, ti, TEMP_STORE);
  if (why) {
    t->choice = TEMP_STORE;
    t->why = why;
    return;
  }
  if (t->consumers.len > 1) {
    t->choice = TEMP_STORE;
    t->why = arena_printf(p->arena, "it has %d consumers: computed once and stored, each "
                          "reads memory", t->consumers.len);
    return;
  }
  const loop *con = t->consumers.items[0];
  const char *uses;
  int n = uses_of(p, con, t->array, &uses);
  const char *dims = join_names(p->arena, con->aff->dims, con->aff->ndims);
  if (n > 1)
    why = arena_printf(p->arena, "its consumer at line %u reads each element more than "
                       "once (%s over [%s]): pin would recompute it at each read",
                       con->loc.line, uses, dims);
  else if (!use_is_injective(con, t->array))
    why = arena_printf(p->arena, "its consumer at line %u reads each element at several "
                       "iterations (%s over [%s]): pin would recompute it at each",
                       con->loc.line, uses, dims);
  else if ((why = coverage_obstacle(p, t)) != NULL)
    ;
  else if ((why = carried_obstacle(p, t)) != NULL)
    ;
  else {
    t->choice = TEMP_PIN;
    t->why = arena_printf(p->arena, "its consumer at line %u reads each element once "
                          "(%s over [%s]): pin computes it there, with no storage",
                          con->loc.line, uses, dims);
    return;
  }
  t->choice = TEMP_PIN_CSE;
  t->why = why;
}

static void apply_hint(planner *p, const hint *h, int i) {
  sym *s = symtab_lookup(p->st, h->names[i], h->start);
  aff_temp *ti = s ? temp_of(p, s) : NULL;
  unsigned len = (unsigned)strlen(h->names[i]);
  const char *why = NULL;
  temp_choice kind = h->kind == HINT_PIN ? TEMP_PIN : TEMP_PIN_CSE;
  if (!ti)
    why = "no affine loop writes it (pin and pin_cse apply to an array that an affine "
          "loop computes and later affine loops read)";
  else if (ti->t.hint)
    why = arena_printf(p->arena, "it already has a %s hint at line %u",
                       hint_name(ti->t.hint->kind), ti->t.hint->loc.line);
  else
    why = obstacle(p, ti, kind);
  if (why) {
    diag(DIAG_ERROR, h->name_locs[i], len, "cannot %s '%s': %s", hint_name(h->kind),
         h->names[i], why);
    return;
  }
  ti->t.choice = kind;
  ti->t.hint = h;
  ti->t.hint_loc = h->name_locs[i];
  ti->t.why = arena_printf(p->arena, "hinted at line %u", h->loc.line);
}

static void record(planner *p, affine_temp *t) {
  if (t->choice == TEMP_STORE)
    return;
  t->producer->aff->moved = t;
  for (int c = 0; c < t->consumers.len; c++)
    vec_push(p->arena, &((loop *)t->consumers.items[c])->aff->uses, t);
  if (t->choice != TEMP_PIN_CSE)
    return;
  isl_ctx *ctx = affine_ctx_new();
  isl_set *dup = affine_dup_domain(ctx, t);
  t->dup = keep_str(p->arena, isl_set_to_str(dup));
  isl_set_free(dup);
  isl_ctx_free(ctx);
}

void affine_plan(const frontend *fe, const symtab *st, program *prog, const vec *regions,
                 arena *a) {
  planner p = {fe, st, prog, regions, a, {0}};
  share_objects(&p);
  find_temps(&p);
  /* in file order of the producers: a chain's first link is decided first */
  for (int k = 0; k < p.temps.len; k++) {
    aff_temp *ti = p.temps.items[k];
    for (int h = 0; h < prog->hints.len; h++) {
      const hint *hn = prog->hints.items[h];
      for (int i = 0; hn->kind != HINT_SYNC && i < hn->nnames; i++)
        if (!hn->objs[i] && symtab_lookup(st, hn->names[i], hn->start) == ti->t.array)
          apply_hint(&p, hn, i);
    }
    if (!ti->t.hint && ti->t.consumers.len)
      choose(&p, ti);
    else if (!ti->t.hint)
      ti->t.why = "no consumer";
    record(&p, &ti->t);
  }
  /* hints on names no affine loop writes */
  for (int h = 0; h < prog->hints.len; h++) {
    const hint *hn = prog->hints.items[h];
    for (int i = 0; hn->kind != HINT_SYNC && i < hn->nnames; i++) {
      sym *s = hn->objs[i] ? NULL : symtab_lookup(st, hn->names[i], hn->start);
      if (s && clang_getCursorKind(s->cursor) != CXCursor_FunctionDecl && !temp_of(&p, s))
        apply_hint(&p, hn, i);
    }
  }
  /* the report finds the temporaries at their producers */
  for (int k = 0; k < p.temps.len; k++) {
    aff_temp *ti = p.temps.items[k];
    if (ti->t.consumers.len || ti->t.hint)
      vec_push(a, &ti->t.producer->aff->temps, &ti->t);
  }
}

/* ---- report ------------------------------------------------------------------------ */

static const char *const choice_names[] = {"store", "pin", "pin_cse"};

void affine_write_report(FILE *f, const program *prog) {
  int any = 0;
  for (int l = 0; l < prog->loops.len; l++) {
    const loop *lp = prog->loops.items[l];
    if (!lp->aff)
      continue;
    if (!any++)
      fputs("affine loops:\n", f);
    isl_ctx *ctx = affine_ctx_new();
    isl_set *dom = affine_domain(ctx, lp);
    isl_map *deps = affine_dependences(ctx, lp);
    int par = affine_outer_parallel(ctx, dom, deps);
    fprintf(f, "  line %u: %s over %s\n", lp->loc.line, lp->kernel, lp->aff->domain);
    fprintf(f, "    outermost loop (%s): %s\n", lp->aff->dims[0],
            par == 1 ? "parallel (no dependence crosses its iterations)"
                     : "sequential (a dependence crosses its iterations)");
    isl_set_free(dom);
    isl_map_free(deps);
    isl_ctx_free(ctx);
    for (int k = 0; k < lp->aff->temps.len; k++) {
      const affine_temp *t = lp->aff->temps.items[k];
      fprintf(f, "    temporary %s: %s (%s): %s\n", t->name, choice_names[t->choice],
              t->hint ? "hinted" : "chosen", t->why);
      for (int c = 0; c < t->consumers.len; c++)
        fprintf(f, "      consumer: %s at line %u\n",
                ((const loop *)t->consumers.items[c])->kernel,
                ((const loop *)t->consumers.items[c])->loc.line);
      if (t->dup)
        fprintf(f, "      duplicated domain: %s\n", t->dup);
    }
  }
}
