/*
 * main.c — loomc: annotated C in, plain C out.
 *
 * loomc_pipeline() and transform() below are the pipeline, one stage per
 * call, data flowing one way; each stage's header says what it takes and
 * what it gives.  transform() decides; the output is emitted once, from the
 * last translation (an expansion's, when the program was expanded).  The
 * folders are layers, each using only those below it (README.md):
 *
 *   util/       arena, strbuf, diagnostics, the command line, the target
 *   ir/         the program: objects, loops, hints
 *   frontend/   libclang's parse, the directives, names bound to
 *               declarations, kernels checked, constants
 *   analysis/   aliasing, regions, effects, the DAGs
 *   transform/  pins, fusion, strips, the schedule and its placement
 *   emit/       the output C (one shared walk, a backend per target)
 *
 * Any error stops the pipeline before the output is written, and removes an
 * output left by an earlier run: a failed translation leaves no file.
 */
#include "main.h"

#include <string.h>

#include "analysis/alias.h"
#include "analysis/dag.h"
#include "analysis/loops.h"
#include "analysis/region.h"
#include "emit/depfile.h"
#include "emit/emit.h"
#include "emit/output.h"
#include "frontend/check.h"
#include "frontend/consts.h"
#include "frontend/pragma_lex.h"
#include "frontend/pragma_parse.h"
#include "frontend/resolve.h"
#include "frontend/symtab.h"
#include "transform/affine_plan.h"
#include "transform/expand.h"
#include "transform/fuse.h"
#include "transform/hoist.h"
#include "transform/pin.h"
#include "transform/place.h"
#include "transform/rotate.h"
#include "transform/schedule.h"
#include "transform/narrow.h"
#include "transform/transformed.h"
#include "transform/vectorize.h"

/* --report: every region's DAG, the affine loops, the constants and the
 * dats that may be one; --emit-dag: the DAGs in Graphviz. */
static void write_dumps(const options *opt, const program *prog, const vec *dags) {
  if (opt->report && diag_error_count() == 0) {
    dag_write_report(stdout, dags);
    affine_write_report(stdout, prog);
    consts_write_report(stdout, prog);
    alias_write_report(stdout, prog);
  }
  if (!opt->emit_dag || diag_error_count() != 0)
    return;
  FILE *f = strcmp(opt->emit_dag, "-") == 0 ? stdout : fopen(opt->emit_dag, "w");
  if (!f) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot write '%s'", opt->emit_dag);
    return;
  }
  dag_write_dot(f, dags);
  if (f != stdout && fclose(f) != 0)
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot write '%s'", opt->emit_dag);
}

/* What a translation gives: the DAGs (for --report, --emit-dag), the
 * loops (for the expansions), and what emit takes. */
typedef struct translation {
  program prog;      /* the program (its text is its parse's) */
  vec dags;          /* dag*: the regions' */
  vec loops;         /* loop_info*: the loop regions' */
  transformed tr;    /* each transformation's record */
  vec insertions;    /* insertion*: the communication placed */
} translation;

/* The regions, their DAGs and the transformations; notes: the
 * expansions' (expand_note*: they go to the DAGs), or NULL. */
static void transform(const frontend *fe, const symtab *st, program *prog,
                      const options *opt, const vec *notes, translation *t, arena *a) {
  vec regions = regions_build(fe, st, prog, a);
  affine_plan(fe, st, prog, &regions, a);
  vec plain = dag_build(&regions, target_of(TARGET_SEQ), NULL, a);
  vec pins = pin(prog, &regions, &plain, opt->target, a);
  vec dags = dag_build(&regions, opt->target, &pins, a);
  dag_take_notes(&dags, &plain, a);
  if (notes)
    expand_notes(notes, 0, &dags, 1, a);
  vec loops = loops_analyse(fe, st, prog, &regions, &dags, opt->target, &pins, a);
  vec hoists = opt->no_hoist ? (vec){0} : hoist_exchanges(&loops, a);
  schedule(&dags, a);
  vec seq = opt->target->distributed ? dag_build(&regions, target_of(TARGET_SEQ), &pins, a)
                                     : dags;
  const fusion *fu = fuse(prog, &regions, &seq, &dags, &pins, opt->target, opt->no_fuse, a);
  vec narrowed = narrow(fu, prog, &regions, &dags, opt->no_narrow, a);
  const staging *staged = vectorize(fu, &narrowed, &regions, &dags, opt->no_vectorize, a);
  const rotations *rots = rotate(prog, fu, &loops, &hoists, &regions, &dags, opt->target,
                                 opt->no_fuse || opt->no_rotate, a);
  t->insertions = place_comms(prog, &dags, fu, rots, &hoists, a);
  t->tr = (transformed){fu, narrowed, staged, rots};
  t->prog = *prog;
  t->dags = dags;
  t->loops = loops;
}

/* One translation of opt's input: the frontend's stages, then
 * transform(); the number of errors. */
static int translate_once(const options *opt, const vec *notes, frontend *fe,
                          program *prog, translation *t, arena *a) {
  symtab st = {0};
  if (frontend_parse(opt, fe, prog, a) != 0)
    return diag_error_count();
  pragma_lex(fe, prog, a);
  pragma_parse(prog, a);
  symtab_build(fe, &st, a);
  st.loops = &prog->loops;
  resolve(fe, &st, prog, a);
  check_kernels(fe, &st, prog, a);
  consts_check(fe, prog, a);
  alias_analyse(fe, &st, prog, a);
  if (diag_error_count() == 0)
    transform(fe, &st, prog, opt, notes, t, a);
  return diag_error_count();
}

/* The translation of the expansion x of opt's input, quietly (the first
 * translation gave the diagnostics), with notes (expand_note*): 1, *t and
 * *fe (to dispose of) when it succeeded, else 0 (nothing said, the error
 * count as it was). */
static int translate_expanded(const options *opt, const expansion *x, const vec *notes,
                              frontend *fe, translation *t, arena *a) {
  options o = *opt;
  o.input_text = x->text;
  o.input_len = x->len;
  o.input_lines = x->lines;
  o.ninput_lines = x->nlines;
  program prog = {0};
  int errors = diag_error_count(), was = diag_quiet(1);
  int ok = translate_once(&o, notes, fe, &prog, t, a) == errors;
  diag_quiet(was);
  if (!ok) {
    diag_restore_errors(errors);
    frontend_dispose(fe);
  }
  return ok;
}

static int expand_what(const options *opt) {
  if (opt->no_fuse)
    return 0;
  return (opt->no_unroll ? 0 : EXPAND_UNROLL) | (opt->no_inline ? 0 : EXPAND_INLINE) |
         (opt->no_version ? 0 : EXPAND_VERSION);
}

/* Translates expansions of the program (unrolled loops, calls seen
 * through) while there is something to expand, up to EXPAND_ROUNDS times;
 * *t becomes the last that translated, and *last its parse (to dispose
 * of) when that is not fe's: 1 then, else 0.  The notes of every round go
 * to its DAGs. */
static int translate_expansions(const options *opt, const frontend *fe, translation *t,
                                frontend *last, arena *a) {
  vec notes = {0};
  const frontend *at = fe;
  int expanded = 0, applied = 0; /* the notes the DAGs of *t have */
  for (int round = 0; round < EXPAND_ROUNDS && expand_what(opt); round++) {
    expansion *x = expand(at, &t->prog, &t->loops, &t->dags, expand_what(opt), a);
    for (int i = 0; i < x->notes.len; i++)
      vec_push(a, &notes, x->notes.items[i]);
    frontend next;
    translation t2 = {0};
    if (!x->text || !translate_expanded(opt, x, &notes, &next, &t2, a))
      break;
    *t = t2;
    if (expanded)
      frontend_dispose(last);
    *last = next;
    at = last;
    expanded = 1;
    applied = notes.len;
  }
  expand_notes(&notes, applied, &t->dags, 0, a); /* a round not applied */
  return expanded;
}

/* The output C of the translation t, into *out. */
static void emit_output(const options *opt, const translation *t, strbuf *out, arena *a) {
  if (diag_error_count() != 0 || !opt->output)
    return;
  emit(&t->prog, &t->tr, &t->insertions, backend_for(opt->target),
       strcmp(opt->output, "-") == 0 ? "<stdout>" : opt->output, out, a);
}

/* Parse and analyse, expand and translate again while there is something
 * to expand, then emit the last translation once. */
int loomc_pipeline(const options *opt, frontend *fe, program *prog, strbuf *out, arena *a) {
  translation t = {0};
  frontend last;
  if (translate_once(opt, NULL, fe, prog, &t, a) == 0) {
    int expanded = translate_expansions(opt, fe, &t, &last, a);
    emit_output(opt, &t, out, a);
    write_dumps(opt, &t.prog, &t.dags);
    if (expanded)
      frontend_dispose(&last);
  }
  return diag_error_count();
}

#ifndef LOOMC_NO_MAIN /* the fuzzer calls loomc_pipeline itself */
/* The pipeline, then the files: the output, written atomically, and with
 * -MD the headers read, as a make rule. */
static int translate(const options *opt, arena *a) {
  frontend fe;
  program prog = {0};
  strbuf out;
  sb_init(&out);
  loomc_pipeline(opt, &fe, &prog, &out, a);
  if (diag_error_count() == 0 && opt->output)
    output_write(opt->output, &out);
  if (diag_error_count() == 0 && opt->deps)
    depfile_write(&fe, opt);
  if (diag_error_count() != 0)
    output_remove_stale(opt->output);
  sb_free(&out);
  frontend_dispose(&fe);
  return diag_error_count() ? 1 : 0;
}

int main(int argc, char **argv) {
  arena *a = arena_new();
  options opt;
  int rc = options_parse(argc, argv, &opt, a);
  if (rc == OPT_RUN)
    rc = translate(&opt, a);
  else
    rc = rc == OPT_EXIT_OK ? 0 : 2;
  diag_reset();
  arena_free(a);
  return rc;
}
#endif
