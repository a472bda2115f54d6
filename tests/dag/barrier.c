/* Barriers: a statement by which control may leave or enter the block
 * (break, continue, return, goto, a label) or that calls loom_exit() is a
 * computation that nothing moves across, whatever it names.  The
 * reduction of rms ends before the `continue` (line 33), the send of x's
 * halo for flux stays after the label (line 35) and the loops on either
 * side of the `break` (line 37) are not fused. */
#include <loom.h>

static void flux(const double *a, const double *b, double *rms) { *rms += a[0] * b[0]; }
static void bump(double *x) { x[0] += 1.0; }

int main(int argc, char **argv) {
  int e2n[8] = {0, 1, 1, 2, 2, 3, 3, 0};
  double zeros[4] = {0};
  double rms = 0.0;
  int skip = 0;
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(4, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, zeros, "x");
  for (int it = 0; it < 3; it++) {
#pragma loom par_loop(bump) over(nodes) args(rw: x)
#pragma loom par_loop(flux) over(edges) args(read: x[en[0]], x[en[1]], inc: rms)
    if (skip)
      continue;
    if (it == 1)
      goto again;
  again:;
#pragma loom par_loop(flux) over(edges) args(read: x[en[0]], x[en[1]], inc: rms)
#pragma loom par_loop(bump) over(nodes) args(rw: x)
    if (rms > 1e9)
      break;
#pragma loom par_loop(bump) over(nodes) args(rw: x)
  }
  loom_exit();
  return 0;
}
