/*
 * affine.h — affine loops, `par_loop(K) domain("<isl set>") args(...)`,
 * as the frontend resolves them.
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
 * The stages that handle them (see dsl-spec/affine.md for the language
 * side):
 *   frontend/affine.h    resolve: domain read by isl, parameters and
 *                        arrays bound to C declarations, access relations
 *                        built (this file)
 *   analysis/affine_isl.h  domains, accesses, footprints, dependences
 *   transform/affine_plan.h  temporaries (an array written by one affine
 *                        loop, the producer, and read by later ones of the
 *                        same block, the consumers), the hints on them and
 *                        loomc's own choice where there is none; --report
 *   emit/affine_emit.h   the loop nests, from an isl schedule through
 *                        isl's AST generator
 */
#ifndef LOOMC_AFFINE_H
#define LOOMC_AFFINE_H

#include <isl/ctx.h>

#include "frontend/symtab.h"

typedef struct affine_arg {
  loop_arg *arg;
  sym *array;         /* the C declaration of the array */
  const char *access; /* isl map: "[n] -> { matvec_1[i, j] -> A[i, j] }" */
  const char *elem;   /* C spelling of the element type */
} affine_arg;

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
  /* Filled in by the plan of temporaries (transform/affine_plan.h): */
  struct affine_temp *moved; /* a producer computed in its consumer (pin, pin_cse) */
  LIST(struct affine_temp *) uses;  /* temporaries this loop evaluates */
  LIST(struct affine_temp *) temps; /* temporaries it produces (--report) */
} affine_loop;

/* Resolves an affine loop (lp->domain set): returns 0, or -1 after a
 * diagnostic. */
int affine_resolve_loop(const frontend *fe, const symtab *st, loop *lp, arena *a);

/* `A[i][j + 1]`, as the directive writes it. */
const char *affine_arg_text(arena *a, const loop_arg *arg);

/* A context for isl: errors are reported through isl's return values,
 * never printed or fatal. */
isl_ctx *affine_ctx_new(void);

/* An isl string (malloc'd, taken) copied into the arena and freed. */
const char *affine_keep_str(arena *a, char *s);
/* "i, j": names joined by commas. */
const char *affine_join_names(arena *a, const char **list, int n);

#endif
