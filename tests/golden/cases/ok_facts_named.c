/* Facts that name what a user writes there: a dim or arity given by a
 * macro (naming a macro, in parentheses) or an enum constant, and the set
 * of a parameter as a member chain from an earlier parameter (m->edges).
 * The call of norm is seen through: its parameters, bound to &m and
 * fs[0] (no variables of main), are declared anew, and the facts of f's
 * copy name m's copy. */
#include <loom.h>

#define NQ 4
#define NQ2 (NQ)
enum { ONE = 1, ARITY = 2 };

typedef struct mesh {
  loom_set nodes, edges;
  loom_map e2n LOOM_MAP_FACTS(edges, nodes, ARITY);
  loom_dat q LOOM_DAT_FACTS(nodes, NQ2, double);
} mesh;

static inline void sum(const double *q, double *s) { *s += q[0] + q[3]; }
static inline void flux(const double *a, const double *b, double *f) { f[0] = a[0] - b[0]; }

double norm(mesh *m, loom_dat f LOOM_DAT_FACTS(m->edges, ONE, double)) {
  double s = 0.0;
#pragma loom par_loop(sum) over(m->nodes) args(read: m->q, inc: s)
#pragma loom par_loop(flux) over(m->edges) args(read: m->q[m->e2n[0]], read: m->q[m->e2n[1]], write: f)
  return s;
}

int main(int argc, char **argv) {
  static double data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  static int e2n[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  mesh m;
  m.nodes = loom_decl_set(4, "nodes");
  m.edges = loom_decl_set(3, "edges");
  m.e2n = loom_decl_map(m.edges, m.nodes, 2, e2n, "e2n");
  m.q = loom_decl_dat(m.nodes, 4, double, data, "q");
  loom_dat f = loom_decl_dat(m.edges, 1, double, data, "f");
  loom_dat fs[1] = {f};
  double s = norm(&m, fs[0]);
  loom_exit();
  return s > 0.0 ? 0 : 1;
}
