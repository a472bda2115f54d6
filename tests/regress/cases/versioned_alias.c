/* A function whose loops fuse only when its handles are distinct: loomc
 * writes its body twice, the first copy for distinct handles (tested at
 * each call), the second as written.  Called with three dats, then with
 * one dat as both a and b: the second call must run the body as written
 * (c reads a through a map after twice has doubled it), not the fused
 * copy, whose elements would read a before or after doubling depending on
 * their order.  The calls are in expressions: they stay calls. */
#include <loom.h>
#include <stdio.h>

typedef struct pair {
  loom_set nodes;
  loom_map next LOOM_MAP_FACTS(nodes, nodes, 1);
  loom_dat a LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat b LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat c LOOM_DAT_FACTS(nodes, 1, double);
} pair;

static inline void twice(const double *x, double *y) { y[0] = 2.0 * x[0]; }
static inline void plus1(const double *x, double *c) { c[0] = x[0] + 1.0; }
static inline void sum(const double *c, double *s) { *s += c[0]; }

int relax(pair *p, double *out) {
  double s = 0.0;
#pragma loom par_loop(twice) over(p->nodes) args(read: p->a, write: p->b)
#pragma loom par_loop(plus1) over(p->nodes) args(read: p->a[p->next[0]], write: p->c)
#pragma loom par_loop(sum) over(p->nodes) args(read: p->c, inc: s)
  *out = s;
  return 1;
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  double v[6] = {1, 2, 3, 4, 5, 6}, out[6];
  int next[6] = {1, 2, 3, 4, 5, 0};
  loom_set nodes = loom_decl_set(6, "nodes");
  pair p;
  p.nodes = nodes;
  p.next = loom_decl_map(nodes, nodes, 1, next, "next");
  p.a = loom_decl_dat(nodes, 1, double, v, "a");
  p.b = loom_decl_dat(nodes, 1, double, v, "b");
  p.c = loom_decl_dat(nodes, 1, double, v, "c");
  double s1 = 0, s2 = 0;
  int calls = 0;
  calls += relax(&p, &s1); /* three dats: a unchanged, c = a[next] + 1 */
  p.b = p.a;
  calls += relax(&p, &s2); /* a doubled first, then c = 2 a[next] + 1 */
  loom_dat_fetch(p.c, out, sizeof out);
  if (loom_rank() == 0)
    printf("%d calls: %g %g; c = %g %g %g %g %g %g\n", calls, s1, s2, out[0], out[1], out[2],
           out[3], out[4], out[5]);
  loom_exit();
  return 0;
}
