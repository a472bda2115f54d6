/*
 * airfoil_hdf5.c — OP2's Airfoil benchmark in Loom, its mesh read from an
 * HDF5 file in OP2's layout (OP2's airfoil_hdf5): each MPI rank reads only
 * its slice of every set, map and dat (loom_decl_*_hdf5), and the first
 * loop partitions the distributed mesh (PT-Scotch by default), so no rank
 * ever holds the whole mesh.  The loops are airfoil.c's.
 *
 * Usage: airfoil_hdf5 [--checkpoint-every N --checkpoint FILE.h5]
 *                     [--restart FILE.h5] MESH.h5 ITERS [OUT]
 *   MESH.h5  e.g. from `loom-mesh new_grid.dat new_grid.h5`
 *   --checkpoint-every N  after every N-th iteration, loom_checkpoint to
 *            FILE.h5 (every set, map and dat, and the iteration)
 *   --restart FILE.h5  continue from a checkpoint, on any number of
 *            ranks: the mesh from MESH.h5, then q from the checkpoint (the
 *            other dats are rewritten before they are read in every
 *            iteration), from the iteration after the checkpoint's
 *   OUT      q in declared order: OUT.h5 through loom_write_xdmf (a
 *            collective write of pcell, p_x and p_q, and OUT.xmf beside
 *            it for ParaView or VisIt), any other name as raw doubles
 *            (gathered on every rank, written by rank 0)
 */
#include <errno.h>
#include <limits.h>
#include <loom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_kernels.h"
#include "airfoil_mesh.h"

static void usage(FILE *to, const char *prog) {
  fprintf(to,
          "usage: %s [--checkpoint-every N --checkpoint FILE.h5] [--restart FILE.h5]\n"
          "       MESH.h5 ITERS [OUT]\n"
          "  MESH.h5  OP2's Airfoil mesh in HDF5 (loom-mesh new_grid.dat new_grid.h5)\n"
          "  ITERS    the last time step, a positive integer\n"
          "  OUT      the final q: OUT.h5 and OUT.xmf (for ParaView), or raw doubles\n"
          "  --checkpoint-every N  after every N-th step, a checkpoint to FILE.h5\n"
          "  --checkpoint FILE.h5  the checkpoint's file (with --checkpoint-every)\n"
          "  --restart FILE.h5     continue from a checkpoint (any number of ranks),\n"
          "                        from the step after its own up to ITERS\n",
          prog);
}

/* A positive int option value, or -1 after a message. */
static int positive(const char *opt, const char *value) {
  char *end;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (end == value || *end || errno == ERANGE || v < 1 || v > INT_MAX) {
    fprintf(stderr, "airfoil_hdf5: error: %s takes a positive integer, not '%s'\n", opt,
            value);
    return -1;
  }
  return (int)v;
}

/* Takes the --checkpoint-every/--checkpoint/--restart options out of argv
 * (each with its value); --help prints the usage.  0, or 1 after a
 * message on a bad option. */
static int take_options(int *argc, char **argv, int *every,
                        const char **ckpt, const char **restart) {
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    const char *a = argv[i];
    int has_value = i + 1 < *argc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout, argv[0]);
      exit(0);
    } else if (strcmp(a, "--checkpoint-every") == 0 && has_value) {
      if ((*every = positive(a, argv[++i])) < 0)
        return 1;
    } else if (strcmp(a, "--checkpoint") == 0 && has_value)
      *ckpt = argv[++i];
    else if (strcmp(a, "--restart") == 0 && has_value)
      *restart = argv[++i];
    else if (strncmp(a, "--", 2) == 0) {
      fprintf(stderr, "airfoil_hdf5: error: unknown option or missing value: '%s'\n", a);
      return 1;
    } else
      argv[out++] = argv[i];
  }
  *argc = out;
  if (*every > 0 && !*ckpt)
    fprintf(stderr, "airfoil_hdf5: error: --checkpoint-every %d needs --checkpoint FILE.h5 "
                    "(where to write them)\n", *every);
  if (*ckpt && *every == 0)
    fprintf(stderr, "airfoil_hdf5: error: --checkpoint %s needs --checkpoint-every N "
                    "(how often)\n", *ckpt);
  return (*every > 0) != (*ckpt != NULL);
}

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  return n >= t && strcmp(s + n - t, tail) == 0;
}

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  const char *ckpt = NULL, *restart = NULL;
  int niter, every = 0;
  if (take_options(&argc, argv, &every, &ckpt, &restart))
    return 2;
  airfoil_parse_args(argc, argv, &mesh_path, &niter, &out_path);
  airfoil_set_constants();

  loom_init(&argc, &argv);
  /* the constants the kernels read (OP2's op_decl_const): with MPI, checked
   * equal on every rank */
  loom_decl_const(1, double, &gam, "gam");
  loom_decl_const(1, double, &gm1, "gm1");
  loom_decl_const(1, double, &cfl, "cfl");
  loom_decl_const(1, double, &eps, "eps");
  loom_decl_const(4, double, qinf, "qinf");

  double load0, load1; /* reading and partitioning the mesh */
  loom_timers(NULL, &load0);
  loom_set nodes = loom_decl_set_hdf5(mesh_path, "nodes");
  loom_set edges = loom_decl_set_hdf5(mesh_path, "edges");
  loom_set bedges = loom_decl_set_hdf5(mesh_path, "bedges");
  loom_set cells = loom_decl_set_hdf5(mesh_path, "cells");

  loom_map pedge = loom_decl_map_hdf5(edges, nodes, 2, mesh_path, "pedge");
  loom_map pecell = loom_decl_map_hdf5(edges, cells, 2, mesh_path, "pecell");
  loom_map pbedge = loom_decl_map_hdf5(bedges, nodes, 2, mesh_path, "pbedge");
  loom_map pbecell = loom_decl_map_hdf5(bedges, cells, 1, mesh_path, "pbecell");
  loom_map pcell = loom_decl_map_hdf5(cells, nodes, 4, mesh_path, "pcell");

  loom_dat p_bound = loom_decl_dat_hdf5(bedges, 1, int, mesh_path, "p_bound");
  loom_dat p_x = loom_decl_dat_hdf5(nodes, 2, double, mesh_path, "p_x");
  loom_dat p_q = loom_decl_dat_hdf5(cells, 4, double, mesh_path, "p_q");
  loom_dat p_qold = loom_decl_temp(cells, 4, double, "p_qold");
  loom_dat p_adt = loom_decl_temp(cells, 1, double, "p_adt");
  loom_dat p_res = loom_decl_temp(cells, 4, double, "p_res");
  int ncell = loom_set_size(cells);


  /* Under MPI the mesh is partitioned here, before the timed loop (as
   * OP2's Airfoil does); without MPI this only checks the set. */
  loom_partition(cells, NULL);
  loom_timers(NULL, &load1);
  if (loom_rank() == 0)
    fprintf(stderr, "airfoil: load and partition %.6f s\n", load1 - load0);

  int first = 1;
  if (restart) { /* q is the state; qold, adt and res are rewritten first */
    int step = loom_checkpoint_step(restart); /* the runtime reports a bad file */
    if (step < 0)
      return 1;
    if (step >= niter) { /* the same on every rank: nothing is written */
      if (loom_rank() == 0)
        fprintf(stderr, "airfoil_hdf5: error: checkpoint '%s' is at step %d and ITERS is "
                        "%d: nothing is left to run (ITERS must be more than %d)\n",
                restart, step, niter, step);
      loom_exit();
      return 2;
    }
    first = step + 1;
    if (loom_dat_read_hdf5(p_q, restart, "p_q") != LOOM_OK)
      return 1;
  }

  double wall0, wall1;
  loom_timers(NULL, &wall0);

  double rms = 0.0;
  for (int iter = first; iter <= niter; iter++) {
    /* save the old flow solution */
#pragma loom par_loop(save_soln) over(cells) args(read: p_q, write: p_qold)

    /* the predictor/corrector march, as OP2 writes it: loomc rotates this
     * loop and fuses the first stage's adt_calc with save_soln (see
     * airfoil.c and `loomc --report`) */
    for (int k = 0; k < 2; k++) {
#pragma loom par_loop(adt_calc) over(cells)                                  \
    args(read: p_x[pcell[0]], p_x[pcell[1]], p_x[pcell[2]], p_x[pcell[3]],  \
               p_q, write: p_adt)
#pragma loom par_loop(res_calc) over(edges)                                  \
    args(read: p_x[pedge[0]], p_x[pedge[1]], p_q[pecell[0]], p_q[pecell[1]], \
               p_adt[pecell[0]], p_adt[pecell[1]],                          \
         inc:  p_res[pecell[0]], p_res[pecell[1]])
#pragma loom par_loop(bres_calc) over(bedges)                                \
    args(read: p_x[pbedge[0]], p_x[pbedge[1]], p_q[pbecell[0]],             \
               p_adt[pbecell[0]],                                           \
         inc:  p_res[pbecell[0]],                                           \
         read: p_bound)
      rms = 0.0;
#pragma loom par_loop(update) over(cells) \
    args(read: p_qold, write: p_q, rw: p_res, read: p_adt, inc: rms)
    }

    rms = sqrt(rms / (double)ncell);
    if (iter % 100 == 0 && loom_rank() == 0) /* with MPI: rank 0 prints */
      printf(" %d  %10.5e\n", iter, rms);
    if (every > 0 && iter % every == 0 && loom_checkpoint(ckpt, iter) != LOOM_OK)
      return 1;
  }

  loom_timers(NULL, &wall1);
  fflush(stdout);
  if (loom_rank() == 0)
    fprintf(stderr, "airfoil: main loop wall time %.6f s\n", wall1 - wall0);

  int status = 0;
  if (out_path && ends_with(out_path, ".h5")) { /* q.h5 and q.xmf */
    char xmf[4096];
    snprintf(xmf, sizeof xmf, "%.*s.xmf", (int)(strlen(out_path) - 3), out_path);
    loom_dat fields[1] = {p_q};
    status = loom_write_xdmf(xmf, out_path, pcell, p_x, 1, fields) != LOOM_OK;
  } else if (out_path) { /* the whole q on every rank: small meshes */
    double *q = malloc(4 * (size_t)ncell * sizeof(double) + 1);
    status = !q ||
             loom_dat_fetch(p_q, q, 4 * (size_t)ncell * sizeof(double)) != LOOM_OK ||
             (loom_rank() == 0 && airfoil_write_q(out_path, q, ncell));
    free(q);
  }
  loom_exit();
  return status;
}
