/*
 * expand.h — the program written out where that lets its loops fuse:
 * small loops of a constant trip count unrolled and calls of functions
 * that run loops seen through (transform/inline.h), in a new text of the
 * main file that loomc translates again (main.c), up to EXPAND_ROUNDS
 * times (a call seen through may bring a loop to unroll, or another
 * call, into the block).
 *
 * Takes the first translation's loops (analysis/loops.h); gives, when
 * there is anything to expand, the expanded text and the user's line of
 * each of its lines — the #line directives it holds say the same to the C
 * compiler and to libclang, so diagnostics, debuggers and the generated
 * code's own #line directives point at the user's file.
 *
 * Unrolled (fully): a for in canonical form with a constant trip count of
 * at most UNROLL_MAX whose initialisation declares its variable
 * (`for (int k = 0; k < 2; k++)`), whose body has no barrier, declares
 * nothing and does not use the variable, and that stands in the body of
 * another loop: its loops then stand in that loop's body, where they may
 * fuse with its loops and rotate with it (Airfoil's k loop in its time
 * loop: update of the second stage then fuses with the next step's
 * save_soln and adt_calc).  A loop holding such a loop is not unrolled
 * itself.  The iterations' bodies are written out one after the other, in
 * place of the loop, without their braces:
 *
 *     /+ loomc: the for of line 81 unrolled: 2 iterations +/
 *     /+ k = 0 +/ BODY
 *     /+ k = 1 +/ BODY
 *
 * If the translation of the expanded text fails (it never should), the
 * first translation's output stands.
 */
#ifndef LOOMC_EXPAND_H
#define LOOMC_EXPAND_H

#include "analysis/loops.h"
#include "frontend/frontend.h"

enum { UNROLL_MAX = 4, EXPAND_ROUNDS = 4 };

/* The budget of a loop unrolled (transformations.md §6): a loop whose
 * body runs more par_loops than UNROLL_LOOPS is not (a note names the
 * budget: --report); inline.h and version.h have theirs. */
enum { UNROLL_LOOPS = 16 };

/* What to expand.  Bodies are written twice (transform/version.h) in a
 * round that expands something else only where its edits cannot change
 * the answer (version.h's version_round); the others, in a round of
 * their own, on the analysis of the text with those edits. */
enum { EXPAND_UNROLL = 1, EXPAND_INLINE = 2, EXPAND_VERSION = 4 };

/* A note for the --report of the translation of the expanded text. */
typedef struct expand_note {
  unsigned line;    /* the loop statement's or the call's (the user's) line */
  int done;         /* it was unrolled or seen through (else the note says
                       why not) */
  int call;         /* a call (else a loop) */
  const char *text;
} expand_note;

typedef LIST(expand_note *) expand_note_list;

typedef struct expansion {
  const char *text;    /* the expanded main file, or NULL: nothing unrolled */
  size_t len;
  unsigned *lines;     /* the user's line of each of its lines */
  int nlines;
  expand_note_list notes;
  const void *pieces;  /* what it writes (expand.c's), for expand_versions */
} expansion;

/* A loop to unroll, as the writer needs it: from the analysis
 * (expand()) or from the syntax alone (transform/prescan.h). */
typedef struct unroll_site {
  unsigned start, end;  /* the statement's text */
  unsigned open, close; /* its body's `{` and `}` */
  const char *what;     /* its keyword */
  unsigned line;        /* the keyword's (the user's) line */
  const char *var;      /* the variable */
  long trip, first, step;
} unroll_site;

typedef LIST(unroll_site *) unroll_site_list;

/* Whether the identifier var stands in the text [s, end) (not as a
 * member, after `.` or `->`): a body that names its loop's variable is
 * not unrolled. */
int expand_names(const char *s, const char *end, const char *var);

/* The expansion of prog (fe: its translation unit; loops: its
 * loop_info*; dags: its dag*, or NULL; what: EXPAND_*): its text is NULL when
 * nothing is expanded; its notes say why a loop of a constant trip count
 * in another loop's body is not unrolled, and why a call of a function
 * that runs loops is not seen through. */
expansion *expand(const frontend *fe, const program *prog, const loop_info_list *loops,
                  const dag_list *dags,
                  int what, arena *a);

/* x, an expansion of prog that writes no body twice (expand() without
 * EXPAND_VERSION), with the bodies written twice that its edits leave
 * alone (version.h's version_round; dags: prog's, with fusion's
 * refusals), decided without deciding x again. */
expansion *expand_versions(const frontend *fe, const program *prog, const dag_list *dags,
                           const expansion *x, arena *a);

/* The expansion of prog that unrolls sites (unroll_site*, in text order,
 * none inside another) and does nothing else, with the notes expand()
 * gives for them. */
expansion *expand_unrolled(const program *prog, const unroll_site_list *sites, arena *a);

/* Adds notes (expand_note*, from index `from`) to the DAGs (dag*) of the
 * translation's regions: a loop not unrolled, to its body's; the others
 * (those done only when `expanded`: the translation is of an expanded
 * text), to the innermost region holding their line.  A note the same as
 * one before it in notes is left out. */
void expand_notes(const expand_note_list *notes, int from, dag_list *dags, int expanded,
                  arena *a);

#endif
