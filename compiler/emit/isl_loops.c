/*
 * isl_loops.c — loop nests from isl's AST generator (see isl_loops.h).
 *
 * Ownership follows isl's annotations: every __isl_take argument is given
 * up, every __isl_give result is freed on the one cleanup path.
 */
#define _GNU_SOURCE /* memmem */
#include "emit/isl_loops.h"

#include "util/strtab.h"
#include "util/text.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/printer.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BODY_MARKER "@LOOM_BODY@"

static isl_ctx *ctx;

static isl_ctx *context(void) {
  if (!ctx) {
    ctx = isl_ctx_alloc();
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
    isl_options_set_ast_always_print_block(ctx, 1);
  }
  return ctx;
}

static void memo_free(void);

void isl_loops_done(void) {
  memo_free();
  if (ctx)
    isl_ctx_free(ctx);
  ctx = NULL;
}

/* A statement S<k>: a marker line naming k (and, after a colon, its
 * iteration), replaced by the kernel call of the group's k-th loop. */
static __isl_give isl_printer *print_body(__isl_take isl_printer *p,
                                          __isl_take isl_ast_print_options *o,
                                          __isl_keep isl_ast_node *node, void *user) {
  (void)user;
  isl_ast_print_options_free(o);
  isl_ast_expr *call = isl_ast_node_user_get_expr(node);
  isl_ast_expr *callee = isl_ast_expr_get_op_arg(call, 0);
  isl_id *id = isl_ast_expr_get_id(callee);
  p = isl_printer_start_line(p);
  p = isl_printer_print_str(p, BODY_MARKER);
  p = isl_printer_print_str(p, id ? isl_id_get_name(id) + 1 : "0");
  if (isl_ast_expr_get_op_n_arg(call) > 1) {
    isl_ast_expr *at = isl_ast_expr_get_op_arg(call, 1);
    p = isl_printer_print_str(p, ":");
    p = isl_printer_print_ast_expr(p, at);
    isl_ast_expr_free(at);
  }
  p = isl_printer_end_line(p);
  isl_id_free(id);
  isl_ast_expr_free(callee);
  isl_ast_expr_free(call);
  return p;
}

/* The C text of the AST of `schedule` over its domain, given the
 * parameters' `ctx_text` (NULL: nothing known). */
static char *print_ast(__isl_take isl_union_map *schedule, const char *iter,
                       const char *ctx_text) {
  isl_set *known = ctx_text ? isl_set_read_from_str(context(), ctx_text) : NULL;
  isl_ast_build *build = known ? isl_ast_build_from_context(known)
                               : isl_ast_build_alloc(context());
  if (known) /* the layer loops: statements of fewer layers peeled off, no guards */
    build = isl_ast_build_set_options(
        build, isl_union_map_read_from_str(context(), "{ [k, s] -> separate[x] : x = 0 }"));
  isl_id_list *names = isl_id_list_from_id(isl_id_alloc(context(), iter, NULL));
  build = isl_ast_build_set_iterators(build, names);
  isl_ast_node *tree = isl_ast_build_node_from_schedule_map(build, schedule);
  isl_ast_build_free(build);
  if (!tree)
    return NULL;
  isl_printer *p = isl_printer_to_str(context());
  p = isl_printer_set_output_format(p, ISL_FORMAT_C);
  isl_ast_print_options *o = isl_ast_print_options_alloc(context());
  o = isl_ast_print_options_set_print_user(o, print_body, NULL);
  p = isl_ast_node_print(tree, p, o);
  char *text = isl_printer_get_str(p);
  isl_printer_free(p);
  isl_ast_node_free(tree);
  return text;
}

/* Splits text at the marker lines into out->head and out->tail, and
 * records the statements' order.  The markers must be consecutive lines
 * (the statements of one loop body). */
static int split_at_markers(arena *a, const char *text, isl_loop_text *out) {
  memset(out, 0, sizeof *out);
  int after = 0, gap = 0;
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    const char *m = memmem(line, n, BODY_MARKER, strlen(BODY_MARKER));
    if (m) {
      gap |= after && out->tail.len > 0;
      after = 1;
      out->body_indent = (int)(strspn(line, " ") / 2); /* isl indents by 2 */
      vec_push(a, &out->order, (void *)(long)atoi(m + strlen(BODY_MARKER)));
    } else {
      vec_push(a, after ? &out->tail : &out->head, arena_strndup(a, line, n));
    }
    line += n + (nl != NULL);
  }
  return after && !gap ? 0 : -1;
}

/* isl's text for each schedule asked for, by its iterator and spec
 * ("ITER\nSPEC"): a program's loops ask for few shapes (a range, strips),
 * many times.  The table owns its texts (NULL: isl failed);
 * isl_loops_done frees them. */
static strtab printed;

static void memo_free(void) { strtab_free(&printed, free); }

/* isl's text of the schedule written as `spec` (malloc'd; NULL: isl
 * failed). */
static char *ast_text(const char *spec, const char *iter) {
  const char *bar = strchr(spec, '|'); /* "CONTEXT|SCHEDULE", or the schedule alone */
  char *known = bar ? strndup(spec, (size_t)(bar - spec)) : NULL;
  isl_union_map *schedule = isl_union_map_read_from_str(context(), bar ? bar + 1 : spec);
  char *text = schedule ? print_ast(schedule, iter, known) : NULL;
  free(known);
  return text;
}

/* isl's text of the schedule written as `spec`, asked for once per spec
 * (without memory for the table, every time), in the arena. */
static const char *memo_text(arena *a, const char *spec, const char *iter) {
  int fresh;
  strtab_slot *slot = strtab_slot_of(&printed, arena_printf(a, "%s\n%s", iter, spec), &fresh);
  if (slot && fresh)
    slot->value = ast_text(spec, iter);
  char *own = slot ? NULL : ast_text(spec, iter);
  const char *text = slot ? slot->value : own;
  const char *copy = text ? arena_strdup(a, text) : NULL;
  free(own);
  return copy;
}

int isl_loop_layers(arena *a, const char *params, const char *iter, int nstmts,
                    const char *const *lo, const char *const *hi, isl_nest *out) {
  /* [L] -> { : L >= 1 }|[L] -> { S0[k] -> [k, 0] : lo0 <= k < hi0; ... } */
  const char *known = arena_printf(a, "[%s] -> { : ", params), *spec = "";
  int n = 0;
  for (const char *p = params; *p; n++) {
    size_t len = strcspn(p, ",");
    known = arena_printf(a, "%s%s%.*s >= 1", known, n ? " and " : "", (int)len, p);
    p += len;
    p += strspn(p, ", ");
  }
  for (int k = 0; k < nstmts; k++)
    spec = arena_printf(a, "%s%s S%d[k] -> [k, %d] : %s <= k < %s", spec, k ? ";" : "", k, k,
                        lo[k], hi[k]);
  const char *text =
      memo_text(a, arena_printf(a, "%s }|[%s] -> {%s }", known, params, spec), iter);
  memset(out, 0, sizeof *out);
  for (const char *line = text; line && *line;) {
    size_t len = strcspn(line, "\n"), sp = strspn(line, " ");
    isl_nest_line *l = arena_alloc(a, sizeof *l);
    const char *m = memmem(line, len, BODY_MARKER, strlen(BODY_MARKER));
    const char *colon = m ? memchr(m, ':', len - (size_t)(m - line)) : NULL;
    *l = (isl_nest_line){m ? atoi(m + strlen(BODY_MARKER)) : -1, (int)(sp / 2),
                         arena_strndup(a, line + sp, len - sp),
                         colon ? arena_strndup(a, colon + 1, len - (size_t)(colon + 1 - line))
                               : NULL};
    vec_push(a, out, l);
    line += len + (line[len] == '\n');
  }
  return text ? 0 : -1;
}

/* The bounds of a range as isl's parameters: each shape of loop is asked
 * of isl once, whatever its bounds are called (a range from 0 to
 * loom_n and one from loom_s to loom_e are one AST), and the bounds are
 * put in its text after. */
#define LO_PARAM "loom_lo__"
#define HI_PARAM "loom_hi__"

/* text with every word `from` written as `to`. */
static const char *with_word(arena *a, const char *text, const char *from, const char *to) {
  size_t n = strlen(from);
  const char *out = "";
  const char *rest = text;
  for (const char *p = text; (p = strstr(p, from)); p += n) {
    if ((p > text && text_ident_char(p[-1])) || text_ident_char(p[n]))
      continue;
    out = arena_printf(a, "%s%.*s%s", out, (int)(p - rest), rest, to);
    rest = p + n;
  }
  return rest == text ? text : arena_printf(a, "%s%s", out, rest);
}

/* The loop text of the schedule written as `spec` over the parameters
 * LO_PARAM and HI_PARAM, which stand for lo and hi. */
static int bounds_text(arena *a, const char *spec, const char *lo, const char *hi,
                       const char *iter, isl_loop_text *out) {
  const char *text = memo_text(a, spec, iter);
  if (!text)
    return -1;
  text = with_word(a, with_word(a, text, LO_PARAM, lo), HI_PARAM, hi);
  return split_at_markers(a, text, out);
}

int isl_loop_range(arena *a, const char *lo, const char *hi, const char *iter, int nstmts,
                   isl_loop_text *out) {
  /* [lo, hi] -> { S0[i] -> [i, 0]; S1[i] -> [i, 1]; ... : lo <= i < hi } */
  char *spec = "[" LO_PARAM ", " HI_PARAM "] -> {";
  for (int k = 0; k < nstmts; k++)
    spec = arena_printf(a, "%s%s S%d[i] -> [i, %d] : " LO_PARAM " <= i < " HI_PARAM, spec,
                        k ? ";" : "", k, k);
  return bounds_text(a, arena_printf(a, "%s }", spec), lo, hi, iter, out);
}

int isl_loop_strips(arena *a, const char *lo, const char *hi, const char *iter, int width,
                    isl_loop_text *out) {
  /* [lo, hi] -> { S0[i] -> [i] : lo <= i < hi and exists k : i = lo + width k } */
  return bounds_text(a, arena_printf(a, "[" LO_PARAM ", " HI_PARAM "] -> { S0[i] -> [i] : "
                                     LO_PARAM " <= i < " HI_PARAM " and exists k : i = "
                                     LO_PARAM " + %d k }", width),
                     lo, hi, iter, out);
}
