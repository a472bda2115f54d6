/*
 * resolve.c — names of loops bound to objects (see resolve.h).
 *
 * Each name a loop or a hint uses is looked up where it stands (symtab.h)
 * and bound to the object its declaration makes (objects.h); then the
 * argument is checked against the loop: sets, maps, matrices and the
 * access each kind of argument allows.
 */
#include "frontend/resolve.h"

#include <string.h>

#include "frontend/affine.h"
#include "frontend/objects.h"

/* A loop being bound (lp; NULL for a hint), and the object reader, which
 * says where the name being resolved is used. */
typedef struct resolver {
  obj_reader rd;
  loop *lp;
} resolver;

/* ---- binding loop names --------------------------------------------------- */

static void note_decl(const obj *o) {
  diag(DIAG_NOTE, o->loc, 0, "'%s' declared here", obj_label(o));
}

/* The object named `name` at the loop; NULL after a diagnostic. */
static obj *lookup(resolver *r, const char *name, srcloc loc, const char *what) {
  size_t base_len = strcspn(name, "-.");
  const char *base = arena_strndup(r->rd.arena, name, base_len);
  sym *s = symtab_lookup(r->rd.st, base, r->lp->start);
  r->rd.use = loc;
  r->rd.use_len = (unsigned)strlen(name);
  if (!s) {
    diag(DIAG_ERROR, loc, (unsigned)base_len,
         "use of undeclared identifier '%s' (expected %s)", base, what);
    return NULL;
  }
  if (name[base_len])
    return objects_of_chain(&r->rd, s, name, loc, r->rd.use_len);
  if (clang_getCursorKind(s->cursor) == CXCursor_FunctionDecl) {
    diag(DIAG_ERROR, loc, (unsigned)strlen(name),
         "'%s' is a function, not %s", name, what);
    return NULL;
  }
  return objects_of_sym(&r->rd, s);
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

/* Whether two sets may be one: the same object, or a handle loomc cannot
 * see declared (the loop checks it at run time). */
static int may_be_set(const obj *x, const obj *y) {
  return x == y || x->opaque || y->opaque;
}

static int check_dat_set(const loop_arg *a, const obj *want, const char *via) {
  if (may_be_set(a->obj->set, want))
    return 0;
  diag(DIAG_ERROR, a->loc, a->len,
       "dat '%s' lives on set '%s', but %s set '%s'", a->name,
       obj_label(a->obj->set), via, obj_label(want));
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
         a->slot, obj_label(a->map), a->map->dim, a->map->dim == 1 ? "" : "s",
         a->map->dim - 1);
    return -1;
  }
  const obj *set = r->lp->set;
  if (set->base && a->map->from == set->base) {
    diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
         "map '%s' maps from '%s', the base of extruded set '%s': a loop over the layers "
         "reaches other entities through an extruded map (loom_decl_extruded_map of '%s' "
         "with a layer shift per slot)", obj_label(a->map), obj_label(set->base),
         obj_label(set), obj_label(a->map));
    note_decl(a->map);
    return -1;
  }
  if (!may_be_set(a->map->from, r->lp->set)) {
    diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
         "map '%s' maps from set '%s', but the loop is over set '%s'",
         obj_label(a->map), obj_label(a->map->from), obj_label(r->lp->set));
    note_decl(a->map);
    return -1;
  }
  return check_dat_set(a, a->map->to,
                       arena_printf(r->rd.arena, "map '%s' points into", obj_label(a->map)));
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
  if (a->obj->kind == OBJ_MAT) {
    diag(DIAG_ERROR, a->loc, a->len,
         "'%s' is a matrix: pass the element matrix of each element as '%s[ROWMAP, COLMAP]', "
         "the maps reaching its rows and its columns", a->name, a->name);
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
         obj_label(a->map), a->map->dim, a->map->dim == 1 ? "" : "s", a->map->dim - 1);
    return -1;
  }
  if (!may_be_set(a->map->from, r->lp->set)) {
    diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
         "map '%s' maps from set '%s', but the loop is over set '%s'", obj_label(a->map),
         obj_label(a->map->from), obj_label(r->lp->set));
    note_decl(a->map);
    return -1;
  }
  return 0;
}

/* One map of a matrix argument: from the loop's set into the matrix's rows
 * (or columns). */
static int bind_mat_map(resolver *r, loop_arg *a, obj **map, const char *name, srcloc loc,
                        const obj *want, const char *what) {
  *map = lookup_kind(r, name, loc, OBJ_MAP, "a map");
  if (!*map)
    return -1;
  if (!may_be_set((*map)->from, r->lp->set)) {
    diag(DIAG_ERROR, loc, (unsigned)strlen(name),
         "map '%s' maps from set '%s', but the loop is over set '%s'", name,
         obj_label((*map)->from), obj_label(r->lp->set));
    note_decl(*map);
    return -1;
  }
  if (may_be_set((*map)->to, want))
    return 0;
  diag(DIAG_ERROR, loc, (unsigned)strlen(name),
       "map '%s' points into set '%s', but the %s of matrix '%s' are set '%s'", name,
       obj_label((*map)->to), what, a->name, obj_label(want));
  note_decl(a->obj);
  return -1;
}

/* A matrix written by a loop (mode write) is named once in it: its
 * entries are replaced after the loop, which another access could not
 * see. */
static int mat_written_once(resolver *r, const loop_arg *a) {
  for (int k = 0; k < r->lp->nargs; k++) {
    const loop_arg *b = &r->lp->args[k];
    if (b == a || !b->name || strcmp(b->name, a->name) != 0)
      continue;
    diag(DIAG_ERROR, b->loc, b->len,
         "matrix '%s' is written by this loop (argument %d, 'write'), so it can be "
         "named only once in it", a->name, a->pos);
    return -1;
  }
  return 0;
}

/* `A[rmap, cmap]`: A a matrix, incremented (the element matrices of the
 * elements reaching one entry are summed) or written (they replace the
 * entries they reach). */
/* The maps of `A[rmap, cmap]` are a pair of A's sparsity, when loomc read
 * its pairs and both maps are handles it sees declared. */
static int check_mat_pair(resolver *r, const loop_arg *a) {
  const obj *A = a->obj;
  if (!A->pairs.len || a->map->opaque || a->map2->opaque)
    return 0;
  const char *pairs = "";
  for (int i = 0; i < A->pairs.len; i += 2) {
    const obj *pr = A->pairs.items[i], *pc = A->pairs.items[i + 1];
    if ((pr == a->map && pc == a->map2) || pr->opaque || pc->opaque)
      return 0; /* that pair, or it may be: the run time checks it */
    pairs = arena_printf(r->rd.arena, "%s%s(%s, %s)", pairs, i ? ", " : "", obj_label(pr),
                         obj_label(pc));
  }
  diag(DIAG_ERROR, a->loc, a->len,
       "maps '%s' and '%s' are not a pair of the sparsity of matrix '%s': '%s' has %s %s",
       obj_label(a->map), obj_label(a->map2), a->name, A->sparsity,
       A->pairs.len == 2 ? "the pair" : "the pairs", pairs);
  diag(DIAG_NOTE, A->sparsity_loc, 0, "sparsity '%s' declared here", A->sparsity);
  return -1;
}

static int bind_mat(resolver *r, loop_arg *a) {
  a->obj = lookup_kind(r, a->name, a->loc, OBJ_MAT, "a matrix");
  if (!a->obj || bind_mat_map(r, a, &a->map, a->map_name, a->map_loc, a->obj->from, "rows") ||
      bind_mat_map(r, a, &a->map2, a->map2_name, a->map2_loc, a->obj->to, "columns") ||
      check_mat_pair(r, a))
    return -1;
  if (a->mode == MODE_WRITE)
    return mat_written_once(r, a);
  if (a->mode == MODE_INC)
    return 0;
  diag(DIAG_ERROR, a->loc, a->len,
       "matrix '%s' cannot be '%s': a loop adds element matrices into a matrix ('inc') "
       "or replaces its entries with them ('write')", a->name, mode_name(a->mode));
  return -1;
}

static int bind_arg(resolver *r, loop_arg *a) {
  int rc = 0;
  if (a->kind == ARG_IDX && a->map_name)
    rc = bind_idx(r, a);
  else if (a->kind == ARG_NAME)
    rc = bind_name(r, a);
  else if (a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL)
    rc = bind_mapped(r, a);
  else if (a->kind == ARG_MAT)
    rc = bind_mat(r, a);
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
  const func_def *f = symtab_function_at(r->rd.st, lp->start);
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

/* ---- extruded sets ------------------------------------------------------------ */

/* The layers [*first, *last] region rg runs of a column of L layers (L 0:
 * unknown, *first or *last then relative to L: `rel` bit 0 set when
 * *first is L + *first, bit 1 when *last is). */
static int region_layers(layer_region rg, int L, int *first, int *last) {
  int rel = 0;
  *first = 0;
  *last = -1;
  if (rg == REGION_TOP)
    *first = -1, rel |= 1;
  if (rg == REGION_BOTTOM)
    *last = 0;
  else if (rg == REGION_INTERIOR)
    *last = -2;
  rel |= rg == REGION_BOTTOM ? 0 : 2;
  if (L > 0) {
    *first += rel & 1 ? L : 0;
    *last += rel & 2 ? L : 0;
    rel = 0;
  }
  return rel;
}

/* Slot j of extruded map m, at the loop's region, reaches past the column
 * of m's target: said, when loomc can tell (constant layers, or a map
 * from a set to itself, into the element's own column where the set's
 * columns have layers of their own); else left to the loop's check at
 * run time. */
static int check_shift(resolver *r, const loop_arg *a, int j) {
  const obj *m = a->map;
  int first, last, s = m->shift[j], Lf = m->from->layers, Lt = m->to->layers;
  int rel = region_layers(r->lp->region, Lf, &first, &last);
  int same = m->from == m->to && (!m->from->columns || !m->base); /* Lt is Lf */
  const char *past = NULL, *range = NULL;
  arena *ar = r->rd.arena;
  if (!rel && last < first)
    return 0; /* no layer (interior of one layer) */
  if (!(rel & 1) && first + s < 0)
    past = arena_printf(ar, "layer %d", first + s), range = "below layer 0";
  else if (!(rel & 2) && Lt > 0 && last + s >= Lt)
    past = arena_printf(ar, "layer %d", last + s),
    range = arena_printf(ar, "layers 0 to %d", Lt - 1);
  else if ((rel & 2) && same && last + s >= 0)
    past = last + s ? arena_printf(ar, "layer L%+d", last + s) : "layer L",
    range = "layers 0 to L-1";
  if (!past)
    return 0;
  diag(DIAG_ERROR, a->map_loc, (unsigned)strlen(a->map_name),
       "map '%s' slot %d, shifted %+d layer%s, reaches %s of '%s' (%s) from region(%s) of "
       "'%s': outside the column (choose the loop's region, or the shift)", obj_label(m), j,
       s, s == 1 || s == -1 ? "" : "s", past, obj_label(m->to), range,
       region_name(r->lp->region), obj_label(m->from));
  note_decl(m);
  return -1;
}

static const char *extruded_unsupported(const loop_arg *a) {
  if (a->kind == ARG_IDX)
    return "'idx'";
  if (a->kind == ARG_MAT)
    return "a matrix";
  if (a->map && (a->mode == MODE_WRITE || a->mode == MODE_RW))
    return a->mode == MODE_WRITE ? "an argument written ('write') through a map"
                                 : "an argument updated ('rw') through a map";
  return NULL;
}

/* A loop over an extruded set: its region and its maps' shifts; a region
 * on a loop over any other set is an error. */
static int check_layers(resolver *r) {
  loop *lp = r->lp;
  if (!lp->set->base) {
    if (lp->region_loc.line == 0 || lp->set->opaque)
      return 0;
    diag(DIAG_ERROR, lp->region_loc, (unsigned)strlen(region_name(lp->region)),
         "region(%s) chooses the layers of a loop over an extruded set, but '%s' is not "
         "extruded", region_name(lp->region), obj_label(lp->set));
    return -1;
  }
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    const char *what = extruded_unsupported(a);
    if (what) {
      diag(DIAG_ERROR, a->loc, a->len, "%s cannot be passed to a loop over extruded set "
           "'%s'%s", what, obj_label(lp->set),
           a->map ? ": the layers of a column, and other columns, reach the same elements "
                    "through it (increment them: inc, min or max)" : "");
      return -1;
    }
    for (int j = 0; a->kind == ARG_MAPPED_ALL && j < a->map->dim; j++)
      if (check_shift(r, a, j))
        return -1;
    if (a->kind == ARG_MAPPED && check_shift(r, a, a->slot))
      return -1;
  }
  return 0;
}

static int resolve_loop(resolver *r) {
  if (place(r))
    return -1;
  if (r->lp->domain)
    return affine_resolve_loop(r->rd.fe, r->rd.st, r->lp, r->rd.arena);
  r->lp->set = lookup_kind(r, r->lp->set_name, r->lp->set_loc, OBJ_SET, "a set");
  if (!r->lp->set)
    return -1;
  /* The first error of a loop is its only one: later ones would repeat it. */
  for (int i = 0; i < r->lp->nargs; i++)
    if (bind_arg(r, &r->lp->args[i]))
      return -1;
  return check_layers(r);
}

/* ---- hints ------------------------------------------------------------------ */

/* pin/pin_cse name a temporary (a loom dat) or, for affine loops, a C array
 * (left NULL here: affine.c binds it); sync names dats and globals. */
static void resolve_hint(resolver *r, hint *h) {
  for (int i = 0; i < h->nnames; i++) {
    const char *name = h->names[i];
    sym *s = symtab_lookup(r->rd.st, name, h->start);
    r->rd.use = h->name_locs[i];
    r->rd.use_len = (unsigned)strlen(name);
    if (!s || clang_getCursorKind(s->cursor) == CXCursor_FunctionDecl) {
      diag(DIAG_ERROR, h->name_locs[i], r->rd.use_len,
           s ? "'%s' is a function, not %s" : "use of undeclared identifier '%s' (expected %s)",
           name, h->kind == HINT_SYNC ? "a dat or a global variable" : "a temporary");
      continue;
    }
    enum CXCursorKind k = clang_getCursorKind(s->cursor);
    int handle = (k == CXCursor_VarDecl || k == CXCursor_ParmDecl)
                     ? objects_handle_kind(r->rd.fe, clang_getCursorType(s->cursor))
                     : -1;
    if (h->kind != HINT_SYNC && handle < 0)
      continue;
    obj *o = objects_of_sym(&r->rd, s);
    if (o && (o->kind == OBJ_SET || o->kind == OBJ_MAP)) {
      diag(DIAG_ERROR, h->name_locs[i], r->rd.use_len, "'%s' is a %s; %s names %s",
           name, obj_kind_name(o->kind), hint_name(h->kind),
           h->kind == HINT_SYNC ? "dats and global variables" : "a temporary");
      continue;
    }
    if (o && h->kind != HINT_SYNC && !o->is_temp) {
      diag(DIAG_ERROR, h->name_locs[i], r->rd.use_len,
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
    resolver r = {{fe, st, a, {0}, 0, clang_getNullCursor(), 0, 0}, NULL};
    resolve_hint(&r, prog->hints.items[i]);
  }
  loop_list ok = {0};
  for (int i = 0; i < prog->loops.len; i++) {
    resolver r = {{fe, st, a, {0}, 0, clang_getNullCursor(), 0, 0}, prog->loops.items[i]};
    if (resolve_loop(&r) == 0)
      vec_push(a, &ok, r.lp);
  }
  prog->loops = ok;
}
