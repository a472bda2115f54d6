/* Error: a map slot out of range, the map a struct member: the message names
 * it as written (m->e2n). */
#include <loom.h>
struct mesh {
  loom_set nodes, edges;
  loom_map e2n LOOM_MAP_FACTS(edges, nodes, 2);
  loom_dat x LOOM_DAT_FACTS(nodes, 1, double);
  loom_dat w LOOM_DAT_FACTS(edges, 1, double);
};
static void k(const double *a, double *b) { *b = *a; }
void step(struct mesh *m) {
#pragma loom par_loop(k) over(m->edges) args(read: m->x[m->e2n[2]], write: m->w)
}
