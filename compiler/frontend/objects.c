/*
 * objects.c — the objects declarations make (see objects.h).
 *
 * A handle's facts come from its declaration's initialiser, after macro
 * expansion: loom_decl_set(size, name), loom_decl_map(from, to, dim, data,
 * name) and loom_decl_dat_(set, dim, type code, size, (const T *)data,
 * name), the expansion of loom_decl_dat and loom_decl_temp.  T, the element
 * type, is the pointee of that cast: clang has resolved it for us.  The
 * distributed declarations have the same leading arguments:
 * loom_decl_set_slice(gsize, offset, count, name), loom_decl_set_hdf5(file,
 * name), loom_decl_map_hdf5(from, to, dim, file, name) and
 * loom_decl_dat_hdf5_(set, dim, type code, size, (const T *)0, file, name).
 * A matrix, loom_decl_mat(sparsity, name), has the facts of the
 * loom_decl_sparsity(rows, cols, rdim, cdim, npairs, rmaps, cmaps, name)
 * initialising the variable it names.
 */
#include "frontend/objects.h"

#include <string.h>

#include "frontend/cint.h"
#include "frontend/ctypes.h"
#include "frontend/cursor.h"
#include "util/strbuf.h"

/* Where the set names of a handle's LOOM_*_FACTS resolve: the sibling
 * members of the struct holding it (base variable and the chain to that
 * struct, `m->`), or the names visible at its declaration (decl). */
typedef struct facts_scope {
  sym *base;
  const char *prefix;
  sym *decl;
} facts_scope;

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

/* OBJ_SET/OBJ_MAP/OBJ_DAT/OBJ_MAT for loom handle types, -1 for anything
 * else. */
int objects_handle_kind(const frontend *fe, CXType t) {
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
  if (strcmp(s, "struct loom_mat_s") == 0)
    return OBJ_MAT;
  return -1;
}

/* The declaration calls of each kind (set, map, dat) and their argument
 * counts; the second of a kind reads its file (hdf5) or slice. */
static const struct {
  int kind;
  const char *call;
  unsigned nargs;
} decl_calls[] = {
    {OBJ_SET, "loom_decl_set", 2},      {OBJ_SET, "loom_decl_set_slice", 4},
    {OBJ_SET, "loom_decl_set_hdf5", 2}, {OBJ_MAP, "loom_decl_map", 5},
    {OBJ_MAP, "loom_decl_map_hdf5", 5}, {OBJ_DAT, "loom_decl_dat_", 6},
    {OBJ_DAT, "loom_decl_dat_hdf5_", 7}, {OBJ_MAT, "loom_decl_mat", 2},
    {OBJ_SET, "loom_decl_extruded_set", 3}, {OBJ_MAP, "loom_decl_extruded_map", 6},
    {OBJ_SET, "loom_decl_extruded_set_columns", 3},
};

/* Nonzero when `callee` with nargs arguments declares an object of kind. */
static int is_decl_call(int kind, const char *callee, unsigned nargs) {
  for (size_t i = 0; i < sizeof decl_calls / sizeof decl_calls[0]; i++)
    if (decl_calls[i].kind == kind && decl_calls[i].nargs == nargs &&
        strcmp(decl_calls[i].call, callee) == 0)
      return 1;
  return 0;
}

/* Where argument i of a declaration call is written.  loom_decl_dat and
 * loom_decl_temp are macros, whose arguments clang locates at the macro
 * name: the macro's own argument list is found in the tokens instead.
 * Call arguments 2 and 3 (type code, size) both come from the macro's
 * `type`, and 4 (data) from its fourth argument. */
static srcloc arg_loc(const obj_reader *r, CXCursor call, unsigned i) {
  srcloc at = frontend_cursor_loc(r->fe, clang_Cursor_getArgument(call, i));
  if (!r->decl_is_macro)
    return at;
  /* loom_decl_dat(set, dim, type, data, name) and loom_decl_dat_hdf5(set,
   * dim, type, file, name): the call's type code, size and data (or
   * witness) come from the macro's `type` or `data` */
  static const unsigned macro_arg[] = {0, 1, 2, 2, 3, 4};
  static const unsigned macro_arg_hdf5[] = {0, 1, 2, 2, 2, 3, 4};
  unsigned want = i < 6 ? macro_arg[i] : 0, arg = 0;
  if (clang_Cursor_getNumArguments(call) == 7)
    want = i < 7 ? macro_arg_hdf5[i] : 0;
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
static int const_int_arg(obj_reader *r, CXCursor call, unsigned i,
                         const char *what, const char *name) {
  long long v;
  if (!cursor_int_value(cursor_strip_expr(clang_Cursor_getArgument(call, i)), &v)) {
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


/* The set named by argument i of a declaration call, or NULL. */

/* `m.cells`, `m->cells`: the chain's text and its base variable's symbol. */
static const char *member_chain(obj_reader *r, CXCursor e, sym **base) {
  e = cursor_strip_expr(e);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
    *base = symtab_of_cursor(r->st, clang_getCursorReferenced(e));
    return *base ? (*base)->name : NULL;
  }
  if (clang_getCursorKind(e) != CXCursor_MemberRefExpr)
    return NULL;
  CXCursor inner = cursor_first_child(e);
  const char *left = clang_Cursor_isNull(inner) ? NULL : member_chain(r, inner, base);
  if (!left)
    return NULL;
  CXType t = clang_getCanonicalType(clang_getCursorType(cursor_strip_expr(inner)));
  return arena_printf(r->arena, "%s%s%s", left, t.kind == CXType_Pointer ? "->" : ".",
                      frontend_spelling(r->fe, e));
}

static obj *set_arg(obj_reader *r, CXCursor call, unsigned i, const char *name) {
  CXCursor arg = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  sym *s = NULL;
  obj *o = NULL;
  if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr)
    s = symtab_of_cursor(r->st, clang_getCursorReferenced(arg));
  else if (clang_getCursorKind(arg) == CXCursor_MemberRefExpr) {
    const char *chain = member_chain(r, arg, &s);
    o = chain ? objects_of_chain(r, s, chain, arg_loc(r, call, i), 0) : NULL;
    if (o && o->kind == OBJ_SET)
      return o;
    s = NULL;
  }
  o = s ? objects_of_sym(r, s) : o;
  if (o && o->kind == OBJ_SET)
    return o;
  if (!s || (o && o->kind != OBJ_SET) || !s->obj_failed)
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "argument %u of the declaration of '%s' must name a loom_set "
         "variable declared with loom_decl_set", i + 1, name);
  return NULL;
}

static int read_map(obj_reader *r, CXCursor call, obj *o) {
  o->from = set_arg(r, call, 0, o->name);
  o->to = o->from ? set_arg(r, call, 1, o->name) : NULL;
  o->dim = o->to ? const_int_arg(r, call, 2, "arity", o->name) : -1;
  return o->dim > 0 ? 0 : -1;
}

/* The children of c (cursors), in order. */
static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  CXCursor **out = data;
  *(*out)++ = c;
  return CXChildVisit_Continue;
}

/* Up to `max` children of a cursor (an initialiser list's); n counts them
 * all. */
typedef struct kids {
  CXCursor items[64];
  int n;
} kids;

static enum CXChildVisitResult collect_kid_bounded(CXCursor c, CXCursor parent,
                                                   CXClientData data) {
  (void)parent;
  kids *k = data;
  if (k->n < 64)
    k->items[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

/* ---- extruded sets and maps ----------------------------------------------- */

/* loom_decl_extruded_set(base, layers, name): the layers when they are a
 * constant (0: known at run time only); loom_decl_extruded_set_columns
 * (base, layers, name) (`columns`: its columns' layers at run time). */
static int read_xset(obj_reader *r, CXCursor call, obj *o, int columns) {
  o->columns = columns;
  o->base = set_arg(r, call, 0, o->name);
  if (!o->base)
    return -1;
  if (o->base->base) {
    diag(DIAG_ERROR, arg_loc(r, call, 0), 0,
         "the base of extruded set '%s' is '%s', itself extruded: extrude its base, '%s'",
         o->name, o->base->name, o->base->base->name);
    return -1;
  }
  long long v;
  if (columns || !cursor_int_value(cursor_strip_expr(clang_Cursor_getArgument(call, 1)), &v))
    return 0;
  if (v < 1 || v > 1000000) {
    diag(DIAG_ERROR, arg_loc(r, call, 1), 0,
         "extruded set '%s' has %lld layers; a column holds between 1 and 1000000", o->name,
         v);
    return -1;
  }
  o->layers = (int)v;
  return 0;
}

/* Whether argument i is a null pointer constant (NULL, 0). */
static int null_arg(CXCursor call, unsigned i) {
  CXCursor e = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  while (clang_getCursorKind(e) == CXCursor_CStyleCastExpr)
    e = cursor_strip_expr(cursor_last_child(e));
  long long v;
  return cursor_int_value(e, &v) && v == 0;
}

/* The map named by argument i of a declaration call, or NULL after a
 * diagnostic. */
static obj *map_arg(obj_reader *r, CXCursor call, unsigned i, const char *name) {
  CXCursor arg = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  sym *s = NULL;
  obj *o = NULL;
  if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr)
    o = (s = symtab_of_cursor(r->st, clang_getCursorReferenced(arg))) ? objects_of_sym(r, s)
                                                                        : NULL;
  else if (clang_getCursorKind(arg) == CXCursor_MemberRefExpr) {
    const char *chain = member_chain(r, arg, &s);
    o = chain ? objects_of_chain(r, s, chain, arg_loc(r, call, i), 0) : NULL;
  }
  if (o && o->kind == OBJ_MAP)
    return o;
  if (!s || (o && o->kind != OBJ_MAP) || !s->obj_failed)
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "argument %u of the declaration of '%s' must name a loom_map variable, or be "
         "NULL (the identity)", i + 1, name);
  return NULL;
}

/* The initialiser list argument i gives: a compound literal's, or a const
 * array variable's; else a null cursor. */
static CXCursor shift_list(obj_reader *r, CXCursor call, unsigned i) {
  CXCursor e = cursor_strip_expr(clang_Cursor_getArgument(call, i));
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
    CXCursor var = clang_getCursorReferenced(e);
    CXType t = clang_getCursorType(var);
    CXType c = clang_getCanonicalType(t); /* const int[4]: the array is const */
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        !(clang_isConstQualifiedType(c) ||
          clang_isConstQualifiedType(clang_getArrayElementType(c))))
      return clang_getNullCursor();
    e = cursor_strip_expr(cursor_last_child(var));
  } else if (clang_getCursorKind(e) == CXCursor_CompoundLiteralExpr) {
    e = cursor_last_child(e);
  }
  (void)r;
  return clang_getCursorKind(e) == CXCursor_InitListExpr ? e : clang_getNullCursor();
}

/* The dim shifts of an extruded map (argument i), or -1 after a
 * diagnostic. */
static int read_shifts(obj_reader *r, CXCursor call, unsigned i, obj *o) {
  CXCursor list = shift_list(r, call, i);
  kids k = {.n = 0};
  int n = -1;
  if (!clang_Cursor_isNull(list)) {
    clang_visitChildren(list, collect_kid_bounded, &k);
    n = k.n;
  }
  int *shift = arena_alloc(r->arena, (size_t)(o->dim > 0 ? o->dim : 1) * sizeof *shift);
  for (int j = 0; n == o->dim && j < n; j++) {
    long long v;
    if (!cursor_int_value(cursor_strip_expr(k.items[j]), &v) || v < -1000000 || v > 1000000)
      n = -1;
    else
      shift[j] = (int)v;
  }
  if (n != o->dim) {
    diag(DIAG_ERROR, arg_loc(r, call, i), 0,
         "the shifts of extruded map '%s' must be %d integer constants loomc reads: "
         "`(const int[]){...}`, or a const int array with such an initialiser%s",
         o->name, o->dim, n >= 0 ? arena_printf(r->arena, " (it lists %d)", n) : "");
    return -1;
  }
  o->shift = shift;
  return 0;
}

/* loom_decl_extruded_map(from, to, dim, base, shift, name). */
static int read_xmap(obj_reader *r, CXCursor call, obj *o) {
  if (read_map(r, call, o))
    return -1;
  for (int k = 0; k < 2; k++)
    if (!(k ? o->to : o->from)->base) {
      diag(DIAG_ERROR, arg_loc(r, call, (unsigned)k), 0,
           "extruded map '%s' %s '%s', which is not extruded (declare it with "
           "loom_decl_extruded_set; between the bases, declare a map with loom_decl_map)",
           o->name, k ? "maps to" : "maps from", (k ? o->to : o->from)->name);
      return -1;
    }
  if (!null_arg(call, 3)) {
    o->base = map_arg(r, call, 3, o->name);
    const obj *b = o->base;
    if (!b)
      return -1;
    if (b->shift || (b->from != o->from->base || b->to != o->to->base || b->dim != o->dim)) {
      diag(DIAG_ERROR, arg_loc(r, call, 3), 0,
           "the base map of extruded map '%s' must map '%s' to '%s' with arity %d ('%s' "
           "maps %s to %s with arity %d)", o->name, o->from->base->name,
           o->to->base->name, o->dim, b->name, b->from ? b->from->name : "?",
           b->to ? b->to->name : "?", b->dim);
      return -1;
    }
  } else if (o->from->base != o->to->base) {
    diag(DIAG_ERROR, arg_loc(r, call, 3), 0,
         "extruded map '%s' has no base map (the identity), but '%s' and '%s' stand on "
         "different base sets", o->name, o->from->name, o->to->name);
    return -1;
  }
  return read_shifts(r, call, 4, o);
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

static int read_dat(obj_reader *r, CXCursor call, CXCursor var, obj *o) {
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


/* The map an element of a sparsity's map array names (`c2n`, `m->c2n`),
 * or NULL. */
static obj *pair_map(obj_reader *r, CXCursor e) {
  e = cursor_strip_expr(e);
  sym *s = NULL;
  obj *o = NULL;
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
    s = symtab_of_cursor(r->st, clang_getCursorReferenced(e));
    o = s ? objects_of_sym(r, s) : NULL;
  } else if (clang_getCursorKind(e) == CXCursor_MemberRefExpr) {
    const char *chain = member_chain(r, e, &s);
    r->quiet++;
    o = chain ? objects_of_chain(r, s, chain, frontend_cursor_loc(r->fe, e), 0) : NULL;
    r->quiet--;
  }
  return o && o->kind == OBJ_MAP ? o : NULL;
}

/* The maps of a sparsity's map array argument, into out (at most max):
 * `&m` (one pair), `(loom_map[]){a, b}`, or a local array initialised by
 * a list; their number, or -1 when loomc cannot read them. */
static int pair_maps(obj_reader *r, CXCursor e, obj **out, int max) {
  e = cursor_strip_expr(e);
  CXCursor list = clang_getNullCursor();
  if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
      cursor_unary_kind(r->fe->tu, e) == 2) { /* &m */
    out[0] = pair_map(r, cursor_first_child(e));
    return out[0] ? 1 : -1;
  }
  if (clang_getCursorKind(e) == CXCursor_CompoundLiteralExpr)
    list = cursor_last_child(e);
  else if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_VarDecl)
    list = cursor_last_child(clang_getCursorReferenced(e));
  if (clang_getCursorKind(list) != CXCursor_InitListExpr)
    return -1;
  CXCursor kids[64], *end = kids;
  if (clang_Cursor_getNumArguments(list) > 64)
    return -1;
  clang_visitChildren(list, collect_kid, &end);
  int n = (int)(end - kids);
  for (int i = 0; i < n && i < max; i++)
    if (!(out[i] = pair_map(r, kids[i])))
      return -1;
  return n <= max ? n : -1;
}

/* The pairs of maps of a loom_decl_sparsity (rows, cols, rdim, cdim,
 * npairs, rmaps, cmaps, name), when loomc can read them: npairs a
 * constant, each array one of pair_maps' forms. */
static void read_pairs(obj_reader *r, CXCursor sp, obj *o) {
  long long n;
  int ok = cursor_int_value(cursor_strip_expr(clang_Cursor_getArgument(sp, 4)), &n);
  obj *rows[64], *cols[64];
  if (!ok || n < 1 || n > 64 ||
      pair_maps(r, clang_Cursor_getArgument(sp, 5), rows, 64) < n ||
      pair_maps(r, clang_Cursor_getArgument(sp, 6), cols, 64) < n)
    return;
  for (int i = 0; i < n; i++) {
    vec_push(r->arena, &o->pairs, rows[i]);
    vec_push(r->arena, &o->pairs, cols[i]);
  }
}

/* A matrix: rows, columns and block sizes from the loom_decl_sparsity
 * initialising the sparsity variable loom_decl_mat names. */
static int read_mat(obj_reader *r, CXCursor call, obj *o) {
  CXCursor arg = cursor_strip_expr(clang_Cursor_getArgument(call, 0));
  CXCursor var = clang_getCursorKind(arg) == CXCursor_DeclRefExpr
                     ? clang_getCursorReferenced(arg) : clang_getNullCursor();
  CXCursor sp = clang_getCursorKind(var) == CXCursor_VarDecl ? init_call(var)
                                                              : clang_getNullCursor();
  if (clang_Cursor_isNull(sp) || clang_Cursor_getNumArguments(sp) != 8 ||
      strcmp(frontend_spelling(r->fe, sp), "loom_decl_sparsity") != 0) {
    diag(DIAG_ERROR, arg_loc(r, call, 0), 0,
         "argument 1 of the declaration of matrix '%s' must name a loom_sparsity variable "
         "initialised by loom_decl_sparsity in its declaration: loomc reads the matrix's "
         "rows, columns and block sizes there", o->name);
    return -1;
  }
  o->from = set_arg(r, sp, 0, o->name);
  o->to = o->from ? set_arg(r, sp, 1, o->name) : NULL;
  o->dim = o->to ? const_int_arg(r, sp, 2, "row block size", o->name) : -1;
  o->dim2 = o->dim > 0 ? const_int_arg(r, sp, 3, "column block size", o->name) : -1;
  o->type = elem_type_named("double");
  o->sparsity = frontend_spelling(r->fe, var);
  o->sparsity_loc = frontend_cursor_loc(r->fe, var);
  if (o->dim2 > 0)
    read_pairs(r, sp, o);
  return o->dim2 > 0 ? 0 : -1;
}

static obj *new_obj(obj_reader *r, sym *s, obj_kind kind) {
  obj *o = arena_alloc(r->arena, sizeof *o);
  o->kind = kind;
  o->name = s->name;
  o->expr = s->name;
  o->loc = frontend_cursor_loc(r->fe, s->cursor);
  return o;
}

static obj *build_opaque(obj_reader *r, CXCursor decl, int kind, const char *name,
                        const char *expr, const facts_scope *scope);

static obj *build_handle(obj_reader *r, sym *s, int kind) {
  CXCursor call = init_call(s->cursor);
  const char *callee = clang_Cursor_isNull(call) ? "" : frontend_spelling(r->fe, call);
  if (clang_getCursorKind(s->cursor) != CXCursor_VarDecl ||
      !is_decl_call(kind, callee, (unsigned)clang_Cursor_getNumArguments(call))) {
    facts_scope scope = {NULL, NULL, s};
    return build_opaque(r, s->cursor, kind, s->name, s->name, &scope);
  }
  obj *o = new_obj(r, s, (obj_kind)kind);
  int rc = 0;
  r->decl_var = s->cursor;
  r->decl_is_macro = kind == OBJ_DAT;
  if (kind == OBJ_SET && strncmp(callee, "loom_decl_extruded_set", 22) == 0)
    rc = read_xset(r, call, o, strcmp(callee + 22, "_columns") == 0);
  else if (kind == OBJ_MAP && strcmp(callee, "loom_decl_extruded_map") == 0)
    rc = read_xmap(r, call, o);
  else if (kind == OBJ_MAP && (rc = read_map(r, call, o)) == 0 && (o->from->base || o->to->base)) {
    const obj *x = o->from->base ? o->from : o->to;
    diag(DIAG_ERROR, arg_loc(r, call, o->from->base ? 0 : 1), 0,
         "map '%s' is declared with loom_decl_map on '%s', which is extruded: declare a map "
         "of its layers with loom_decl_extruded_map", o->name, x->name);
    rc = -1;
  }
  else if (kind == OBJ_DAT)
    rc = read_dat(r, call, s->cursor, o);
  else if (kind == OBJ_MAT)
    rc = read_mat(r, call, o);
  return rc ? NULL : o;
}

/* ---- handles whose declaration loomc does not see --------------------------- */

typedef struct annotation {
  const frontend *fe;
  const char *text; /* after "loom ": "dat SET, DIM, TYPE" */
  int distinct;     /* LOOM__DISTINCT (transform/version.h) */
} annotation;

static enum CXChildVisitResult find_facts(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  annotation *an = data;
  if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
    return CXChildVisit_Continue;
  const char *t = frontend_spelling(an->fe, c);
  if (strncmp(t, "loom distinct ", 14) == 0)
    an->distinct = 1;
  else if (strncmp(t, "loom ", 5) == 0)
    an->text = t + 5;
  return CXChildVisit_Continue;
}

static void note_at(obj_reader *r, CXCursor decl, const char *what) {
  diag(DIAG_NOTE, frontend_cursor_loc(r->fe, decl), 0, "%s", what);
}

static obj *facts_error(obj_reader *r, CXCursor decl, const obj *o, const char *why) {
  diag(DIAG_ERROR, r->use, r->use_len, "%s '%s': %s", obj_kind_name(o->kind), o->expr, why);
  note_at(r, decl, arena_printf(r->arena, "'%s' declared here", o->expr));
  return NULL;
}

/* "a, b, c" into its n parts, blanks trimmed. */
static int split_facts(arena *a, const char *s, const char *part[], int n) {
  for (int i = 0; i < n; i++) {
    while (*s == ' ')
      s++;
    const char *e = i < n - 1 ? strchr(s, ',') : s + strlen(s);
    if (!e)
      return -1;
    const char *end = e;
    while (end > s && end[-1] == ' ')
      end--;
    part[i] = arena_strndup(a, s, (size_t)(end - s));
    s = *e ? e + 1 : e;
  }
  return 0;
}

/* The dim or arity a fact gives (cint.h), or -1 and *why. */
static int facts_int(obj_reader *r, const char *s, CXCursor decl, const char **why) {
  long v;
  *why = NULL;
  if (cint_value(r->fe, s, decl, &v, why) != 0)
    return -1;
  if (v < 1 || v > 1000000) {
    *why = arena_printf(r->arena, "it is %ld", v);
    return -1;
  }
  return (int)v;
}

/* s without its blanks: `m -> cells` as `m->cells`. */
static const char *no_blanks(arena *a, const char *s) {
  char *t = arena_strdup(a, s), *o = t;
  for (const char *p = s; *p; p++)
    if (*p != ' ' && *p != '\t')
      *o++ = *p;
  *o = 0;
  return t;
}

static const char *what_decl(CXCursor decl) {
  switch (clang_getCursorKind(decl)) {
  case CXCursor_ParmDecl: return "it is a parameter";
  case CXCursor_FieldDecl: return "it is a struct member";
  default: break;
  }
  if (clang_Cursor_getStorageClass(decl) == CX_SC_Extern)
    return "it is declared extern";
  return clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(decl))
             ? "it is not initialised in its declaration"
             : "it is not initialised by a loom_decl_* call in its declaration";
}

/* The handle of `kind` a fact names, in its scope, or NULL (quietly). */
static obj *facts_handle(obj_reader *r, const facts_scope *sc, const char *name, int kind) {
  obj *h = NULL;
  size_t head = strcspn(name, "-.");
  r->quiet++;
  if (sc->base) {
    h = objects_of_chain(r, sc->base, arena_printf(r->arena, "%s%s", sc->prefix, name), r->use,
                         r->use_len);
  } else {
    sym *s = symtab_lookup(r->st, arena_strndup(r->arena, name, head),
                           sc->decl->in_main ? sc->decl->decl_off : 0);
    if (s && clang_getCursorKind(s->cursor) != CXCursor_FunctionDecl)
      h = name[head] ? objects_of_chain(r, s, name, r->use, r->use_len) : objects_of_sym(r, s);
  }
  r->quiet--;
  return h && (int)h->kind == kind ? h : NULL;
}

/* The set a fact names, in its scope. */
static obj *facts_set(obj_reader *r, const facts_scope *sc, const char *name, CXCursor decl,
                      const obj *o) {
  name = no_blanks(r->arena, name);
  obj *set = facts_handle(r, sc, name, OBJ_SET);
  if (set && set->kind == OBJ_SET)
    return set;
  return facts_error(r, decl, o, arena_printf(r->arena,
      "its facts name '%s', which is not a loom_set %s", name,
      sc->base ? "member of the same struct" : "visible at its declaration, nor a member chain "
                                               "from one"));
}

/* A matrix whose loom_decl_mat loomc does not see: its rows, columns and
 * block sizes from LOOM_MAT_FACTS(ROWS, COLS, RDIM, CDIM). */
static obj *opaque_mat(obj_reader *r, CXCursor decl, obj *o, const char *text,
                       const facts_scope *scope) {
  const char *part[4], *why = NULL;
  if (!text)
    return facts_error(r, decl, o, arena_printf(r->arena,
        "%s, so loomc does not see its loom_decl_mat: give its facts once, after the "
        "declarator: 'loom_mat %s LOOM_MAT_FACTS(ROWS, COLS, RDIM, CDIM)'", what_decl(decl),
        frontend_spelling(r->fe, decl)));
  if (strncmp(text, "mat ", 4) != 0 || split_facts(r->arena, text + 4, part, 4))
    return facts_error(r, decl, o, arena_printf(r->arena,
        "its facts are those of a %s: use LOOM_MAT_FACTS", text[0] == 'd' ? "dat" : "map"));
  for (int i = 2; i < 4; i++) {
    int n = facts_int(r, part[i], decl, &why);
    if (n < 1)
      return facts_error(r, decl, o, arena_printf(r->arena,
          "the %s block size in its facts is '%s' (%s): write an integer between 1 and "
          "1000000, as a literal, an enum constant or a macro that is one",
          i == 2 ? "row" : "column", part[i], why));
    *(i == 2 ? &o->dim : &o->dim2) = n;
  }
  o->type = elem_type_named("double");
  o->from = facts_set(r, scope, part[0], decl, o);
  o->to = o->from ? facts_set(r, scope, part[1], decl, o) : NULL;
  return o->to ? o : NULL;
}

/* An extruded set whose loom_decl_extruded_set loomc does not see: its
 * base from LOOM_EXTRUDED_SET_FACTS(BASE) (or _COLUMNS_: declared by
 * columns); its layers known at run time. */
static obj *opaque_xset(obj_reader *r, CXCursor decl, obj *o, const char *text,
                        const facts_scope *scope) {
  o->columns = strncmp(text, "xcols ", 6) == 0;
  if (strncmp(text, "xset ", 5) != 0 && !o->columns)
    return facts_error(r, decl, o, "its facts are those of another kind of handle: a set's "
                       "are LOOM_EXTRUDED_SET_FACTS(BASE), LOOM_EXTRUDED_COLUMNS_FACTS(BASE), "
                       "or none");
  o->base = facts_set(r, scope, text + 5 + o->columns, decl, o);
  if (o->base && o->base->base)
    return facts_error(r, decl, o, arena_printf(r->arena, "its facts name '%s' as its base, "
                       "itself extruded: extrude its base, '%s'", o->base->name,
                       o->base->base->name));
  return o->base ? o : NULL;
}

/* The base map an extruded map's facts name (NULL, 0: the identity, into
 * *base NULL); 0, or -1 after a diagnostic. */
static int facts_base_map(obj_reader *r, const facts_scope *sc, const char *name, CXCursor decl,
                          obj *o, obj **base) {
  *base = NULL;
  if (strcmp(name, "NULL") == 0 || strcmp(name, "0") == 0 || strcmp(name, "((void*)0)") == 0) {
    if (o->from->base == o->to->base)
      return 0;
    facts_error(r, decl, o, arena_printf(r->arena, "its facts give no base map (the "
                "identity), but '%s' and '%s' stand on different base sets", o->from->name,
                o->to->name));
    return -1;
  }
  obj *b = facts_handle(r, sc, no_blanks(r->arena, name), OBJ_MAP);
  if (b && !b->shift && b->from == o->from->base && b->to == o->to->base && b->dim == o->dim) {
    *base = b;
    return 0;
  }
  facts_error(r, decl, o, arena_printf(r->arena, "its facts name '%s' as its base map, which "
              "must be a loom_map from '%s' to '%s' with arity %d", name, o->from->base->name,
              o->to->base->name, o->dim));
  return -1;
}

/* An extruded map whose loom_decl_extruded_map loomc does not see:
 * LOOM_EXTRUDED_MAP_FACTS(FROM, TO, ARITY, BASE, SHIFT...). */
static obj *opaque_xmap(obj_reader *r, CXCursor decl, obj *o, const char *text,
                        const facts_scope *scope) {
  int n = 1;
  for (const char *c = text; *c; c++)
    n += *c == ',';
  const char **part = arena_alloc(r->arena, sizeof *part * (size_t)n), *why = NULL;
  if (n < 5 || split_facts(r->arena, text + 5, part, n))
    return facts_error(r, decl, o, "its facts are LOOM_EXTRUDED_MAP_FACTS(FROM, TO, ARITY, "
                       "BASE, SHIFT...), one shift per slot");
  o->dim = facts_int(r, part[2], decl, &why);
  o->from = o->dim > 0 ? facts_set(r, scope, part[0], decl, o) : NULL;
  o->to = o->from ? facts_set(r, scope, part[1], decl, o) : NULL;
  if (o->dim < 1 || !o->to)
    return o->dim < 1 ? facts_error(r, decl, o, arena_printf(r->arena, "the arity in its facts "
                                    "is '%s' (%s)", part[2], why ? why : "not an integer"))
                      : NULL;
  if (!o->from->base || !o->to->base)
    return facts_error(r, decl, o, arena_printf(r->arena, "its facts map '%s' to '%s': both "
                       "must be extruded sets (LOOM_EXTRUDED_SET_FACTS, or "
                       "loom_decl_extruded_set)", o->from->name, o->to->name));
  obj *base;
  if (facts_base_map(r, scope, part[3], decl, o, &base))
    return NULL;
  o->base = base;
  if (n - 4 != o->dim)
    return facts_error(r, decl, o, arena_printf(r->arena, "its facts list %d shifts for "
                       "arity %d: one per slot", n - 4, o->dim));
  int *shift = arena_alloc(r->arena, sizeof *shift * (size_t)o->dim);
  for (int j = 0; j < o->dim; j++) {
    long v;
    if (cint_value(r->fe, part[4 + j], decl, &v, &why) != 0 || v < -1000000 || v > 1000000)
      return facts_error(r, decl, o, arena_printf(r->arena, "shift %d in its facts is '%s': "
                         "write an integer constant", j + 1, part[4 + j]));
    shift[j] = (int)v;
  }
  o->shift = shift;
  return o;
}

/* A handle whose loom_decl_* loomc does not see: its facts from the
 * LOOM_DAT_FACTS/LOOM_MAP_FACTS/LOOM_MAT_FACTS annotation of its
 * declaration (a set needs none; an extruded set or map has facts of its
 * own).  It may be any handle of its kind: opaque. */
static obj *build_opaque(obj_reader *r, CXCursor decl, int kind, const char *name,
                         const char *expr, const facts_scope *scope) {
  obj *o = arena_alloc(r->arena, sizeof *o);
  o->kind = (obj_kind)kind;
  o->name = name;
  o->expr = expr;
  o->opaque = 1;
  o->loc = frontend_cursor_loc(r->fe, decl);
  annotation an = {r->fe, NULL, 0};
  clang_visitChildren(decl, find_facts, &an);
  o->distinct = an.distinct;
  if (kind == OBJ_SET)
    return an.text ? opaque_xset(r, decl, o, an.text, scope) : o;
  if (kind == OBJ_MAT)
    return opaque_mat(r, decl, o, an.text, scope);
  if (kind == OBJ_MAP && an.text && strncmp(an.text, "xmap ", 5) == 0)
    return opaque_xmap(r, decl, o, an.text, scope);
  const char *want = kind == OBJ_DAT ? "dat " : "map ";
  if (!an.text)
    return facts_error(r, decl, o, arena_printf(r->arena,
        "%s, so loomc does not see its loom_decl_%s: give its facts once, after the "
        "declarator: '%s %s %s'", what_decl(decl), kind == OBJ_DAT ? "dat" : "map",
        kind == OBJ_DAT ? "loom_dat" : "loom_map", frontend_spelling(r->fe, decl),
        kind == OBJ_DAT ? "LOOM_DAT_FACTS(SET, DIM, TYPE)" : "LOOM_MAP_FACTS(FROM, TO, ARITY)"));
  const char *part[3];
  if (strncmp(an.text, want, 4) != 0 || split_facts(r->arena, an.text + 4, part, 3))
    return facts_error(r, decl, o, arena_printf(r->arena,
        "its facts are those of a %s: use LOOM_%s_FACTS", an.text[0] == 'd' ? "dat" : "map",
        kind == OBJ_DAT ? "DAT" : "MAP"));
  const char *why;
  int n = facts_int(r, part[kind == OBJ_DAT ? 1 : 2], decl, &why);
  if (n < 1)
    return facts_error(r, decl, o, arena_printf(r->arena,
        "the %s in its facts is '%s' (%s): write an integer between 1 and 1000000, as a "
        "literal, an enum constant or a macro that is one",
        kind == OBJ_DAT ? "dim" : "arity", part[kind == OBJ_DAT ? 1 : 2], why));
  o->dim = n;
  if (kind == OBJ_DAT) {
    o->type = elem_type_named(part[2]);
    if (!o->type)
      return facts_error(r, decl, o, arena_printf(r->arena,
          "the type in its facts is '%s': a dat holds double, float, int or another "
          "arithmetic C type, spelt as C spells it", part[2]));
    o->set = facts_set(r, scope, part[0], decl, o);
    o->escapes = 1;
    return o->set ? o : NULL;
  }
  o->from = facts_set(r, scope, part[0], decl, o);
  o->to = o->from ? facts_set(r, scope, part[1], decl, o) : NULL;
  return o->to ? o : NULL;
}

/* ---- member chains: `m->cells`, `s.mesh.p_q` ------------------------------- */

typedef struct field_find {
  const frontend *fe;
  const char *name;
  CXCursor found;
} field_find;

static enum CXVisitorResult find_field(CXCursor c, CXClientData data) {
  field_find *f = data;
  if (strcmp(frontend_spelling(f->fe, c), f->name) != 0)
    return CXVisit_Continue;
  f->found = c;
  return CXVisit_Break;
}

/* C's spelling of a chain as an identifier for generated code: m_p_q,
 * made unique among the program's names. */
static const char *chain_ident(obj_reader *r, const char *chain) {
  strbuf sb;
  sb_init(&sb);
  for (const char *c = chain; *c; c++)
    if (*c == '-' && c[1] == '>')
      sb_puts(&sb, "_"), c++;
    else
      sb_printf(&sb, "%c", *c == '.' ? '_' : *c);
  const char *id = arena_strdup(r->arena, sb.data);
  sb_free(&sb);
  while (symtab_first_named(r->st, id))
    id = arena_printf(r->arena, "%s_", id);
  return id;
}

static obj *chain_error(const obj_reader *r, srcloc loc, unsigned len, const char *msg) {
  if (!r->quiet)
    diag(DIAG_ERROR, loc, len, "%s", msg);
  return NULL;
}

/* The handle a chain reaches from its base variable: built once per base
 * and chain (base->chains), so that every use of `m->p_q` is one object. */
obj *objects_of_chain(obj_reader *r, sym *base, const char *chain, srcloc loc, unsigned len) {
  sym *home = base->canon;
  for (int i = 0; i < home->chains.len; i++) {
    obj *o = home->chains.items[i];
    if (strcmp(o->expr, chain) == 0)
      return o;
  }
  CXType t = clang_getCursorType(base->cursor);
  const char *p = chain + strlen(base->name), *last = p;
  CXCursor field = clang_getNullCursor();
  while (*p) {
    int arrow = p[0] == '-';
    const char *m = p + (arrow ? 2 : 1), *e = m + strcspn(m, "-.");
    const char *seen = arena_strndup(r->arena, chain, (size_t)(p - chain));
    t = clang_getCanonicalType(t);
    if (!arrow && t.kind == CXType_Pointer)
      return chain_error(r, loc, len, arena_printf(r->arena,
          "'%s' is a pointer (its type is '%s'): use '->'", seen,
          frontend_type_spelling(r->fe, t)));
    if (arrow && t.kind != CXType_Pointer)
      return chain_error(r, loc, len, arena_printf(r->arena,
          "'%s' is not a pointer (its type is '%s'): use '.'", seen,
          frontend_type_spelling(r->fe, t)));
    if (arrow)
      t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record)
      return chain_error(r, loc, len, arena_printf(r->arena,
          "'%s' is not a struct%s (its type is '%s')", seen, arrow ? " pointer" : "",
          frontend_type_spelling(r->fe, clang_getCursorType(base->cursor))));
    field_find f = {r->fe, arena_strndup(r->arena, m, (size_t)(e - m)), clang_getNullCursor()};
    clang_Type_visitFields(t, find_field, &f);
    if (clang_Cursor_isNull(f.found))
      return chain_error(r, loc, len, arena_printf(r->arena,
          "'%s' has no member named '%s'", frontend_type_spelling(r->fe, t), f.name));
    field = f.found;
    t = clang_getCursorType(field);
    last = p;
    p = e;
  }
  int kind = objects_handle_kind(r->fe, t);
  if (kind < 0)
    return chain_error(r, loc, len, arena_printf(r->arena,
        "'%s' is not a loom handle (its type is '%s'); a global argument is a plain "
        "variable: copy the member into a local one", chain,
        frontend_type_spelling(r->fe, t)));
  facts_scope scope = {base, arena_strndup(r->arena, chain, (size_t)(last - chain) +
                                                                 (*last == '-' ? 2 : 1)), NULL};
  obj *o = build_opaque(r, field, kind, chain_ident(r, chain), chain, &scope);
  if (o)
    vec_push(r->arena, &home->chains, o);
  return o;
}

/* ---- globals -------------------------------------------------------------- */

static obj *global_error(obj_reader *r, const obj *o, const char *why) {
  diag(DIAG_ERROR, r->use, r->use_len, "'%s' cannot be a global argument: %s",
       obj_label(o), why);
  diag(DIAG_NOTE, o->loc, 0, "'%s' declared here", obj_label(o));
  return NULL;
}

static obj *build_global(obj_reader *r, sym *s) {
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
obj *objects_of_sym(obj_reader *r, sym *s) {
  sym *home = s->canon;
  if (home->obj || home->obj_failed)
    return home->obj;
  enum CXCursorKind k = clang_getCursorKind(s->cursor);
  int kind = -1;
  if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl)
    kind = objects_handle_kind(r->fe, clang_getCursorType(s->cursor));
  if (k == CXCursor_FunctionDecl)
    home->obj = NULL;
  else if (kind < 0)
    home->obj = build_global(r, s);
  else
    home->obj = build_handle(r, s, kind);
  home->obj_failed = home->obj == NULL;
  return home->obj;
}
