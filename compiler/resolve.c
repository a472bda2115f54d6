/*
 * resolve.c — stage 4: names of loops bound to objects (see resolve.h).
 *
 * A handle's facts come from its declaration's initialiser, after macro
 * expansion: loom_decl_set(size, name), loom_decl_map(from, to, dim, data,
 * name) and loom_decl_dat_(set, dim, type code, size, (const T *)data,
 * name), the expansion of loom_decl_dat and loom_decl_temp.  T, the element
 * type, is the pointee of that cast: clang has resolved it for us.
 */
#include "resolve.h"

#include <string.h>

#include "affine.h"
#include "cursor.h"

typedef struct resolver {
  const frontend *fe;
  const symtab *st;
  arena *arena;
  loop *lp;
  srcloc use;       /* where the name being resolved is used */
  unsigned use_len;
  CXCursor decl_var; /* the declaration being read */
  int decl_is_macro; /* ... through the loom_decl_dat/temp macros */
} resolver;

/* ---- element types ------------------------------------------------------ */

static const struct {
  enum CXTypeKind kind;
  elem_type type;
} elem_types[] = {
    {CXType_Double, {"double", "LOOM_DOUBLE"}},
    {CXType_Float, {"float", "LOOM_FLOAT"}},
    {CXType_Int, {"int", "LOOM_INT"}},
    {CXType_UInt, {"unsigned int", "LOOM_UINT"}},
    {CXType_Long, {"long", "LOOM_LONG"}},
    {CXType_ULong, {"unsigned long", "LOOM_ULONG"}},
    {CXType_LongLong, {"long long", "LOOM_LLONG"}},
    {CXType_ULongLong, {"unsigned long long", "LOOM_ULLONG"}},
    {CXType_Short, {"short", "LOOM_SHORT"}},
    {CXType_UShort, {"unsigned short", "LOOM_USHORT"}},
    {CXType_Char_S, {"char", "LOOM_CHAR"}},
    {CXType_Char_U, {"char", "LOOM_CHAR"}},
    {CXType_SChar, {"signed char", "LOOM_SCHAR"}},
    {CXType_UChar, {"unsigned char", "LOOM_UCHAR"}},
};

const elem_type *elem_type_of(CXType t) {
  t = clang_getCanonicalType(t);
  for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++)
    if (elem_types[i].kind == t.kind)
      return &elem_types[i].type;
  return NULL;
}

/* ---- declarations ---------------------------------------------------- */

/* The call initialising a variable declaration, or a null cursor. */
static CXCursor init_call(CXCursor var) {
  CXCursor init = cursor_last_child(var);
  if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)))
    return clang_getNullCursor();
  init = cursor_strip_expr(init);
  return clang_getCursorKind(init) == CXCursor_CallExpr ? init
                                                        : clang_getNullCursor();
}

/* ---- handles -------------------------------------------------------------- */

/* OBJ_SET/OBJ_MAP/OBJ_DAT for loom handle types, -1 for anything else. */
static int handle_kind(const frontend *fe, CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer)
    return -1;
  const char *s = frontend_type_spelling(fe, clang_getPointeeType(t));
  if (strcmp(s, "struct loom_set_s") == 0)
    return OBJ_SET;
  if (strcmp(s, "struct loom_map_s") == 0)
    return OBJ_MAP;
  if (strcmp(s, "struct loom_dat_s") == 0)
    return OBJ_DAT;
  return -1;
}

static const char *const decl_call[] = {"loom_decl_set", "loom_decl_map",
                                        "loom_decl_dat_"};
static const char *const decl_macro[] = {"loom_decl_set", "loom_decl_map",
                                         "loom_decl_dat"};
static const int decl_nargs[] = {2, 5, 6};

/* Where argument i of a declaration call is written.  loom_decl_dat and
 * loom_decl_temp are macros, whose arguments clang locates at the macro
 * name: the macro's own argument list is found in the tokens instead.
 * Call arguments 2 and 3 (type code, size) both come from the macro's
 * `type`, and 4 (data) from its fourth argument. */
static srcloc arg_loc(const resolver *r, CXCursor call, unsigned i) {
  srcloc at = frontend_cursor_loc(r->fe, clang_Cursor_getArgument(call, i));
  if (!r->decl_is_macro)
    return at;
  static const unsigned macro_arg[] = {0, 1, 2, 2, 3, 4};
  unsigned want = i < 6 ? macro_arg[i] : 0, arg = 0;
  int depth = 0;
  CXToken *toks;
  unsigned n;
  clang_tokenize(r->fe->tu, clang_getCursorExtent(r->decl_var), &toks, &n);
  for (unsigned k = 0; k < n; k++) {
    CXString sp = clang_getTokenSpelling(r->fe->tu, toks[k]);
    const char *t = clang_getCString(sp);
    if (depth == 1 && arg == want && !(t[0] == ',' || t[0] == ')') &&
        at.offset <= frontend_offset(clang_getTokenLocation(r->fe->tu, toks[k]))) {
      at = frontend_loc(r->fe, clang_getTokenLocation(r->fe->tu, toks[k]));
      clang_disposeString(sp);
      break;
    }
    depth += (t[0] == '(') - (t[0] == ')');
    arg += depth == 1 && t[0] == ',';
    clang_disposeString(sp);
  }
  clang_disposeTokens(r->fe->tu, toks, n);
  return at;
}

/* An integer constant argument (dim, arity), or -1 after a diagnostic. */
static int const_int_arg(resolver *r, CXCursor call, unsigned i,
                         const char *what, const char *name) {
  CXCursor arg = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  CXEvalResult ev = clang_Cursor_Evaluate(arg);
  int ok = ev && clang_EvalResult_getKind(ev) == CXEval_Int;
  long long v = ok ? clang_EvalResult_getAsLongLong(ev) : 0;
  if (ev)
    clang_EvalResult_dispose(ev);
  if (!ok) {
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "the %s of '%s' must be an integer constant expression (a literal, "
         "a macro, an enumerator or a const variable with a constant "
         "initialiser): loomc reads it at compile time", what, name);
    return -1;
  }
  if (v < 1 || v > 1000000) {
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "the %s of '%s' is %lld; it must be between 1 and 1000000", what, name,
         v);
    return -1;
  }
  return (int)v;
}

static obj *obj_of_sym(resolver *r, sym *s);

/* The set named by argument i of a declaration call, or NULL. */
static obj *set_arg(resolver *r, CXCursor call, unsigned i, const char *name) {
  CXCursor arg = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  sym *s = NULL;
  if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr)
    s = symtab_of_cursor(r->st, clang_getCursorReferenced(arg));
  obj *o = s ? obj_of_sym(r, s) : NULL;
  if (o && o->kind == OBJ_SET)
    return o;
  if (!s || (o && o->kind != OBJ_SET) || !s->obj_failed)
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "argument %u of the declaration of '%s' must name a loom_set "
         "variable declared with loom_decl_set", i + 1, name);
  return NULL;
}

static int read_map(resolver *r, CXCursor call, obj *o) {
  o->from = set_arg(r, call, 0, o->name);
  o->to = o->from ? set_arg(r, call, 1, o->name) : NULL;
  o->dim = o->to ? const_int_arg(r, call, 2, "arity", o->name) : -1;
  return o->dim > 0 ? 0 : -1;
}

static int is_temp_decl(const frontend *fe, CXCursor var) {
  CXToken *toks;
  unsigned n;
  clang_tokenize(fe->tu, clang_getCursorExtent(var), &toks, &n);
  int temp = 0;
  for (unsigned i = 0; i < n && !temp; i++) {
    CXString sp = clang_getTokenSpelling(fe->tu, toks[i]);
    temp = strcmp(clang_getCString(sp), "loom_decl_temp") == 0;
    clang_disposeString(sp);
  }
  clang_disposeTokens(fe->tu, toks, n);
  return temp;
}

static int read_dat(resolver *r, CXCursor call, CXCursor var, obj *o) {
  o->set = set_arg(r, call, 0, o->name);
  o->dim = o->set ? const_int_arg(r, call, 1, "dim", o->name) : -1;
  if (o->dim < 1)
    return -1;
  CXType data = clang_getCursorType(cursor_strip_expr(clang_Cursor_getArgument(call, 4)));
  o->type = elem_type_of(clang_getPointeeType(clang_getCanonicalType(data)));
  if (!o->type) {
    const char *t = frontend_type_spelling(r->fe, clang_getPointeeType(data));
    if (strncmp(t, "const ", 6) == 0) /* from the macro's cast */
      t += 6;
    diag(DIAG_ERROR, arg_loc(r, call, 2), 0,
         "dat '%s' has element type '%s': a dat holds double, float, or "
         "another arithmetic C type", o->name, t);
    return -1;
  }
  o->is_temp = is_temp_decl(r->fe, var);
  return 0;
}

static obj *new_obj(resolver *r, sym *s, obj_kind kind) {
  obj *o = arena_alloc(r->arena, sizeof *o);
  o->kind = kind;
  o->name = s->name;
  o->loc = frontend_cursor_loc(r->fe, s->cursor);
  return o;
}

static obj *build_handle(resolver *r, sym *s, int kind) {
  CXCursor call = init_call(s->cursor);
  const char *callee = clang_Cursor_isNull(call) ? "" : frontend_spelling(r->fe, call);
  obj *o = new_obj(r, s, (obj_kind)kind);
  if (clang_getCursorKind(s->cursor) != CXCursor_VarDecl ||
      strcmp(callee, decl_call[kind]) != 0 ||
      clang_Cursor_getNumArguments(call) != decl_nargs[kind]) {
    diag(DIAG_ERROR, r->use, r->use_len,
         "%s '%s' is not initialised by %s(...) in its declaration: loomc "
         "reads a %s's facts from that declaration",
         obj_kind_name(o->kind), o->name, decl_macro[kind], obj_kind_name(o->kind));
    diag(DIAG_NOTE, o->loc, 0, "'%s' declared here", o->name);
    return NULL;
  }
  int rc = 0;
  r->decl_var = s->cursor;
  r->decl_is_macro = kind == OBJ_DAT;
  if (kind == OBJ_MAP)
    rc = read_map(r, call, o);
  else if (kind == OBJ_DAT)
    rc = read_dat(r, call, s->cursor, o);
  return rc ? NULL : o;
}

/* ---- globals -------------------------------------------------------------- */

static obj *global_error(resolver *r, const obj *o, const char *why) {
  diag(DIAG_ERROR, r->use, r->use_len, "'%s' cannot be a global argument: %s",
       o->name, why);
  diag(DIAG_NOTE, o->loc, 0, "'%s' declared here", o->name);
  return NULL;
}

static obj *build_global(resolver *r, sym *s) {
  obj *o = new_obj(r, s, OBJ_GLOBAL);
  o->var = s->canon;
  CXType declared = clang_getCursorType(s->cursor);
  CXType t = clang_getCanonicalType(declared);
  /* qualifiers of an array may sit on the array type or on its elements */
  int is_volatile = clang_isVolatileQualifiedType(t);
  o->is_const = clang_isConstQualifiedType(t);
  if (t.kind == CXType_ConstantArray) {
    o->is_array = 1;
    o->dim = (int)clang_getArraySize(t);
    t = clang_getArrayElementType(t);
  } else {
    o->dim = 1;
  }
  o->type = elem_type_of(t);
  o->is_const |= clang_isConstQualifiedType(t);
  is_volatile |= clang_isVolatileQualifiedType(t);
  if (!o->type || o->dim < 1)
    return global_error(r, o, arena_printf(r->arena,
        "its type is '%s'; a global is a variable of an arithmetic type, or "
        "a fixed-size one-dimensional array of one",
        frontend_type_spelling(r->fe, declared)));
  if (is_volatile)
    return global_error(r, o, "it is volatile");
  if (clang_Cursor_getStorageClass(s->cursor) == CX_SC_Register)
    return global_error(r, o, "it is a register variable, which has no address");
  return o;
}

/* The object a symbol denotes, built on first use from the declaration
 * visible there; stored on the variable's first declaration, so that all
 * declarations of a file-scope variable denote one object. */
static obj *obj_of_sym(resolver *r, sym *s) {
  sym *home = s->canon;
  if (home->obj || home->obj_failed)
    return home->obj;
  enum CXCursorKind k = clang_getCursorKind(s->cursor);
  int kind = -1;
  if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl)
    kind = handle_kind(r->fe, clang_getCursorType(s->cursor));
  if (k == CXCursor_FunctionDecl)
    home->obj = NULL;
  else if (kind < 0)
    home->obj = build_global(r, s);
  else
    home->obj = build_handle(r, s, kind);
  home->obj_failed = home->obj == NULL;
  return home->obj;
}

/* ---- binding loop names --------------------------------------------------- */

static void note_decl(const obj *o) {
  diag(DIAG_NOTE, o->loc, 0, "'%s' declared here", o->name);
}

/* The object named `name` at the loop; NULL after a diagnostic. */
static obj *lookup(resolver *r, const char *name, srcloc loc, const char *what) {
  sym *s = symtab_lookup(r->st, name, r->lp->start);
  r->use = loc;
  r->use_len = (unsigned)strlen(name);
  if (!s) {
    diag(DIAG_ERROR, loc, (unsigned)strlen(name),
         "use of undeclared identifier '%s' (expected %s)", name, what);
    return NULL;
  }
  if (clang_getCursorKind(s->cursor) == CXCursor_FunctionDecl) {
    diag(DIAG_ERROR, loc, (unsigned)strlen(name),
         "'%s' is a function, not %s", name, what);
    return NULL;
  }
  return obj_of_sym(r, s);
}

static obj *lookup_kind(resolver *r, const char *name, srcloc loc,
                        obj_kind kind, const char *what) {
  obj *o = lookup(r, name, loc, what);
  if (o && o->kind != kind) {
    diag(DIAG_ERROR, loc, (unsigned)strlen(name), "'%s' is a %s, not %s", name,
         obj_kind_name(o->kind), what);
    note_decl(o);
    return NULL;
  }
  return o;
}

static int check_dat_set(const loop_arg *a, const obj *want, const char *via) {
  if (a->obj->set == want)
    return 0;
  diag(DIAG_ERROR, a->loc, a->len,
       "dat '%s' lives on set '%s', but %s set '%s'", a->name,
       a->obj->set->name, via, want->name);
  note_decl(a->obj);
  return -1;
}

static int bind_mapped(resolver *r, loop_arg *a) {
  a->obj = lookup_kind(r, a->name, a->loc, OBJ_DAT, "a dat");
  a->map = a->obj ? lookup_kind(r, a->map_name, a->map_loc, OBJ_MAP, "a map") : NULL;
  if (!a->map)
    return -1;
  if (a->slot >= a->map->dim) {
    diag(DIAG_ERROR, a->slot_loc, 0,
         "map slot %d is out of range: map '%s' has %d slot%s (0 to %d)",
         a->slot, a->map->name, a->map->dim, a->map->dim == 1 ? "" : "s",
         a->map->dim - 1);
    return -1;
  }
  if (a->map->from != r->lp->set) {
    diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
         "map '%s' maps from set '%s', but the loop is over set '%s'",
         a->map->name, a->map->from->name, r->lp->set->name);
    note_decl(a->map);
    return -1;
  }
  return check_dat_set(a, a->map->to,
                       arena_printf(r->arena, "map '%s' points into", a->map->name));
}

static int bind_name(resolver *r, loop_arg *a) {
  a->obj = lookup(r, a->name, a->loc, "a dat or a global variable");
  if (!a->obj)
    return -1;
  if (a->obj->kind == OBJ_SET || a->obj->kind == OBJ_MAP) {
    diag(DIAG_ERROR, a->loc, a->len,
         "'%s' is a %s; a loop argument is a dat, a global variable or 'idx'",
         a->name, obj_kind_name(a->obj->kind));
    return -1;
  }
  if (a->obj->kind == OBJ_GLOBAL) {
    a->kind = ARG_GLOBAL;
    for (const loop_arg *b = r->lp->args; b < a; b++)
      if (b->obj == a->obj) {
        diag(DIAG_ERROR, a->loc, a->len,
             "global '%s' is passed twice to this par_loop: pass it once",
             a->name);
        return -1;
      }
    if (a->obj->is_const && a->mode != MODE_READ) {
      diag(DIAG_ERROR, a->loc, a->len,
           "global '%s' is const, so it cannot be '%s'", a->name,
           mode_name(a->mode));
      note_decl(a->obj);
      return -1;
    }
    if (a->mode == MODE_WRITE || a->mode == MODE_RW) {
      diag(DIAG_ERROR, a->loc, a->len,
           "global '%s' cannot be '%s': a global argument is read, or reduced "
           "with inc, min or max", a->name, mode_name(a->mode));
      return -1;
    }
    return 0;
  }
  a->kind = ARG_DAT;
  return check_dat_set(a, r->lp->set, "the loop is over");
}

/* `idx[map[i]]`: the map maps from the loop's set; i is one of its slots. */
static int bind_idx(resolver *r, loop_arg *a) {
  a->map = lookup_kind(r, a->map_name, a->map_loc, OBJ_MAP, "a map");
  if (!a->map)
    return -1;
  if (a->slot >= a->map->dim) {
    diag(DIAG_ERROR, a->slot_loc, 0,
         "map slot %d is out of range: map '%s' has %d slot%s (0 to %d)", a->slot,
         a->map->name, a->map->dim, a->map->dim == 1 ? "" : "s", a->map->dim - 1);
    return -1;
  }
  if (a->map->from != r->lp->set) {
    diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
         "map '%s' maps from set '%s', but the loop is over set '%s'", a->map->name,
         a->map->from->name, r->lp->set->name);
    note_decl(a->map);
    return -1;
  }
  return 0;
}

static int bind_arg(resolver *r, loop_arg *a) {
  int rc = 0;
  if (a->kind == ARG_IDX && a->map_name)
    rc = bind_idx(r, a);
  else if (a->kind == ARG_NAME)
    rc = bind_name(r, a);
  else if (a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL)
    rc = bind_mapped(r, a);
  if (rc == 0 && (a->kind == ARG_DAT || a->kind == ARG_MAPPED ||
                  a->kind == ARG_MAPPED_ALL) &&
      (a->mode == MODE_MIN || a->mode == MODE_MAX)) {
    diag(DIAG_ERROR, a->loc, a->len,
         "dat '%s' cannot be '%s': min and max reduce global arguments only",
         a->name, mode_name(a->mode));
    rc = -1;
  }
  return rc;
}

/* ---- placing the loop ------------------------------------------------------ */

typedef struct innermost {
  unsigned at;
  CXCursor found;
} innermost;

static enum CXChildVisitResult find_innermost(CXCursor c, CXCursor parent,
                                              CXClientData data) {
  (void)parent;
  innermost *in = data;
  CXSourceRange ext = clang_getCursorExtent(c);
  if (frontend_offset(clang_getRangeStart(ext)) <= in->at &&
      in->at < frontend_offset(clang_getRangeEnd(ext))) {
    in->found = c;
    return CXChildVisit_Recurse;
  }
  return CXChildVisit_Continue;
}

static int place(resolver *r) {
  loop *lp = r->lp;
  const func_def *f = symtab_function_at(r->st, lp->start);
  if (!f) {
    diag(DIAG_ERROR, lp->loc, 1,
         "'#pragma loom par_loop' must stand inside a function body");
    return -1;
  }
  lp->func_name = f->name;
  lp->func_start = f->start;
  lp->func_loc = f->loc;
  innermost in = {lp->start, f->cursor};
  clang_visitChildren(f->cursor, find_innermost, &in);
  if (clang_getCursorKind(in.found) != CXCursor_CompoundStmt) {
    diag(DIAG_ERROR, lp->loc, 1,
         "'#pragma loom par_loop' must stand as a statement of a block '{ ... "
         "}': here it would become the body of the enclosing statement");
    return -1;
  }
  return 0;
}

static int resolve_loop(resolver *r) {
  if (place(r))
    return -1;
  if (r->lp->domain)
    return affine_resolve_loop(r->fe, r->st, r->lp, r->arena);
  r->lp->set = lookup_kind(r, r->lp->set_name, r->lp->set_loc, OBJ_SET, "a set");
  if (!r->lp->set)
    return -1;
  /* The first error of a loop is its only one: later ones would repeat it. */
  for (int i = 0; i < r->lp->nargs; i++)
    if (bind_arg(r, &r->lp->args[i]))
      return -1;
  return 0;
}

/* ---- hints ------------------------------------------------------------------ */

/* pin/pin_cse name a temporary (a loom dat) or, for affine loops, a C array
 * (left NULL here: affine.c binds it); sync names dats and globals. */
static void resolve_hint(resolver *r, hint *h) {
  for (int i = 0; i < h->nnames; i++) {
    const char *name = h->names[i];
    sym *s = symtab_lookup(r->st, name, h->start);
    r->use = h->name_locs[i];
    r->use_len = (unsigned)strlen(name);
    if (!s || clang_getCursorKind(s->cursor) == CXCursor_FunctionDecl) {
      diag(DIAG_ERROR, h->name_locs[i], r->use_len,
           s ? "'%s' is a function, not %s" : "use of undeclared identifier '%s' (expected %s)",
           name, h->kind == HINT_SYNC ? "a dat or a global variable" : "a temporary");
      continue;
    }
    enum CXCursorKind k = clang_getCursorKind(s->cursor);
    int handle = (k == CXCursor_VarDecl || k == CXCursor_ParmDecl)
                     ? handle_kind(r->fe, clang_getCursorType(s->cursor))
                     : -1;
    if (h->kind != HINT_SYNC && handle < 0)
      continue;
    obj *o = obj_of_sym(r, s);
    if (o && (o->kind == OBJ_SET || o->kind == OBJ_MAP)) {
      diag(DIAG_ERROR, h->name_locs[i], r->use_len, "'%s' is a %s; %s names %s",
           name, obj_kind_name(o->kind), hint_name(h->kind),
           h->kind == HINT_SYNC ? "dats and global variables" : "a temporary");
      continue;
    }
    if (o && h->kind != HINT_SYNC && !o->is_temp) {
      diag(DIAG_ERROR, h->name_locs[i], r->use_len,
           "'%s' is a dat declared with loom_decl_dat; %s applies to "
           "temporaries (declared with loom_decl_temp), whose values the "
           "program does not keep", name, hint_name(h->kind));
      note_decl(o);
      h->objs[i] = o; /* bound (to a loom object): not an affine array */
      continue;
    }
    h->objs[i] = o;
  }
}

void resolve(const frontend *fe, const symtab *st, program *prog, arena *a) {
  for (int i = 0; i < prog->hints.len; i++) {
    resolver r = {fe, st, a, NULL, {0}, 0, clang_getNullCursor(), 0};
    resolve_hint(&r, prog->hints.items[i]);
  }
  vec ok = {0};
  for (int i = 0; i < prog->loops.len; i++) {
    resolver r = {fe, st, a, prog->loops.items[i], {0}, 0, clang_getNullCursor(), 0};
    if (resolve_loop(&r) == 0)
      vec_push(a, &ok, r.lp);
  }
  prog->loops = ok;
}
