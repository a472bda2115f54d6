/*
 * limiter.c — a vertex-based slope limiter written in Loom: the bounds of
 * each node are the `min` and `max` of the cells around it, reached through
 * the cell-to-node map (PyOP2's MIN/MAX access on dats).  See
 * limiter_kernels.h for the scheme; limiter_ref.c is the same program in
 * plain C.
 *
 * Usage: limiter [N]   the N x N perturbed triangle mesh (default 64).
 * Prints the bounds' sums, the least limiter value and how many cells are
 * limited, and the largest amount by which a limited reconstruction leaves
 * its vertex's bounds; exits 1 when that is not 0 (to rounding).
 */
#include <loom.h>
#include <stdio.h>
#include <stdlib.h>

#include "limiter_kernels.h"
#include "limiter_mesh.h"

/* The sums of the fetched bounds, in declared order (the same on every
 * target: a minimum does not depend on the order of its contributions). */
static int print_bounds(loom_dat lo, loom_dat hi, int nnode) {
  double *v = malloc(sizeof(double) * 2 * (size_t)nnode);
  if (!v)
    return 1;
  if (loom_dat_fetch(lo, v, sizeof(double) * (size_t)nnode) != LOOM_OK ||
      loom_dat_fetch(hi, v + nnode, sizeof(double) * (size_t)nnode) != LOOM_OK) {
    free(v);
    return 1;
  }
  double slo = 0.0, shi = 0.0;
  for (int k = 0; k < nnode; k++) {
    slo += v[k];
    shi += v[nnode + k];
  }
  if (loom_rank() == 0) /* with MPI: rank 0 prints */
    printf("bounds: lower sum %.17g, upper sum %.17g\n", slo, shi);
  free(v);
  return 0;
}

int main(int argc, char **argv) {
  int n = limiter_size(argc, argv);
  struct tri_mesh m;
  if (tri_mesh_make(n, &m))
    return 1;
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set cells = loom_decl_set(m.ncell, "cells");
  loom_map c2n = loom_decl_map(cells, nodes, 3, m.c2n, "c2n");
  loom_dat x = loom_decl_dat(nodes, 2, double, m.x, "x");
  loom_dat lo = loom_decl_temp(nodes, 1, double, "lo");
  loom_dat hi = loom_decl_temp(nodes, 1, double, "hi");
  loom_dat sum = loom_decl_temp(nodes, 1, double, "sum");
  loom_dat count = loom_decl_temp(nodes, 1, double, "count");
  loom_dat avg = loom_decl_temp(nodes, 1, double, "avg");
  loom_dat c = loom_decl_temp(cells, 2, double, "c");
  loom_dat u = loom_decl_temp(cells, 1, double, "u");
  loom_dat g = loom_decl_temp(cells, 2, double, "g");
  loom_dat phi = loom_decl_temp(cells, 1, double, "phi");

#pragma loom par_loop(centroid) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], write: c, u)
#pragma loom par_loop(node_init) over(nodes) args(write: lo, hi, sum, count)
#pragma loom par_loop(bounds) over(cells) \
    args(read: u, min: lo[c2n[0]], lo[c2n[1]], lo[c2n[2]], \
                  max: hi[c2n[0]], hi[c2n[1]], hi[c2n[2]])
#pragma loom par_loop(nodal_sum) over(cells) \
    args(read: u, inc: sum[c2n[0]], sum[c2n[1]], sum[c2n[2]], \
                       count[c2n[0]], count[c2n[1]], count[c2n[2]])
#pragma loom par_loop(nodal_avg) over(nodes) args(read: sum, count, write: avg)
#pragma loom par_loop(gradient) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], avg[c2n[0]], avg[c2n[1]], avg[c2n[2]], \
         write: g)
#pragma loom par_loop(limit) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], lo[c2n[0]], lo[c2n[1]], lo[c2n[2]], \
               hi[c2n[0]], hi[c2n[1]], hi[c2n[2]], c, u, g, write: phi)
  double excess = 0.0, phimin = 1.0;
  int limited = 0;
#pragma loom par_loop(check) over(cells) \
    args(read: x[c2n[0]], x[c2n[1]], x[c2n[2]], lo[c2n[0]], lo[c2n[1]], lo[c2n[2]], \
               hi[c2n[0]], hi[c2n[1]], hi[c2n[2]], c, u, g, phi, \
         max: excess, min: phimin, inc: limited)

  int rc = print_bounds(lo, hi, m.nnode);
  if (loom_rank() == 0) {
    printf("phi: least %.6f, %d of %d cells limited\n", phimin, limited, m.ncell);
    printf("largest excess over the bounds: %.3g\n", excess);
  }
  if (excess > 1e-12) {
    fprintf(stderr, "limiter: a limited reconstruction leaves its bounds by %g\n", excess);
    rc = 1;
  }
  loom_exit();
  tri_mesh_free(&m);
  return rc;
}
