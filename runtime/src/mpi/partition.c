/*
 * mpi/partition.c — step 1 of partitioning: an owner rank for every
 * element of every set (partition.h).
 *
 * Design
 * ------
 * The primary set (loom_partition's argument, or loomrt_primary_set: the
 * set loom_renumber would order first) is partitioned on its graph
 * (loomrt_set_graph: elements adjacent when a map from the set to itself
 * links them or an element of another set maps to both):
 *   metis   METIS_PartGraphKway (default options, 0-based) on rank 0,
 *           its result broadcast with its status first (a failure there
 *           is an error on every rank rather than a hang);
 *   scotch  Scotch's sequential SCOTCH_graphPart (default strategy) on
 *           rank 0, broadcast the same way;
 *   ptscotch  PT-Scotch's distributed SCOTCH_dgraphPart (default
 *           strategy) on all ranks: rank r hands it the block
 *           [r n / P, (r + 1) n / P) of the graph's vertices with their
 *           edges (global numbers), and the parts are gathered on every
 *           rank (MPI_Allgatherv); each step's status is agreed first
 *           (MPI_Allreduce), so no rank is left alone in a collective;
 *   block   element i to rank floor(i * P / n), on every rank.
 * Both Scotch runs are asked to be deterministic with a fixed seed and one
 * thread (a Scotch context), so a mesh partitions the same on every run.
 * The graph is handed over as it is (its arrays, and the owners written in
 * place) where METIS's idx_t and SCOTCH_Num are int, as in Debian's
 * 32-bit builds: a copy of the graph was start-up's largest array after
 * the graph itself.
 * Every rank holds the declared mesh, so each builds the graph it needs
 * (rank 0 only, but for ptscotch).  A graph without edges, a single rank, or fewer
 * elements than ranks, falls back to block.
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
#include <ptscotch.h> /* SCOTCH_dgraph*; includes scotch.h and mpi.h */

#include "core/core.h"
#include "plan/plan.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

/* Whether a partitioner's integer type is int: then the graph's arrays
 * are its arrays, no copy (the casts below are taken only then). */
#define LOOMRT_IS_INT(T) _Generic((T)0, int: 1, default: 0)

/* n entries of v as METIS's idx_t (v itself when idx_t is int); NULL:
 * out of memory.  index_release frees a copy. */
static idx_t *idx_of(const int *v, size_t n) {
  if (LOOMRT_IS_INT(idx_t))
    return (idx_t *)(void *)(uintptr_t)v;
  idx_t *c = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *c);
  for (size_t i = 0; c && i < n; i++)
    c[i] = v[i];
  return c;
}

/* n entries of v minus base as SCOTCH_Num (v itself when SCOTCH_Num is
 * int and base is 0). */
static SCOTCH_Num *num_of(const int *v, size_t n, int base) {
  if (LOOMRT_IS_INT(SCOTCH_Num) && base == 0)
    return (SCOTCH_Num *)(void *)(uintptr_t)v;
  SCOTCH_Num *c = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *c);
  for (size_t i = 0; c && i < n; i++)
    c[i] = v[i] - base;
  return c;
}

/* Frees c unless it is v itself. */
static void index_release(void *c, const int *v) {
  if (c != (const void *)v)
    loomrt_free(c);
}

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
  idx_t *x = idx_of(xadj, (size_t)n + 1), *a = idx_of(adj, (size_t)xadj[n]);
  idx_t *part = idx_of(owner, (size_t)n); /* written by METIS */
  int status = LOOM_OK;
  if (!x || !a || !part) {
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory for "
                                      "METIS's copy of the graph");
  } else {
    int rc = METIS_PartGraphKway(&nv, &ncon, x, a, NULL, NULL, NULL, &np, NULL,
                                 NULL, options, &objval, part);
    if (rc == METIS_OK) {
      for (int i = 0; part != (idx_t *)(void *)owner && i < n; i++)
        owner[i] = (int)part[i];
      status = LOOM_OK;
    } else {
      status = loom_error_(LOOM_EINVAL,
                           "loom_partition: METIS_PartGraphKway failed (code "
                           "%d) on %d elements, %d parts",
                           rc, n, nparts);
    }
  }
  index_release(x, xadj);
  index_release(a, adj);
  index_release(part, owner);
  return status;
}

/* Every rank's status is the worst of all ranks' (a failure on one rank
 * is an error everywhere, never a rank left alone in a collective). */
static int agree(int status, const char *what, const char *set) {
  if (loomrt_mpi_failed())
    return loomrt_mpi_usable("loom_partition"); /* no collective in a failed session */
  int mine = status, worst = status;
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_Iallreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, loomrt_mpi_comm(), &req);
  if (rc != MPI_SUCCESS)
    return loomrt_mpi_check(rc, "MPI_Iallreduce of the %s status", what);
  rc = loomrt_mpi_wait(1, &req, "loom_partition: agreeing on a step's status");
  if (rc != LOOM_OK)
    return rc;
  if (mine == LOOM_OK && worst != LOOM_OK)
    return loom_error_(worst, "loom_partition: %s of set '%s' failed on "
                              "another rank (see its message)",
                       what, set);
  return worst == LOOM_OK ? LOOM_OK : mine;
}

/* The rank's block of the graph's vertices, [lo, hi): what it hands to
 * PT-Scotch as its part of the distributed graph (global numbers). */
static void vertex_block(int n, int *lo, int *hi) {
  int p = loomrt_mpi_size(), r = loomrt_mpi_rank();
  *lo = (int)((long long)r * n / p);
  *hi = (int)((long long)(r + 1) * n / p);
}

/* A Scotch context asking for a deterministic run with a fixed random
 * seed, so the same mesh on as many ranks gives the same partition every
 * run (Scotch's default need not), on the calling thread only: PT-Scotch's
 * own threads would call MPI concurrently, which the runtime's
 * MPI_THREAD_FUNNELED does not allow (it crashed a later collective at 4
 * ranks).  1 when it is ready. */
static int scotch_context(SCOTCH_Context *context) {
  if (SCOTCH_contextInit(context) != 0)
    return 0;
  if (SCOTCH_contextOptionSetNum(context, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ==
          0 &&
      SCOTCH_contextOptionSetNum(context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) ==
          0 &&
      SCOTCH_contextThreadSpawn(context, 1, NULL) == 0)
    return 1;
  SCOTCH_contextExit(context);
  return 0;
}

/* Scotch's sequential partitioner (SCOTCH_graphPart, the default
 * strategy) on the whole graph: rank 0's part for "scotch". */
static int scotch_owners(const int *xadj, const int *adj, int n, int nparts,
                         int *owner) {
  SCOTCH_Num *vert = num_of(xadj, (size_t)n + 1, 0), *edge = num_of(adj, (size_t)xadj[n], 0);
  SCOTCH_Num *part = num_of(owner, (size_t)n, 0); /* written by Scotch */
  int status = vert && edge && part ? LOOM_OK : LOOM_ENOMEM;
  SCOTCH_Context context;
  SCOTCH_Graph graph, bound;
  SCOTCH_Strat strat;
  if (status == LOOM_OK && scotch_context(&context)) {
    int ok = SCOTCH_graphInit(&graph) == 0 && SCOTCH_graphInit(&bound) == 0 &&
             SCOTCH_stratInit(&strat) == 0 &&
             SCOTCH_graphBuild(&graph, 0, n, vert, vert + 1, NULL, NULL,
                               xadj[n], edge, NULL) == 0 &&
             SCOTCH_contextBindGraph(&context, &graph, &bound) == 0 &&
             SCOTCH_graphPart(&bound, nparts, &strat, part) == 0;
    if (!ok)
      status = loom_error_(LOOM_EINVAL, "loom_partition: Scotch "
                                        "(SCOTCH_graphPart) failed to "
                                        "partition %d elements into %d parts",
                           n, nparts);
    SCOTCH_stratExit(&strat);
    SCOTCH_graphExit(&bound);
    SCOTCH_graphExit(&graph);
    SCOTCH_contextExit(&context);
  } else if (status == LOOM_OK) {
    status = LOOM_ENOMEM;
  }
  if (status == LOOM_ENOMEM)
    loom_error_(status, "loom_partition: out of memory for Scotch's copy of "
                        "the graph");
  for (int i = 0; status == LOOM_OK && part != (SCOTCH_Num *)(void *)owner && i < n; i++)
    owner[i] = (int)part[i];
  index_release(vert, xadj);
  index_release(edge, adj);
  index_release(part, owner);
  return status;
}

/* PT-Scotch's handles, bound to a deterministic context; 1 when ready. */
static int ptscotch_begin(SCOTCH_Context *context, SCOTCH_Dgraph *graph,
                          SCOTCH_Dgraph *bound, SCOTCH_Strat *strat) {
  MPI_Comm comm = loomrt_mpi_comm();
  if (!scotch_context(context))
    return 0;
  if (SCOTCH_dgraphInit(graph, comm) == 0) {
    if (SCOTCH_dgraphInit(bound, comm) == 0) {
      if (SCOTCH_stratInit(strat) == 0)
        return 1;
      SCOTCH_dgraphExit(bound);
    }
    SCOTCH_dgraphExit(graph);
  }
  SCOTCH_contextExit(context);
  return 0;
}

static void ptscotch_end(SCOTCH_Context *context, SCOTCH_Dgraph *graph,
                         SCOTCH_Dgraph *bound, SCOTCH_Strat *strat) {
  SCOTCH_stratExit(strat);
  SCOTCH_dgraphExit(bound);
  SCOTCH_dgraphExit(graph);
  SCOTCH_contextExit(context);
}

/* SCOTCH_dgraphPart on the distributed graph, each rank's part of it
 * returned in part (hi - lo entries). */
static int ptscotch_part(const int *xadj, const int *adj, int lo, int hi,
                         int nparts, const char *name, SCOTCH_Num *part) {
  int nl = hi - lo, ne = xadj[hi] - xadj[lo];
  SCOTCH_Num *vert = num_of(xadj + lo, (size_t)nl + 1, xadj[lo]);
  SCOTCH_Num *edge = num_of(adj + xadj[lo], (size_t)ne, 0);
  int status = LOOM_OK;
  if (!vert || !edge)
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory for "
                                      "PT-Scotch's part of the graph");
  status = agree(status, "building the distributed graph", name);
  SCOTCH_Dgraph graph, bound;
  SCOTCH_Strat strat;
  SCOTCH_Context context;
  int inited = 0;
  if (status == LOOM_OK) {
    inited = ptscotch_begin(&context, &graph, &bound, &strat);
    int ok = inited &&
             SCOTCH_dgraphBuild(&graph, 0, nl, nl, vert, vert + 1, NULL, NULL,
                                ne, ne, edge, NULL, NULL) == 0 &&
             SCOTCH_contextBindDgraph(&context, &graph, &bound) == 0 &&
             SCOTCH_dgraphPart(&bound, nparts, &strat, part) == 0;
    status = ok ? LOOM_OK
                : loom_error_(LOOM_EINVAL, "loom_partition: PT-Scotch "
                                           "(SCOTCH_dgraphPart) failed to "
                                           "partition set '%s' into %d parts",
                              name, nparts);
  }
  if (inited)
    ptscotch_end(&context, &graph, &bound, &strat);
  index_release(vert, xadj + lo);
  index_release(edge, adj + xadj[lo]);
  return status;
}

/* PT-Scotch: every rank gives its block of vertices, the parts are
 * gathered into owner on every rank. */
static int ptscotch_owners(const int *xadj, const int *adj, int n, int nparts,
                           const char *name, int *owner) {
  int lo, hi;
  vertex_block(n, &lo, &hi);
  SCOTCH_Num *part = num_of(owner + lo, (size_t)(hi - lo), 0); /* written by PT-Scotch */
  int *count = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)nparts + 1) * sizeof *count);
  int *first = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)nparts + 1) * sizeof *first);
  int status = LOOM_OK;
  if (!part || !count || !first)
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory for "
                                      "the PT-Scotch partition");
  status = agree(status, "partitioning", name);
  if (status == LOOM_OK)
    status = agree(ptscotch_part(xadj, adj, lo, hi, nparts, name, part),
                   "partitioning", name);
  for (int i = lo; status == LOOM_OK && part != (SCOTCH_Num *)(void *)(owner + lo) && i < hi; i++)
    owner[i] = (int)part[i - lo];
  for (int r = 0; status == LOOM_OK && r < nparts; r++) {
    first[r] = (int)((long long)r * n / nparts);
    count[r] = (int)((long long)(r + 1) * n / nparts) - first[r];
  }
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, owner, count, first,
                       MPI_INT, loomrt_mpi_comm()),
        "MPI_Allgatherv of the PT-Scotch partition");
  index_release(part, owner + lo);
  loomrt_free(count);
  loomrt_free(first);
  return status;
}

/* The graph of set (when the method or diag needs it), the owners by the
 * method, and the edge cut; on every rank for ptscotch (collective), on
 * rank 0 only otherwise. */
static int partition_set(loom_set set, loomrt_part_method method, int diag,
                         int *owner, long long *edge_cut) {
  int nparts = loomrt_mpi_size(), n = set->size;
  int *xadj = NULL, *adj = NULL;
  int status = LOOM_OK;
  int need_graph = method != LOOMRT_PART_BLOCK || diag;
  if (need_graph && loomrt_set_graph(set, &xadj, &adj) != LOOM_OK)
    status = loom_error_(LOOM_ENOMEM,
                         "loom_partition: out of memory building the graph "
                         "of set '%s'",
                         set->name);
  if (method == LOOMRT_PART_PTSCOTCH)
    status = agree(status, "building the graph", set->name);
  int trivial = !xadj || xadj[n] == 0 || nparts == 1 || n < nparts;
  if (status == LOOM_OK && (method == LOOMRT_PART_BLOCK || trivial))
    block_owners(owner, n, nparts);
  else if (status == LOOM_OK && method == LOOMRT_PART_METIS)
    status = metis_owners(xadj, adj, n, nparts, owner);
  else if (status == LOOM_OK && method == LOOMRT_PART_SCOTCH)
    status = scotch_owners(xadj, adj, n, nparts, owner);
  else if (status == LOOM_OK)
    status = ptscotch_owners(xadj, adj, n, nparts, set->name, owner);
  if (status == LOOM_OK && xadj) {
    long long cut = 0;
    for (int v = 0; v < n; v++)
      for (int k = xadj[v]; k < xadj[v + 1]; k++)
        cut += owner[v] != owner[adj[k]];
    *edge_cut = cut / 2;
  }
  loomrt_free(xadj);
  loomrt_free(adj);
  return status;
}

static int primary_owners(loomrt_mesh *mesh, loomrt_part_method method,
                          int diag, long long *edge_cut) {
  loom_set set = mesh->sets[mesh->primary];
  int *owner = mesh->owner[mesh->primary];
  MPI_Comm comm = loomrt_mpi_comm();
  if (method == LOOMRT_PART_PTSCOTCH) /* collective: agreed inside */
    return partition_set(set, method, diag, owner, edge_cut);
  int status = LOOM_OK;
  if (loomrt_mpi_rank() == 0)
    status = partition_set(set, method, diag, owner, edge_cut);
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

/* ---- for distributed meshes (dist.c) -------------------------------- */

int loomrt_part_rank0(loomrt_part_method method, const int *xadj,
                      const int *adj, int n, int nparts, int *owner) {
  if (method == LOOMRT_PART_METIS)
    return metis_owners(xadj, adj, n, nparts, owner);
  return scotch_owners(xadj, adj, n, nparts, owner);
}

int loomrt_part_ptscotch(const int *xadj, const int *adj, int lo, int hi,
                         int nparts, const char *name, int *part) {
  SCOTCH_Num *p = num_of(part, (size_t)(hi - lo), 0); /* written by PT-Scotch */
  int status = agree(p ? LOOM_OK
                       : loom_error_(LOOM_ENOMEM, "loom_partition: out of "
                                                  "memory for the PT-Scotch "
                                                  "partition"),
                     "partitioning", name);
  if (status == LOOM_OK)
    status = agree(ptscotch_part(xadj, adj, lo, hi, nparts, name, p),
                   "partitioning", name);
  for (int i = 0; status == LOOM_OK && p != (SCOTCH_Num *)(void *)part && i < hi - lo; i++)
    part[i] = (int)p[i];
  index_release(p, part);
  return status;
}

/* ---- the other sets ---------------------------------------------------- */

int loomrt_follow_map(const loomrt_mesh *mesh, const char *assigned, int s,
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
    mesh->owner[s] =
        loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)mesh->sets[s]->size + 1) * sizeof(int));
    if (!mesh->owner[s])
      status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  }
  char *assigned = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)mesh->nsets + 1, 1);
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
        if (!assigned[s] && (m = loomrt_follow_map(mesh, assigned, s, dir)) >= 0)
          break;
    if (status != LOOM_OK || m < 0)
      break;
    follow(mesh, s, m, dir - 1);
    assigned[s] = 1;
  }
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    if (!assigned[s])
      block_owners(mesh->owner[s], mesh->sets[s]->size, loomrt_mpi_size());
  loomrt_free(assigned);
  return status;
}
