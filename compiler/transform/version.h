/*
 * version.h — a function body written twice, so that handles that may be
 * one dat (analysis/alias.h) cost nothing when they are not: the first
 * copy runs when a run-time test finds them distinct, with each handle
 * read once into a local marked LOOM__DISTINCT (no alias class: its loops
 * fuse and share exchanges as a single-file program's do); the second
 * runs otherwise, as written (transform/expand.h translates the new text
 * again):
 *
 *     RET f(mesh *m) {
 *     /+ loomc: the body of f written twice: ... +/
 *     if (loom__dats_distinct(3, m->p_q, m->p_qold, m->p_res)) { loom_dat m_p_q_1
 *         LOOM__DISTINCT(1) LOOM_DAT_FACTS(m->cells, 4, double) = m->p_q; ...
 *       BODY, m->p_q written m_p_q_1 ...
 *     } else {
 *       BODY
 *     } }
 *
 * Written so: a function body where fusion refused to join loops with
 * handles that may be one dat among them (dag.alias_refusals), whose
 * loops write a handle of an alias class of which it uses two or more
 * (loops or host code), each a
 * parameter or a member chain from one, when the body never changes
 * them: it assigns no parameter a chain starts from, nor a member chain,
 * nor any dat handle, takes none's address, passes no such parameter
 * itself to anything, and calls only the runtime and the C library (a
 * function of the program could change `m->p_q` through another pointer);
 * no static variable or label (the copies would not be one).
 */
#ifndef LOOMC_VERSION_H
#define LOOMC_VERSION_H

#include "analysis/dag.h"
#include "frontend/frontend.h"
#include "transform/writer.h"

/* The budget of a body written twice (transformations.md §8): one
 * running more par_loops than VERSION_LOOPS is not (a note names it). */
enum { VERSION_LOOPS = 32 };

typedef struct version_site version_site;
typedef LIST(version_site *) version_site_list;

/* A round of expansion that also writes other edits (unrolled loops,
 * calls seen through: transform/expand.h) decides, on the same analysis,
 * only the bodies whose answer those edits cannot change: none of them
 * lies in the body, and every dat the body names is opaque (a parameter
 * or a member chain from one), whose alias class no escape elsewhere
 * changes.  The others wait for the analysis of the round's text. */
typedef struct version_round {
  const char *text;      /* the round's text without the bodies written twice:
                            the first copy's locals take names not in it */
  const unsigned *edits; /* where the round's other edits start */
  int nedits;
} version_round;

/* The function bodies of the translation (dags: its dag*) that use
 * handles that may be one dat (version_site*), those that may be written
 * twice and those that may not (version_why); round: NULL, or the round
 * of other edits they are decided with (only the bodies it leaves alone). */
version_site_list version_sites(const frontend *fe, const program *prog, const dag_list *dags,
                                const version_round *round, arena *a);

/* Why v is not written twice, or NULL: it may be. */
const char *version_why(const version_site *v);
/* The text it replaces [*start, *end): the inside of the body's braces;
 * the line of its '{'; its function; the handles ("m->p_q, m->p_qold"). */
void version_range(const version_site *v, unsigned *start, unsigned *end);
unsigned version_line(const version_site *v);
const char *version_func(const version_site *v);
const char *version_handles(const version_site *v, arena *a);

/* Writes the two copies in place of the body's inside. */
void version_write(writer *w, const version_site *v);

#endif
