/*
 * isl_loops.c — loop nests from isl's AST generator (see isl_loops.h).
 *
 * Ownership follows isl's annotations: every __isl_take argument is given
 * up, every __isl_give result is freed on the one cleanup path.
 */
#define _GNU_SOURCE /* memmem */
#include "emit/isl_loops.h"

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

/* The loops generated so far, by schedule and iterator: the output asks
 * for few shapes many times over (and codegen.c writes some functions
 * twice, to compare them).  Kept until isl_loops_done, as the arena their
 * text is in. */
typedef struct known_loop {
  char *key;
  isl_loop_text text;
  struct known_loop *next;
} known_loop;

static known_loop *known;

void isl_loops_done(void) {
  if (ctx)
    isl_ctx_free(ctx);
  ctx = NULL;
  while (known) {
    known_loop *k = known->next;
    free(known->key);
    free(known);
    known = k;
  }
}

/* A statement S<k>: a marker line naming k, replaced by the kernel call
 * of the group's k-th loop. */
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
  p = isl_printer_end_line(p);
  isl_id_free(id);
  isl_ast_expr_free(callee);
  isl_ast_expr_free(call);
  return p;
}

/* The C text of the AST of `schedule` over its domain. */
static char *print_ast(__isl_take isl_union_map *schedule, const char *iter) {
  isl_ast_build *build = isl_ast_build_alloc(context());
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

/* The parameters of a range: "[lo, hi]", or "[hi]" when lo is a constant. */
static const char *range_params(arena *a, const char *lo, const char *hi) {
  int param_lo = !(lo[0] >= '0' && lo[0] <= '9');
  return arena_printf(a, "[%s%s%s]", param_lo ? lo : "", param_lo ? ", " : "", hi);
}

/* The loop text of the schedule written as `spec`. */
static int loop_text(arena *a, const char *spec, const char *iter, isl_loop_text *out) {
  size_t n = strlen(spec) + strlen(iter) + 2;
  char *key = malloc(n);
  if (!key)
    return -1;
  snprintf(key, n, "%s\n%s", spec, iter);
  for (const known_loop *k = known; k; k = k->next)
    if (strcmp(k->key, key) == 0) {
      free(key);
      *out = k->text;
      return 0;
    }
  isl_union_map *schedule = isl_union_map_read_from_str(context(), spec);
  char *text = schedule ? print_ast(schedule, iter) : NULL;
  int rc = text ? split_at_markers(a, text, out) : -1;
  free(text);
  known_loop *k = rc == 0 ? malloc(sizeof *k) : NULL;
  if (!k) {
    free(key);
    return rc;
  }
  *k = (known_loop){key, *out, known};
  known = k;
  return 0;
}

int isl_loop_range(arena *a, const char *lo, const char *hi, const char *iter, int nstmts,
                   isl_loop_text *out) {
  /* [lo, hi] -> { S0[i] -> [i, 0]; S1[i] -> [i, 1]; ... : lo <= i < hi } */
  char *spec = arena_printf(a, "%s -> {", range_params(a, lo, hi));
  for (int k = 0; k < nstmts; k++)
    spec = arena_printf(a, "%s%s S%d[i] -> [i, %d] : %s <= i < %s", spec, k ? ";" : "", k,
                        k, lo, hi);
  return loop_text(a, arena_printf(a, "%s }", spec), iter, out);
}

int isl_loop_strips(arena *a, const char *lo, const char *hi, const char *iter, int width,
                    isl_loop_text *out) {
  /* [lo, hi] -> { S0[i] -> [i] : lo <= i < hi and exists k : i = lo + width k } */
  return loop_text(a, arena_printf(a, "%s -> { S0[i] -> [i] : %s <= i < %s and exists k : "
                                   "i = %s + %d k }", range_params(a, lo, hi), lo, hi, lo,
                                   width),
                   iter, out);
}
