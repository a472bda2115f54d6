/*
 * airfoil.c — OP2's Airfoil benchmark written in Loom.
 *
 * A non-linear 2D inviscid flow around an airfoil, finite volumes on an
 * unstructured mesh of quadrilateral cells, with a predictor/corrector time
 * march.  The mesh is declared once (sets, maps, dats); each sweep is a
 * `#pragma loom par_loop` over a set, and loomc turns each into C for the
 * chosen target.  The kernels and the host-side mesh reader are shared with
 * airfoil_ref.c, the hand-written baseline.
 *
 * Usage: airfoil MESH ITERS [OUT]
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>

#include "airfoil_kernels.h"
#include "airfoil_mesh.h"

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  int niter;
  airfoil_parse_args(argc, argv, &mesh_path, &niter, &out_path);

  struct airfoil_mesh m;
  if (airfoil_read_mesh(mesh_path, &m))
    return 1;
  airfoil_set_constants();

  double *q = malloc(4 * (size_t)m.ncell * sizeof(double));
  if (!q) {
    fprintf(stderr, "airfoil: out of memory for %d cells\n", m.ncell);
    return 1;
  }
  for (int n = 0; n < m.ncell; n++)
    for (int k = 0; k < 4; k++)
      q[4 * n + k] = qinf[k];

  loom_init(&argc, &argv);
  /* the constants the kernels read (OP2's op_decl_const): with MPI, checked
   * equal on every rank */
  loom_decl_const(1, double, &gam, "gam");
  loom_decl_const(1, double, &gm1, "gm1");
  loom_decl_const(1, double, &cfl, "cfl");
  loom_decl_const(1, double, &eps, "eps");
  loom_decl_const(4, double, qinf, "qinf");

  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set edges = loom_decl_set(m.nedge, "edges");
  loom_set bedges = loom_decl_set(m.nbedge, "bedges");
  loom_set cells = loom_decl_set(m.ncell, "cells");

  loom_map pedge = loom_decl_map(edges, nodes, 2, m.edge, "pedge");
  loom_map pecell = loom_decl_map(edges, cells, 2, m.ecell, "pecell");
  loom_map pbedge = loom_decl_map(bedges, nodes, 2, m.bedge, "pbedge");
  loom_map pbecell = loom_decl_map(bedges, cells, 1, m.becell, "pbecell");
  loom_map pcell = loom_decl_map(cells, nodes, 4, m.cell, "pcell");

  loom_dat p_bound = loom_decl_dat(bedges, 1, int, m.bound, "p_bound");
  loom_dat p_x = loom_decl_dat(nodes, 2, double, m.x, "p_x");
  loom_dat p_q = loom_decl_dat(cells, 4, double, q, "p_q");
  loom_dat p_qold = loom_decl_temp(cells, 4, double, "p_qold");
  loom_dat p_adt = loom_decl_temp(cells, 1, double, "p_adt");
  loom_dat p_res = loom_decl_temp(cells, 4, double, "p_res");

  /* Under MPI the mesh is partitioned here, before the timed loop (as
   * OP2's Airfoil does); without MPI this only checks the set. */
  loom_partition(cells, NULL);

  double wall0, wall1;
  loom_timers(NULL, &wall0);

  double rms = 0.0;
  for (int iter = 1; iter <= niter; iter++) {
    /* save the old flow solution */
#pragma loom par_loop(save_soln) over(cells) args(read: p_q, write: p_qold)

    /* the predictor/corrector march, as OP2 writes it: loomc rotates this
     * loop (update of one stage fuses with adt_calc of the next) and fuses
     * the first stage's adt_calc with save_soln (`loomc --report`) */
    for (int k = 0; k < 2; k++) {
      /* area / time step */
#pragma loom par_loop(adt_calc) over(cells)                                  \
    args(read: p_x[pcell[0]], p_x[pcell[1]], p_x[pcell[2]], p_x[pcell[3]],  \
               p_q, write: p_adt)

      /* flux residual over the interior and the boundary edges */
#pragma loom par_loop(res_calc) over(edges)                                  \
    args(read: p_x[pedge[0]], p_x[pedge[1]], p_q[pecell[0]], p_q[pecell[1]], \
               p_adt[pecell[0]], p_adt[pecell[1]],                          \
         inc:  p_res[pecell[0]], p_res[pecell[1]])
#pragma loom par_loop(bres_calc) over(bedges)                                \
    args(read: p_x[pbedge[0]], p_x[pbedge[1]], p_q[pbecell[0]],             \
               p_adt[pbecell[0]],                                           \
         inc:  p_res[pbecell[0]],                                           \
         read: p_bound)

      /* update the flow field; rms sums the squared changes */
      rms = 0.0;
#pragma loom par_loop(update) over(cells) \
    args(read: p_qold, write: p_q, rw: p_res, read: p_adt, inc: rms)
    }

    rms = sqrt(rms / (double)m.ncell);
    if (iter % 100 == 0 && loom_rank() == 0) /* with MPI: rank 0 prints */
      printf(" %d  %10.5e\n", iter, rms);
  }

  loom_timers(NULL, &wall1);
  fflush(stdout);
  if (loom_rank() == 0)
    fprintf(stderr, "airfoil: main loop wall time %.6f s\n", wall1 - wall0);

  /* loom_dat_fetch gathers q in the declared numbering on every rank;
   * rank 0 writes it */
  int status = 0;
  if (out_path) {
    if (loom_dat_fetch(p_q, q, 4 * (size_t)m.ncell * sizeof(double)) != LOOM_OK ||
        (loom_rank() == 0 && airfoil_write_q(out_path, q, m.ncell)))
      status = 1;
  }
  free(q);
  airfoil_free_mesh(&m);
  loom_exit();
  return status;
}
