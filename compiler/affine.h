/*
 * affine.h — affine loops: `par_loop(K) domain("<isl set>") args(...)`,
 * their temporaries, and the pin / pin_cse hints on them.
 *
 * An affine loop iterates over the integer points of an isl set whose
 * parameters are C integer variables in scope and whose set dimensions
 * are the iteration variables; its arguments are elements of C arrays
 * subscripted by affine expressions of those (`A[i][j]`, `x[j + 1]`).
 * Everything loomc knows about one is kept as isl text in `affine_loop`
 * (the domain, one access relation per argument); each analysis reads the
 * text into a fresh isl context of its own and frees everything before it
 * returns, so no isl object outlives a function.
 *
 * Stages (see dsl-spec/affine.md for the language side):
 *   affine_resolve_loop  resolve: domain read by isl, parameters and arrays
 *                        bound to C declarations, access relations built
 *   affine_plan          after regions: temporaries (an array written by one
 *                        affine loop, the producer, and read by later ones
 *                        of the same block, the consumers), the hints on
 *                        them and loomc's own choice where there is none
 *   affine_write_report  --report: the choice for each temporary and why
 *   affine_emit          codegen (affine_emit.c): the loop nests, from an
 *                        isl schedule through isl's AST generator
 */
#ifndef LOOMC_AFFINE_H
#define LOOMC_AFFINE_H

#include <stdio.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "codegen.h"
#include "symtab.h"

typedef enum temp_choice {
  TEMP_STORE,  /* the producer runs as written; consumers read memory */
  TEMP_PIN,    /* evaluated inside each consumer, per use, into a local */
  TEMP_PIN_CSE /* computed once per needed element, in its own loop nest */
} temp_choice;

typedef struct affine_arg {
  loop_arg *arg;
  sym *array;         /* the C declaration of the array */
  const char *access; /* isl map: "[n] -> { matvec_1[i, j] -> A[i, j] }" */
  const char *elem;   /* C spelling of the element type */
} affine_arg;

typedef struct affine_temp affine_temp;

typedef struct affine_loop {
  const char *stmt;   /* the isl tuple name of its statement, KERNEL_ID */
  const char *domain; /* isl set, tuple named stmt */
  const char **dims;  /* iteration variables */
  int ndims;
  const char **params; /* domain parameters */
  int nparams;
  affine_arg *args; /* one per loop argument */
  unsigned block_start, block_end; /* the compound statement it stands in */
  unsigned repeat_line;    /* the innermost for, while or do around it in its
                              function (0: none): its line ... */
  const char *repeat_what; /* ... and keyword */
  unsigned repeat_start, repeat_end; /* ... and extent */
  affine_temp *moved;  /* a producer computed in its consumer (pin, pin_cse) */
  vec uses;            /* affine_temp*: temporaries this loop evaluates */
  vec temps;           /* affine_temp*: temporaries it produces (--report) */
} affine_loop;

struct affine_temp {
  const char *name;
  sym *array;
  loop *producer;
  int prod_arg;   /* index of the producer's argument that writes it */
  vec consumers;  /* loop*, in file order */
  temp_choice choice;
  const hint *hint; /* NULL when loomc chose */
  srcloc hint_loc;
  const char *why;  /* the reason for the choice */
  const char *dup;  /* pin_cse: the duplicated domain (isl text) */
};

/* ---- stages ------------------------------------------------------------------ */

/* Resolves an affine loop (lp->domain set): returns 0, or -1 after a
 * diagnostic. */
int affine_resolve_loop(const frontend *fe, const symtab *st, loop *lp, arena *a);

/* Temporaries of affine loops and the hints on them (after check); what
 * may stand in the way of moving a producer comes from the effects of the
 * regions' items (effects.h). */
void affine_plan(const frontend *fe, const symtab *st, program *prog, const vec *regions,
                 arena *a);

/* --report: affine loops and the choice for each temporary. */
void affine_write_report(FILE *f, const program *prog);

/* The code that replaces an affine loop's directive (affine_emit.c). */
void affine_emit(cg *g, const loop *lp);

/* `A[i][j + 1]`, as the directive writes it. */
const char *affine_arg_text(arena *a, const loop_arg *arg);

/* ---- isl views (each result belongs to the caller) ------------------------------ */

/* The loop's domain. */
__isl_give isl_set *affine_domain(isl_ctx *ctx, const loop *lp);
/* The access relation of argument i, restricted to the domain. */
__isl_give isl_map *affine_access(isl_ctx *ctx, const loop *lp, int i);
/* The elements of `array` that the loop reads (its footprint), or NULL
 * when it reads none. */
__isl_give isl_set *affine_footprint(isl_ctx *ctx, const loop *lp, const sym *array);
/* The dependences between iterations of the loop (flow, anti and output,
 * as pairs of iterations that touch one element and at least one writes). */
__isl_give isl_map *affine_dependences(isl_ctx *ctx, const loop *lp);
/* Whether no dependence crosses iterations of the outermost variable:
 * 1, 0, or -1 on an isl error. */
int affine_outer_parallel(isl_ctx *ctx, __isl_keep isl_set *domain,
                          __isl_keep isl_map *deps);
/* pin_cse: the producer's iterations that write the elements the
 * consumers read — its domain, restricted to the preimage of their
 * footprints. */
__isl_give isl_set *affine_dup_domain(isl_ctx *ctx, const affine_temp *t);

/* A context for the functions above: errors are reported through isl's
 * return values, never printed or fatal. */
isl_ctx *affine_ctx_new(void);

#endif
