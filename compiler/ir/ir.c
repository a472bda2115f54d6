/*
 * ir.c — names of IR enumerations, for diagnostics and dumps, and small
 * questions about loops and the program's text (see ir.h).
 */
#include "ir/ir.h"

#include <string.h>

const char *obj_kind_name(obj_kind k) {
  static const char *const names[] = {"set",   "map",      "dat",   "global",
                                      "array", "variable", "matrix"};
  return names[k];
}

const char *region_name(layer_region r) {
  static const char *const names[] = {"all", "bottom", "top", "interior"};
  return names[r];
}

int region_covers(layer_region outer, layer_region inner) {
  return outer == REGION_ALL || outer == inner;
}

int obj_extruded(const obj *o) {
  if (o && o->kind == OBJ_DAT)
    o = o->set;
  if (!o)
    return 0;
  return o->kind == OBJ_SET ? o->base != NULL : o->kind == OBJ_MAP && o->shift != NULL;
}

const char *mode_name(access_mode m) {
  static const char *const names[] = {"none", "read", "write", "rw",
                                      "inc",  "min",  "max"};
  return names[m];
}

const char *mode_verb(access_mode m) {
  static const char *const verbs[] = {"touches",    "reads",  "writes", "updates",
                                      "increments", "lowers", "raises"};
  return verbs[m];
}

int mode_commutes(access_mode m) { return m == MODE_INC || m == MODE_MIN || m == MODE_MAX; }

int modes_commute(access_mode m, access_mode n) { return m == n && mode_commutes(m); }

int arg_is_reduction(const loop_arg *a) {
  return a->kind == ARG_GLOBAL && a->mode != MODE_READ;
}

int arg_writes_indirectly(const loop_arg *a) {
  return (a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL) &&
         a->mode != MODE_READ;
}

const loop_arg *loop_arg_reading(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].mode != MODE_WRITE)
      return &lp->args[i];
  return NULL;
}

const loop_arg *loop_arg_writing(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].mode != MODE_READ)
      return &lp->args[i];
  return NULL;
}

static int declared_in(const obj *o, const char *file, unsigned from, unsigned to) {
  return o && o->loc.file && strcmp(o->loc.file, file) == 0 && o->loc.offset > from &&
         o->loc.offset < to;
}

const obj *loop_names_declared_in(const loop *lp, const char *file, unsigned from,
                                  unsigned to) {
  if (declared_in(lp->set, file, from, to))
    return lp->set;
  for (int i = 0; i < lp->nargs; i++) {
    if (declared_in(lp->args[i].obj, file, from, to))
      return lp->args[i].obj;
    if (declared_in(lp->args[i].map, file, from, to))
      return lp->args[i].map;
  }
  return NULL;
}

int loop_executes_halo(const loop *lp) {
  for (int i = 0; i < lp->nargs; i++)
    if (arg_writes_indirectly(&lp->args[i]) || lp->args[i].kind == ARG_MAT)
      return 1;
  return 0;
}

const char *hint_name(hint_kind k) {
  static const char *const names[] = {"pin", "pin_cse", "sync"};
  return names[k];
}

void program_index_lines(program *prog, arena *a) {
  int n = 0;
  for (size_t i = 0; i < prog->len; i++)
    n += prog->text[i] == '\n';
  unsigned *nl = arena_alloc(a, ((size_t)n + 1) * sizeof *nl);
  n = 0;
  for (size_t i = 0; i < prog->len; i++)
    if (prog->text[i] == '\n')
      nl[n++] = (unsigned)i;
  prog->newlines = nl;
  prog->nnewlines = n;
}

int program_loops_in(const program *prog, unsigned start, unsigned end) {
  int n = 0;
  for (int i = 0; i < prog->loops.len; i++) {
    const loop *lp = prog->loops.items[i];
    n += lp->start >= start && lp->start < end;
  }
  return n;
}

unsigned program_line(const program *prog, unsigned off) {
  int lo = 0, hi = prog->nnewlines; /* the newlines before off: [0, lo) */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (prog->newlines[mid] < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (prog->line_of && lo < prog->nline_of)
    return prog->line_of[lo];
  return (unsigned)lo + 1;
}

const char *obj_label(const obj *o) { return o->expr ? o->expr : o->name; }
