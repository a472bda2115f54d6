/*
 * codegen.c — the shared walk over a group of fused loops, which every
 * backend's hooks complete (see codegen.h).
 *
 * The walk's other files: cg_write.c writes (lines, loops, `#line`),
 * cg_lanes.c a staged loop's turn in a strip, cg_roofline.c the bytes
 * and operations LOOM_DIAG reports, cpu_avx512.c the AVX-512 twins and
 * the file's prologue and epilogue; cg_internal.h declares what they
 * share.
 */
#include "emit/codegen.h"

#include <stdlib.h>
#include <string.h>

#include "emit/cg_internal.h"
#include "emit/isl_loops.h"
#include "transform/place.h"
#include "transform/rotate.h"
#include "transform/vectorize.h"

/* ---- the walk's state, for backends --------------------------------------- */

int cg_loop_num(const cg *g, const loop *lp) {
  for (int i = 0; i + 1 < g->renum.len; i += 2)
    if (g->renum.items[i] == lp)
      return (int)(long)g->renum.items[i + 1];
  return lp->id;
}

const group *cg_group(const cg *g) { return g->group; }

int cg_runs_strips(const cg *g, const group *gr) { return vectorize_strips(g->tr->staged, gr); }

const char *cg_elem(const cg *g) { (void)g; return "loom_i"; }
const obj *cg_set(const group *gr) { return ((const loop *)gr->loops.items[0])->set; }

/* ---- extruded sets: the columns' layers ------------------------------------------ */

const char *cg_set_handle(cg *g, const obj *set) {
  return set->base ? arena_printf(g->arena, "loom__set_base(%s)", set->name) : set->name;
}

const char *cg_map_handle(cg *g, const obj *map) {
  if (!map->shift)
    return map->name;
  return map->base ? arena_printf(g->arena, "loom__map_base(%s)", map->name) : "NULL";
}

int cg_extruded(const group *gr) { return cg_set(gr)->base != NULL; }

/* The local holding the layers of an extruded set's columns: the storage
 * of each (the highest column's, for a set declared by columns). */
static const char *layers_local(cg *g, const obj *set) {
  return arena_printf(g->arena, "loom_L_%s", set->name);
}

/* The local holding the layers of the current column: a set's own, or,
 * declared by columns, the column's (emit_column_rows). */
static const char *column_layers(cg *g, const obj *set) {
  if (!set->columns)
    return layers_local(g, set);
  return arena_printf(g->arena, "loom_Lcol_%s", set->name);
}

/* The local pointing at argument a's values (slot `slot` of a [*]) at
 * the bottom of the current column, its shift applied (column_pointers). */
static const char *column_ptr(cg *g, const loop_arg *a, int slot) {
  const loop *lp = g->layer;
  if (a->kind == ARG_MAPPED_ALL)
    return arena_printf(g->arena, "loom_c%d_%d_%d", cg_loop_num(g, lp), a->pos, slot);
  return arena_printf(g->arena, "loom_c%d_%d", cg_loop_num(g, lp), a->pos);
}

/* Argument a's values at the current element and layer (loom_k) of a
 * loop over an extruded set: its column's pointer, loom_k layers up. */
static const char *layer_ptr(cg *g, const loop_arg *a, int slot) {
  const char *c = column_ptr(g, a, slot), *at = g->layer_at;
  if (at && strcmp(at, "0") == 0)
    return c;
  const char *k = !at ? "loom_k" : at[strcspn(at, " ")] ? arena_printf(g->arena, "(%s)", at) : at;
  if (a->obj->dim == 1)
    return arena_printf(g->arena, "%s + %s", c, k);
  return arena_printf(g->arena, "%s + %d * %s", c, a->obj->dim, k);
}

/* The layers [first, end) the region of g->layer runs. */
static void region_bounds(cg *g, const loop *lp, const char **first, const char **end) {
  const char *L = column_layers(g, lp->set);
  *first = lp->region == REGION_TOP ? arena_printf(g->arena, "%s - 1", L) : "0";
  *end = lp->region == REGION_BOTTOM   ? "1"
         : lp->region == REGION_INTERIOR ? arena_printf(g->arena, "%s - 1", L)
                                         : L;
}

/* Whether argument a writes something no other layer of the loops
 * [first, end) of gr reads or writes: a dat written directly, which no
 * argument reaches through a map (under another name that may be it too);
 * no global, no increment through a map, no local the layers share. */
static int writes_own_cell(cg *g, const group *gr, int first, int end, const loop_arg *a) {
  if (a->kind != ARG_DAT || !a->obj || a->obj->kind != OBJ_DAT ||
      cg_fate(g, a->obj) != TEMP_STORED)
    return 0;
  for (int i = first; i < end; i++) {
    const loop *lp = gr->loops.items[i];
    for (int k = 0; k < lp->nargs; k++) {
      const loop_arg *b = &lp->args[k];
      if (b->obj && b->kind != ARG_DAT && effects_overlap(b->obj, a->obj))
        return 0;
    }
  }
  return 1;
}

/* Whether no layer of gr's loops [first, end) depends on another: every
 * argument that writes writes its own cell, and no loop evaluates or
 * contracts a temporary.  The layer loop then runs under LOOM_IVDEP: the
 * C compiler need not test, column by column, whether its pointers
 * overlap (which costs most where columns are short). */
static int layers_independent(cg *g, const group *gr, int first, int end) {
  for (int i = first; i < end; i++) {
    const loop *lp = gr->loops.items[i];
    for (int k = 0; k < lp->nargs; k++) {
      const loop_arg *a = &lp->args[k];
      if (a->obj && a->obj->kind == OBJ_DAT && cg_fate(g, a->obj) != TEMP_STORED)
        return 0;
      if (a->mode != MODE_READ && !writes_own_cell(g, gr, first, end, a))
        return 0;
    }
  }
  return 1;
}

/* The loops of the layer run of gr that starts at loop i end at *end. */
static int layer_run_end(const group *gr, int i) {
  int end = i + 1;
  while (gr->layers.len && end < gr->layers.len && gr->layers.items[end] == i)
    end++;
  return end;
}

int cg_asserts_layers(cg *g, const group *gr) {
  if (!cg_extruded(gr))
    return 0;
  for (int i = 0; i < gr->loops.len; i = layer_run_end(gr, i))
    if (layers_independent(g, gr, i, layer_run_end(gr, i)))
      return 1;
  return 0;
}

/* Whether gr runs over a set declared by columns with a loop that reads
 * the column's layers (every region but the bottom's). */
static int reads_column_layers(const group *gr) {
  for (int i = 0; i < gr->loops.len; i++) {
    const loop *lp = gr->loops.items[i];
    if (lp->set->columns && lp->region != REGION_BOTTOM)
      return 1;
  }
  return 0;
}

/* The locals of the layers of the extruded sets the group's loops run
 * over or reach through extruded maps (these by the map: the loop has no
 * handle of their targets), and of each column where it reads them. */
static void emit_layers(cg *g, const group *gr, const vec *objs) {
  vec seen = {0};
  for (int i = 0; i < objs->len; i++) {
    const obj *o = objs->items[i];
    const obj *set = o->kind == OBJ_SET && o->base ? o : o->kind == OBJ_MAP && o->shift ? o->to : NULL;
    int dup = 0;
    for (int k = 0; k < seen.len && !dup; k++)
      dup = seen.items[k] == set;
    if (!set || dup)
      continue;
    vec_push(g->arena, &seen, (void *)set);
    const char *handle = o == set ? o->name : arena_printf(g->arena, "loom__map_to(%s)", o->name);
    cg_line(g, "const int %s = loom_set_layers(%s);", layers_local(g, set), handle);
  }
  for (int i = 0; i < objs->len && reads_column_layers(gr); i++) { /* the loops' sets */
    const obj *o = objs->items[i];
    if (o->kind == OBJ_SET && o->columns)
      cg_line(g, "const int *const loom_cols_%s = loom__set_columns(%s); /* each column's "
              "layers */", o->name, o->name);
  }
}

/* A check that extruded map m of lp (its argument at position pos) has
 * the shifts loomc read, each slot staying in its column over lp's region. */
static const char *layers_check(cg *g, const loop *lp, const obj *m, const char *name, int pos) {
  strbuf s;
  sb_init(&s);
  for (int j = 0; j < m->dim; j++)
    sb_printf(&s, "%s%d", j ? ", " : "", m->shift[j]);
  static const char *const region[] = {[REGION_ALL] = "ALL", [REGION_BOTTOM] = "BOTTOM",
                                        [REGION_TOP] = "TOP", [REGION_INTERIOR] = "INTERIOR"};
  const char *text = arena_printf(g->arena, "loom__check_layers(%s, %d, (const int[]){%s}, "
                                  "LOOM__REGION_%s, %s, %d)", m->name, m->dim, s.data,
                                  region[lp->region], name, pos);
  sb_free(&s);
  return text;
}

loop_arg_list cg_args(cg *g, const group *gr) {
  loop_arg_list v = {0};
  for (int i = 0; i < gr->loops.len; i++) {
    const loop *lp = gr->loops.items[i];
    for (int k = 0; k < lp->nargs; k++)
      vec_push(g->arena, &v, &lp->args[k]);
  }
  return v;
}
static void push_once(cg *g, vec *v, const void *p);

effect_list cg_effects(cg *g, const group *gr) {
  effect_list v = {0};
  for (int l = 0; l < gr->loops.len; l++) {
    effect_list fx = effects_of_loop(g->arena, gr->loops.items[l], &g->fu->temps);
    for (int i = 0; i < fx.len; i++)
      vec_push(g->arena, &v, fx.items[i]);
  }
  return v;
}

obj_list cg_halo_dats(cg *g, const group *gr) {
  obj_list v = {0};
  for (int l = 0; l < gr->loops.len; l++) {
    obj_list d = effects_halo_dats(g->arena, gr->loops.items[l], &g->fu->temps);
    for (int i = 0; i < d.len; i++) {
      int seen = 0;
      for (int j = 0; j < v.len && !seen; j++)
        seen = v.items[j] == d.items[i];
      if (!seen)
        vec_push(g->arena, &v, d.items[i]);
    }
  }
  return v;
}

const char *cg_count(const cg *g) { (void)g; return "loom_n"; }
arena *cg_arena(cg *g) { return g->arena; }

const char *cg_reduction_local(cg *g, const loop_arg *a) {
  return arena_printf(g->arena, "loom_g_%s", a->obj->name);
}

const char *cg_reduction_identity(cg *g, const loop_arg *a) {
  if (a->mode == MODE_INC)
    return "0";
  return arena_printf(g->arena, "%s[%%s]", a->obj->name);
}

void cg_declare_local(cg *g, const loop_arg *a, const char *name, const char *init) {
  const char *t = a->obj->type->c_name;
  if (a->obj->dim == 1) {
    cg_line(g, "%s %s = %s;", t, name, arena_printf(g->arena, init, "0"));
    return;
  }
  cg_line(g, "%s %s[%d];", t, name, a->obj->dim);
  cg_line(g, "for (int loom_j = 0; loom_j < %d; loom_j++)", a->obj->dim);
  cg_line(g, "  %s[loom_j] = %s;", name, arena_printf(g->arena, init, "loom_j"));
}

void cg_declare_reduction_local(cg *g, const loop_arg *a, const char *init) {
  cg_declare_local(g, a, cg_reduction_local(g, a), init);
}

const target *cg_target(const cg *g) { return target_of(g->be->kind); }
const program *cg_program(const cg *g) { return g->prog; }

cg *cg_new(const program *prog, const transformed *tr, const backend *be, const char *out_name,
           strbuf *out, arena *a) {
  cg *g = arena_alloc(a, sizeof *g);
  *g = (cg){.prog = prog, .fu = tr->fu, .tr = tr, .elem = "loom_i", .be = be, .out_name = out_name,
            .out = out, .arena = a};
  return g;
}

void cg_done(cg *g) {
  (void)g;
  isl_loops_done();
}

/* ---- names ------------------------------------------------------------------- */

/* Loops a group's function is named after; the others are counted
 * (`..._and_58_more`), and the comment above it names them all.  A
 * rotation's group (tail + head) has more loops than its tail: the
 * count keeps their names apart. */
enum { NAME_LOOPS = 6 };

static const char *group_fn(cg *g, const group *gr) {
  const char *name = "loom_loop";
  for (int i = 0; i < gr->loops.len && i < NAME_LOOPS; i++) {
    const loop *lp = gr->loops.items[i];
    name = arena_printf(g->arena, "%s%s_%d_%s", name, i ? "_" : "", lp->id, lp->kernel);
  }
  if (gr->loops.len > NAME_LOOPS)
    name = arena_printf(g->arena, "%s__and_%d_more", name, gr->loops.len - NAME_LOOPS);
  return name;
}

/* The name string of a loop in run-time messages: `loom_loop` for a loop
 * on its own, one per loop in a group or a pinned producer. */
static const char *name_var(cg *g, const group *gr, const loop *lp) {
  if (gr->loops.len == 1 && gr->loops.items[0] == lp)
    return "loom_loop";
  return arena_printf(g->arena, "loom_loop_%d", cg_loop_num(g, lp));
}

const char *cg_data_ptr(cg *g, const obj *dat) {
  return arena_printf(g->arena, "loom_d_%s", dat->name);
}

static const char *map_ptr(cg *g, const obj *map) {
  return arena_printf(g->arena, "loom_m_%s", map->name);
}

/* ---- the objects a group passes ----------------------------------------------- */

temp_fate cg_fate(const cg *g, const obj *o) {
  const temp_info *ti = o && o->kind == OBJ_DAT ? temps_find(&g->fu->temps, o) : NULL;
  return ti ? ti->fate : TEMP_STORED;
}

/* The components stored of a narrowed temporary (transform/narrow.h), 0
 * for any other object. */
static int kept(const cg *g, const obj *o) { return narrow_kept(&g->tr->narrowed, o); }

/* The values per element o's storage holds. */
int cg_stored_dim(const cg *g, const obj *o) { return kept(g, o) ? kept(g, o) : o->dim; }

/* The producer a consumer's argument evaluates (a pinned temporary). */
const loop *cg_pinned_producer(const cg *g, const loop_arg *a) {
  const temp_info *ti = a->obj && a->obj->kind == OBJ_DAT ? temps_find(&g->fu->temps, a->obj) : NULL;
  return ti && ti->fate == TEMP_PINNED && a->mode == MODE_READ ? ti->producer : NULL;
}

/* Appends p to v unless it is NULL or already there. */
static void push_once(cg *g, vec *v, const void *p) {
  for (int j = 0; p && j < v->len; j++)
    if (v->items[j] == p)
      return;
  if (p)
    vec_push(g->arena, v, (void *)p);
}

static void add_object(cg *g, vec *v, const obj *o) { push_once(g, v, o); }

/* Maps, dats and globals of a loop, each once, in order of first use, but
 * `skip` (the temporary a pinned producer computes); for a pinned
 * temporary it reads, the set and objects of its producer instead (and so
 * on, for a chain of them). */
static void add_objects_but(cg *g, vec *v, const loop *lp, const obj *skip) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    const loop *p = a->kind == ARG_IDX ? NULL : cg_pinned_producer(g, a);
    if (a->obj == skip && a->kind != ARG_IDX)
      continue;
    add_object(g, v, a->map);
    add_object(g, v, a->map2);
    if (!p) {
      add_object(g, v, a->obj);
      continue;
    }
    add_object(g, v, p->set);
    add_objects_but(g, v, p, a->obj);
  }
}

static void add_loop_objects(cg *g, vec *v, const loop *lp) { add_objects_but(g, v, lp, NULL); }

static vec group_objects(cg *g, const group *gr) {
  vec v = {0};
  for (int i = 0; i < gr->loops.len; i++)
    add_loop_objects(g, &v, gr->loops.items[i]);
  return v;
}

static int global_is_read(const group *gr, const obj *o) {
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (lp->args[i].obj == o && lp->args[i].mode != MODE_READ)
        return 0;
  }
  return 1;
}

static const char *param_decl(cg *g, const group *gr, const obj *o) {
  static const char *const handle[] = {"loom_set", "loom_map", "loom_dat"};
  if (o->kind == OBJ_MAT)
    return arena_printf(g->arena, "loom_mat %s", o->name);
  if (o->kind != OBJ_GLOBAL)
    return arena_printf(g->arena, "%s %s", handle[o->kind], o->name);
  return arena_printf(g->arena, "%s%s *%s", global_is_read(gr, o) ? "const " : "",
                      o->type->c_name, o->name);
}

static const char *call_arg(cg *g, const obj *o) {
  if (o->kind != OBJ_GLOBAL || o->is_array)
    return o->expr ? o->expr : o->name;
  return arena_printf(g->arena, "&%s", o->name);
}

/* `NAME(a, b, c)`, its arguments from column `align` on when they wrap
 * (break: on a line of their own after the '('). */
static char *join_layout(const char *head, vec *parts, size_t start, int wrap, int brk,
                         size_t align, int *lines) {
  strbuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s(", head);
  size_t cur = start + strlen(head) + 1;
  *lines = 1;
  if (brk) {
    sb_printf(&sb, "\n%*s", (int)align, "");
    cur = align;
    ++*lines;
  }
  for (int i = 0; i < parts->len; i++) {
    const char *part = parts->items[i];
    size_t n = strlen(part);
    if (i && wrap && cur + n + 4 > WRAP) {
      sb_printf(&sb, ",\n%*s", (int)align, "");
      cur = align;
      ++*lines;
    } else if (i) {
      sb_puts(&sb, ", ");
      cur += 2;
    }
    sb_puts(&sb, part);
    cur += n;
  }
  sb_puts(&sb, ")");
  return sb.data;
}

/* `NAME(a, b, c)`.  When col (the column NAME starts at) is not negative,
 * arguments that would pass WRAP columns continue on a new line, aligned
 * after the '(' or, when that takes fewer lines (a long NAME), all on
 * lines of their own, indented by four past line_col (where NAME's line
 * starts). */
static const char *join_at(cg *g, const char *head, vec *parts, int col, int line_col) {
  size_t start = (size_t)(col > 0 ? col : 0);
  int lines, lines4;
  char *aligned = join_layout(head, parts, start, col >= 0, 0, start + strlen(head) + 1, &lines);
  char *text = aligned;
  if (col >= 0 && lines > 1 && parts->len) {
    char *broken = join_layout(head, parts, start, 1, 1, (size_t)line_col + 4, &lines4);
    if (lines4 < lines) {
      text = broken;
      free(aligned);
    } else {
      free(broken);
    }
  }
  char *s = arena_strdup(g->arena, text);
  free(text);
  return s;
}

/* join_at for a call that starts its line at column col. */
static const char *join(cg *g, const char *head, vec *parts, int col) {
  return join_at(g, head, parts, col, col > 0 ? col : 0);
}

const char *cg_join(cg *g, const char *head, vec *parts, int col) {
  return join_at(g, head, parts, col, 0);
}

/* ---- the loop function --------------------------------------------------------- */

/* `LEAD NAME(params)`: the parameters `state` (strings, a shared body's
 * per-loop state), then objs'. */
void cg_emit_signature(cg *g, const group *gr, const vec *state, const vec *objs,
                       const char *lead, const char *name) {
  vec params = {0};
  for (int i = 0; state && i < state->len; i++)
    vec_push(g->arena, &params, state->items[i]);
  for (int i = 0; i < objs->len; i++)
    vec_push(g->arena, &params, (void *)param_decl(g, gr, objs->items[i]));
  cg_line(g, "%s %s", lead, join_at(g, name, &params, (int)strlen(lead) + 1, 0));
}

static int loop_uses(const loop *lp, const obj *o) {
  if (lp->set == o)
    return 1;
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o || lp->args[i].map == o || lp->args[i].map2 == o)
      return 1;
  return 0;
}

/* The loop whose argument brings o into the group: one of its loops, or a
 * pinned producer they evaluate (called_loops' order). */
static const loop *owner_loop(cg *g, const group *gr, const obj *o) {
  vec loops = cg_called_loops(g, gr);
  for (int i = 0; i < loops.len; i++)
    if (loop_uses(loops.items[i], o))
      return loops.items[i];
  return gr->loops.items[0];
}

/* The position of lp's first argument naming o. */
static int arg_pos(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o || lp->args[i].map == o || lp->args[i].map2 == o)
      return lp->args[i].pos;
  return 0;
}

/* An extruded map's layers check (layers_check), for the loop owning it. */
static const char *layers_check_of(cg *g, const group *gr, const obj *m) {
  const loop *lp = owner_loop(g, gr, m);
  return layers_check(g, lp, m, name_var(g, gr, lp), arg_pos(lp, m));
}

static const char *check_call(cg *g, const group *gr, const obj *o) {
  const loop *lp = owner_loop(g, gr, o);
  const char *name = name_var(g, gr, lp);
  if (o->kind == OBJ_SET)
    return arena_printf(g->arena, "loom__check_%s(%s, %s)",
                        o->columns ? "columns" : o->base ? "extruded" : "set", o->name, name);
  int pos = arg_pos(lp, o);
  if (o->kind == OBJ_MAT)
    return arena_printf(g->arena, "loom__check_mat(%s, %d, %d, %s, %d)", o->name, o->dim,
                        o->dim2, name, pos);
  if (o->kind == OBJ_MAP)
    return arena_printf(g->arena, "loom__check_map(%s, %s, NULL, %d, %s, %d)",
                        o->name, lp->set->name, o->dim, name, pos);
  const char *set = lp->set->name;
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].map)
      set = arena_printf(g->arena, "loom__map_to(%s)", lp->args[i].map->name);
  return arena_printf(g->arena, "loom__check_dat(%s, %s, %d, %s, %s, %d)",
                      o->name, set, cg_stored_dim(g, o), o->type->loom_name, name, pos);
}

static const char *loop_title(cg *g, const loop *lp) {
  return cg_quoted(g, arena_printf(g->arena, "%s at %s:%u", lp->kernel, g->prog->file,
                                   lp->loc.line));
}

/* The label of a group (plans, timing): its loop's, or for a fused group
 * its kernels' at its anchor's line. */
static const char *group_title(cg *g, const group *gr) {
  if (gr->loops.len == 1)
    return loop_title(g, gr->loops.items[0]);
  const char *title = "";
  for (int i = 0; i < gr->loops.len; i++)
    title = arena_printf(g->arena, "%s%s%s", title, i ? " + " : "",
                         ((const loop *)gr->loops.items[i])->kernel);
  return cg_quoted(g, arena_printf(g->arena, "%s at %s:%u", title, g->prog->file,
                                   gr->anchor->loc.line));
}

/* The loops with labels of their own (a group of several: those whose
 * arguments the checks name). */
static vec named_loops(cg *g, const group *gr, const vec *objs) {
  vec named = {0};
  for (int i = 0; i < objs->len; i++) {
    const loop *lp = owner_loop(g, gr, objs->items[i]);
    if (((const obj *)objs->items[i])->kind != OBJ_GLOBAL &&
        strcmp(name_var(g, gr, lp), "loom_loop") != 0)
      push_once(g, &named, lp);
  }
  return named;
}

/* The name strings: the group's (plans, timing), and one per loop when
 * there are several. */
static void emit_names(cg *g, const group *gr, const vec *objs) {
  cg_line(g, "static const char loom_loop[] = %s;", group_title(g, gr));
  vec named = named_loops(g, gr, objs);
  for (int i = 0; i < named.len; i++)
    cg_line(g, "static const char %s[] = %s;", name_var(g, gr, named.items[i]),
            loop_title(g, named.items[i]));
}

static int arg_is_mapped(const loop_arg *a) {
  return a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL;
}

/* Two arguments of one loop under handles that may be one dat (alias.h),
 * one written and one reached through a map, not both increments: were
 * they one, check.c would have rejected the loop; the run time checks. */
static void distinct_checks(cg *g, const group *gr, vec *checks) {
  vec loops = cg_called_loops(g, gr);
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      for (int k = i + 1; k < lp->nargs; k++) {
        const loop_arg *a = &lp->args[i], *b = &lp->args[k];
        if (!a->obj || !b->obj || a->obj == b->obj || a->obj->kind != OBJ_DAT ||
            !a->obj->var || a->obj->var != b->obj->var ||
            modes_commute(a->mode, b->mode))
          continue;
        int wa = a->mode != MODE_READ, wb = b->mode != MODE_READ;
        if ((wa || wb) && (arg_is_mapped(a) || arg_is_mapped(b)))
          vec_push(g->arena, checks, (void *)arena_printf(g->arena,
              "loom__check_distinct(%s, %s, %s, %d, %d)", a->obj->name, b->obj->name,
              name_var(g, gr, lp), a->pos, b->pos));
      }
  }
}

/* Run-time checks that each object is what the loop was compiled for; a
 * failed check has been reported by libloom, and the loop does not run. */
static void emit_checks(cg *g, const group *gr, const vec *objs) {
  vec checks = {0};
  for (int i = 0; i < objs->len; i++) {
    const obj *o = objs->items[i];
    if (o->kind != OBJ_GLOBAL)
      vec_push(g->arena, &checks, (void *)check_call(g, gr, o));
    if (o->kind == OBJ_MAP && o->shift)
      vec_push(g->arena, &checks, (void *)layers_check_of(g, gr, o));
  }
  distinct_checks(g, gr, &checks);
  for (int i = 0; i < checks.len; i++)
    cg_line(g, "%s%s != LOOM_OK%s", i ? "    " : "if (", (const char *)checks.items[i],
            i + 1 < checks.len ? " ||" : ")");
  cg_line(g, "  return;");
}

void cg_declare_count(cg *g, const group *gr) {
  cg_line(g, "const int %s = loom__set_size(%s);", cg_count(g), cg_set_handle(g, cg_set(gr)));
}

/* Whether the code of a loop's argument a reads its map's entries: not a
 * pinned temporary evaluated by a producer that never looks at the element
 * (it reads no dat, no idx: only globals and what it writes). */
static int arg_reads_map(const cg *g, const loop_arg *a) {
  const loop *p = a->kind == ARG_IDX ? NULL : cg_pinned_producer(g, a);
  for (int k = 0; p && k < p->nargs; k++) {
    const loop_arg *b = &p->args[k];
    if (b->obj != a->obj && b->kind != ARG_GLOBAL &&
        (b->kind == ARG_IDX || b->map || arg_reads_map(g, b)))
      return 1; /* p looks at the element (a chain: if its own producer does) */
  }
  return !p;
}

/* Whether the group's code reads the entries of map m (a map passed only
 * to be checked, for a pinned producer that ignores the element, is not;
 * nor are a matrix argument's maps: the runtime reads them). */
static int map_read(cg *g, const group *gr, const obj *m) {
  vec loops = cg_called_loops(g, gr);
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    for (int i = 0; i < lp->nargs; i++)
      if (lp->args[i].map == m && lp->args[i].kind != ARG_MAT &&
          arg_reads_map(g, &lp->args[i]))
        return 1;
  }
  return 0;
}

/* The element matrices of matrix argument a: its loop's, for its pair of
 * maps (loom__mat_values). */
static const char *mat_values(cg *g, const loop *lp, const loop_arg *a) {
  return arena_printf(g->arena, "loom_mv%d_%d", cg_loop_num(g, lp), a->pos);
}

/* Rows times columns of a matrix argument's element matrix. */
int cg_mat_block(const loop_arg *a) {
  return a->map->dim * a->obj->dim * a->map2->dim * a->obj->dim2;
}

static void emit_mat_values(cg *g, const group *gr) {
  vec loops = cg_called_loops(g, gr);
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      if (a->kind != ARG_MAT)
        continue;
      cg_line(g, "double *const %s = loom__mat_%svalues(%s, %s, %s);", mat_values(g, lp, a),
              a->mode == MODE_WRITE ? "write_" : "", a->obj->name, a->map->name,
              a->map2->name);
      cg_line(g, "if (!%s)", mat_values(g, lp, a));
      cg_line(g, "  return;");
    }
  }
}

/* After the loop: the entries written by matrix arguments in mode write
 * take their winners' values (loom__mat_write_end). */
static void emit_mat_write_ends(cg *g, const group *gr) {
  vec loops = cg_called_loops(g, gr);
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      if (a->kind != ARG_MAT || a->mode != MODE_WRITE)
        continue;
      cg_line(g, "if (loom__mat_write_end(%s, %s, %s) != LOOM_OK)", a->obj->name,
              a->map->name, a->map2->name);
      cg_line(g, "  return;");
    }
  }
}

static void emit_pointers(cg *g, const group *gr, const vec *objs) {
  emit_mat_values(g, gr);
  for (int i = 0; i < objs->len; i++) {
    const obj *o = objs->items[i];
    if (o->kind == OBJ_MAP && map_read(g, gr, o) && (!o->shift || o->base))
      cg_line(g, "const int *const %s = loom__map_values(%s);", map_ptr(g, o),
              cg_map_handle(g, o));
    else if (o->kind == OBJ_DAT && cg_fate(g, o) == TEMP_STORED)
      cg_line(g, "%s *const %s = (%s *)loom__dat_values(%s);", o->type->c_name,
              cg_data_ptr(g, o), o->type->c_name, o->name);
  }
}

/* `base + dim * index`, without the multiplication when dim is 1. */
static const char *offset(cg *g, const char *base, int dim, const char *index) {
  if (dim == 1)
    return arena_printf(g->arena, "%s + %s", base, index);
  return arena_printf(g->arena, "%s + %d * %s", base, dim, index);
}

const char *cg_map_entry(cg *g, const loop_arg *a, int slot) {
  if (a->map->shift && !a->map->base)
    return g->elem; /* an extruded map over the identity: the element's own column */
  if (a->map->shift) /* the column's row, read before its layers (emit_column_rows) */
    return arena_printf(g->arena, "loom_r_%s[%d]", a->map->name, slot);
  return arena_printf(g->arena, "%s[%d * %s + %d]", map_ptr(g, a->map), a->map->dim,
                      g->elem, slot);
}

static const char *pointer_array(const cg *g, const loop_arg *a) {
  return arena_printf(g->arena, "loom_a%d", a->pos);
}

/* The local a contracted temporary lives in, per element (per strip, a
 * row per element). */
const char *cg_temp_local(cg *g, const obj *t) {
  return arena_printf(g->arena, "loom_t_%s", t->name);
}

/* The element's row in a strip's local array. */
const char *cg_strip_row(cg *g, const char *local) {
  return arena_printf(g->arena, "%s[%s - loom_s]", local, cg_elem(g));
}

/* The local argument a of lp is gathered into, per strip. */
const char *cg_gather_local(cg *g, const loop *lp, const loop_arg *a) {
  return arena_printf(g->arena, "loom_g%d_%d", cg_loop_num(g, lp), a->pos);
}

/* The local holding argument a's idx (the element's, or through a map). */
static const char *idx_local(cg *g, const loop_arg *a) {
  return a->map ? arena_printf(g->arena, "loom_idx%d", a->pos) : "loom_idx";
}

/* The local a pinned temporary is evaluated into, for argument a. */
static const loop *arg_loop(cg *g, const loop_arg *a);

static const char *pin_local(cg *g, const loop_arg *a) {
  const loop *lp = arg_loop(g, a); /* a chain nests evaluations: named by loop */
  return arena_printf(g->arena, "loom_p%d_%d", lp ? cg_loop_num(g, lp) : 0, a->pos);
}

/* The producer p of a pinned temporary, evaluated at element `elem` into
 * `into`, in a block of its own. */
static void emit_producer(cg *g, const loop *p, const obj *t, const char *elem,
                          const char *into) {
  const char *saved_elem = g->elem, *saved_into = g->into;
  const obj *saved_t = g->into_obj;
  const loop *saved_layer = g->layer; /* a column's: p's pointers (emit_column_ptrs) */
  g->elem = elem;
  g->into = into;
  g->into_obj = t;
  g->layer = saved_layer ? p : NULL;
  cg_line(g, "{");
  cg_indent(g, 1);
  cg_emit_kernel_call(g, p);
  cg_indent(g, -1);
  cg_line(g, "}");
  g->elem = saved_elem;
  g->into = saved_into;
  g->into_obj = saved_t;
  g->layer = saved_layer;
}

/* A pinned temporary read by argument a: its producer evaluated at each
 * element the argument reads. */
static void emit_pinned(cg *g, const loop_arg *a, const loop *p) {
  const char *t = a->obj->type->c_name, *local = pin_local(g, a);
  int d = a->obj->dim;
  if (a->kind != ARG_MAPPED_ALL) {
    cg_line(g, "%s %s[%d];", t, local, d);
    emit_producer(g, p, a->obj, a->kind == ARG_MAPPED ? cg_map_entry(g, a, a->slot) : g->elem,
                  local);
    return;
  }
  cg_line(g, "%s %s[%d][%d];", t, local, a->map->dim, d);
  for (int s = 0; s < a->map->dim; s++)
    emit_producer(g, p, a->obj, cg_map_entry(g, a, s),
                  arena_printf(g->arena, "%s[%d]", local, s));
}

/* Whether the backend redirects argument a (a write through a map). */
/* Whether argument a writes through a map with mode write: the element
 * writes its target only when it is the target's winner (the last writer
 * in declared order, loom__write_winners), else into a scratch local. */
static int guarded(const cg *g, const loop_arg *a) {
  return a->mode == MODE_WRITE && a->map && a->kind != ARG_IDX && a->kind != ARG_MAT &&
         !g->into_obj &&
         cg_fate(g, a->obj) == TEMP_STORED;
}

static int redirected(const cg *g, const loop_arg *a) {
  return guarded(g, a) || (g->be->write_target && a->mode != MODE_READ && a->map &&
                           a->kind != ARG_IDX && !g->into_obj && !g->layer &&
                           cg_fate(g, a->obj) != TEMP_CONTRACTED); /* columns: never */
}

/* The loop (of the group, or a pinned producer it evaluates) whose
 * argument a is. */
static const loop *arg_loop(cg *g, const loop_arg *a) {
  vec loops = cg_called_loops(g, g->group);
  for (int i = 0; i < loops.len; i++) {
    const loop *lp = loops.items[i];
    if (a >= lp->args && a < lp->args + lp->nargs)
      return lp;
  }
  return NULL;
}

/* The first argument of a's loop on a's dat: it names the winners of the
 * loop's writes to the dat. */
static const loop_arg *first_on(const loop *lp, const loop_arg *a) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == a->obj && lp->args[i].kind != ARG_IDX)
      return &lp->args[i];
  return a;
}

static const char *winners(cg *g, const loop *lp, const loop_arg *a) {
  return arena_printf(g->arena, "loom_win%d_%d", cg_loop_num(g, lp), first_on(lp, a)->pos);
}

/* The scratch local a losing write of argument a goes to (slot: of a[*]). */
static const char *loser(cg *g, const loop *lp, const loop_arg *a, int slot) {
  const char *x = arena_printf(g->arena, "loom_x%d_%d", cg_loop_num(g, lp), a->pos);
  return slot < 0 ? x : arena_printf(g->arena, "%s[%d]", x, slot);
}

/* Where argument a's data is: a local, or the dat's storage (or what the
 * backend puts there for a write through a map; for a guarded write, the
 * storage for the target's winner, a scratch local for the others). */
static const char *data_of(cg *g, const loop_arg *a, const char *index, int slot) {
  if (g->into_obj == a->obj)
    return g->into;
  if (cg_fate(g, a->obj) == TEMP_CONTRACTED)
    return g->strips ? cg_strip_row(g, cg_temp_local(g, a->obj)) : cg_temp_local(g, a->obj);
  const char *ptr = g->layer && obj_extruded(a->obj)
                        ? layer_ptr(g, a, slot < 0 ? a->slot : slot)
                        : offset(g, cg_data_ptr(g, a->obj), a->obj->dim, index);
  if (guarded(g, a)) {
    const loop *lp = arg_loop(g, a);
    return arena_printf(g->arena, "%s[%s] == %s ? %s : %s", winners(g, lp, a), index,
                        g->elem, ptr, loser(g, lp, a, slot));
  }
  return redirected(g, a) ? g->be->write_target(g, a, index, ptr) : ptr;
}

/* The local holding a redirected argument's pointer (named by its loop:
 * the loops of a group share one scope). */
static const char *target_local(cg *g, const loop *lp, const loop_arg *a) {
  return arena_printf(g->arena, "loom_w%d_%d", cg_loop_num(g, lp), a->pos);
}

const char *cg_scatter_local(cg *g, const loop *lp, const loop_arg *a) {
  const char *index = cg_map_entry(g, a, a->slot);
  const char *ptr = offset(g, cg_data_ptr(g, a->obj), a->obj->dim, index);
  const char *at = redirected(g, a) && g->be->write_target
                       ? g->be->write_target(g, a, index, ptr) : ptr;
  if (at == ptr)
    return NULL;
  cg_line(g, "%s *const %s =", a->obj->type->c_name, target_local(g, lp, a));
  cg_line(g, "    %s;", at);
  return target_local(g, lp, a);
}

const char *cg_scatter_row(cg *g, const loop *lp, const loop_arg *a) {
  const char *local = cg_scatter_local(g, lp, a);
  return local ? local
               : offset(g, cg_data_ptr(g, a->obj), a->obj->dim, cg_map_entry(g, a, a->slot));
}

/* The declared numbers of a set's elements (loom__set_global): the local
 * of the group's function holding them, for idx. */
static const char *gid_local(cg *g, const obj *set) {
  return arena_printf(g->arena, "loom_gid_%s", set->name);
}

/* `idx`: the declared number of the element (idx[map[i]]: of the element
 * reached through slot i), whatever the storage order (renumbering, MPI
 * partitioning): the element itself where loom__set_global gives none. */
static const char *idx_value(cg *g, const loop *lp, const loop_arg *a) {
  const char *e = a->map ? cg_map_entry(g, a, a->slot) : g->elem;
  const char *gid = gid_local(g, a->map ? a->map->to : lp->set);
  return arena_printf(g->arena, "%s ? %s[%s] : %s", gid, gid, e, e);
}

/* The local a narrowed temporary's row is given to the kernel in. */
static const char *narrow_local(cg *g, const loop *lp, const loop_arg *a) {
  return arena_printf(g->arena, "loom_k%d_%d", cg_loop_num(g, lp), a->pos);
}

static int is_narrowed(const cg *g, const loop_arg *a) {
  return a->kind == ARG_DAT && kept(g, a->obj);
}

/* A narrowed temporary's row: its kept components copied between the
 * full-dim local and the storage (`in`: into the local). */
static void emit_narrow_copies(cg *g, const loop *lp, const loop_arg *a, int in) {
  const char *local = narrow_local(g, lp, a);
  int nk = kept(g, a->obj), s = 0;
  const narrowing *n = narrow_find(&g->tr->narrowed, a->obj);
  for (int c = 0; c < a->obj->dim; c++) {
    if (!(n->kept >> c & 1))
      continue;
    const char *stored = arena_printf(g->arena, "%s[%d * %s + %d]", cg_data_ptr(g, a->obj), nk,
                                      g->elem, s++);
    const char *row = arena_printf(g->arena, "%s[%d]", local, c);
    cg_line(g, "%s = %s;", in ? row : stored, in ? stored : row);
  }
}

/* The local of a narrowed temporary's argument, its kept components
 * copied in, the others 0. */
static void emit_narrow_local(cg *g, const loop *lp, const loop_arg *a) {
  cg_line(g, "%s %s[%d] = {0}; /* %s: %d of its %d components stored */",
          a->obj->type->c_name, narrow_local(g, lp, a), a->obj->dim, a->obj->name,
          kept(g, a->obj), a->obj->dim);
  emit_narrow_copies(g, lp, a, 1);
}

/* Locals the kernel call needs: idx, pinned temporaries, and the pointer
 * arrays of map[*]. */
static void emit_call_locals(cg *g, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    const loop *p = cg_pinned_producer(g, a);
    if (a->kind == ARG_IDX)
      cg_line(g, "const int %s = %s;", idx_local(g, a), idx_value(g, lp, a));
    if (is_narrowed(g, a))
      emit_narrow_local(g, lp, a);
    if (p && a->obj != g->into_obj)
      emit_pinned(g, a, p);
    if (guarded(g, a))
      cg_line(g, "%s %s%s[%d]; /* a write another element wins */", a->obj->type->c_name,
              loser(g, lp, a, -1),
              a->kind == ARG_MAPPED_ALL ? arena_printf(g->arena, "[%d]", a->map->dim) : "",
              a->obj->dim);
    int scattered = g->strips && !g->plain && vectorize_scatters(g->tr->staged, lp, a);
    if (a->kind == ARG_MAPPED && !p && redirected(g, a) && !scattered)
      cg_line(g, "%s *const %s =", a->obj->type->c_name, target_local(g, lp, a));
    if (a->kind == ARG_MAPPED && !p && redirected(g, a) && !scattered)
      cg_line(g, "    %s;", data_of(g, a, cg_map_entry(g, a, a->slot), -1));
    if (a->kind != ARG_MAPPED_ALL)
      continue;
    const char *t = a->param_pointee;
    size_t n = strlen(t);
    cg_line(g, "%s%s%s[%d] = {", t, n && t[n - 1] == '*' ? "" : " ",
            pointer_array(g, a), a->map->dim);
    for (int s = 0; s < a->map->dim; s++)
      cg_line(g, "    %s%s",
              p ? arena_printf(g->arena, "%s[%d]", pin_local(g, a), s)
                : data_of(g, a, cg_map_entry(g, a, s), s),
              s + 1 < a->map->dim ? "," : "");
    cg_line(g, "};");
  }
}

const char *cg_kernel_arg(cg *g, const loop *lp, const loop_arg *a) {
  if (g->strips && !g->plain &&
      (vectorize_gathers(g->tr->staged, lp, a) || vectorize_scatters(g->tr->staged, lp, a)))
    return cg_strip_row(g, cg_gather_local(g, lp, a));
  switch (a->kind) {
  case ARG_IDX:
    return arena_printf(g->arena, "&%s", idx_local(g, a));
  case ARG_GLOBAL:
    if (!arg_is_reduction(a) && strncmp(a->param_pointee, "const", 5) != 0)
      /* a read global into a non-const parameter: loomc warned */
      return arena_printf(g->arena, "(%s *)%s", a->param_pointee, a->obj->name);
    if (!arg_is_reduction(a))
      return a->obj->name;
    return arena_printf(g->arena, a->obj->dim == 1 ? "&%s" : "%s",
                        cg_reduction_local(g, a));
  case ARG_MAPPED_ALL:
    return pointer_array(g, a);
  case ARG_MAT: {
    /* the element's own block: `double *` or `double (*)[C]` */
    const char *p = arena_printf(g->arena, "%s + (size_t)%d * %s", mat_values(g, lp, a),
                                 cg_mat_block(a), g->elem);
    if (strchr(a->param_pointee, '['))
      return arena_printf(g->arena, "(double (*)[%d])(%s)", a->map2->dim * a->obj->dim2, p);
    return p;
  }
  case ARG_MAPPED:
    if (cg_pinned_producer(g, a) && a->obj != g->into_obj)
      return pin_local(g, a);
    if (redirected(g, a))
      return target_local(g, lp, a);
    return data_of(g, a, cg_map_entry(g, a, a->slot), -1);
  default:
    if (cg_pinned_producer(g, a) && a->obj != g->into_obj)
      return pin_local(g, a);
    if (is_narrowed(g, a))
      return narrow_local(g, lp, a);
    return data_of(g, a, g->elem, -1);
  }
}

/* The kernel call's lines (call_writer, cg_internal.h). */
void cg_call_flush(call_writer *w, const char *tail) {
  sb_puts(&w->line, tail);
  if (w->next != w->line_of)
    cg_line_user(w->g, w->line_of);
  cg_line(w->g, "%s", w->line.data);
  w->next = w->line_of + 1;
  w->line.len = 0;
  sb_printf(&w->line, "%*s", (int)w->align, "");
}

void cg_call_add(call_writer *w, const char *arg, unsigned line, int first) {
  if (!first && line != w->line_of)
    cg_call_flush(w, ",");
  else if (!first)
    sb_puts(&w->line, ", ");
  w->line_of = line;
  sb_puts(&w->line, arg);
}

void cg_emit_kernel_call(cg *g, const loop *lp) {
  emit_call_locals(g, lp);
  call_writer w = {g, {0}, 0, 0, strlen(lp->kernel) + 1};
  sb_init(&w.line);
  sb_printf(&w.line, "%s(", lp->kernel);
  for (int i = 0; i < lp->nargs; i++)
    cg_call_add(&w, cg_kernel_arg(g, lp, &lp->args[i]), lp->args[i].loc.line, i == 0);
  cg_call_flush(&w, ");");
  sb_free(&w.line);
  cg_line_self(g);
  for (int i = 0; i < lp->nargs; i++)
    if (is_narrowed(g, &lp->args[i]) && lp->args[i].mode == MODE_WRITE)
      emit_narrow_copies(g, lp, &lp->args[i], 0);
}

/* Locals of the contracted temporaries a group's loops produce. */
static void emit_temp_locals(cg *g, const group *gr) {
  for (int i = 0; i < gr->loops.len; i++) {
    const loop *lp = gr->loops.items[i];
    for (int k = 0; k < lp->nargs; k++) {
      const obj *t = lp->args[k].obj;
      const temp_info *ti = t && t->kind == OBJ_DAT ? temps_find(&g->fu->temps, t) : NULL;
      if (ti && ti->fate == TEMP_CONTRACTED && ti->producer == lp)
        cg_line(g, "%s %s%s[%d];", t->type->c_name, cg_temp_local(g, t),
                g->strips ? arena_printf(g->arena, "[%d]", STRIP_WIDTH) : "", t->dim);
    }
  }
}

/* Whether a loop's kernel call declares locals (idx, map[*] pointer
 * arrays, pinned temporaries). */
static int has_call_locals(cg *g, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].kind == ARG_IDX || lp->args[i].kind == ARG_MAPPED_ALL ||
        cg_pinned_producer(g, &lp->args[i]) || is_narrowed(g, &lp->args[i]))
      return 1;
  return 0;
}

typedef struct strip_share strip_share;
typedef struct share share;
static const strip_share *strip_share_of(cg *g, const group *gr, const loop *lp);
static void emit_strip_call(cg *g, const strip_share *sh, const loop *lp);

/* The body of the loop over strips: each loop of the group in turn over
 * the strip's elements; a staged one, as the call's loom_vec says, staged
 * (as lanes, or over gathered rows) or element by element. */
static void emit_strip_body(cg *g, const group *gr) {
  emit_temp_locals(g, gr);
  for (int i = 0; i < gr->loops.len; i++) {
    const loop *lp = gr->loops.items[i];
    const strip_share *sh = strip_share_of(g, gr, lp);
    if (!vectorize_staged(g->tr->staged, lp))
      cg_emit_elements_turn(g, lp, 0);
    else if (sh)
      emit_strip_call(g, sh, lp);
    else
      cg_emit_turns(g, lp);
  }
}

/* At a column of an extruded group: its layers, when its set is declared
 * by columns, and the base row of each extruded map its loops read, once,
 * before the loops over the column's layers. */
static void emit_column_rows(cg *g, const group *gr) {
  if (!cg_extruded(gr))
    return;
  const obj *set = cg_set(gr);
  if (reads_column_layers(gr))
    cg_line(g, "const int %s = loom_cols_%s[%s]; /* the column's layers */",
            column_layers(g, set), set->name, g->elem);
  vec objs = group_objects(g, gr);
  for (int i = 0; i < objs.len; i++) {
    const obj *m = objs.items[i];
    if (m->kind == OBJ_MAP && m->shift && m->base && map_read(g, gr, m))
      cg_line(g, "const int *const loom_r_%s = %s + %d * %s; /* the column's row of %s */",
              m->name, map_ptr(g, m), m->dim, g->elem, obj_label(m->base));
  }
}

/* The column's pointer of argument a (slot `slot` of a [*]): the dat's
 * values at the column's layer 0, and its map's shift. */
static void emit_column_ptr(cg *g, const loop_arg *a, int slot) {
  const obj *set = a->map ? a->map->to : g->layer->set; /* as the loop names it */
  const char *col = a->map ? cg_map_entry(g, a, slot) : g->elem;
  int s = a->map ? a->map->shift[slot] : 0;
  const char *row = arena_printf(g->arena, "%s * %s%s", col, layers_local(g, set),
                                 s ? arena_printf(g->arena, " %c %d", s < 0 ? '-' : '+',
                                                  s < 0 ? -s : s) : "");
  if (a->obj->dim > 1)
    row = arena_printf(g->arena, "(%s)", row);
  cg_line(g, "%s *const %s = %s;", a->obj->type->c_name, column_ptr(g, a, slot),
          offset(g, cg_data_ptr(g, a->obj), a->obj->dim, row));
}

static int listed(const vec *v, const void *x) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x)
      return 1;
  return 0;
}

/* Before the loop over a column's layers: each dat argument's pointer at
 * the column (its map's row read once per column, emit_column_rows); a
 * contracted or pinned temporary is a local instead, and a pinned one's
 * producer gets its own pointers, for its evaluation in the cell: once,
 * however many arguments (or loops of a layer run) read its temporary
 * (done: the producers whose pointers stand already). */
static void emit_column_ptrs(cg *g, const loop *lp, vec *done) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    const loop *p = a->kind == ARG_IDX ? NULL : cg_pinned_producer(g, a);
    if (p) { /* pinned: its producer's pointers, for its evaluation in lp's cell */
      if (listed(done, p))
        continue;
      vec_push(g->arena, done, (void *)p);
      const loop *saved = g->layer;
      g->layer = p;
      emit_column_ptrs(g, p, done);
      g->layer = saved;
      continue;
    }
    if (a->obj && (cg_fate(g, a->obj) == TEMP_CONTRACTED || cg_fate(g, a->obj) == TEMP_PINNED))
      continue; /* a local */
    if (a->kind == ARG_MAPPED_ALL)
      for (int s = 0; s < a->map->dim; s++)
        emit_column_ptr(g, a, s);
    else if (a->kind == ARG_DAT || a->kind == ARG_MAPPED)
      emit_column_ptr(g, a, a->slot);
  }
}

/* The loop over the layers of the current column lp's region runs. */
static void emit_layer_loop(cg *g, const group *gr, int i) {
  const loop *lp = gr->loops.items[i];
  const char *first, *end;
  region_bounds(g, lp, &first, &end);
  g->layer = lp;
  vec done = {0};
  emit_column_ptrs(g, lp, &done);
  if (layers_independent(g, gr, i, i + 1))
    cg_line(g, "LOOM_IVDEP /* no layer reads what another writes */");
  cg_line(g, "for (int loom_k = %s; loom_k < %s; loom_k++) { /* %s layers */", first, end,
          lp->region == REGION_ALL ? "the column's" : region_name(lp->region));
}

/* lp's kernel call in a group of n loops: in a block of its own when it
 * declares locals. */
static void emit_call_block(cg *g, const loop *lp, int n) {
  int block = n > 1 && has_call_locals(g, lp);
  if (block)
    cg_line(g, "{");
  cg_indent(g, block);
  cg_emit_kernel_call(g, lp);
  cg_indent(g, -block);
  if (block)
    cg_line(g, "}");
}

/* The kernels of gr's loops [first, end): "avg, flip and spread". */
static const char *fusion_loop_list(cg *g, const group *gr, int first, int end) {
  const char *s = "";
  for (int i = first; i < end; i++)
    s = arena_printf(g->arena, "%s%s%s", s, i == first ? "" : i + 1 == end ? " and " : ", ",
                     ((const loop *)gr->loops.items[i])->kernel);
  return s;
}

/* The loops [first, end) of extruded group gr, a layer run (fuse.h): each
 * layer runs their kernels in turn, in isl's loop over the union of their
 * regions' layers (the layers only some of them run written out of it). */
static void emit_layer_run(cg *g, const group *gr, int first, int end) {
  int n = end - first;
  const char **lo = arena_alloc(g->arena, sizeof *lo * (size_t)n);
  const char **hi = arena_alloc(g->arena, sizeof *hi * (size_t)n);
  const loop *lp0 = gr->loops.items[first];
  cg_line(g, "{ /* the layers of %s, layer by layer */", fusion_loop_list(g, gr, first, end));
  cg_indent(g, 1);
  vec done = {0};
  for (int k = 0; k < n; k++) {
    g->layer = gr->loops.items[first + k];
    region_bounds(g, g->layer, &lo[k], &hi[k]);
    emit_column_ptrs(g, g->layer, &done);
  }
  isl_nest nest;
  if (isl_loop_layers(g->arena, column_layers(g, lp0->set), "loom_k", n, lo, hi, &nest) != 0)
    diag(DIAG_ERROR, lp0->loc, 0, "isl could not generate the layer loop of %s (internal "
         "error)", lp0->kernel);
  int ivdep = layers_independent(g, gr, first, end);
  for (int i = 0; i < nest.len; i++) {
    const isl_nest_line *l = nest.items[i];
    cg_indent(g, l->indent);
    if (l->stmt < 0) {
      if (ivdep && strncmp(l->text, "for (", 5) == 0)
        cg_line(g, "LOOM_IVDEP /* no layer reads what another writes */");
      cg_line(g, "%s", l->text);
    } else {
      g->layer = gr->loops.items[first + l->stmt];
      g->layer_at = l->at && strcmp(l->at, "loom_k") ? l->at : NULL;
      emit_call_block(g, g->layer, gr->loops.len);
      g->layer_at = NULL;
    }
    cg_indent(g, -l->indent);
  }
  g->layer = NULL;
  cg_indent(g, -1);
  cg_line(g, "}");
}

/* The kernel calls, in order; in a group, the calls that declare locals
 * are each in a block of their own, and those over an extruded set in
 * their loop over the layers (with the rest of their layer run). */
static void emit_body(cg *g, const group *gr) {
  if (g->strips) {
    emit_strip_body(g, gr);
    return;
  }
  emit_temp_locals(g, gr);
  emit_column_rows(g, gr);
  for (int k = 0; k < g->stmt_order.len; k++) {
    int i = (int)(long)g->stmt_order.items[k];
    const loop *lp = gr->loops.items[i];
    int end = layer_run_end(gr, i);
    if (end > i + 1) {
      emit_layer_run(g, gr, i, end);
      k += end - i - 1;
      continue;
    }
    int blocks = gr->loops.len > 1 && has_call_locals(g, lp);
    if (lp->set->base)
      emit_layer_loop(g, gr, i);
    else if (blocks)
      cg_line(g, "{");
    cg_indent(g, blocks || lp->set->base);
    cg_emit_kernel_call(g, lp);
    cg_indent(g, -(blocks || lp->set->base));
    if (blocks || lp->set->base)
      cg_line(g, "}");
    g->layer = NULL;
  }
}

/* What a group is: its loop, or the loops fused, with their lines. */
static const char *group_what(cg *g, const group *gr) {
  const loop *lp = gr->loops.items[0];
  if (gr->loops.len == 1)
    return arena_printf(g->arena, "par_loop %s over %s (%s:%u)", lp->kernel, lp->set->name,
                        cg_comment_safe(g, g->prog->file), lp->loc.line);
  const char *lines = "";
  for (int i = 0; i < gr->loops.len; i++) {
    const loop *l = gr->loops.items[i];
    lines = arena_printf(g->arena, "%s%s%s:%u", lines, i ? ", " : "", l->kernel, l->loc.line);
  }
  return arena_printf(g->arena, "par_loops fused over %s (%s: %s)", lp->set->name,
                      cg_comment_safe(g, g->prog->file), lines);
}

/* `text` as a comment, its words on lines of at most WRAP columns. */
void cg_emit_wrapped_comment(cg *g, const char *text) {
  strbuf line;
  sb_init(&line);
  sb_puts(&line, "/*");
  const char *p = text;
  while (*p) {
    const char *end = strchr(p, ' ');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (line.len > 3 && line.len + 1 + n + 3 > WRAP - 2 * (size_t)g->indent) {
      cg_line(g, "%s", line.data);
      line.len = 0;
      sb_puts(&line, "  ");
    }
    sb_putn(&line, " ", 1);
    sb_putn(&line, p, n);
    p += n;
    while (*p == ' ')
      p++;
  }
  sb_puts(&line, " */");
  cg_line(g, "%s", line.data);
  sb_free(&line);
}

static void emit_comment(cg *g, const group *gr) { cg_line(g, "/* %s */", group_what(g, gr)); }

/* The loops whose kernels the group calls: its own, and the pinned
 * producers they evaluate. */
/* lp, then the pinned producers it evaluates, and theirs, into v. */
static void add_called(cg *g, vec *v, const loop *lp) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == lp)
      return;
  vec_push(g->arena, v, (void *)lp);
  for (int i = 0; i < lp->nargs; i++) {
    const loop *p = lp->args[i].kind == ARG_IDX ? NULL : cg_pinned_producer(g, &lp->args[i]);
    if (p)
      add_called(g, v, p);
  }
}

vec cg_called_loops(cg *g, const group *gr) {
  vec v = {0};
  for (int l = 0; l < gr->loops.len; l++)
    add_called(g, &v, gr->loops.items[l]);
  return v;
}

/* The declared numbers of the sets whose elements idx arguments number:
 * one local per set, after the backend's set-up (partitioning, with MPI,
 * makes them). */
static void emit_gids(cg *g, const group *gr) {
  vec loops = cg_called_loops(g, gr), sets = {0};
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      const obj *set = a->map ? a->map->to : lp->set;
      int seen = 0;
      for (int k = 0; k < sets.len; k++)
        seen |= sets.items[k] == set;
      if (a->kind != ARG_IDX || seen)
        continue;
      vec_push(g->arena, &sets, (void *)set);
      cg_line(g, "const int *const %s = loom__set_global(%s);", gid_local(g, set),
              a->map ? arena_printf(g->arena, "loom__map_to(%s)", a->map->name)
                     : set->name);
    }
  }
}

/* For each loop and dat it writes with mode write or rw through maps (all
 * its accesses to the dat are such: check.c): with rw, the check that no
 * two elements reach one target (loom__check_unique), since the value left
 * would depend on their order; with write only, the winner of each target
 * (loom__write_winners): the last writer in declared order, whatever
 * order the elements run in. */
static void emit_map_writes(cg *g, const group *gr) {
  for (int l = 0; l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      if (!arg_writes_indirectly(a) || mode_commutes(a->mode) || first_on(lp, a) != a ||
          cg_fate(g, a->obj) != TEMP_STORED)
        continue;
      const char *list = "";
      int n = 0, rw = 0;
      for (int k = i; k < lp->nargs; k++)
        if (lp->args[k].obj == a->obj) {
          list = arena_printf(g->arena, "%s%s{%s, %d}", list, n++ ? ", " : "",
                              lp->args[k].map->name, lp->args[k].slot);
          rw |= lp->args[k].mode == MODE_RW;
        }
      const char *name = arena_printf(g->arena, "loom_wl%d_%d", cg_loop_num(g, lp), a->pos);
      cg_line(g, "const loom__plan_arg %s[] = {%s}; /* %s through maps */", name, list,
              a->name);
      if (rw) {
        cg_line(g, "if (loom__check_unique(%s, %s, %d, %s) != LOOM_OK)", name_var(g, gr, lp),
                lp->set->name, n, name);
        cg_line(g, "  return;");
        continue;
      }
      cg_line(g, "const int *const %s = loom__write_winners(%s, %s, %d, %s);",
              winners(g, lp, a), name_var(g, gr, lp), lp->set->name, n, name);
      cg_line(g, "if (!%s)", winners(g, lp, a));
      cg_line(g, "  return;");
    }
  }
}

static vec group_params(cg *g, const group *gr) {
  vec objs = {0};
  add_object(g, &objs, cg_set(gr));
  vec rest = group_objects(g, gr);
  for (int i = 0; i < rest.len; i++)
    add_object(g, &objs, rest.items[i]);
  return objs;
}

/* Whether the group's function runs strips, and so has a tuner. */
int cg_has_tuner(cg *g, const group *gr) { return cg_runs_strips(g, gr); }

/* ---- the group's functions ------------------------------------------------------ */

/* The per-loop state of a group's function: the labels (timing, messages,
 * the plans and checks cached per loop), the tuner, and with MPI the
 * handles its reductions start on.  A shared body takes it as parameters
 * (`decls`, named in the body as `names`); each group's own function
 * passes its own (`args`: its statics, its file-scope handles). */
void cg_state_of(cg *g, const group *gr, const vec *objs, vec *decls, vec *names,
                 vec *args) {
  vec named = named_loops(g, gr, objs);
  vec_push(g->arena, names, "loom_loop");
  vec_push(g->arena, args, "loom_loop");
  for (int i = 0; i < named.len; i++) {
    const char *n = name_var(g, gr, named.items[i]);
    vec_push(g->arena, names, (void *)n);
    vec_push(g->arena, args, (void *)n);
  }
  for (int i = 0; i < names->len; i++)
    vec_push(g->arena, decls,
             (void *)arena_printf(g->arena, "const char *%s", (const char *)names->items[i]));
  if (cg_has_tuner(g, gr)) {
    vec_push(g->arena, decls, "loom__tuner *loom_tune");
    vec_push(g->arena, names, "loom_tune");
    vec_push(g->arena, args, "&loom_tune");
  }
  for (int l = 0; g->be->reduction_handles && l < gr->loops.len; l++) {
    const loop *lp = gr->loops.items[l];
    for (int i = 0; i < lp->nargs; i++) {
      if (!arg_is_reduction(&lp->args[i]))
        continue;
      const char *n = arena_printf(g->arena, "loom_handle_%d_%s", cg_loop_num(g, lp),
                                   lp->args[i].obj->name);
      vec_push(g->arena, decls, (void *)arena_printf(g->arena, "loom__reduction *%s", n));
      vec_push(g->arena, names, (void *)n);
      vec_push(g->arena, args, (void *)arena_printf(g->arena, "&%s",
          place_reduction_handle(g->arena, lp, lp->args[i].obj)));
    }
  }
}

const char *cg_reduction_handle(cg *g, const loop *lp, const loop_arg *a) {
  if (g->state_params)
    return arena_printf(g->arena, "loom_handle_%d_%s", cg_loop_num(g, lp), a->obj->name);
  return arena_printf(g->arena, "&%s", place_reduction_handle(g->arena, lp, a->obj));
}

/* `NAME(state, objects)`: a call passing the names `state` and objs'
 * (col: as join's). */
const char *cg_forward(cg *g, const char *name, const vec *state, const vec *objs,
                       int col) {
  vec args = {0};
  for (int i = 0; i < state->len; i++)
    vec_push(g->arena, &args, state->items[i]);
  for (int i = 0; i < objs->len; i++)
    vec_push(g->arena, &args, (void *)((const obj *)objs->items[i])->name);
  return join(g, name, &args, col);
}

/* The kernels of a group's loops, "a, b and c". */
static const char *kernels_text(cg *g, const group *gr) {
  const char *each = "";
  for (int i = 0; i < gr->loops.len; i++)
    each = arena_printf(g->arena, "%s%s%s", each,
                        i == 0 ? "" : i + 1 == gr->loops.len ? " and " : ", ",
                        ((const loop *)gr->loops.items[i])->kernel);
  return each;
}

/* Before the timed part of a group: how its loop runs, when that is not
 * plain from its loops' list (the comment before the function): in
 * strips, which of its loops are timed staged or element by element; a
 * rotated loop's (rotate.h), which of its loops are of the next or the
 * first iteration.  NULL for none. */
static const char *how_it_runs(cg *g, const group *gr) {
  const char *text = NULL;
  if (cg_has_tuner(g, gr)) {
    const char *staged = "";
    int nstaged = 0;
    for (int i = 0; i < gr->loops.len; i++) {
      const loop *lp = gr->loops.items[i];
      if (vectorize_staged(g->tr->staged, lp))
        staged = arena_printf(g->arena, "%s%s%s", staged, nstaged++ ? ", " : "", lp->kernel);
    }
    text = arena_printf(g->arena, "in strips of %d %s%s%s; %s staged or element by element, "
                        "as timed", STRIP_WIDTH, cg_set(gr)->name,
                        gr->loops.len > 1 ? " through " : "",
                        gr->loops.len > 1 ? kernels_text(g, gr) : "", staged);
  }
  for (int i = 0; i < g->tr->rots->list.len; i++) {
    const rotation *rot = g->tr->rots->list.items[i];
    const loop_stmt *ls = rot->li->r->loop;
    const char *why = NULL;
    if (gr == rot->fused)
      why = arena_printf(g->arena, "the %s at line %u rotated: %s of its next iteration",
                         ls->what, ls->loc.line, kernels_text(g, rot->head));
    else if (gr == rot->pre_fused)
      why = arena_printf(g->arena, "%s of the first iteration of the %s at line %u, before it",
                         kernels_text(g, rot->head), ls->what, ls->loc.line);
    if (why)
      text = text ? arena_printf(g->arena, "%s; %s", text, why) : why;
  }
  return text;
}

/* The function that runs the group: the checks, the data, the backend's
 * element loops with the kernels.  `lead`: its storage class; with
 * g->state_params, its per-loop state comes as parameters. */
static void emit_run(cg *g, const group *gr, const vec *objs, const char *lead,
                     const char *name) {
  int tuned = cg_has_tuner(g, gr);
  vec decls = {0}, names = {0}, args = {0};
  if (g->state_params)
    cg_state_of(g, gr, objs, &decls, &names, &args);
  cg_emit_signature(g, gr, g->state_params ? &decls : NULL, objs, lead, name);
  cg_line(g, "{");
  cg_indent(g, 1);
  if (!g->state_params) {
    emit_names(g, gr, objs);
    if (tuned)
      cg_line(g, "static loom__tuner loom_tune;");
  }
  emit_checks(g, gr, objs);
  emit_pointers(g, gr, objs);
  emit_layers(g, gr, objs);
  const char *how = how_it_runs(g, gr);
  if (how)
    cg_emit_wrapped_comment(g, how);
  cg_line(g, "const double loom_t0 = loom__wall();");
  const char *tuner = g->state_params ? "loom_tune" : "&loom_tune";
  if (tuned && g->be->threads)
    cg_line(g, "loom__tune_threads(%s, %s);", tuner, g->be->threads);
  if (tuned)
    cg_line(g, "const int loom_vec = loom__tune_pick(%s);", tuner);
  g->be->loop_begin(g, gr);
  emit_gids(g, gr);
  emit_map_writes(g, gr);
  int parts = g->be->parts ? g->be->parts(g, gr) : 1;
  for (int part = 0; part < parts; part++) {
    g->be->iterate_begin(g, gr, part);
    emit_body(g, gr);
    g->be->iterate_end(g, gr, part);
  }
  g->be->loop_end(g, gr);
  emit_mat_write_ends(g, gr);
  cg_emit_traffic(g, gr);
  if (tuned)
    cg_line(g, "loom__tune_done(%s, loom_vec, loom_t0, loom_loop);", tuner);
  cg_line(g, "loom__loop_done(loom_loop, loom_t0);");
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_line(g, "%s", "");
}

/* ---- strips shared by groups --------------------------------------------------- */

/* A staged loop that several groups run (the loops fused on both sides of
 * a rotation, the copies of one directive), or that one group runs in
 * parts (MPI: the core, then the owned boundary and executed halo), has
 * its turn in a strip, staged or element by element, written once: a function over the strip
 * [loom_s, loom_e), loom_strip_<id>_<kernel>, that takes the data it
 * reads and writes (each group's own pointers, globals) and that each
 * group calls in its strip, always inlined as the group's function is.
 * Only a loop whose arguments are its dats' storage (no temporary kept in
 * a local, narrowed or pinned), maps and read globals is shared, and only
 * when its turn's text, under the first's names, is the first's. */
struct strip_share {
  const group *first_group;
  const loop *first;  /* its names and number are the function's */
  vec users;          /* group*, loop*, ...: the turns it stands for */
  const char *canon;  /* the turn under canonical names */
  unsigned long hash;
  const char *text;   /* under first's names, once needed */
  const char *name;   /* loom_strip_<id>_<kernel>, numbered on when first
                         has turns of other texts too (other groups) */
  int written;
};

/* The strip function lp's turn in gr calls: one shared by several turns,
 * or gr's own when gr's loop is written in parts (MPI: the core, then the
 * boundary and halo), each of which would repeat the turn. */
static const strip_share *strip_share_of(cg *g, const group *gr, const loop *lp) {
  int parts = g->be->parts ? g->be->parts(g, gr) : 1, twins = cg_twins_strips(g, gr);
  for (int i = 0; i < g->strip_shares.len; i++) {
    const strip_share *sh = g->strip_shares.items[i];
    for (int k = 0; (sh->users.len > 2 || parts > 1 || twins) && k + 1 < sh->users.len; k += 2)
      if (sh->users.items[k] == gr && sh->users.items[k + 1] == lp)
        return sh;
  }
  return NULL;
}

/* Whether lp's turn in gr may stand in a function of its own: staged, and
 * its arguments the storage of dats, maps, read globals. */
int cg_strip_shareable(cg *g, const group *gr, const loop *lp) {
  if (!cg_has_tuner(g, gr) || !vectorize_staged(g->tr->staged, lp))
    return 0;
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (a->kind == ARG_GLOBAL ? arg_is_reduction(a)
        : (a->kind != ARG_DAT && a->kind != ARG_MAPPED) || cg_fate(g, a->obj) != TEMP_STORED ||
              kept(g, a->obj) || cg_pinned_producer(g, a))
      return 0;
  }
  return 1;
}

/* The objects a strip function takes, in order: each argument's map, then
 * its dat or global, each once. */
static vec strip_objects(cg *g, const loop *lp) {
  vec v = {0};
  for (int i = 0; i < lp->nargs; i++) {
    if (lp->args[i].kind == ARG_MAPPED)
      push_once(g, &v, lp->args[i].map);
    push_once(g, &v, lp->args[i].obj);
  }
  return v;
}

/* A strip function's parameter for o (decl) or its argument in a group. */
static const char *strip_param(cg *g, const group *gr, const obj *o, int decl) {
  if (o->kind == OBJ_MAP)
    return decl ? arena_printf(g->arena, "const int *const %s", map_ptr(g, o)) : map_ptr(g, o);
  if (o->kind == OBJ_GLOBAL)
    return decl ? param_decl(g, gr, o) : o->name;
  return decl ? arena_printf(g->arena, "%s *const %s", o->type->c_name, cg_data_ptr(g, o))
              : cg_data_ptr(g, o);
}

static const char *strip_fn(cg *g, const strip_share *sh) {
  (void)g;
  return sh->name;
}

static int owner_computes(cg *g, const group *gr) {
  return g->be->owner_computes && g->be->owner_computes(g, gr);
}

/* An owner-computes group's strip function's parameters (decl) or arguments after
 * loom_vec: the part's range of targets, the scratch locals of lp's
 * increments into other parts. */
static void push_owner_computes(cg *g, const loop *lp, vec *v, int decl) {
  vec_push(g->arena, v, decl ? "const int loom_lo" : "loom_lo");
  vec_push(g->arena, v, decl ? "const int loom_hi" : "loom_hi");
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!mode_commutes(a->mode) || !a->map)
      continue;
    const char *x = arena_printf(g->arena, "loom_x%d_%d", cg_loop_num(g, lp), a->pos);
    vec_push(g->arena, v,
             decl ? (void *)arena_printf(g->arena, "%s *const %s", a->obj->type->c_name, x)
                  : (void *)x);
  }
}

static void emit_strip_call(cg *g, const strip_share *sh, const loop *lp) {
  vec args = {0}, objs = strip_objects(g, lp);
  vec_push(g->arena, &args, "loom_s");
  vec_push(g->arena, &args, "loom_e");
  vec_push(g->arena, &args, "loom_vec");
  if (owner_computes(g, g->group))
    push_owner_computes(g, lp, &args, 0);
  for (int i = 0; i < objs.len; i++)
    vec_push(g->arena, &args, (void *)strip_param(g, g->group, objs.items[i], 0));
  if (!cg_twins_strips(g, g->group)) {
    cg_line(g, "%s;", join(g, strip_fn(g, sh), &args, 2 * g->indent));
    return;
  }
  const char *head = arena_printf(g->arena, "%s(%s, ", g->be->twins->dispatch, strip_fn(g, sh));
  cg_line(g, "%s);", join(g, head, &args, 2 * g->indent));
}

/* The function of lp's turn as group gr runs it, named `name`. */
/* The head of a function a group's function inlines (in a twin too). */
static const char *inlined_lead(cg *g) {
  if (!g->be->twins)
    return "static inline void";
  return arena_printf(g->arena, "static inline %s void", g->be->twins->inline_attr);
}

/* lp's turn in gr's strips as a function `name` (with the backend's
 * twin_strips, NAME_body and its twins). */
static void emit_strip_fn(cg *g, const group *gr, const loop *lp, const char *name) {
  vec params = {0}, names = {0}, objs = strip_objects(g, lp);
  const char *first[] = {"loom_s", "loom_e", "loom_vec"};
  for (int i = 0; i < 3; i++) {
    vec_push(g->arena, &params, (void *)arena_printf(g->arena, "int %s", first[i]));
    vec_push(g->arena, &names, (void *)first[i]);
  }
  if (owner_computes(g, gr)) {
    push_owner_computes(g, lp, &params, 1);
    push_owner_computes(g, lp, &names, 0);
  }
  for (int i = 0; i < objs.len; i++) {
    vec_push(g->arena, &params, (void *)strip_param(g, gr, objs.items[i], 1));
    vec_push(g->arena, &names, (void *)strip_param(g, gr, objs.items[i], 0));
  }
  const group *group = g->group;
  const isl_loop_text *strips = g->strips;
  static const isl_loop_text a_strip; /* kernel_arg and the others ask whether there is one */
  g->group = gr;
  g->strips = &a_strip;
  int twins = cg_twins_strips(g, gr);
  const char *lead = inlined_lead(g), *fn = twins ? arena_printf(g->arena, "%s_body", name) : name;
  cg_line(g, "%s %s", lead, join_at(g, fn, &params, (int)strlen(lead) + 1, 0));
  cg_line(g, "{");
  cg_indent(g, 1);
  cg_emit_turns(g, lp);
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_line(g, "%s", "");
  g->group = group;
  g->strips = strips;
  if (twins)
    g->be->twins->emit_strip_twins(g, &params, &names, name);
}

/* Sets the names of objs to `names` (saving theirs in `saved`) and the
 * numbers of loops to those of as_loops (NULL: 1, 2, ...). */
static void rename_as(cg *g, const vec *objs, const char **names, const char **saved,
                   const vec *loops, const vec *as_loops) {
  for (int i = 0; i < objs->len; i++)
    saved[i] = ((const obj *)objs->items[i])->name;
  for (int i = 0; i < objs->len; i++)
    ((obj *)objs->items[i])->name = names[i];
  g->renum.len = 0;
  for (int i = 0; i < loops->len; i++) {
    vec_push(g->arena, &g->renum, loops->items[i]);
    vec_push(g->arena, &g->renum,
             (void *)(long)(as_loops ? ((const loop *)as_loops->items[i])->id : i + 1));
  }
}

static void unrename(cg *g, const vec *objs, const char **saved) {
  g->renum.len = 0;
  for (int i = 0; i < objs->len; i++)
    ((obj *)objs->items[i])->name = saved[i];
}

/* The names a dry run gives objs: as_objs' (NULL: canonical ones). */
static const char **names_as(cg *g, const vec *objs, const vec *as_objs) {
  const char **names = arena_alloc(g->arena, sizeof *names * (size_t)(objs->len + 1));
  for (int i = 0; i < objs->len; i++)
    names[i] = as_objs ? ((const obj *)as_objs->items[i])->name
                       : arena_printf(g->arena, "loom_c%d", i + 1);
  return names;
}

/* Redirects the output into a scratch buffer (dry runs), and back. */
typedef struct scratch {
  strbuf sb, *out;
  int out_lines, indent, self_pending;
} scratch;

static void scratch_begin(cg *g, scratch *s) {
  sb_init(&s->sb);
  s->out = g->out;
  s->out_lines = g->out_lines;
  s->indent = g->indent;
  s->self_pending = g->self_pending;
  g->out = &s->sb;
  g->out_lines = 0;
  g->indent = 0;
  g->self_pending = 0;
}

static const char *scratch_end(cg *g, scratch *s) {
  cg_flush_self(g);
  g->out = s->out;
  g->out_lines = s->out_lines;
  g->indent = s->indent;
  g->self_pending = s->self_pending;
  const char *text = arena_strdup(g->arena, s->sb.data ? s->sb.data : "");
  sb_free(&s->sb);
  return text;
}

/* lp's strip function as group gr would write it, under the names of
 * as_lp in as_gr (NULL: canonical ones); NULL when their objects are not
 * as many. */
static const char *dry_strip(cg *g, const group *gr, const loop *lp, const group *as_gr,
                             const loop *as_lp) {
  vec objs = strip_objects(g, lp), as_objs = as_lp ? strip_objects(g, as_lp) : objs;
  vec loops = {0}, as_loops = {0};
  vec_push(g->arena, &loops, (void *)lp);
  vec_push(g->arena, &as_loops, (void *)as_lp);
  if (as_objs.len != objs.len)
    return NULL;
  const char **saved = arena_alloc(g->arena, sizeof *saved * (size_t)(objs.len + 1));
  rename_as(g, &objs, names_as(g, &objs, as_lp ? &as_objs : NULL), saved, &loops,
         as_lp ? &as_loops : NULL);
  scratch s;
  scratch_begin(g, &s);
  emit_strip_fn(g, gr, lp, "loom_strip");
  unrename(g, &objs, saved);
  (void)as_gr;
  return scratch_end(g, &s);
}

static unsigned long hash_text(const char *s) {
  unsigned long h = 14695981039346656037ul;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ul;
  return h;
}

static void plan_strips(cg *g, const vec *groups) {
  for (int i = 0; i < groups->len; i++) {
    const group *gr = groups->items[i];
    for (int l = 0; l < gr->loops.len; l++) {
      const loop *lp = gr->loops.items[l];
      if (!cg_strip_shareable(g, gr, lp))
        continue;
      const char *canon = dry_strip(g, gr, lp, NULL, NULL);
      unsigned long h = hash_text(canon);
      strip_share *found = NULL;
      for (int k = 0; k < g->strip_shares.len && !found; k++) {
        strip_share *sh = g->strip_shares.items[k];
        if (sh->hash != h || strcmp(sh->canon, canon) != 0)
          continue;
        if (!sh->text)
          sh->text = dry_strip(g, sh->first_group, sh->first, sh->first_group, sh->first);
        const char *as_first = dry_strip(g, gr, lp, sh->first_group, sh->first);
        if (as_first && strcmp(as_first, sh->text) == 0)
          found = sh;
      }
      if (!found) {
        int before = 0; /* turns of lp of other texts: their functions' names are taken */
        for (int k = 0; k < g->strip_shares.len; k++)
          before += ((const strip_share *)g->strip_shares.items[k])->first == lp;
        found = arena_alloc(g->arena, sizeof *found);
        *found = (strip_share){.first_group = gr, .first = lp, .canon = canon, .hash = h};
        found->name = arena_printf(g->arena, "loom_strip_%d_%s%s", lp->id, lp->kernel,
                                   before ? arena_printf(g->arena, "_%d", before + 1) : "");
        vec_push(g->arena, &g->strip_shares, found);
      }
      vec_push(g->arena, &found->users, (void *)gr);
      vec_push(g->arena, &found->users, (void *)lp);
    }
  }
}

static const share *share_of(const cg *g, const group *gr);
static const char *shared_fn(cg *g, const share *sh);

/* The name of the function that holds gr's body: its own, or the shared
 * body's. */
static const char *body_fn(cg *g, const group *gr) {
  const share *sh = share_of(g, gr);
  return sh ? shared_fn(g, sh) : group_fn(g, gr);
}

/* The strip functions gr calls that are not written yet. */
static void emit_strip_functions(cg *g, const group *gr) {
  for (int l = 0; l < gr->loops.len; l++) {
    strip_share *sh = (strip_share *)strip_share_of(g, gr, gr->loops.items[l]);
    if (!sh || sh->written)
      continue;
    sh->written = 1;
    const char *who = "";
    for (int k = 0; k < sh->users.len; k += 2)
      who = arena_printf(g->arena, "%s%s%s", who,
                         k == 0 ? "" : k + 2 == sh->users.len ? " and " : ", ",
                         body_fn(g, sh->users.items[k]));
    int parts = g->be->parts ? g->be->parts(g, gr) : 1;
    if (sh->users.len == 2 && parts > 1) /* one group's, whose loop is in parts */
      who = arena_printf(g->arena, "%s, for its core and for the rest", who);
    cg_emit_wrapped_comment(g, arena_printf(g->arena, "%s (line %u) over one strip, staged or "
                                            "element by element as loom_vec says: in %s",
                                            sh->first->kernel, sh->first->loc.line, who));
    emit_strip_fn(g, sh->first_group, sh->first, strip_fn(g, sh));
  }
}

/* ---- shared bodies ----------------------------------------------------------------- */

/* Groups whose functions would be the same but for their names and their
 * per-loop state (the copies of one directive that unrolling, calls seen
 * through and bodies written twice make) run one body: written once, at
 * the first of them, with the first's names and its per-loop state as
 * parameters (loom_shared_...), and called by each group's own function
 * (loom_loop_...), which holds that group's state: its labels, its tuner,
 * its reductions' handles.  "The same" is decided on the text: the second
 * group's body, written under the first's names (its objects named as the
 * first's in their places, its loops numbered as the first's), must be the
 * first's byte for byte, `#line` directives to the user's lines included:
 * a shared body's kernel calls point at the one directive line of all the
 * loops that run it. */
struct share {
  const group *first; /* its names are the body's */
  vec groups;         /* group*: those that run it, first first */
  const char *canon;  /* its text under canonical names (any group's of its shape) */
  unsigned long hash; /* of canon */
  const char *text;   /* under first's names, once needed */
};

static const share *share_of(const cg *g, const group *gr) {
  for (int i = 0; i < g->shares.len; i++) {
    const share *sh = g->shares.items[i];
    for (int k = 0; sh->groups.len > 1 && k < sh->groups.len; k++)
      if (sh->groups.items[k] == gr)
        return sh;
  }
  return NULL;
}

static const char *shared_fn(cg *g, const share *sh) {
  return arena_printf(g->arena, "loom_shared%s", group_fn(g, sh->first) + strlen("loom_loop"));
}

/* gr's function as a shared body would be, written into a scratch buffer
 * under the names `as` gives (its objects', in their places in the
 * parameters, and its loops' numbers); as NULL: canonical names, which
 * are the same for every group of one shape.  NULL when gr's parameters
 * or loops are not as many as as's. */
static const char *dry_run(cg *g, const group *gr, const group *as) {
  vec objs = group_params(g, gr), loops = cg_called_loops(g, gr);
  vec as_objs = as ? group_params(g, as) : objs, as_loops = as ? cg_called_loops(g, as) : loops;
  if (as_objs.len != objs.len || as_loops.len != loops.len)
    return NULL;
  const char **saved = arena_alloc(g->arena, sizeof *saved * (size_t)(objs.len + 1));
  rename_as(g, &objs, names_as(g, &objs, as ? &as_objs : NULL), saved, &loops,
         as ? &as_loops : NULL);
  int state = g->state_params;
  const group *group = g->group;
  scratch s;
  scratch_begin(g, &s);
  g->state_params = 1;
  g->group = gr;
  emit_run(g, gr, &objs, "static void", "loom_shared");
  g->state_params = state;
  g->group = group;
  unrename(g, &objs, saved);
  return scratch_end(g, &s);
}

/* The kernels gr's loops call, in order: two groups whose bodies are the
 * same call the same kernels, so a group whose kernels no other group
 * calls shares its body with none (and its canonical text is not needed). */
static const char *kernels_of(cg *g, const group *gr) {
  strbuf sb;
  sb_init(&sb);
  for (int i = 0; i < gr->loops.len; i++) {
    const char *k = ((const loop *)gr->loops.items[i])->kernel;
    sb_printf(&sb, "%s,", k ? k : "");
  }
  char *key = arena_strdup(g->arena, sb.data ? sb.data : "");
  sb_free(&sb);
  return key;
}

/* Whether a group of groups other than the i-th calls the kernels key. */
static int kernels_elsewhere(const char *const *keys, int n, int i) {
  for (int k = 0; k < n; k++)
    if (k != i && strcmp(keys[k], keys[i]) == 0)
      return 1;
  return 0;
}

static void plan_bodies(cg *g, const group_list *groups) {
  const char **keys = arena_alloc(g->arena, sizeof *keys * (size_t)(groups->len + 1));
  for (int i = 0; i < groups->len; i++)
    keys[i] = kernels_of(g, groups->items[i]);
  for (int i = 0; i < groups->len; i++) {
    const group *gr = groups->items[i];
    if (!kernels_elsewhere(keys, groups->len, i)) {
      share *alone = arena_alloc(g->arena, sizeof *alone);
      *alone = (share){.first = gr};
      vec_push(g->arena, &alone->groups, (void *)gr);
      vec_push(g->arena, &g->shares, alone);
      continue;
    }
    const char *canon = dry_run(g, gr, NULL);
    unsigned long h = hash_text(canon);
    share *found = NULL;
    for (int k = 0; k < g->shares.len && !found; k++) {
      share *sh = g->shares.items[k];
      if (!sh->canon || sh->hash != h || strcmp(sh->canon, canon) != 0)
        continue;
      if (!sh->text)
        sh->text = dry_run(g, sh->first, sh->first);
      const char *as_first = dry_run(g, gr, sh->first);
      if (as_first && strcmp(as_first, sh->text) == 0)
        found = sh;
    }
    if (!found) {
      found = arena_alloc(g->arena, sizeof *found);
      *found = (share){.first = gr, .canon = canon, .hash = h};
      vec_push(g->arena, &g->shares, found);
    }
    vec_push(g->arena, &found->groups, (void *)gr);
  }
}

void cg_plan(cg *g, const group_list *groups) {
  scratch s;
  scratch_begin(g, &s);
  /* the lane copies, named in the order the output will have them */
  for (int i = 0; i < groups->len; i++) {
    g->group = groups->items[i];
    if (cg_has_tuner(g, g->group))
      cg_emit_lane_copies(g, g->group);
  }
  plan_bodies(g, groups);
  /* then the strips of the bodies written, each once */
  vec written = {0};
  for (int i = 0; i < groups->len; i++) {
    const share *sh = share_of(g, groups->items[i]);
    if (!sh || sh->first == groups->items[i])
      vec_push(g->arena, &written, groups->items[i]);
  }
  plan_strips(g, &written);
  scratch_end(g, &s);
  g->lanes_written.len = 0;
  g->group = NULL;
}

/* The comment before a shared body: its loops, the functions that run
 * it, and the state each passes. */
static void emit_shared_comment(cg *g, const share *sh) {
  const char *who = "";
  for (int i = 0; i < sh->groups.len; i++)
    who = arena_printf(g->arena, "%s%s%s", who,
                       i == 0 ? "" : i + 1 == sh->groups.len ? " and " : ", ",
                       group_fn(g, sh->groups.items[i]));
  vec objs = group_params(g, sh->first), decls = {0}, names = {0}, args = {0};
  cg_state_of(g, sh->first, &objs, &decls, &names, &args);
  int labels = 0, tuner = 0, handles = 0;
  for (int i = 0; i < names.len; i++) {
    const char *n = names.items[i];
    labels += strncmp(n, "loom_loop", 9) == 0;
    tuner |= strcmp(n, "loom_tune") == 0;
    handles += strncmp(n, "loom_handle_", 12) == 0;
  }
  const char *state = "labels";
  (void)labels;
  if (tuner)
    state = arena_printf(g->arena, "%s%s tuners", state, handles ? "," : " and");
  if (handles)
    state = arena_printf(g->arena, "%s and reduction handles", state);
  cg_emit_wrapped_comment(g, arena_printf(g->arena, "%s: the code of %s, with their own %s",
                                           group_what(g, sh->first), who, state));
}

/* A group's own function when it runs a shared body: its state, passed
 * with its objects. */
static void emit_wrapper(cg *g, const group *gr, const share *sh) {
  vec objs = group_params(g, gr);
  vec decls = {0}, names = {0}, args = {0};
  cg_state_of(g, gr, &objs, &decls, &names, &args);
  vec params = {0};
  for (int i = 0; i < objs.len; i++)
    vec_push(g->arena, &params, (void *)param_decl(g, gr, objs.items[i]));
  cg_line(g, CG_ENTRY_LEAD " %s", join(g, group_fn(g, gr), &params, -1));
  cg_line(g, "{");
  cg_indent(g, 1);
  emit_names(g, gr, &objs);
  if (cg_has_tuner(g, gr))
    cg_line(g, "static loom__tuner loom_tune;");
  cg_line(g, "%s;", cg_forward(g, shared_fn(g, sh), &args, &objs, -1));
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_line(g, "%s", "");
}

void cg_group_function(cg *g, const group *gr) {
  vec objs = group_params(g, gr);
  g->group = gr;
  if (g->be->prelude)
    g->be->prelude(g, gr);
  const share *sh = share_of(g, gr);
  if (sh && sh->first != gr) {
    emit_wrapper(g, gr, sh);
    return;
  }
  int tuned = cg_has_tuner(g, gr), twin = cg_has_twin(g, gr);
  if (tuned)
    cg_emit_lane_copies(g, gr);
  emit_strip_functions(g, gr);
  const char *fn = sh ? shared_fn(g, sh) : group_fn(g, gr);
  if (sh)
    emit_shared_comment(g, sh);
  else
    emit_comment(g, gr);
  g->state_params = sh != NULL;
  if (twin)
    emit_run(g, gr, &objs, inlined_lead(g), arena_printf(g->arena, "%s_body", fn));
  else
    emit_run(g, gr, &objs, sh ? "static void" : CG_ENTRY_LEAD, fn);
  if (twin)
    g->be->twins->emit_twins(g, gr, &objs, fn);
  g->state_params = 0;
  if (sh)
    emit_wrapper(g, gr, sh);
}

/* The storage calls before a group's call: its narrowed temporaries'
 * (before any loop touches them) and the sharing of temporaries it writes
 * first; "" when none. */
static const char *storage_calls(cg *g, const group *gr, const vec *objs) {
  const char *pre = "";
  for (int i = 0; i < objs->len; i++)
    if (((const obj *)objs->items[i])->kind == OBJ_DAT && kept(g, objs->items[i]))
      pre = arena_printf(g->arena, "%sloom__dat_narrow(%s, %d); ", pre,
                         call_arg(g, objs->items[i]), kept(g, objs->items[i]));
  for (int i = 0; i < g->fu->temps.len; i++) {
    const temp_info *ti = g->fu->temps.items[i];
    for (int k = 0; ti->shares && k < gr->loops.len; k++)
      if (gr->loops.items[k] == ti->first)
        pre = arena_printf(g->arena, "%sloom__dat_share(%s, %s); ", pre, ti->t->name,
                           ti->shares->name);
  }
  return pre;
}

/* The statement that replaces the directive of a group's last loop: the
 * call, after its storage calls; `one`: braced into one statement when
 * there are any (the branch of an if). */
static const char *group_call_as(cg *g, const group *gr, int one) {
  vec args = {0};
  vec objs = group_params(g, gr);
  for (int i = 0; i < objs.len; i++)
    vec_push(g->arena, &args, (void *)call_arg(g, objs.items[i]));
  const char *pre = storage_calls(g, gr, &objs);
  const char *call = join(g, group_fn(g, gr), &args, -1);
  return arena_printf(g->arena, one && *pre ? "{ %s%s; }" : "%s%s;", pre, call);
}

static const char *group_call(cg *g, const group *gr) { return group_call_as(g, gr, 0); }

/* The call of a group that takes part in a rotation (rotate.h), as the
 * flag loom_rotated_N says: the head runs unless the iteration before (or
 * the group before the loop) ran it; the tail runs with the next
 * iteration's head when one follows; the group before the loop runs with
 * the first iteration's head. */
static const char *rotated_call(cg *g, const group *gr) {
  const rotation *rot = rotation_of(g->tr->rots, gr);
  if (!rot)
    return group_call(g, gr);
  const char *call = group_call_as(g, gr, 1); /* an else branch */
  const char *flag = arena_printf(g->arena, "loom_rotated_%d", rot->id);
  if (gr == rot->head)
    return arena_printf(g->arena, "if (%s) %s = 0; else %s", flag, flag, call);
  if (gr == rot->tail)
    return arena_printf(g->arena, "if (%s) { %s %s = 1; } else %s", rot->li->next,
                        group_call(g, rot->fused), flag, call);
  return arena_printf(g->arena, "%s %s = 1;", group_call(g, rot->pre_fused), flag);
}

const char *cg_directive(cg *g, const loop *lp) {
  const group *gr = fusion_group(g->fu, lp);
  if (!gr) {
    const char *uses = "";
    for (int i = 0; i < lp->nargs; i++)
      if (lp->args[i].mode != MODE_READ && lp->args[i].kind != ARG_IDX)
        uses = arena_printf(g->arena, "%s(void)%s; ", uses, lp->args[i].name);
    return arena_printf(g->arena, "%s/* par_loop %s: pinned, evaluated inside its "
                        "consumers */", uses, lp->kernel);
  }
  if (gr->anchor == lp)
    return rotated_call(g, gr);
  return arena_printf(g->arena, "/* par_loop %s: fused into %s (line %u) */", lp->kernel,
                      group_fn(g, gr), gr->anchor->loc.line);
}
