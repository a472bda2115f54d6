/* OK: loops in functions on handles whose loom_decl_* loomc does not see:
 * struct members through a pointer (facts in the header), a parameter with
 * its facts, an extern handle.  w, m->x and weight may be one dat (one
 * shape): with MPI the exchange of m->x begins before the loop reading w,
 * but that of weight only after the loop writing m->x. */
#include <stdio.h>

#include "ok_modular.h"

static void scale(const double *w, double *q) {
  q[0] *= w[0];
  q[1] *= w[0];
}
static void gather(const double *x0, const double *x1, double *q) { q[0] += x0[0] + x1[0]; }
static void twice(double *x) { x[0] *= 2; }

void step(mesh *m, loom_set cells, loom_dat w LOOM_DAT_FACTS(cells, 1, double)) {
#pragma loom par_loop(scale) over(cells) args(read: w, rw: m->q)
#pragma loom par_loop(gather) over(m->cells) args(read: m->x[m->pcell[0]], m->x[m->pcell[1]], rw: m->q)
}

void relax(mesh *m) {
#pragma loom par_loop(twice) over(m->nodes) args(rw: m->x)
#pragma loom par_loop(gather) over(m->cells) args(read: weight[m->pcell[0]], weight[m->pcell[1]], rw: m->q)
}
