/*
 * main.c — the modular Airfoil's driver: OP2's Airfoil benchmark as a
 * multi-file code.  Starts the runtime, has mesh.c read and declare the
 * mesh into an airfoil_mesh struct, runs the time steps of solver.c and
 * prints rms every 100 iterations exactly as samples/airfoil/airfoil.c
 * does (" %d  %10.5e", rank 0 under MPI), so that its table compares with
 * OP2's.  No par_loop here: plain C for every target.
 *
 * Usage: airfoil_modular MESH ITERS [OUT]   (airfoil.c's command line:
 *   OUT receives the final q, 4 doubles per cell)
 */
#include <loom.h>
#include <stdio.h>

#include "airfoil_mesh.h" /* airfoil_parse_args */
#include "mesh.h"
#include "solver.h"

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  int niter;
  /* before loom_init: bad arguments or an unwritable OUT exit at once */
  airfoil_parse_args(argc, argv, &mesh_path, &niter, &out_path);

  loom_init(&argc, &argv);
  airfoil_mesh m;
  if (mesh_declare(&m, mesh_path)) {
    loom_exit();
    return 1;
  }

  /* Under MPI the mesh is partitioned here, before the timed loop (as
   * OP2's Airfoil does); without MPI this only checks the set. */
  loom_partition(m.cells, NULL);

  double wall0, wall1;
  loom_timers(NULL, &wall0);

  for (int iter = 1; iter <= niter; iter++) {
    double rms;
    solver_iteration(&m, &rms);
    if (iter % 100 == 0 && loom_rank() == 0) /* with MPI: rank 0 prints */
      printf(" %d  %10.5e\n", iter, rms);
  }

  loom_timers(NULL, &wall1);
  fflush(stdout);
  if (loom_rank() == 0)
    fprintf(stderr, "airfoil_modular: main loop wall time %.6f s\n",
            wall1 - wall0);

  int status = out_path && mesh_write_q(&m, out_path) ? 1 : 0;
  loom_exit();
  return status;
}
