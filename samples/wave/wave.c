/*
 * wave.c — the explicit wave example of PyOP2's lazy-evaluation document
 * (after Firedrake's test suite) written in Loom.
 *
 * P1 Lagrange finite elements on a triangle mesh of the unit square, with
 * lumped mass: seven par_loops per time step, in PyOP2's order (see
 * wave_kernels.h for the scheme, the kernels and the time step).  The
 * kernels and the host code are shared with wave_ref.c, the hand-written
 * baseline.
 *
 * Usage: wave MESH ITERS [OUT]
 *   MESH is a mesh file (wave_mesh's format) or a size N (or -n N): the
 *   N x N unit-square mesh, generated in memory.  Prints " STEP  NORM" (the
 *   L2 norm of p, sqrt(sum p^2 / nnode)) every 100 steps and after the last
 *   on stdout, the main loop's wall time on stderr, and with OUT writes the
 *   final p and phi (2 doubles per node).
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wave_host.h"
#include "wave_kernels.h"

int main(int argc, char **argv) {
  struct wave_args args;
  wave_parse_args(argc, argv, &args);

  struct wave_mesh m;
  if (wave_load_mesh(&args, &m))
    return 1;
  wave_set_constants(wave_min_edge(&m));

  double *p0 = malloc((size_t)m.nnode * sizeof(double));
  double *phi0 = malloc((size_t)m.nnode * sizeof(double));
  if (!p0 || !phi0) {
    fprintf(stderr, "wave: out of memory for %d nodes\n", m.nnode);
    free(p0);
    free(phi0);
    wave_free_mesh(&m);
    return 1;
  }
  wave_initial(&m, p0, phi0);

  loom_init(&argc, &argv);

  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set cells = loom_decl_set(m.ncell, "cells");

  loom_map c2n = loom_decl_map(cells, nodes, 3, m.cell, "c2n");

  loom_dat x = loom_decl_dat(nodes, 2, double, m.x, "x");
  loom_dat p = loom_decl_dat(nodes, 1, double, p0, "p");
  loom_dat phi = loom_decl_dat(nodes, 1, double, phi0, "phi");
  loom_dat t1 = loom_decl_temp(nodes, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(nodes, 1, double, "t2");

  /* Under MPI the mesh is partitioned here (on its nodes), before the
   * timed loop; without MPI this only checks the set. */
  loom_partition(nodes, NULL);

  double wall0, wall1;
  loom_timers(NULL, &wall0);

  for (int step = 1; step <= args.niter; step++) {
    /* phi -= dt / 2 * p */
#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)

    /* p += assemble(dt * inner(grad v, grad phi) * dx) / assemble(v * dx) */
#pragma loom par_loop(zero) over(nodes) args(write: t1)
#pragma loom par_loop(assemble1) over(cells) \
    args(read: x[c2n[*]], phi[c2n[*]], inc: t1[c2n[*]])
#pragma loom par_loop(zero) over(nodes) args(write: t2)
#pragma loom par_loop(assemble2) over(cells) args(read: x[c2n[*]], inc: t2[c2n[*]])
#pragma loom par_loop(expr) over(nodes) args(read: t1, t2, rw: p)

    /* phi -= dt / 2 * p */
#pragma loom par_loop(phi_expr) over(nodes) args(read: p, inc: phi)

    if (wave_reports(step, args.niter)) {
      double sum = 0.0;
#pragma loom par_loop(sqnorm) over(nodes) args(read: p, inc: sum)
      if (loom_rank() == 0) /* with MPI: rank 0 prints */
        printf(" %d  %10.5e\n", step, sqrt(sum / (double)m.nnode));
    }
  }

  loom_timers(NULL, &wall1);
  fflush(stdout);
  if (loom_rank() == 0)
    fprintf(stderr, "wave: main loop wall time %.6f s\n", wall1 - wall0);

  int status = 0;
  if (args.out_path) {
    size_t bytes = (size_t)m.nnode * sizeof(double);
    if (loom_dat_fetch(p, p0, bytes) != LOOM_OK ||
        loom_dat_fetch(phi, phi0, bytes) != LOOM_OK ||
        (loom_rank() == 0 && wave_write_state(args.out_path, p0, phi0, m.nnode)))
      status = 1;
  }
  free(p0);
  free(phi0);
  wave_free_mesh(&m);
  loom_exit();
  return status;
}
