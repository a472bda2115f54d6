/*
 * prescan.h — the loops to unroll, decided on the main file's syntax
 * before the full parse (frontend/syntax.h): the full parse then reads
 * the expanded text once, instead of the input and then its expansion
 * (main.c).
 *
 * A loop is chosen here only where the analysis would choose it
 * (expand.h's conditions, read off the syntax alone); where the syntax
 * cannot tell, nothing at all is chosen, and the analysis of the input
 * decides as it always has.  Every loop statement that holds a par_loop
 * directive and stands in the body of another loop (an item of that body:
 * its region's, analysis/region.h) must be
 *
 *     for (TYPE v = A; v OP B; STEP) { BODY }
 *
 * with A and B integer literals, OP one of < <= > >=, STEP `v++`, `++v`,
 * `v--`, `--v`, `v += C` or `v -= C` (analysis/loops.c's canonical form),
 * 1 to UNROLL_MAX iterations, and a BODY that holds 1 to UNROLL_LOOPS
 * par_loop directives and no other directive, no declaration, no call, no
 * jump or label, no switch, no loop statement, and does not name v (so
 * no barrier, expand.c).  The function holding it has no conditional
 * directive and stands in no conditional block (the single-file parse
 * does not evaluate them as the full parse does), and the parse has no
 * diagnostic inside the loop (a name it could not resolve may be
 * misread).
 *
 * What this cannot see (a loop the analysis would unroll though the
 * syntax did not show it, a call to see through) is still in the expanded
 * text: main.c checks the first round on the analysis of that text.  It
 * translates the input as it stands when that round would unroll a loop
 * or note one it does not (the analysis of the input would have decided
 * those with the syntax's); calls to see through are that round's rest,
 * the same the analysis of the input would have seen through with the
 * loops.
 */
#ifndef LOOMC_PRESCAN_H
#define LOOMC_PRESCAN_H

#include "frontend/syntax.h"
#include "transform/expand.h"

/* The loops to unroll in sx's main file (unroll_site*, in text order), or
 * none when the syntax cannot tell. */
unroll_site_list prescan(const syntax *sx, arena *a);

/* Whether the text [s, s + n) may hold a loop prescan chooses: a `for`
 * whose condition reads `NAME OP NUMBER` (every chosen loop's does), or
 * one this look cannot read (a comment or a splice in it).  A look at
 * the text alone, so that a file without one costs no parse. */
int prescan_worth(const char *s, size_t n);

#endif
