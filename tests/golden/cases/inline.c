/* Calls seen through: step's loops stand in main's time loop, where both its scales fuse with main's save; called twice in one block, `stage` declares its parameter `a` anew each time (its body changes it: d, the argument, escapes) and its local `sum` as sum_N; `peek` returns before its end, and `norm` is called inside an expression: both stay calls.  `step` is static: once its calls are written out, it is marked unused. */
#include <loom.h>

typedef struct mesh {
  loom_set nodes;
  loom_dat c LOOM_DAT_FACTS(nodes, 1, double);
} mesh;

static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }
static inline void save(const double *a, double *o) { o[0] = a[0]; }
static inline void add(const double *a, double *s) { *s += a[0]; }

static void step(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
                 loom_dat b LOOM_DAT_FACTS(nodes, 1, double)) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
#pragma loom par_loop(scale) over(nodes) args(read: b, write: a)
}

double stage(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
             loom_dat b LOOM_DAT_FACTS(nodes, 1, double), int twice) {
  double sum = 0.0;
  if (twice)
    a = b;
#pragma loom par_loop(add) over(nodes) args(read: a, inc: sum)
  return sum;
}

double peek(mesh *m) {
  double sum = 0.0;
  if (!m)
    return 0.0;
#pragma loom par_loop(add) over(m->nodes) args(read: m->c, inc: sum)
  return sum;
}

double norm(mesh *m) {
  double sum = 0.0;
#pragma loom par_loop(add) over(m->nodes) args(read: m->c, inc: sum)
  return sum;
}

int main(int argc, char **argv) {
  static double data[6] = {1, 2, 3, 4, 5, 6};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_dat a = loom_decl_dat(nodes, 1, double, data, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, data, "b");
  loom_dat old = loom_decl_dat(nodes, 1, double, data, "old");
  loom_dat d = loom_decl_dat(nodes, 1, double, data, "d");
  loom_dat e = loom_decl_dat(nodes, 1, double, data, "e");
  mesh m = {nodes, loom_decl_dat(nodes, 1, double, data, "c")};
  int niter = argc * 10;
  for (int iter = 1; iter <= niter; iter++) {
#pragma loom par_loop(save) over(nodes) args(read: a, write: old)
    step(nodes, a, b);
  }
  stage(nodes, d, e, 0);
  double s = stage(nodes, d, e, 1);
  double p = peek(&m);
  s += p;
  s += 2.0 * norm(&m);
  loom_exit();
  return s > 0.0 ? 0 : 1;
}
