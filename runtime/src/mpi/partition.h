/*
 * mpi/partition.h — partitioning, private to libloom_mpi: the mesh being
 * partitioned, its three steps (owners, migration with the halo plans,
 * exchanges), and the distributed path for meshes declared in slices.
 * Only compiled with -DLOOM_MPI (mpicc).
 *
 * Included by the mpi/ files that partition or use the halo plans:
 * session.c, partition.c, migrate.c, halo.c, dist.c, dist_migrate.c,
 * geom.c (not reduce.c, fail.c, nor io/).  Builds on mpi/mpi.h.
 *
 * Design
 * ------
 * Partitioning runs in three steps over the "mesh", the registered sets,
 * maps and dats (all global and identical on every rank until then):
 *   1. owners (partition.c): an owner rank for every element of every
 *      set, computed identically on every rank (the primary set's
 *      partition is computed on rank 0, or everywhere for "block", and
 *      broadcast; the other sets follow the maps);
 *   2. migration (migrate.c): each rank classifies the elements into
 *      core / owned boundary / executed halo / non-executed halo, numbers
 *      them locally section by section, rewrites maps and dats in place
 *      with its local rows, and builds each set's halo plan (which local
 *      rows go to and come from which rank) with one MPI_Alltoall(v);
 *   3. exchanges (halo.c) use the halo plans; fetch uses the gather
 *      lists kept with them.
 * Element indices inside steps 1–2 are global *storage* indices (after a
 * global loom_renumber, the RCM order; otherwise the declared order).
 * A mesh declared in slices takes the distributed path instead (dist.c,
 * dist_migrate.c, geom.c), which ends in the same state.
 */
#ifndef LOOM_MPI_PARTITION_H
#define LOOM_MPI_PARTITION_H

#include "mpi/mpi.h"

/* ---- the mesh (session.c) ---------------------------------------------- */

typedef struct loomrt_mesh {
  loom_set *sets;
  loom_map *maps;
  loom_dat *dats;
  int nsets, nmaps, ndats;
  int *from, *to; /* per map: index of its sets */
  int **owner;    /* per set: owner rank of each (storage) element */
  int primary;    /* index of the primary set, or -1 */
} loomrt_mesh;

int loomrt_mesh_load(loomrt_mesh *mesh); /* LOOM_ENOMEM (not reported) */
void loomrt_mesh_free(loomrt_mesh *mesh);

/* ---- step 1: owners (partition.c) -------------------------------------- */

/* Fills mesh->owner for every set (collective).  *edge_cut receives the
 * primary graph's edge cut on rank 0 when `diag` (else -1). */
int loomrt_mpi_owners(loomrt_mesh *mesh, loomrt_part_method method, int diag,
                      long long *edge_cut);

/* The map set s takes its owners through (partition.c's rules, also
 * the distributed path's): the first map from s into an assigned set (dir
 * 1), or into s from an assigned set (dir 2, preferring the primary's);
 * -1 if none. */
int loomrt_follow_map(const loomrt_mesh *mesh, const char *assigned, int s,
                      int dir);

/* ---- step 2: migration (migrate.c) ------------------------------------- */

/* A set's exchange lists, in local indices: for neighbour k, rows
 * send_idx[send_start[k] .. send_start[k+1]) go to rank send_rank[k] and
 * rows recv_idx[recv_start[k] ..) come from rank recv_rank[k]; both sides
 * list them in the same order.  Neighbours with nothing to exchange are
 * left out.  gather_*: every rank's owned elements, for loom_dat_fetch. */
typedef struct loomrt_halo_plan {
  loom_set set;
  int nsend, nrecv;
  int *send_rank, *send_start, *send_idx;
  int *recv_rank, *recv_start, *recv_idx;
  int *gather_count, *gather_displ; /* per rank: owned count, offset */
  int *gather_gid;                  /* declared index of each, gsize */
} loomrt_halo_plan;

/* Classifies, numbers and migrates every set, map and dat (collective). */
int loomrt_mpi_migrate(loomrt_mesh *mesh);
/* The plans' table, for n sets (the old one freed first by the caller),
 * and a set's entry in it. */
loomrt_halo_plan *loomrt_halo_plans_new(int n);
loomrt_halo_plan *loomrt_halo_plan_add(loom_set set);
/* Compresses per-rank counts (P) into a plan side's neighbour lists. */
int loomrt_plan_side(const int *count, int P, int *nneigh, int **rank,
                     int **start);
/* Builds the plan's gather lists (loom_dat_fetch) if it has none yet:
 * collective, global size (only a fetch, which returns the whole dat,
 * needs them). */
int loomrt_plan_gather(loomrt_halo_plan *p);
/* The halo plan of a partitioned set (NULL if none). */
const loomrt_halo_plan *loomrt_halo_plan_of(loom_set set);
void loomrt_halo_plans_free(void);

/* ---- distributed meshes (dist.c, dist_migrate.c, geom.c) --------------- */

/* The primary partition on a graph held by rank 0 (partition.c):
 * METIS or Scotch, as the whole-mesh path does. */
int loomrt_part_rank0(loomrt_part_method method, const int *xadj,
                      const int *adj, int n, int nparts, int *owner);
/* PT-Scotch on the distributed graph: this rank's vertices are [lo, hi)
 * of xadj (global neighbour numbers in adj); the part of each, in part. */
int loomrt_part_ptscotch(const int *xadj, const int *adj, int lo, int hi,
                         int nparts, const char *name, int *part);

/* Per set, during distributed partitioning: every rank's slice offsets
 * (P + 1: rank r holds [lo[r], lo[r + 1])). */
typedef struct loomrt_dist {
  loomrt_mesh *mesh;
  int P, me;
  int **lo;        /* per set */
} loomrt_dist;

/* The rank whose slice of a set (offsets lo) holds element g. */
int loomrt_dist_holder(const int *lo, int P, int g);
/* "geom" (geom.c): owners of the primary's slice elements p along a
 * space-filling curve through their coordinates (collective). */
int loomrt_geom_owners(const loomrt_dist *d, int p, int *owner);
/* out[i] = value[gid[i] - lo[holder]] of the holder of gid[i] (collective):
 * a slice array read at any global numbers. */
int loomrt_dist_lookup(const int *lo, const int *value, const int *gid,
                       int n, int *out, const char *what);
/* Returns the heap's free pages to the system (glibc), so the transients
 * of one step do not stay resident into the next. */
void loomrt_trim(void);
/* With LOOM_DIAG=1: this rank's time since the previous step, resident
 * and peak memory after `step` (stderr; not collective); NULL starts the
 * clock. */
void loomrt_dist_step(const char *step);
/* Partitions a mesh some of whose sets are slices, migrates it and builds
 * the halos (collective); every set ends as after loomrt_mpi_migrate. */
int loomrt_dist_partition(loomrt_mesh *mesh, loomrt_part_method method,
                          long long *edge_cut);
/* Step 2 for a distributed mesh (dist_migrate.c): mesh->owner holds
 * each slice element's owner. */
int loomrt_dist_migrate(loomrt_dist *d);
/* After a distributed migration: every dat's halo rows from their owners
 * (the slices had no halo), a blocking exchange per dat (collective). */
int loomrt_dist_fill_halos(loomrt_mesh *mesh);

/* ---- step 3: exchanges (halo.c) ---------------------------------------- */

void loomrt_halo_state_free(void); /* per-dat buffers, message count */

#endif /* LOOM_MPI_PARTITION_H */
