/* min and max on dats, through maps and directly: the longest and the
 * shortest edge at each node (commutative like inc: owner-computes plans
 * under openmp, the executed halo under mpi). */
#include <loom.h>
#include <math.h>
#include <stdio.h>

static void edge_len(const double *a, const double *b, double *len) {
  *len = fabs(*b - *a);
}

static void extremes(const double *len, double *hi0, double *hi1, double *lo0, double *lo1) {
  if (*len > *hi0) *hi0 = *len;
  if (*len > *hi1) *hi1 = *len;
  if (*len < *lo0) *lo0 = *len;
  if (*len < *lo1) *lo1 = *len;
}

static void clip(const double *hi, double *lo) {
  if (*hi < *lo) *lo = *hi;
}

int main(int argc, char **argv) {
  double xy[4] = {0.0, 0.5, 1.5, 1.75};
  int edge_nodes[6] = {0, 1, 1, 2, 2, 3};
  double big[4] = {1e30, 1e30, 1e30, 1e30}, zero[4] = {0};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map pedge = loom_decl_map(edges, nodes, 2, edge_nodes, "pedge");
  loom_dat x = loom_decl_dat(nodes, 1, double, xy, "x");
  loom_dat lmax = loom_decl_dat(nodes, 1, double, zero, "lmax");
  loom_dat lmin = loom_decl_dat(nodes, 1, double, big, "lmin");
  loom_dat len = loom_decl_temp(edges, 1, double, "len");

#pragma loom par_loop(edge_len) over(edges) args(read: x[pedge[0]], x[pedge[1]], write: len)
#pragma loom par_loop(extremes) over(edges) \
    args(read: len, max: lmax[pedge[0]], lmax[pedge[1]], min: lmin[pedge[0]], lmin[pedge[1]])
#pragma loom par_loop(clip) over(nodes) args(read: lmax, min: lmin)
  double out[4];
  loom_dat_fetch(lmin, out, sizeof out);
  printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
  loom_exit();
  return 0;
}
