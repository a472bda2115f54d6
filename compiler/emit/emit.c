/*
 * emit.c — the output file: the user's text with each directive replaced,
 * the loop functions before the functions that hold their loops, and the
 * schedule's statements inserted (see emit.h).
 */
#include "emit/emit.h"

#include <string.h>

#include "emit/affine_emit.h"

#ifndef LOOM_VERSION
#define LOOM_VERSION "0.1.0"
#endif

typedef struct emitter {
  cg *g;              /* the shared walk, writing into the output */
  const program *prog;
  const transformed *tr;
  const insertion_list *ins; /* the schedule's statements (place.h) */
  int next_ins;       /* the first not written yet */
} emitter;

const backend *backend_for(const target *t) {
  static const backend *const all[TARGET_COUNT] = {
      [TARGET_SEQ] = &backend_seq, [TARGET_OPENMP] = &backend_openmp,
      [TARGET_MPI] = &backend_mpi, [TARGET_MPI_OPENMP] = &backend_mpi_openmp};
  return all[t->kind];
}

static void copy_text(emitter *e, unsigned *from, unsigned to) {
  cg_putn(e->g, e->prog->text + *from, to - *from);
  *from = to;
}

/* A hint directive becomes a comment: it has done its work in loomc (a C
 * compiler would warn about an unknown pragma). */
static void emit_hint(emitter *e, const hint *h, unsigned *pos) {
  copy_text(e, pos, h->start);
  strbuf sb;
  sb_init(&sb);
  sb_printf(&sb, "/* loom %s(", hint_name(h->kind));
  for (int i = 0; i < h->nnames; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", h->names[i]);
  sb_puts(&sb, ") */");
  cg_put(e->g, sb.data);
  sb_free(&sb);
  unsigned first = h->loc.line, last = program_line(e->prog, h->end);
  if (last != first)
    cg_line_user_next(e->g, last + 1);
  *pos = h->end;
}

/* The next hint directive in [*from, to), or NULL. */
static const hint *next_hint(const emitter *e, unsigned from, unsigned to) {
  const hint_list *hints = &e->prog->hints;
  for (int i = 0; i < hints->len; i++) {
    const hint *h = hints->items[i];
    if (h->start >= from && h->end <= to)
      return h;
  }
  return NULL;
}

/* The user's text up to `to`, with the hint directives in it replaced and
 * the schedule's statements inserted (those at `to` too). */
static void copy_user(emitter *e, unsigned *from, unsigned to) {
  for (;;) {
    const hint *h = next_hint(e, *from, to);
    const insertion *x = e->ins && e->next_ins < e->ins->len ? e->ins->items[e->next_ins] : NULL;
    if (x && x->offset > to)
      x = NULL;
    if (x && (!h || x->offset <= h->start)) {
      if (x->offset > *from)
        copy_text(e, from, x->offset);
      /* a line of its own, the output's (one directive for a run of
       * them at one place); then the user's line */
      const insertion *prev = e->next_ins > 0 ? e->ins->items[e->next_ins - 1] : NULL;
      int run = prev && prev->line && x->line && prev->offset == x->offset;
      if (x->line && !run)
        cg_line_self(e->g);
      cg_put(e->g, x->text);
      e->next_ins++;
      const insertion *next = e->next_ins < e->ins->len ? e->ins->items[e->next_ins] : NULL;
      if (x->line) {
        cg_put(e->g, "\n");
        if (!(next && next->line && next->offset == x->offset))
          cg_line_user(e->g, x->line);
      }
    } else if (h) {
      emit_hint(e, h, from);
    } else {
      break;
    }
  }
  copy_text(e, from, to);
}

/* The groups whose functions stand before the function starting at
 * loops[first], in order, into out; returns the index after its last
 * loop. */
static int function_groups(const emitter *e, int first, group_list *out, arena *a) {
  const loop_list *loops = &e->prog->loops;
  const loop *head = loops->items[first];
  int last = first;
  for (; last < loops->len &&
         ((const loop *)loops->items[last])->func_start == head->func_start; last++) {
    const group *gr = fusion_group(e->tr->fu, loops->items[last]);
    if (!gr || gr->anchor != loops->items[last])
      continue;
    const rotation *rot = rotation_of(e->tr->rots, gr);
    if (rot && gr == rot->pre) { /* it always runs with the first iteration's head */
      vec_push(a, out, rot->pre_fused);
      continue;
    }
    vec_push(a, out, (group *)gr);
    if (rot && gr == rot->tail)
      vec_push(a, out, rot->fused);
  }
  return last;
}

/* The loop functions of the function starting at loops[first]; returns the
 * index after its last loop. */
static int emit_function_group(emitter *e, int first, unsigned *pos, arena *a) {
  const loop *head = e->prog->loops.items[first];
  copy_user(e, pos, head->func_start);
  int at_line_start = *pos == 0 || e->prog->text[*pos - 1] == '\n';
  if (!at_line_start)
    cg_put(e->g, "\n");
  cg_line_self(e->g);
  group_list groups = {0};
  int last = function_groups(e, first, &groups, a);
  for (int i = 0; i < groups.len; i++)
    cg_group_function(e->g, groups.items[i]);
  cg_line_user(e->g, program_line(e->prog, head->func_start));
  for (unsigned c = 1; c < head->func_loc.col && !at_line_start; c++)
    cg_put(e->g, " ");
  return last;
}

static void emit_loop_call(emitter *e, const loop *lp, unsigned *pos) {
  copy_user(e, pos, lp->start);
  if (lp->domain) { /* affine: its code stands at the directive (affine_emit.c) */
    affine_emit(e->g, lp);
    *pos = lp->end;
    return;
  }
  cg_put(e->g, cg_directive(e->g, lp));
  unsigned first = lp->loc.line, last = program_line(e->prog, lp->end);
  if (last != first) /* the user's newline that follows ends this line */
    cg_line_user_next(e->g, last + 1);
  *pos = lp->end;
}

void emit(const program *prog, const transformed *tr, const backend *be, const char *out_name,
          strbuf *out, arena *a) {
  emitter e = {cg_new(prog, tr, be, out_name, out, a), prog, tr, &tr->insertions, 0};
  cg_put(e.g, arena_printf(a, "/* Generated by loomc %s (target %s) from %s. Do not edit. */\n",
                           LOOM_VERSION, target_of(be->kind)->name,
                           cg_comment_safe(e.g, prog->file)));
  /* loom.h, wherever the user's text includes it, then brings in
   * loom_gen.h: the generated code's interface to libloom */
  cg_put(e.g, "#define LOOM__GENERATED 1 /* loom.h brings in loom_gen.h: libloom for this code */\n"
              "#ifdef LOOM_H /* loom.h came first (cc -include) */\n"
              "#include <loom_gen.h>\n"
              "#endif\n");
  group_list all = {0};
  for (int i = 0; i < prog->loops.len;)
    i = function_groups(&e, i, &all, a);
  cg_plan(e.g, &all);
  cg_prologue(e.g);
  cg_line_user(e.g, 1);
  unsigned pos = 0;
  for (int i = 0; i < prog->loops.len;) {
    int end = emit_function_group(&e, i, &pos, a);
    for (; i < end; i++)
      emit_loop_call(&e, prog->loops.items[i], &pos);
  }
  copy_user(&e, &pos, (unsigned)prog->len);
  cg_epilogue(e.g);
  cg_done(e.g);
}
