/*
 * main.c — loomc: annotated C in, plain C out.
 *
 * The pipeline, one stage per file, data flowing one way:
 *
 *   options      command line                    options.c
 *   frontend     libclang parses the file         frontend.c
 *   pragma_lex   '#pragma loom' directives found  pragma_lex.c
 *   pragma_parse clauses parsed into loops        pragma_parse.c
 *   symtab       declarations and their scopes    symtab.c (AST helpers: cursor.c)
 *   resolve      loop names bound to objects      resolve.c
 *   alias        handles that may be one dat      alias.c
 *   check        kernels checked against loops    check.c
 *   region       regions and their computations   region.c (C effects: cwalk.c,
 *                                                 summary.c)
 *   affine       affine loops: temporaries, pin   affine.c (code: affine_emit.c)
 *   fuse         pins, the DAGs, fusion groups,   fuse.c (effects: effects.c;
 *                temporaries                      DAG: dag.c; isl: domains.c)
 *   vectorize    strips and gathers               vectorize.c
 *   place        mpi: sends/folds into the text   place.c
 *   codegen      output C (shared walk + target)  codegen.c, target_*.c
 *   output       written atomically               output.c
 *   depfile      with -MD: the files read, for make depfile.c
 *
 * Any error stops the pipeline before the output is written, and removes an
 * output left by an earlier run: a failed translation leaves no file.
 */
#include <string.h>

#include "affine.h"
#include "alias.h"
#include "check.h"
#include "codegen.h"
#include "consts.h"
#include "dag.h"
#include "depfile.h"
#include "fuse.h"
#include "frontend.h"
#include "output.h"
#include "place.h"
#include "pragma_lex.h"
#include "pragma_parse.h"
#include "resolve.h"
#include "symtab.h"
#include "vectorize.h"

/* Regions, their DAGs, the fusion groups and the placement of the
 * schedules' communication; --emit-dag and --report. */
static fusion *analyse(const frontend *fe, const symtab *st, program *prog,
                       const options *opt, vec *insertions, arena *a) {
  vec regions = regions_build(fe, st, prog, a);
  affine_plan(fe, st, prog, &regions, a);
  vec dags;
  fusion *fu = fuse(prog, &regions, opt->target, opt->no_fuse, &dags, a);
  vectorize(fu, &regions, &dags, opt->no_vectorize, a);
  *insertions = place_comms(&dags, fu, a);
  if (opt->report && diag_error_count() == 0)
    dag_write_report(stdout, &dags);
  if (opt->report && diag_error_count() == 0)
    affine_write_report(stdout, prog);
  if (opt->report && diag_error_count() == 0)
    consts_write_report(stdout, prog);
  if (opt->report && diag_error_count() == 0)
    alias_write_report(stdout, prog);
  if (!opt->emit_dag || diag_error_count() != 0)
    return fu;
  FILE *f = strcmp(opt->emit_dag, "-") == 0 ? stdout : fopen(opt->emit_dag, "w");
  if (!f) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot write '%s'", opt->emit_dag);
    return fu;
  }
  dag_write_dot(f, &dags);
  if (f != stdout && fclose(f) != 0)
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot write '%s'", opt->emit_dag);
  return fu;
}

static int translate(const options *opt, arena *a) {
  frontend fe;
  program prog = {0};
  symtab st = {0};
  strbuf out;
  sb_init(&out);
  if (frontend_parse(opt, &fe, &prog, a) == 0) {
    pragma_lex(&fe, &prog, a);
    pragma_parse(&prog, a);
    symtab_build(&fe, &st, a);
    st.loops = &prog.loops;
    resolve(&fe, &st, &prog, a);
    check_kernels(&fe, &st, &prog, a);
    consts_check(&fe, &prog, a);
    alias_analyse(&fe, &st, &prog, a);
  }
  vec insertions = {0};
  fusion *fu = diag_error_count() == 0 ? analyse(&fe, &st, &prog, opt, &insertions, a) : NULL;
  if (diag_error_count() == 0 && opt->output)
    codegen(&prog, fu, &insertions, backend_for(opt->target),
            strcmp(opt->output, "-") == 0 ? "<stdout>" : opt->output, &out, a);
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
