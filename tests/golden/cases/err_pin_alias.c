/* Error: a pinned producer reads d1; the consumer writes m->d0, which may be
 * d1 (a handle loomc cannot see declared, of the same dim and type: one
 * alias class), so the pin cannot be proved sound. */
#include <loom.h>

typedef struct mesh {
  loom_set cells;
  loom_dat d0 LOOM_DAT_FACTS(cells, 1, double);
} mesh;

static void produce(const double *a, double *t) { t[0] = a[0] + 1; }
static void consume(const double *t, double *b) { b[0] = t[0]; }

void step(mesh *m, loom_set cells, loom_dat d1 LOOM_DAT_FACTS(cells, 1, double)) {
  loom_dat t = loom_decl_temp(cells, 1, double, "t");
#pragma loom pin(t)
#pragma loom par_loop(produce) over(cells) args(read: d1, write: t)
#pragma loom par_loop(consume) over(cells) args(read: t, write: m->d0)
#pragma loom par_loop(consume) over(cells) args(read: t, write: d1)
}
