/* A matrix filled by a loop and solved by host code: the solve waits for
 * every part of the loop that fills the matrix (a loop writing a matrix
 * and a host call naming it are ordered as for a dat), the loop reading
 * the solution waits for the solve, and filling the matrix does not wait
 * for the right-hand side. */
#include <loom.h>

static void stiff(const double *x0, const double *x1, double A[2][2]) {
  double h = x1[0] - x0[0];
  A[0][0] += 1.0 / h;
  A[0][1] -= 1.0 / h;
  A[1][0] -= 1.0 / h;
  A[1][1] += 1.0 / h;
}

static void rhs(const double *x, double *b) { *b = x[0]; }
static void energy(const double *u, double *e) { *e += *u * *u; }

int main(int argc, char **argv) {
  double xy[4] = {0.0, 0.3, 0.6, 1.0};
  int edge_nodes[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map e2n = loom_decl_map(edges, nodes, 2, edge_nodes, "e2n");
  loom_dat x = loom_decl_dat(nodes, 1, double, xy, "x");
  loom_dat u = loom_decl_temp(nodes, 1, double, "u");
  loom_dat b = loom_decl_temp(nodes, 1, double, "b");
  loom_sparsity sp = loom_decl_sparsity(nodes, nodes, 1, 1, 1, &e2n, &e2n, "sp");
  loom_mat K = loom_decl_mat(sp, "K");
  double e = 0.0;
#pragma loom par_loop(stiff) over(edges) args(read: x[e2n[0]], x[e2n[1]], inc: K[e2n, e2n])
#pragma loom par_loop(rhs) over(nodes) args(read: x, write: b)
  loom_solve(K, u, b);
#pragma loom par_loop(energy) over(nodes) args(read: u, inc: e)
  loom_exit();
  return (int)e;
}
