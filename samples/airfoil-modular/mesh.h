/*
 * mesh.h — the Airfoil mesh as the modular sample's files share it: one
 * struct holding every Loom handle (sets, maps, dats), each map and dat
 * with its facts (LOOM_MAP_FACTS / LOOM_DAT_FACTS: sets, arity or dim and
 * element type), so that solver.c, which only receives `airfoil_mesh *m`,
 * can name the handles in its directives (`over(m->cells)`,
 * `m->p_x[m->pcell[0]]`).  The set names in the facts are the struct's own
 * set members.  mesh.c declares the handles (mesh_declare); nothing else
 * assigns them.
 *
 * The struct's tag is airfoil_handles, not airfoil_mesh: mesh.c and main.c
 * also include samples/airfoil/airfoil_mesh.h, whose `struct airfoil_mesh`
 * is the host-side mesh read from the file (plain arrays).
 */
#ifndef AIRFOIL_MODULAR_MESH_H
#define AIRFOIL_MODULAR_MESH_H

#include <loom.h>

typedef struct airfoil_handles {
  loom_set nodes, edges, bedges, cells;

  loom_map pedge LOOM_MAP_FACTS(edges, nodes, 2);   /* edge -> its 2 nodes */
  loom_map pecell LOOM_MAP_FACTS(edges, cells, 2);  /* edge -> its 2 cells */
  loom_map pbedge LOOM_MAP_FACTS(bedges, nodes, 2); /* boundary edge -> 2 nodes */
  loom_map pbecell LOOM_MAP_FACTS(bedges, cells, 1); /* boundary edge -> cell */
  loom_map pcell LOOM_MAP_FACTS(cells, nodes, 4);   /* cell -> its 4 nodes */

  loom_dat p_bound LOOM_DAT_FACTS(bedges, 1, int); /* 1 airfoil, 2 far field */
  loom_dat p_x LOOM_DAT_FACTS(nodes, 2, double);   /* node coordinates */
  loom_dat p_q LOOM_DAT_FACTS(cells, 4, double);   /* flow state */
  loom_dat p_qold LOOM_DAT_FACTS(cells, 4, double); /* state at step start */
  loom_dat p_adt LOOM_DAT_FACTS(cells, 1, double); /* area / time step */
  loom_dat p_res LOOM_DAT_FACTS(cells, 4, double); /* flux residual */
} airfoil_mesh;

/* After loom_init: reads the grid file at `path` (OP2's new_grid.dat
 * format), sets the constants the kernels read and declares them
 * (loom_decl_const), and declares the sets, maps and dats into *m, with q
 * at the free stream qinf.  The host copies of the mesh are freed (the
 * runtime keeps its own).  Returns 0, or nonzero after printing why. */
int mesh_declare(airfoil_mesh *m, const char *path);

/* Gathers q (4 doubles per cell, in the file's numbering) and writes it to
 * `path` from rank 0; collective under MPI.  Returns 0, or nonzero after
 * printing why. */
int mesh_write_q(const airfoil_mesh *m, const char *path);

#endif /* AIRFOIL_MODULAR_MESH_H */
