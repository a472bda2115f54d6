/*
 * mpi_partition.c — step 1 of partitioning: an owner rank for every
 * element of every set (mpi_internal.h).
 *
 * Design
 * ------
 * The primary set (loom_partition's argument, or loomrt_primary_set: the
 * set loom_renumber would order first) is partitioned on its graph
 * (loomrt_set_graph: elements adjacent when a map from the set to itself
 * links them or an element of another set maps to both):
 *   metis   METIS_PartGraphKway (default options, 0-based) on rank 0;
 *   scotch  Scotch's sequential graph partitioner (SCOTCH_graphPart with
 *           the default strategy) on rank 0 — linked from the PT-Scotch
 *           distribution; the graph is small next to the mesh every rank
 *           already holds, so distributing it (SCOTCH_dgraphPart) would buy
 *           nothing here;
 *   block   element i to rank floor(i * P / n), on every rank.
 * Rank 0's result is broadcast with its status first, so a failure there
 * is an error on every rank rather than a hang.  A graph without edges, a
 * single rank, or fewer elements than ranks, falls back to block.
 *
 * Other sets follow (identically on every rank, no communication):
 * repeatedly, the first unassigned set (declaration order) with a map into
 * an assigned set takes per element the owner of its slot-0 entry through
 * the first such map; when there is none, the first unassigned set that an
 * assigned set maps into takes per element the owner of the lowest-
 * numbered element mapping to it, through a map from the primary if there
 * is one, else the first such map (elements nothing maps to: blocks).  Sets
 * no map reaches are cut in blocks.
 */
#include <stdlib.h>
#include <string.h>

#include <metis.h>
#include <scotch.h>

#include "mpi_internal.h"

static void block_owners(int *owner, int n, int nparts) {
  for (int i = 0; i < n; i++)
    owner[i] = (int)((long long)i * nparts / n);
}

/* ---- the primary set --------------------------------------------------- */

static int metis_owners(const int *xadj, const int *adj, int n, int nparts,
                        int *owner) {
  idx_t nv = n, ncon = 1, np = nparts, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t *x = malloc(((size_t)n + 1) * sizeof *x);
  idx_t *a = malloc(((size_t)xadj[n] + 1) * sizeof *a);
  idx_t *part = malloc(((size_t)n + 1) * sizeof *part);
  int status = LOOM_ENOMEM;
  if (x && a && part) {
    for (int i = 0; i <= n; i++)
      x[i] = xadj[i];
    for (int i = 0; i < xadj[n]; i++)
      a[i] = adj[i];
    int rc = METIS_PartGraphKway(&nv, &ncon, x, a, NULL, NULL, NULL, &np, NULL,
                                 NULL, options, &objval, part);
    if (rc == METIS_OK) {
      for (int i = 0; i < n; i++)
        owner[i] = (int)part[i];
      status = LOOM_OK;
    } else {
      status = loom_error_(LOOM_EINVAL,
                           "loom_partition: METIS_PartGraphKway failed (code "
                           "%d) on %d elements, %d parts",
                           rc, n, nparts);
    }
  }
  free(x);
  free(a);
  free(part);
  return status;
}

static int scotch_owners(const int *xadj, const int *adj, int n, int nparts,
                         int *owner) {
  SCOTCH_Graph graph;
  SCOTCH_Strat strat;
  SCOTCH_Num *vert = malloc(((size_t)n + 1) * sizeof *vert);
  SCOTCH_Num *edge = malloc(((size_t)xadj[n] + 1) * sizeof *edge);
  SCOTCH_Num *part = malloc(((size_t)n + 1) * sizeof *part);
  if (!vert || !edge || !part) {
    free(vert);
    free(edge);
    free(part);
    return LOOM_ENOMEM;
  }
  for (int i = 0; i <= n; i++)
    vert[i] = xadj[i];
  for (int i = 0; i < xadj[n]; i++)
    edge[i] = adj[i];
  int status = LOOM_OK;
  if (SCOTCH_graphInit(&graph) != 0 || SCOTCH_stratInit(&strat) != 0)
    status = LOOM_ENOMEM;
  if (status == LOOM_OK &&
      (SCOTCH_graphBuild(&graph, 0, n, vert, vert + 1, NULL, NULL, xadj[n],
                         edge, NULL) != 0 ||
       SCOTCH_graphPart(&graph, nparts, &strat, part) != 0))
    status = loom_error_(LOOM_EINVAL,
                         "loom_partition: Scotch failed to partition %d "
                         "elements into %d parts",
                         n, nparts);
  for (int i = 0; status == LOOM_OK && i < n; i++)
    owner[i] = (int)part[i];
  SCOTCH_stratExit(&strat);
  SCOTCH_graphExit(&graph);
  free(vert);
  free(edge);
  free(part);
  return status;
}

/* Rank 0's part: the graph, the partition and (diag) its edge cut. */
static int partition_on_root(loom_set set, loomrt_part_method method,
                             int diag, int *owner, long long *edge_cut) {
  int nparts = loomrt_mpi_size(), n = set->size;
  int *xadj = NULL, *adj = NULL;
  int status = LOOM_OK;
  int need_graph = method != LOOMRT_PART_BLOCK || diag;
  if (need_graph && loomrt_set_graph(set, &xadj, &adj) != LOOM_OK)
    status = loom_error_(LOOM_ENOMEM,
                         "loom_partition: out of memory building the graph "
                         "of set '%s'",
                         set->name);
  int trivial = !xadj || xadj[n] == 0 || nparts == 1 || n < nparts;
  if (status == LOOM_OK && (method == LOOMRT_PART_BLOCK || trivial))
    block_owners(owner, n, nparts);
  else if (status == LOOM_OK && method == LOOMRT_PART_METIS)
    status = metis_owners(xadj, adj, n, nparts, owner);
  else if (status == LOOM_OK)
    status = scotch_owners(xadj, adj, n, nparts, owner);
  if (status == LOOM_ENOMEM)
    loom_error_(status, "loom_partition: out of memory partitioning set '%s'",
                set->name);
  if (status == LOOM_OK && xadj) {
    long long cut = 0;
    for (int v = 0; v < n; v++)
      for (int k = xadj[v]; k < xadj[v + 1]; k++)
        cut += owner[v] != owner[adj[k]];
    *edge_cut = cut / 2;
  }
  free(xadj);
  free(adj);
  return status;
}

static int primary_owners(loomrt_mesh *mesh, loomrt_part_method method,
                          int diag, long long *edge_cut) {
  loom_set set = mesh->sets[mesh->primary];
  int *owner = mesh->owner[mesh->primary];
  MPI_Comm comm = loomrt_mpi_comm();
  int status = LOOM_OK;
  if (loomrt_mpi_rank() == 0)
    status = partition_on_root(set, method, diag, owner, edge_cut);
  else if (method == LOOMRT_PART_BLOCK)
    block_owners(owner, set->size, loomrt_mpi_size());
  int rc = MPI_Bcast(&status, 1, MPI_INT, 0, comm);
  if (rc != MPI_SUCCESS)
    return loomrt_mpi_check(rc, "MPI_Bcast of the partition status");
  if (status != LOOM_OK)
    return loomrt_mpi_rank() == 0
               ? status
               : loom_error_(status, "loom_partition: partitioning set '%s' "
                                     "failed on rank 0 (see its message)",
                             set->name);
  if (method == LOOMRT_PART_BLOCK)
    return LOOM_OK;
  return loomrt_mpi_check(MPI_Bcast(owner, set->size, MPI_INT, 0, comm),
                          "MPI_Bcast of the partition of set '%s'",
                          set->name);
}

/* ---- the other sets ---------------------------------------------------- */

/* The first map from set s into an assigned set (dir 1), or into s from an
 * assigned set (dir 2, preferring the primary's); -1 if none. */
static int follow_map(const loomrt_mesh *mesh, const char *assigned, int s,
                      int dir) {
  int found = -1;
  for (int m = 0; m < mesh->nmaps; m++) {
    if (dir == 1 && mesh->from[m] == s && assigned[mesh->to[m]])
      return m;
    if (dir == 2 && mesh->to[m] == s && mesh->from[m] != s &&
        assigned[mesh->from[m]]) {
      if (mesh->from[m] == mesh->primary)
        return m;
      if (found < 0)
        found = m;
    }
  }
  return found;
}

static void follow(loomrt_mesh *mesh, int s, int m, int dir) {
  const loom_map map = mesh->maps[m];
  int *owner = mesh->owner[s], n = mesh->sets[s]->size;
  if (dir == 1) {
    const int *target = mesh->owner[mesh->to[m]];
    for (int i = 0; i < n; i++)
      owner[i] = target[map->values[(size_t)i * map->dim]];
    return;
  }
  const int *source = mesh->owner[mesh->from[m]];
  for (int i = 0; i < n; i++)
    owner[i] = -1;
  size_t count = (size_t)map->from->size * (size_t)map->dim;
  for (size_t e = 0; e < count; e++)
    if (owner[map->values[e]] < 0)
      owner[map->values[e]] = source[e / (size_t)map->dim];
  for (int i = 0; i < n; i++)
    if (owner[i] < 0) /* nothing maps to it */
      owner[i] = (int)((long long)i * loomrt_mpi_size() / n);
}

int loomrt_mpi_owners(loomrt_mesh *mesh, loomrt_part_method method, int diag,
                      long long *edge_cut) {
  *edge_cut = -1;
  int status = LOOM_OK;
  for (int s = 0; s < mesh->nsets && status == LOOM_OK; s++) {
    mesh->owner[s] = malloc(((size_t)mesh->sets[s]->size + 1) * sizeof(int));
    if (!mesh->owner[s])
      status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  }
  char *assigned = calloc((size_t)mesh->nsets + 1, 1);
  if (status == LOOM_OK && !assigned)
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (owners)");
  if (status == LOOM_OK && mesh->primary >= 0) {
    status = primary_owners(mesh, method, diag, edge_cut);
    assigned[mesh->primary] = 1;
  }
  for (;;) {
    int s = 0, m = -1, dir;
    for (dir = 1; dir <= 2 && m < 0; dir++)
      for (s = 0; s < mesh->nsets; s++)
        if (!assigned[s] && (m = follow_map(mesh, assigned, s, dir)) >= 0)
          break;
    if (status != LOOM_OK || m < 0)
      break;
    follow(mesh, s, m, dir - 1);
    assigned[s] = 1;
  }
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    if (!assigned[s])
      block_owners(mesh->owner[s], mesh->sets[s]->size, loomrt_mpi_size());
  free(assigned);
  return status;
}
