/*
 * cg_lanes.c — a staged loop's turn in a strip (see transform/vectorize.h):
 * its reads through maps gathered into strip locals and its kernel over
 * them, or its kernel's lane copy (lane_copy.h) called with bases and
 * offsets; then its increments added to their targets in element order.
 * The walk (codegen.c) calls it for each staged loop of a group that runs
 * in strips.
 */
#include "emit/codegen.h"

#include <string.h>

#include "emit/cg_internal.h"
#include "emit/lane_copy.h"
#include "transform/vectorize.h"

/* The component a per-component statement names: loom_v, or 0 when dim
 * is 1 (no loop). */
static const char *component(int dim) { return dim == 1 ? "0" : "loom_v"; }

/* `stmt` for each of dim components (component(dim)). */
static void emit_per_component(cg *g, int dim, const char *stmt) {
  if (dim > 1)
    cg_line(g, "for (int loom_v = 0; loom_v < %d; loom_v++)", dim);
  cg_line(g, "%s%s", dim > 1 ? "  " : "", stmt);
}

/* Copies lp's reads through maps, for the strip's elements, into their
 * gather locals; zeroes the locals of its increments through maps. */
static void emit_gathers(cg *g, const loop *lp) {
  int incs = 0;
  for (int i = 0; i < lp->nargs; i++)
    incs |= vectorize_scatters(g->tr->staged, lp, &lp->args[i]);
  cg_line(g, "/* %s (line %u): its reads through maps, gathered for the strip%s */",
          lp->kernel, lp->loc.line, incs ? "; its increments, from 0" : "");
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (vectorize_gathers(g->tr->staged, lp, a) || vectorize_scatters(g->tr->staged, lp, a))
      cg_line(g, "%s %s[%d][%d];", a->obj->type->c_name, cg_gather_local(g, lp, a),
              STRIP_WIDTH, a->obj->dim);
  }
  cg_strip_elements_begin(g);
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (vectorize_scatters(g->tr->staged, lp, a)) {
      emit_per_component(g, a->obj->dim,
                         arena_printf(g->arena, "%s[%s] = 0;",
                                      cg_strip_row(g, cg_gather_local(g, lp, a)),
                                      component(a->obj->dim)));
      continue;
    }
    if (!vectorize_gathers(g->tr->staged, lp, a))
      continue;
    const char *row = cg_strip_row(g, cg_gather_local(g, lp, a)), *src = cg_data_ptr(g, a->obj);
    const char *at = cg_map_entry(g, a, a->slot);
    if (a->obj->dim == 1) {
      cg_line(g, "%s[0] = %s[%s];", row, src, at);
      continue;
    }
    cg_line(g, "for (int loom_v = 0; loom_v < %d; loom_v++)", a->obj->dim);
    cg_line(g, "  %s[loom_v] = %s[%d * %s + loom_v];", row, src, a->obj->dim, at);
  }
  cg_loop_end(g);
}

/* Whether an increment's row of dim components of `type` is added with
 * LOOM__ADD_ROW (loom.h: one vector add where the C compiler allows); the
 * rows it has vector types for. */
static int adds_rows(const char *type, int dim) {
  if (!strcmp(type, "double"))
    return dim == 2 || dim == 4 || dim == 8;
  if (!strcmp(type, "float") || !strcmp(type, "int"))
    return dim == 4 || dim == 8 || dim == 16;
  return 0;
}

/* The value of component `v` (a number, or "loom_v") of increment a's
 * strip local for the current element. */
static const char *strip_value(cg *g, const loop *lp, const loop_arg *a, int lanes,
                               const char *v) {
  const char *local = cg_gather_local(g, lp, a);
  return lanes ? arena_printf(g->arena, "%s[%s][%s - loom_s]", local, v, cg_elem(g))
               : arena_printf(g->arena, "%s[%s]", cg_strip_row(g, local), v);
}

/* a's increment for the current element added to its row as a whole:
 * the target on the macro's line, the values four to a line after it. */
static void emit_row_add(cg *g, const loop *lp, const loop_arg *a, int lanes) {
  const int dim = a->obj->dim;
  const char *row = cg_scatter_row(g, lp, a);
  cg_line(g, "LOOM__ADD_ROW(%s, %d, %s,", a->obj->type->c_name, dim, row);
  strbuf values;
  sb_init(&values);
  for (int v = 0; v < dim; v++) {
    sb_printf(&values, "%s%s", v % 4 ? ", " : "",
              strip_value(g, lp, a, lanes, arena_printf(g->arena, "%d", v)));
    if (v % 4 == 3 || v == dim - 1) {
      cg_line(g, "              %s%s", values.data, v == dim - 1 ? ");" : ",");
      values.len = 0;
    }
  }
  sb_free(&values);
}

/* a's increment for the current element added component by component
 * (to its target's row, or where the backend redirects it). */
static void emit_component_adds(cg *g, const loop *lp, const loop_arg *a, int lanes) {
  const char *at = cg_map_entry(g, a, a->slot);
  const char *target = a->obj->dim == 1
                           ? arena_printf(g->arena, "%s[%s]", cg_data_ptr(g, a->obj), at)
                           : arena_printf(g->arena, "%s[%d * %s + loom_v]",
                                          cg_data_ptr(g, a->obj), a->obj->dim, at);
  const char *local = cg_scatter_local(g, lp, a);
  if (local)
    target = arena_printf(g->arena, "%s[%s]", local, component(a->obj->dim));
  const char *value = strip_value(g, lp, a, lanes, component(a->obj->dim));
  emit_per_component(g, a->obj->dim, arena_printf(g->arena, "%s += %s;", target, value));
}

/* lp's increments of the current element, in argument order. */
static void emit_element_adds(cg *g, const loop *lp, int lanes) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!vectorize_scatters(g->tr->staged, lp, a))
      continue;
    if (adds_rows(a->obj->type->c_name, a->obj->dim))
      emit_row_add(g, lp, a, lanes);
    else
      emit_component_adds(g, lp, a, lanes);
  }
}

/* Whether lp's increments are added eight elements at a time, each row
 * taken from the strip's components by loom__rows8_double_N (loom.h: a
 * transposition in registers): laid out component by component, every
 * one a row of 2 or 4 doubles. */
static int adds_rows_by_8(cg *g, const loop *lp, int lanes) {
  if (!lanes || STRIP_WIDTH % 8)
    return 0;
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (vectorize_scatters(g->tr->staged, lp, a) &&
        (strcmp(a->obj->type->c_name, "double") || (a->obj->dim != 2 && a->obj->dim != 4)))
      return 0;
  }
  return 1;
}

/* The eight-element blocks of the strip (adds_rows_by_8); loom_i is left
 * at the first element after them. */
static void emit_rows_by_8(cg *g, const loop *lp) {
  cg_line(g, "int loom_i = loom_s;");
  cg_line(g, "/* eight elements at a time, their rows taken from the components at once */");
  cg_line(g, "for (; loom_i + 8 <= loom_e; loom_i += 8) {");
  cg_indent(g, 1);
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!vectorize_scatters(g->tr->staged, lp, a))
      continue;
    const char *local = cg_gather_local(g, lp, a);
    cg_line(g, "loom__row_double_%d %s_rows[8];", a->obj->dim, local);
    cg_line(g, "loom__rows8_double_%d(%s_rows, &%s[0][loom_i - loom_s], %d);", a->obj->dim,
            local, local, STRIP_WIDTH);
  }
  const char *saved = g->elem;
  g->elem = "(loom_i + loom_k)";
  cg_line(g, "for (int loom_k = 0; loom_k < 8; loom_k++) {");
  cg_indent(g, 1);
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (!vectorize_scatters(g->tr->staged, lp, a))
      continue;
    const char *row = cg_scatter_row(g, lp, a);
    cg_line(g, "LOOM__ADD_ROWV(double, %d, %s, %s_rows[loom_k]);", a->obj->dim, row,
            cg_gather_local(g, lp, a));
  }
  g->elem = saved;
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_indent(g, -1);
  cg_line(g, "}");
}

/* Adds lp's increments through maps, taken per element of the strip,
 * to their targets in element order (and, per element, argument order);
 * `lanes`: the strip locals are laid out component by component. */
static void emit_scatters(cg *g, const loop *lp, int lanes) {
  int any = 0;
  for (int i = 0; i < lp->nargs; i++)
    any |= vectorize_scatters(g->tr->staged, lp, &lp->args[i]);
  if (!any)
    return;
  cg_line(g, "/* %s (line %u): its increments through maps, in element order */",
          lp->kernel, lp->loc.line);
  if (!adds_rows_by_8(g, lp, lanes)) {
    cg_strip_elements_begin(g);
    emit_element_adds(g, lp, lanes);
    cg_loop_end(g);
    return;
  }
  cg_line(g, "{");
  cg_indent(g, 1);
  emit_rows_by_8(g, lp);
  cg_line(g, "for (; loom_i < loom_e; loom_i += 1) {");
  cg_indent(g, 1);
  emit_element_adds(g, lp, lanes);
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_indent(g, -1);
  cg_line(g, "}");
}

/* The stride lp's lane copy takes argument a with: a strip local laid out
 * component by component, a row of the mesh or of a contracted
 * temporary, or as it is (a global). */
static int lane_stride(cg *g, const loop *lp, const loop_arg *a) {
  if (vectorize_scatters(g->tr->staged, lp, a))
    return STRIP_WIDTH;
  return a->kind == ARG_GLOBAL ? 0 : 1;
}

static int *lane_strides(cg *g, const loop *lp) {
  int *s = arena_alloc(g->arena, sizeof *s * (size_t)lp->nargs);
  for (int i = 0; i < lp->nargs; i++)
    s[i] = lane_stride(g, lp, &lp->args[i]);
  return s;
}

/* A lane copy written: a copy's text follows from its kernel and the
 * strides of its parameters. */
typedef struct lane_written {
  const char *kernel;
  const int *strides;
  const char *name;
} lane_written;

/* The name of lp's lane copy, written before the group's function the
 * first time a copy of its kernel with its strides is needed. */
static const char *lane_name(cg *g, const loop *lp) {
  int *strides = lane_strides(g, lp), same_kernel = 0;
  for (int i = 0; i < g->lanes_written.len; i++) {
    const lane_written *w = g->lanes_written.items[i];
    if (strcmp(w->kernel, lp->kernel) != 0)
      continue;
    if (memcmp(w->strides, strides, sizeof *strides * (size_t)lp->nargs) == 0)
      return w->name;
    same_kernel++;
  }
  lane_written *w = arena_alloc(g->arena, sizeof *w);
  *w = (lane_written){lp->kernel, strides,
                      same_kernel ? arena_printf(g->arena, "loom_lanes_%s_%d", lp->kernel,
                                                 same_kernel + 1)
                                  : arena_printf(g->arena, "loom_lanes_%s", lp->kernel)};
  vec_push(g->arena, &g->lanes_written, w);
  const char *name = w->name;
  cg_line(g, "/* %s as lanes (line %u): each argument as base and offset */", lp->kernel,
          lp->loc.line);
  g->self_pending = 0;
  sb_printf(g->out, "#line %u %s\n", lp->lanes->line, cg_quoted(g, lp->lanes->file));
  g->out_lines++;
  cg_put(g, lane_copy(g->arena, lp, name, strides));
  cg_put(g, "\n");
  cg_line_self(g);
  cg_line(g, "%s", "");
  return name;
}

void cg_emit_lane_copies(cg *g, const group *gr) {
  for (int i = 0; i < gr->loops.len; i++)
    if (vectorize_lanes(g->tr->staged, gr->loops.items[i]))
      lane_name(g, gr->loops.items[i]);
}

/* Argument a of lp's lane call: its base, and its offset at the element. */
static const char *lane_base(cg *g, const loop *lp, const loop_arg *a) {
  if (vectorize_scatters(g->tr->staged, lp, a))
    return arena_printf(g->arena, "%s[0]", cg_gather_local(g, lp, a));
  if (a->kind == ARG_GLOBAL)
    return cg_kernel_arg(g, lp, a);
  if (cg_fate(g, a->obj) == TEMP_CONTRACTED)
    return arena_printf(g->arena, "%s[0]", cg_temp_local(g, a->obj));
  return cg_data_ptr(g, a->obj);
}

static const char *lane_offset(cg *g, const loop *lp, const loop_arg *a) {
  const char *e = cg_elem(g);
  const char *in_strip = arena_printf(g->arena, "%s - loom_s", e);
  int d = a->obj->dim;
  if (vectorize_scatters(g->tr->staged, lp, a))
    return in_strip;
  if (a->kind == ARG_MAPPED)
    e = cg_map_entry(g, a, a->slot);
  else if (cg_fate(g, a->obj) == TEMP_CONTRACTED)
    e = d == 1 ? in_strip : arena_printf(g->arena, "(%s)", in_strip);
  return d == 1 ? e : arena_printf(g->arena, "%d * %s", d, e);
}

static void emit_lane_call(cg *g, const loop *lp) {
  const char *name = lane_name(g, lp);
  const int *strides = lane_strides(g, lp);
  call_writer w = {g, {0}, 0, 0, strlen(name) + 1};
  sb_init(&w.line);
  sb_printf(&w.line, "%s(", name);
  for (int i = 0; i < lp->nargs; i++)
    cg_call_add(&w, lane_base(g, lp, &lp->args[i]), lp->args[i].loc.line, i == 0);
  cg_call_flush(&w, ","); /* the offsets on lines of their own, each on its argument's line */
  for (int i = 0, first = 1; i < lp->nargs; i++)
    if (lane_copy_offset(lp, strides, i)) {
      cg_call_add(&w, lane_offset(g, lp, &lp->args[i]), lp->args[i].loc.line, first);
      first = 0;
    }
  cg_call_flush(&w, ");");
  sb_free(&w.line);
  cg_line_self(g);
}

/* The strip locals a staged loop's lane copy increments, zeroed; aligned
 * to 64 bytes, as the vector code over them wants (declared, not left to
 * the C compiler: GCC raised their alignment itself in the AVX-512
 * twins, and under AddressSanitizer's fake stack (use after return) such
 * a local was not aligned and an aligned store faulted). */
static void emit_lane_locals(cg *g, const loop *lp) {
  int incs = 0;
  for (int i = 0; i < lp->nargs; i++)
    incs |= vectorize_scatters(g->tr->staged, lp, &lp->args[i]);
  cg_line(g, "/* %s (line %u): as lanes, reading through maps in place%s */", lp->kernel,
          lp->loc.line, incs ? "; its increments from 0, component by component" : "");
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (vectorize_scatters(g->tr->staged, lp, a))
      cg_line(g, "_Alignas(64) %s %s[%d][%d] = {{0}};", a->obj->type->c_name,
              cg_gather_local(g, lp, a), a->obj->dim, STRIP_WIDTH);
  }
}

/* A staged loop's turn in a strip: as lanes (its lane copy called with
 * bases and offsets) or over rows (its reads gathered first), then its
 * increments added. */
static void emit_staged_turn(cg *g, const loop *lp) {
  int lanes = vectorize_lanes(g->tr->staged, lp);
  if (lanes)
    emit_lane_locals(g, lp);
  else
    emit_gathers(g, lp);
  if (g->be->simd)
    cg_line(g, "%s", g->be->simd);
  else if (cg_asserts_lanes(g, lp))
    cg_line(g, "LOOM_IVDEP");
  cg_strip_elements_begin(g);
  if (lanes)
    emit_lane_call(g, lp);
  else
    cg_emit_kernel_call(g, lp);
  cg_loop_end(g);
  emit_scatters(g, lp, lanes);
}

/* The kernel over the strip's elements, one by one, through the maps. */
void cg_emit_elements_turn(cg *g, const loop *lp, int plain) {
  g->plain = plain;
  cg_strip_elements_begin(g);
  cg_emit_kernel_call(g, lp);
  cg_loop_end(g);
  g->plain = 0;
}

/* A staged loop's turn in a strip: staged or element by element, as
 * loom_vec says. */
void cg_emit_turns(cg *g, const loop *lp) {
  cg_line(g, "if (loom_vec) {");
  cg_indent(g, 1);
  emit_staged_turn(g, lp);
  cg_indent(g, -1);
  cg_line(g, "} else {");
  cg_indent(g, 1);
  cg_emit_elements_turn(g, lp, 1);
  cg_indent(g, -1);
  cg_line(g, "}");
}
