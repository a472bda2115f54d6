/*
 * mesh.c — the modular Airfoil's set-up: reads OP2's grid file (with
 * samples/airfoil/airfoil_mesh.h's reader), defines and sets the constants
 * the kernels read (declared extern in kernels.h) and declares them with
 * loom_decl_const, and declares every set, map and dat into the
 * airfoil_mesh struct whose facts mesh.h states.  Also gathers and writes
 * the final q.
 *
 * No par_loop here: this file is plain C and is built with the C compiler
 * alone, the same for every target (libloom or libloom_mpi decides at run
 * time what the declarations do).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "airfoil_mesh.h"
#include "kernels.h"
#include "mesh.h"

/* ---- constants --------------------------------------------------------- */

/* The only definitions of the constants kernels.h declares extern (set by
 * airfoil_set_constants, OP2's values and operations). */
double gam, gm1, cfl, eps, mach, alpha, qinf[4];

/* ---- declarations ------------------------------------------------------ */

int mesh_declare(airfoil_mesh *m, const char *path) {
  struct airfoil_mesh h; /* the host-side mesh: plain arrays */
  if (airfoil_read_mesh(path, &h))
    return 1;

  airfoil_set_constants();
  /* OP2's op_decl_const: with MPI, checked equal on every rank */
  if (loom_decl_const(1, double, &gam, "gam") != LOOM_OK ||
      loom_decl_const(1, double, &gm1, "gm1") != LOOM_OK ||
      loom_decl_const(1, double, &cfl, "cfl") != LOOM_OK ||
      loom_decl_const(1, double, &eps, "eps") != LOOM_OK ||
      loom_decl_const(4, double, qinf, "qinf") != LOOM_OK) {
    airfoil_free_mesh(&h);
    return 1;
  }

  /* the initial state: the free stream everywhere */
  double *q = malloc(4 * (size_t)h.ncell * sizeof(double));
  if (!q) {
    fprintf(stderr, "airfoil_modular: out of memory for %d cells\n", h.ncell);
    airfoil_free_mesh(&h);
    return 1;
  }
  for (int n = 0; n < h.ncell; n++)
    for (int k = 0; k < 4; k++)
      q[4 * n + k] = qinf[k];

  m->nodes = loom_decl_set(h.nnode, "nodes");
  m->edges = loom_decl_set(h.nedge, "edges");
  m->bedges = loom_decl_set(h.nbedge, "bedges");
  m->cells = loom_decl_set(h.ncell, "cells");

  m->pedge = loom_decl_map(m->edges, m->nodes, 2, h.edge, "pedge");
  m->pecell = loom_decl_map(m->edges, m->cells, 2, h.ecell, "pecell");
  m->pbedge = loom_decl_map(m->bedges, m->nodes, 2, h.bedge, "pbedge");
  m->pbecell = loom_decl_map(m->bedges, m->cells, 1, h.becell, "pbecell");
  m->pcell = loom_decl_map(m->cells, m->nodes, 4, h.cell, "pcell");

  m->p_bound = loom_decl_dat(m->bedges, 1, int, h.bound, "p_bound");
  m->p_x = loom_decl_dat(m->nodes, 2, double, h.x, "p_x");
  m->p_q = loom_decl_dat(m->cells, 4, double, q, "p_q");
  m->p_qold = loom_decl_temp(m->cells, 4, double, "p_qold");
  m->p_adt = loom_decl_temp(m->cells, 1, double, "p_adt");
  m->p_res = loom_decl_temp(m->cells, 4, double, "p_res");

  /* the runtime copied everything it keeps */
  free(q);
  airfoil_free_mesh(&h);

  if (!m->nodes || !m->edges || !m->bedges || !m->cells || !m->pedge ||
      !m->pecell || !m->pbedge || !m->pbecell || !m->pcell || !m->p_bound ||
      !m->p_x || !m->p_q || !m->p_qold || !m->p_adt || !m->p_res) {
    fprintf(stderr, "airfoil_modular: %s: declaring the mesh failed: %s\n",
            path, loom_last_error());
    return 1;
  }
  return 0;
}

/* ---- output ------------------------------------------------------------ */

int mesh_write_q(const airfoil_mesh *m, const char *path) {
  int ncell = loom_set_size(m->cells);
  size_t bytes = 4 * (size_t)ncell * sizeof(double);
  double *q = malloc(bytes ? bytes : 1);
  if (!q) {
    fprintf(stderr, "airfoil_modular: out of memory for %d cells\n", ncell);
    return 1;
  }
  /* every rank fetches (collective); rank 0 writes */
  int failed = loom_dat_fetch(m->p_q, q, bytes) != LOOM_OK ||
               (loom_rank() == 0 && airfoil_write_q(path, q, ncell));
  free(q);
  return failed;
}
