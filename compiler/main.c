/*
 * main.c — loomc: annotated C in, plain C out.
 *
 * loomc_pipeline(), analyse() and transform() below are the pipeline, one
 * stage per call, data flowing one way; each stage's header says what it
 * takes and what it gives.  The frontend's stages and analyse() run on the
 * input, or, when its syntax alone shows the loops to unroll
 * (transform/prescan.h), on the input with them written out;
 * expand_rounds() writes the program anew where that lets loops
 * fuse (unrolled, calls seen through) and parses and analyses the new text
 * again, in the same libclang unit; transform() decides on the last text
 * (and on the one before when a body is written twice: that reads fusion's
 * refusals); the output is emitted once.  The folders are layers, each using
 * only those below it (README.md):
 *
 *   util/       arena, strbuf, a string table, diagnostics, the command line,
 *               the target
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

#include <stdio.h>
#include <stdlib.h>
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
#include "frontend/syntax.h"
#include "transform/affine_plan.h"
#include "transform/expand.h"
#include "transform/fuse.h"
#include "transform/hoist.h"
#include "transform/pin.h"
#include "transform/place.h"
#include "transform/prescan.h"
#include "transform/rotate.h"
#include "transform/schedule.h"
#include "transform/narrow.h"
#include "transform/transformed.h"
#include "transform/translation.h"
#include "transform/vectorize.h"

/* --report: every region's DAG, the affine loops, the constants and the
 * dats that may be one; --emit-dag: the DAGs in Graphviz. */
static void write_dumps(const options *opt, const program *prog, const dag_list *dags) {
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

/* The regions, their DAGs and their loops, into t (transform/translation.h:
 * what the expansions and the transformations read); notes: the
 * expansions' (they go to the DAGs), or NULL. */
static void analyse(const frontend *fe, const symtab *st, const expand_note_list *notes,
                    translation *t, arena *a) {
  const options *opt = t->opt;
  program *prog = &t->prog;
  t->regions = regions_build(fe, st, prog, a);
  affine_plan(fe, st, prog, &t->regions, a);
  t->pins = pin(prog, &t->regions, opt->target, a);
  t->dags = dag_build(&t->regions, opt->target, &t->pins, a);
  if (notes)
    expand_notes(notes, 0, &t->dags, 1, a);
  t->loops = loops_analyse(fe, st, prog, &t->regions, &t->dags, opt->target, &t->pins, a);
  t->hoists = opt->no_hoist ? (hoist_list){0} : hoist_exchanges(&t->loops, a);
  schedule(&t->dags, a);
}

/* The transformations of the analysed translation t, each returning its
 * record, and the communication placed. */
static transformed transform(const translation *t, arena *a) {
  const fusion *fu = fuse(t, a);
  narrowing_list narrowed = narrow(t, fu, a);
  const staging *staged = vectorize(t, fu, &narrowed, a);
  const rotations *rots = rotate(t, fu, a);
  insertion_list insertions = place_comms(t, fu, rots, a);
  return (transformed){fu, narrowed, staged, rots, insertions};
}

/* The frontend's stages after the parse of t->prog, then analyse(); the
 * number of errors. */
static int analyse_parsed(const expand_note_list *notes, const frontend *fe, translation *t,
                          arena *a) {
  program *prog = &t->prog;
  symtab st = {0};
  pragma_lex(fe, prog, a);
  pragma_parse(prog, a);
  symtab_build(fe, &st, a);
  st.loops = &prog->loops;
  resolve(fe, &st, prog, a);
  check_kernels(fe, &st, prog, a);
  consts_check(fe, prog, a);
  alias_analyse(fe, &st, prog, a);
  if (diag_error_count() == 0)
    analyse(fe, &st, notes, t, a);
  return diag_error_count();
}

/* The translation of the expansion x of opt's input (x NULL: the input
 * itself, again), parsed in fe's unit, quietly (the first translation
 * gave the diagnostics), with notes (expand_note*): 1 and *t when it
 * succeeded, else 0 (nothing said, the error count as it was). */
static int translate_expanded(const options *opt, const expansion *x, const expand_note_list *notes,
                              frontend *fe, translation *t, arena *a) {
  options o = *opt;
  if (x) {
    o.input_text = x->text;
    o.input_len = x->len;
    o.input_lines = x->lines;
    o.ninput_lines = x->nlines;
  }
  translation t2 = {.opt = opt};
  int errors = diag_error_count(), was = diag_quiet(1);
  int ok = frontend_reparse(&o, fe, &t2.prog, a) == 0 &&
           analyse_parsed(notes, fe, &t2, a) == errors;
  diag_quiet(was);
  if (ok)
    *t = t2;
  else
    diag_restore_errors(errors);
  return ok;
}

static int expand_what(const options *opt) {
  if (opt->no_fuse)
    return 0;
  return (opt->no_unroll ? 0 : EXPAND_UNROLL) | (opt->no_inline ? 0 : EXPAND_INLINE) |
         (opt->no_version ? 0 : EXPAND_VERSION);
}

static void add_notes(arena *a, expand_note_list *notes, const expansion *x) {
  for (int i = 0; i < x->notes.len; i++)
    vec_push(a, notes, x->notes.items[i]);
}

/* What to expand in the analysed translation t, round `round`: the loops
 * to unroll and the calls to see through (on the analysis; known: those,
 * when already found, else NULL) with the bodies to write twice that
 * they leave alone (those read fusion's refusals: t is fused first),
 * else, when nothing of those, the bodies to write twice (t transformed
 * first, into *tr).  t is transformed when the expansion is empty (or
 * NULL: nothing left to try). */
static const expansion *expand_round(const frontend *fe, const translation *t, transformed *tr,
                                     int round, const expansion *known, expand_note_list *notes,
                                     arena *a) {
  int what = round < EXPAND_ROUNDS ? expand_what(t->opt) : 0;
  const expansion *x = NULL;
  if (what & (EXPAND_UNROLL | EXPAND_INLINE)) {
    x = known ? known : expand(fe, &t->prog, &t->loops, NULL, what & ~EXPAND_VERSION, a);
    if (x->text && (what & EXPAND_VERSION)) { /* with the bodies it leaves alone: */
      fuse(t, a); /* its refusals, in t's DAGs */
      x = expand_versions(fe, &t->prog, &t->dags, x, a);
    }
    add_notes(a, notes, x);
    if (x->text)
      return x;
  }
  *tr = transform(t, a);
  if (what & EXPAND_VERSION) {
    x = expand(fe, &t->prog, &t->loops, &t->dags, EXPAND_VERSION, a);
    add_notes(a, notes, x);
  }
  return x;
}

/* Expands the analysed translation t (loops unrolled, calls seen through,
 * bodies written twice) and translates the expansion again while there is
 * something to expand, up to EXPAND_ROUNDS times; *t becomes the last
 * that translated, *tr its transformations.  The notes of every round go
 * to its DAGs.  first: the expansion t is the translation of, when that
 * is the first round's (translate_prescanned; then next: the unrolling and
 * seeing through of the second round, found), else NULL (t is the
 * input's). */
static void expand_rounds(frontend *fe, translation *t, transformed *tr, const expansion *first,
                          const expansion *next, arena *a) {
  const options *opt = t->opt;
  expand_note_list notes = {0};
  const expansion *at = first; /* the text of *t: NULL, the input's */
  if (first)
    add_notes(a, &notes, first);
  int applied = notes.len; /* the notes the DAGs of *t have */
  for (int round = first ? 1 : 0;; round++) {
    const expansion *x = expand_round(fe, t, tr, round, first && round == 1 ? next : NULL,
                                      &notes, a);
    if (!x || !x->text)
      break;
    if (!translate_expanded(opt, x, &notes, fe, t, a)) {
      /* never expected: the text before it stands, parsed again */
      expand_note_list before = {0};
      for (int i = 0; i < applied; i++)
        vec_push(a, &before, notes.items[i]);
      translate_expanded(opt, at, at ? &before : NULL, fe, t, a);
      *tr = transform(t, a);
      break;
    }
    at = x;
    applied = notes.len;
  }
  expand_notes(&notes, applied, &t->dags, 0, a); /* a round not applied */
}

/* Whether the input's text may hold a loop the syntax unrolls
 * (prescan_worth; a text that cannot be read here: yes, the parse says). */
static int input_worth(const options *opt) { return options_input_test(opt, prescan_worth, 1); }

/* The input's first round of expansion decided on its syntax alone
 * (transform/prescan.h), or NULL: the loops unrolled, written into the
 * input's text; *source: a copy of that text, for the diagnostics. */
static const expansion *prescanned(const options *opt, const char **source, size_t *len,
                                   arena *a) {
  syntax sx;
  if (opt->no_prescan || !(expand_what(opt) & EXPAND_UNROLL) || !input_worth(opt) ||
      syntax_parse(opt, &sx, a) != 0)
    return NULL;
  unroll_site_list sites = prescan(&sx, a);
  const expansion *x = NULL;
  if (sites.len) {
    program input = {.file = opt->input, .text = sx.text, .len = sx.len};
    program_index_lines(&input, a);
    x = expand_unrolled(&input, &sites, a);
    *source = arena_strndup(a, sx.text, sx.len);
    *len = sx.len;
  }
  syntax_dispose(&sx);
  return x;
}

/* The first translation, of the first round's expansion decided on the
 * syntax (prescanned()), parsed into fe and analysed quietly: 1, *t,
 * *first and *next (its own round's seeing through) when it said nothing
 * and that round would unroll nothing and note no loop (the analysis of
 * the input would then have unrolled the same loops, and seen the same
 * calls through, in its first round; next is that round's rest);
 * otherwise 0, nothing said, and the input is still to parse (into fe's
 * unit when it has one). */
static int translate_prescanned(const options *opt, frontend *fe, translation *t,
                                const expansion **first, const expansion **next, arena *a) {
  const char *source = NULL;
  size_t len = 0;
  const expansion *x = prescanned(opt, &source, &len, a);
  if (!x)
    return 0;
  options o = *opt;
  o.input_text = x->text;
  o.input_len = x->len;
  o.input_lines = x->lines;
  o.ninput_lines = x->nlines;
  translation t2 = {.opt = opt};
  int errors = diag_error_count(), said = diag_count(), was = diag_quiet(1);
  int ok = frontend_parse(&o, fe, &t2.prog, a) == 0 &&
           analyse_parsed(&x->notes, fe, &t2, a) == errors;
  if (ok) {
    *next = expand(fe, &t2.prog, &t2.loops, NULL, expand_what(opt) & ~EXPAND_VERSION, a);
    for (int i = 0; i < (*next)->notes.len && ok; i++)
      ok = (*next)->notes.items[i]->call; /* no loop left that the analysis unrolls or not */
  }
  diag_quiet(was);
  if (!ok || diag_count() != said) {
    diag_restore_errors(errors);
    return 0;
  }
  diag_add_source(opt->input, source, len);
  fe->headers_said = 1; /* there was nothing to say */
  *t = t2;
  *first = x;
  return 1;
}

/* The input parsed, in fe's unit when it has one (a prescanned
 * translation's that did not stand). */
static int parse_input(const options *opt, frontend *fe, program *prog, arena *a) {
  return fe->index ? frontend_reparse(opt, fe, prog, a) : frontend_parse(opt, fe, prog, a);
}

/* The output C of the translation t, transformed (tr), into *out. */
static void emit_output(const translation *t, const transformed *tr, strbuf *out, arena *a) {
  const options *opt = t->opt;
  if (diag_error_count() != 0 || !opt->output)
    return;
  emit(&t->prog, tr, backend_for(opt->target),
       strcmp(opt->output, "-") == 0 ? "<stdout>" : opt->output, out, a);
}

/* Parse and analyse (the first round of unrolling already written out
 * when the syntax decides it); expand, parse and analyse again while
 * there is something to expand; transform the last; emit it once. */
int loomc_pipeline(const options *opt, frontend *fe, program *prog, strbuf *out, arena *a) {
  translation t = {.opt = opt};
  transformed tr = {0};
  const expansion *first = NULL, *next = NULL;
  memset(fe, 0, sizeof *fe);
  if (translate_prescanned(opt, fe, &t, &first, &next, a) ||
      (parse_input(opt, fe, &t.prog, a) == 0 && analyse_parsed(NULL, fe, &t, a) == 0)) {
    fe->headers_said = 1;
    *prog = t.prog;
    expand_rounds(fe, &t, &tr, first, next, a);
    emit_output(&t, &tr, out, a);
    write_dumps(opt, &t.prog, &t.dags);
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

/* Whether the process may end without the libraries' exit handlers:
 * libLLVM's static destructors take ~8 ms and only release memory the
 * process gives back anyway.  Not under a sanitizer, whose leak check
 * runs then. */
#if defined(__SANITIZE_ADDRESS__)
#define LOOMC_QUICK_EXIT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOMC_QUICK_EXIT 0
#endif
#endif
#ifndef LOOMC_QUICK_EXIT
#define LOOMC_QUICK_EXIT 1
#endif

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
  if (LOOMC_QUICK_EXIT && fflush(NULL) == 0)
    _Exit(rc);
  return rc;
}
#endif
