/* Errors: handles loomc cannot see declared, without facts or with wrong
 * ones (a dim that is no integer: an unknown name, a macro that is an
 * expression; a member chain that reaches no set), and member chains that
 * do not reach a handle. */
#include <loom.h>

#define TWICE(n) (2 * (n))
#define SUM 1 + 1

typedef struct mesh {
  loom_set cells;
  loom_dat plain;                                  /* no facts */
  loom_dat bad_set LOOM_DAT_FACTS(nowhere, 1, double);
  loom_dat bad_dim LOOM_DAT_FACTS(cells, N, double);
  loom_dat bad_type LOOM_DAT_FACTS(cells, 1, complex);
  loom_dat wrong_kind LOOM_MAP_FACTS(cells, cells, 1);
  loom_dat sum_dim LOOM_DAT_FACTS(cells, SUM, double);
  loom_dat call_dim LOOM_DAT_FACTS(cells, TWICE, double);
  double rms;
} mesh;

static void k(double *v) { v[0] = 1; }

void f(mesh *m, mesh s, loom_set cells, loom_dat p) {
#pragma loom par_loop(k) over(cells) args(write: p)
#pragma loom par_loop(k) over(m->cells) args(write: m->plain)
#pragma loom par_loop(k) over(m->cells) args(write: m->bad_set)
#pragma loom par_loop(k) over(m->cells) args(write: m->bad_dim)
#pragma loom par_loop(k) over(m->cells) args(write: m->bad_type)
#pragma loom par_loop(k) over(m->cells) args(write: m->wrong_kind)
#pragma loom par_loop(k) over(m->cells) args(write: m->nothing)
#pragma loom par_loop(k) over(s->cells) args(write: m->plain)
#pragma loom par_loop(k) over(m.cells) args(write: m->plain)
#pragma loom par_loop(k) over(m->cells) args(inc: m->rms)
#pragma loom par_loop(k) over(m->) args(inc: m->rms)
#pragma loom par_loop(k) over(m->cells) args(write: m->sum_dim)
#pragma loom par_loop(k) over(m->cells) args(write: m->call_dim)
}

void g(mesh *m, loom_dat q LOOM_DAT_FACTS(m->nowhere, 1, double)) {
#pragma loom par_loop(k) over(m->cells) args(write: q)
}
