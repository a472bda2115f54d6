/*
 * codegen.c — stage 6: the shared IR walk and the output's assembly (see
 * codegen.h for the shape of the output).
 */
#include "codegen.h"

#include "affine.h"
#include "isl_loops.h"

#include <stdarg.h>
#include <string.h>

#ifndef LOOM_VERSION
#define LOOM_VERSION "0.1.0"
#endif

struct cg {
  const program *prog;
  vec loop_tails; /* isl_loop_text*: open loops, innermost last */
  const backend *be;
  const char *out_name;
  strbuf *out;
  arena *arena;
  int indent;
  int out_lines; /* newlines written so far */
};

const backend *backend_for(const char *target) {
  static const backend *const all[] = {&backend_seq, &backend_openmp};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(all[i]->name, target) == 0)
      return all[i];
  return NULL;
}

/* ---- writing ---------------------------------------------------------------- */

static void put(cg *g, const char *s, size_t n) {
  sb_putn(g->out, s, n);
  for (size_t i = 0; i < n; i++)
    g->out_lines += s[i] == '\n';
}

static void puts_(cg *g, const char *s) { put(g, s, strlen(s)); }

void cg_line(cg *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = arena_alloc(g->arena, 1);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(text, 1, fmt, ap);
  text = arena_alloc(g->arena, (size_t)n + 1);
  vsnprintf(text, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  if (n > 0)
    for (int i = 0; i < g->indent; i++)
      puts_(g, "  ");
  puts_(g, text);
  puts_(g, "\n");
}

void cg_indent(cg *g, int delta) { g->indent += delta; }

void cg_loop_begin(cg *g, const char *lo, const char *hi) {
  isl_loop_text *t = arena_alloc(g->arena, sizeof *t);
  if (isl_loop_range(g->arena, lo, hi, cg_elem(g), t) != 0) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "isl could not generate the loop over [%s, %s)", lo, hi);
    return;
  }
  for (int i = 0; i < t->head.len; i++)
    cg_line(g, "%s", (const char *)t->head.items[i]);
  vec_push(g->arena, &g->loop_tails, t);
  cg_indent(g, t->body_indent);
}

void cg_loop_end(cg *g) {
  if (g->loop_tails.len == 0)
    return;
  isl_loop_text *t = g->loop_tails.items[--g->loop_tails.len];
  cg_indent(g, -t->body_indent);
  for (int i = 0; i < t->tail.len; i++)
    cg_line(g, "%s", (const char *)t->tail.items[i]);
}
const char *cg_elem(const cg *g) { (void)g; return "loom_i"; }
const char *cg_count(const cg *g) { (void)g; return "loom_n"; }
arena *cg_arena(cg *g) { return g->arena; }

const char *cg_reduction_local(cg *g, const loop_arg *a) {
  return arena_printf(g->arena, "loom_g_%s", a->obj->name);
}

void cg_declare_reduction_local(cg *g, const loop_arg *a, const char *init) {
  const char *t = a->obj->type->c_name, *local = cg_reduction_local(g, a);
  if (a->obj->dim == 1) {
    cg_line(g, "%s %s = %s;", t, local, arena_printf(g->arena, init, "0"));
    return;
  }
  cg_line(g, "%s %s[%d];", t, local, a->obj->dim);
  cg_line(g, "for (int loom_j = 0; loom_j < %d; loom_j++)", a->obj->dim);
  cg_line(g, "  %s[loom_j] = %s;", local, arena_printf(g->arena, init, "loom_j"));
}

static const char *quoted(cg *g, const char *path) {
  size_t n = strlen(path);
  char *q = arena_alloc(g->arena, 2 * n + 3), *p = q;
  *p++ = '"';
  for (size_t i = 0; i < n; i++) {
    if (path[i] == '"' || path[i] == '\\')
      *p++ = '\\';
    *p++ = path[i];
  }
  *p++ = '"';
  return q;
}

/* A file name inside a comment: no "*" "/" that would end it. */
static const char *comment_safe(cg *g, const char *s) {
  char *c = arena_strdup(g->arena, s);
  for (char *p = c; (p = strstr(p, "*/")) != NULL;)
    *p = '_';
  return c;
}

/* `#line` to a line of the user's file (at the start of an output line). */
static void line_user(cg *g, unsigned line) {
  sb_printf(g->out, "#line %u %s\n", line, quoted(g, g->prog->file));
  g->out_lines++;
}

/* `#line` back to the output file itself. */
static void line_self(cg *g) {
  sb_printf(g->out, "#line %d %s\n", g->out_lines + 2, quoted(g, g->out_name));
  g->out_lines++;
}

void cg_put(cg *g, const char *text) { puts_(g, text); }
void cg_line_user(cg *g, unsigned line) { line_user(g, line); }
void cg_line_self(cg *g) { line_self(g); }
const char *cg_target(const cg *g) { return g->be->name; }
const program *cg_program(const cg *g) { return g->prog; }

/* ---- names ------------------------------------------------------------------- */

static const char *loop_fn(cg *g, const loop *lp) {
  return arena_printf(g->arena, "loom_loop_%d_%s", lp->id, lp->kernel);
}

static const char *data_ptr(cg *g, const obj *dat) {
  return arena_printf(g->arena, "loom_d_%s", dat->name);
}

static const char *map_ptr(cg *g, const obj *map) {
  return arena_printf(g->arena, "loom_m_%s", map->name);
}

/* ---- the objects a loop passes ---------------------------------------------- */

/* Maps, dats and globals of a loop, each once, in order of first use. */
static vec loop_objects(cg *g, const loop *lp) {
  vec v = {0};
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    const obj *objs[2] = {a->map, a->obj};
    for (int k = 0; k < 2; k++) {
      int seen = !objs[k];
      for (int j = 0; j < v.len && !seen; j++)
        seen = v.items[j] == objs[k];
      if (!seen)
        vec_push(g->arena, &v, (void *)objs[k]);
    }
  }
  return v;
}

static int global_is_read(const loop *lp, const obj *o) {
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].mode != MODE_READ)
      return 0;
  return 1;
}

static const char *param_decl(cg *g, const loop *lp, const obj *o) {
  static const char *const handle[] = {"loom_set", "loom_map", "loom_dat"};
  if (o->kind != OBJ_GLOBAL)
    return arena_printf(g->arena, "%s %s", handle[o->kind], o->name);
  return arena_printf(g->arena, "%s%s *%s", global_is_read(lp, o) ? "const " : "",
                      o->type->c_name, o->name);
}

static const char *call_arg(cg *g, const obj *o) {
  if (o->kind != OBJ_GLOBAL || o->is_array)
    return o->name;
  return arena_printf(g->arena, "&%s", o->name);
}

enum { WRAP = 80 };

/* `NAME(a, b, c)`.  When col (the column NAME starts at) is not negative,
 * arguments that would pass WRAP columns continue on a new line, aligned
 * after the '('. */
static const char *join(cg *g, const char *head, vec *parts, int col) {
  strbuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s(", head);
  size_t align = (size_t)(col > 0 ? col : 0) + strlen(head) + 1, cur = align;
  for (int i = 0; i < parts->len; i++) {
    const char *part = parts->items[i];
    size_t n = strlen(part);
    if (i && col >= 0 && cur + n + 4 > WRAP) {
      sb_printf(&sb, ",\n%*s", (int)align, "");
      cur = align;
    } else if (i) {
      sb_puts(&sb, ", ");
      cur += 2;
    }
    sb_puts(&sb, part);
    cur += n;
  }
  sb_puts(&sb, ")");
  char *s = arena_strdup(g->arena, sb.data);
  sb_free(&sb);
  return s;
}

/* ---- the loop function --------------------------------------------------------- */

static void emit_signature(cg *g, const loop *lp, const vec *objs) {
  vec params = {0};
  vec_push(g->arena, &params, (void *)param_decl(g, lp, lp->set));
  for (int i = 0; i < objs->len; i++)
    vec_push(g->arena, &params, (void *)param_decl(g, lp, objs->items[i]));
  cg_line(g, "static void %s", join(g, loop_fn(g, lp), &params, 12));
}

static const char *check_call(cg *g, const loop *lp, const obj *o) {
  int pos = 0;
  for (int i = 0; i < lp->nargs && !pos; i++)
    if (lp->args[i].obj == o || lp->args[i].map == o)
      pos = lp->args[i].pos;
  if (o->kind == OBJ_MAP)
    return arena_printf(g->arena, "loom__check_map(%s, %s, NULL, %d, loom_loop, %d)",
                        o->name, lp->set->name, o->dim, pos);
  const char *set = lp->set->name;
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].obj == o && lp->args[i].map)
      set = arena_printf(g->arena, "loom__map_to(%s)", lp->args[i].map->name);
  return arena_printf(g->arena, "loom__check_dat(%s, %s, %d, %s, loom_loop, %d)",
                      o->name, set, o->dim, o->type->loom_name, pos);
}

/* Run-time checks that each object is what the loop was compiled for; a
 * failed check has been reported by libloom, and the loop does not run. */
static void emit_checks(cg *g, const loop *lp, const vec *objs) {
  vec checks = {0};
  vec_push(g->arena, &checks,
           arena_printf(g->arena, "loom__check_set(%s, loom_loop)", lp->set->name));
  for (int i = 0; i < objs->len; i++) {
    const obj *o = objs->items[i];
    if (o->kind != OBJ_GLOBAL)
      vec_push(g->arena, &checks, (void *)check_call(g, lp, o));
  }
  cg_line(g, "static const char loom_loop[] = %s;",
          quoted(g, arena_printf(g->arena, "%s at %s:%u", lp->kernel,
                                 g->prog->file, lp->loc.line)));
  for (int i = 0; i < checks.len; i++)
    cg_line(g, "%s%s != LOOM_OK%s", i ? "    " : "if (", (const char *)checks.items[i],
            i + 1 < checks.len ? " ||" : ")");
  cg_line(g, "  return;");
}

void cg_declare_count(cg *g, const loop *lp) {
  cg_line(g, "const int %s = loom__set_size(%s);", cg_count(g), lp->set->name);
}

static void emit_pointers(cg *g, const vec *objs) {
  for (int i = 0; i < objs->len; i++) {
    const obj *o = objs->items[i];
    if (o->kind == OBJ_MAP)
      cg_line(g, "const int *const %s = loom__map_values(%s);", map_ptr(g, o), o->name);
    else if (o->kind == OBJ_DAT)
      cg_line(g, "%s *const %s = (%s *)loom__dat_values(%s);", o->type->c_name,
              data_ptr(g, o), o->type->c_name, o->name);
  }
}

/* `base + dim * index`, without the multiplication when dim is 1. */
static const char *offset(cg *g, const char *base, int dim, const char *index) {
  if (dim == 1)
    return arena_printf(g->arena, "%s + %s", base, index);
  return arena_printf(g->arena, "%s + %d * %s", base, dim, index);
}

static const char *map_entry(cg *g, const loop_arg *a, int slot) {
  const char *elem = cg_elem(g);
  return arena_printf(g->arena, "%s[%d * %s + %d]", map_ptr(g, a->map), a->map->dim,
                      elem, slot);
}

static const char *pointer_array(const cg *g, const loop_arg *a) {
  return arena_printf(g->arena, "loom_a%d", a->pos);
}

/* Locals the kernel call needs: idx, and the pointer arrays of map[*]. */
static void emit_call_locals(cg *g, const loop *lp) {
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (a->kind == ARG_IDX)
      cg_line(g, "int loom_idx = %s;", cg_elem(g));
    if (a->kind != ARG_MAPPED_ALL)
      continue;
    const char *t = a->param_pointee;
    size_t n = strlen(t);
    cg_line(g, "%s%s%s[%d] = {", t, n && t[n - 1] == '*' ? "" : " ",
            pointer_array(g, a), a->map->dim);
    for (int s = 0; s < a->map->dim; s++)
      cg_line(g, "    %s%s", offset(g, data_ptr(g, a->obj), a->obj->dim,
                                    map_entry(g, a, s)),
              s + 1 < a->map->dim ? "," : "");
    cg_line(g, "};");
  }
}

static const char *kernel_arg(cg *g, const loop_arg *a) {
  switch (a->kind) {
  case ARG_IDX:
    return "&loom_idx";
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
  case ARG_MAPPED:
    return offset(g, data_ptr(g, a->obj), a->obj->dim, map_entry(g, a, a->slot));
  default:
    return offset(g, data_ptr(g, a->obj), a->obj->dim, cg_elem(g));
  }
}

/* The kernel call, its arguments laid out on the lines of the directive
 * they come from, the output lines mapped by #line to those directive
 * lines: a compiler error in an argument points at it. */
typedef struct call_writer {
  cg *g;
  strbuf line;
  unsigned line_of;  /* the directive line of the text in `line` */
  unsigned next;     /* the line number the next output line will have */
  size_t align;      /* continuation indent, relative to g->indent */
} call_writer;

static void call_flush(call_writer *w, const char *tail) {
  sb_puts(&w->line, tail);
  if (w->next != w->line_of)
    line_user(w->g, w->line_of);
  cg_line(w->g, "%s", w->line.data);
  w->next = w->line_of + 1;
  w->line.len = 0;
  sb_printf(&w->line, "%*s", (int)w->align, "");
}

static void call_add(call_writer *w, const char *arg, unsigned line, int first) {
  if (!first && line != w->line_of)
    call_flush(w, ",");
  else if (!first)
    sb_puts(&w->line, ", ");
  w->line_of = line;
  sb_puts(&w->line, arg);
}

static void emit_kernel_call(cg *g, const loop *lp) {
  emit_call_locals(g, lp);
  call_writer w = {g, {0}, 0, 0, strlen(lp->kernel) + 1};
  sb_init(&w.line);
  sb_printf(&w.line, "%s(", lp->kernel);
  for (int i = 0; i < lp->nargs; i++)
    call_add(&w, kernel_arg(g, &lp->args[i]), lp->args[i].loc.line, i == 0);
  call_flush(&w, ");");
  sb_free(&w.line);
  line_self(g);
}

static void emit_loop_function(cg *g, const loop *lp) {
  if (lp->domain) /* affine: emitted at the directive (affine_emit.c) */
    return;
  vec objs = loop_objects(g, lp);
  cg_line(g, "/* par_loop %s over %s (%s:%u) */", lp->kernel, lp->set->name,
          comment_safe(g, g->prog->file), lp->loc.line);
  emit_signature(g, lp, &objs);
  cg_line(g, "{");
  cg_indent(g, 1);
  emit_checks(g, lp, &objs);
  cg_line(g, "const double loom_t0 = loom__wall();");
  emit_pointers(g, &objs);
  g->be->loop_begin(g, lp);
  g->be->iterate_begin(g, lp);
  emit_kernel_call(g, lp);
  g->be->iterate_end(g, lp);
  g->be->loop_end(g, lp);
  cg_line(g, "loom__loop_done(loom_loop, loom_t0);");
  cg_indent(g, -1);
  cg_line(g, "}");
  cg_line(g, "%s", "");
}

/* The statement that replaces a directive. */
static const char *loop_call(cg *g, const loop *lp) {
  vec args = {0};
  vec objs = loop_objects(g, lp);
  vec_push(g->arena, &args, (void *)lp->set->name);
  for (int i = 0; i < objs.len; i++)
    vec_push(g->arena, &args, (void *)call_arg(g, objs.items[i]));
  return arena_printf(g->arena, "%s;", join(g, loop_fn(g, lp), &args, -1));
}

/* ---- assembling the output ---------------------------------------------------- */

static unsigned line_of_offset(const program *prog, unsigned off) {
  unsigned line = 1;
  for (unsigned i = 0; i < off && i < prog->len; i++)
    line += prog->text[i] == '\n';
  return line;
}

static void copy_text(cg *g, unsigned *from, unsigned to) {
  put(g, g->prog->text + *from, to - *from);
  *from = to;
}

/* A hint directive becomes a comment: it has done its work in loomc (a C
 * compiler would warn about an unknown pragma). */
static void emit_hint(cg *g, const hint *h, unsigned *pos) {
  copy_text(g, pos, h->start);
  strbuf sb;
  sb_init(&sb);
  sb_printf(&sb, "/* loom %s(", hint_name(h->kind));
  for (int i = 0; i < h->nnames; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", h->names[i]);
  sb_puts(&sb, ") */");
  puts_(g, sb.data);
  sb_free(&sb);
  unsigned first = h->loc.line, last = line_of_offset(g->prog, h->end);
  if (last != first) {
    puts_(g, "\n");
    sb_printf(g->out, "#line %u %s", last + 1, quoted(g, g->prog->file));
  }
  *pos = h->end;
}

/* The user's text up to `to`, with the hint directives in it replaced. */
static void copy_user(cg *g, unsigned *from, unsigned to) {
  const vec *hints = &g->prog->hints;
  for (int i = 0; i < hints->len; i++) {
    const hint *h = hints->items[i];
    if (h->start >= *from && h->end <= to)
      emit_hint(g, h, from);
  }
  copy_text(g, from, to);
}

/* The loop functions of the function starting at loops[first]; returns the
 * index after its last loop. */
static int emit_function_group(cg *g, int first, unsigned *pos) {
  const vec *loops = &g->prog->loops;
  const loop *head = loops->items[first];
  copy_user(g, pos, head->func_start);
  int at_line_start = *pos == 0 || g->prog->text[*pos - 1] == '\n';
  if (!at_line_start)
    puts_(g, "\n");
  line_self(g);
  int last = first;
  while (last < loops->len &&
         ((const loop *)loops->items[last])->func_start == head->func_start)
    emit_loop_function(g, loops->items[last++]);
  line_user(g, line_of_offset(g->prog, head->func_start));
  for (unsigned c = 1; c < head->func_loc.col && !at_line_start; c++)
    puts_(g, " ");
  return last;
}

static void emit_loop_call(cg *g, const loop *lp, unsigned *pos) {
  copy_user(g, pos, lp->start);
  if (lp->domain) {
    affine_emit(g, lp);
    *pos = lp->end;
    return;
  }
  puts_(g, loop_call(g, lp));
  unsigned first = lp->loc.line, last = line_of_offset(g->prog, lp->end);
  if (last != first) {
    puts_(g, "\n");
    /* the user's newline that follows ends this line, and is counted */
    sb_printf(g->out, "#line %u %s", last + 1, quoted(g, g->prog->file));
  }
  *pos = lp->end;
}

void codegen(const program *prog, const backend *be, const char *out_name,
             strbuf *out, arena *a) {
  cg g = {.prog = prog, .be = be, .out_name = out_name, .out = out, .arena = a};
  sb_printf(out, "/* Generated by loomc %s (target %s) from %s. Do not edit. */\n",
            LOOM_VERSION, be->name, comment_safe(&g, prog->file));
  g.out_lines = 1;
  line_user(&g, 1);
  unsigned pos = 0;
  for (int i = 0; i < prog->loops.len;) {
    int end = emit_function_group(&g, i, &pos);
    for (; i < end; i++)
      emit_loop_call(&g, prog->loops.items[i], &pos);
  }
  copy_user(&g, &pos, (unsigned)prog->len);
  isl_loops_done();
}
