/*
 * aero.c — OP2's aero benchmark written in Loom.
 *
 * A steady potential flow around an airfoil by finite elements: each outer
 * iteration assembles the residual and the 4x4 element matrices
 * (res_calc), fixes the far-field nodes (dirichlet), solves the linear
 * system by conjugate gradients — the product with the matrix (spMV) runs
 * element by element from the stored element matrices — and updates the
 * potential.  The kernels (aero_kernels.h) and the mesh reader
 * (aero_mesh.h) are shared with aero_ref.c, the plain-C baseline.
 *
 * Usage: aero MESH [ITERS [OUT]]  (MESH from naca_fem; see aero_mesh.h)
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>

#include "aero_kernels.h"
#include "aero_mesh.h"

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  int niter;
  aero_parse_args(argc, argv, &mesh_path, &niter, &out_path);

  struct aero_mesh m;
  if (aero_read_mesh(mesh_path, &m))
    return 1;
  aero_set_constants();

  /* the initial potential: the free stream, phi = minf x */
  double *phim = malloc((size_t)m.nnode * sizeof(double));
  if (!phim) {
    fprintf(stderr, "aero: out of memory for %d nodes\n", m.nnode);
    aero_free_mesh(&m);
    return 1;
  }
  for (int n = 0; n < m.nnode; n++)
    phim[n] = minf * m.x[2 * n];

  loom_init(&argc, &argv);
  loom_decl_const(1, double, &gm1, "gm1");
  loom_decl_const(1, double, &gm1i, "gm1i");
  loom_decl_const(1, double, &m2, "m2");
  loom_decl_const(4, double, wtg2, "wtg2");
  loom_decl_const(32, double, Ng2_xi, "Ng2_xi");

  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set bnodes = loom_decl_set(m.nbnode, "bnodes");
  loom_set cells = loom_decl_set(m.ncell, "cells");

  loom_map pbnodes = loom_decl_map(bnodes, nodes, 1, m.bnode, "pbnodes");
  loom_map pcell = loom_decl_map(cells, nodes, 4, m.cell, "pcell");

  loom_dat p_xm = loom_decl_dat(nodes, 2, double, m.x, "p_xm");
  loom_dat p_phim = loom_decl_dat(nodes, 1, double, phim, "p_phim");
  loom_dat p_K = loom_decl_temp(cells, 16, double, "p_K");
  loom_dat p_resm = loom_decl_temp(nodes, 1, double, "p_resm");
  loom_dat p_V = loom_decl_temp(nodes, 1, double, "p_V");
  loom_dat p_P = loom_decl_temp(nodes, 1, double, "p_P");
  loom_dat p_U = loom_decl_temp(nodes, 1, double, "p_U");

  /* under MPI the mesh is partitioned here, by its cells */
  loom_partition(cells, NULL);

  double wall0, wall1;
  loom_timers(NULL, &wall0);

  double rms = 1.0;
  for (int iter = 1; iter <= niter; iter++) {
    /* the residual and the element matrices of the linearised problem */
#pragma loom par_loop(res_calc) over(cells)                                  \
    args(read: p_xm[pcell[0]], p_xm[pcell[1]], p_xm[pcell[2]], p_xm[pcell[3]], \
               p_phim[pcell[0]], p_phim[pcell[1]], p_phim[pcell[2]],          \
               p_phim[pcell[3]],                                             \
         write: p_K,                                                         \
         inc:  p_resm[pcell[0]], p_resm[pcell[1]], p_resm[pcell[2]],          \
               p_resm[pcell[3]])
#pragma loom par_loop(dirichlet) over(bnodes) args(write: p_resm[pbnodes[0]])

    /* CG: c1 = r.r, until the residual falls by 10 or 200 steps */
    double c1 = 0.0, c2, c3, alpha, beta;
#pragma loom par_loop(init_cg) over(nodes)                                   \
    args(read: p_resm, inc: c1, write: p_U, p_V, p_P)
    double res0 = sqrt(c1), res = res0;
    int inner_iter = 0, maxiter = 200;
    while (res > 0.1 * res0 && inner_iter < maxiter) {
      /* V = K P */
#pragma loom par_loop(spMV) over(cells)                                      \
    args(inc:  p_V[pcell[0]], p_V[pcell[1]], p_V[pcell[2]], p_V[pcell[3]],   \
         read: p_K, p_P[pcell[0]], p_P[pcell[1]], p_P[pcell[2]], p_P[pcell[3]])
#pragma loom par_loop(dirichlet) over(bnodes) args(write: p_V[pbnodes[0]])
      c2 = 0.0;
#pragma loom par_loop(dotPV) over(nodes) args(read: p_P, p_V, inc: c2)
      alpha = c1 / c2;
      /* U += alpha P; R -= alpha V; V = 0 */
#pragma loom par_loop(updateUR) over(nodes)                                  \
    args(inc: p_U, p_resm, read: p_P, rw: p_V, read: alpha)
      c3 = 0.0;
#pragma loom par_loop(dotR) over(nodes) args(read: p_resm, inc: c3)
      beta = c3 / c1;
#pragma loom par_loop(updateP) over(nodes) args(read: p_resm, rw: p_P, read: beta)
      c1 = c3;
      res = sqrt(c1);
      inner_iter++;
    }

    /* phim -= U; rms of the step */
    rms = 0.0;
#pragma loom par_loop(update) over(nodes)                                    \
    args(rw: p_phim, write: p_resm, read: p_U, inc: rms)
    rms = sqrt(rms / (double)m.nnode);
    if (loom_rank() == 0) /* with MPI: rank 0 prints */
      printf("%d %d %3.15E\n", iter, inner_iter, rms);
  }

  loom_timers(NULL, &wall1);
  int status = loom_rank() == 0 ? aero_check(rms, m.ncell, niter) : 0;
  fflush(stdout);
  if (loom_rank() == 0)
    fprintf(stderr, "aero: main loop wall time %.6f s\n", wall1 - wall0);

  /* loom_dat_fetch gathers phim in the declared numbering on every rank;
   * rank 0 writes it */
  if (out_path) {
    if (loom_dat_fetch(p_phim, phim, (size_t)m.nnode * sizeof(double)) != LOOM_OK ||
        (loom_rank() == 0 && aero_write_phi(out_path, phim, m.nnode)))
      status = 1;
  }
  free(phim);
  aero_free_mesh(&m);
  loom_exit();
  return status;
}
