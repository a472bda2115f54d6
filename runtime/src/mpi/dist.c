/*
 * mpi/dist.c — partitioning a distributed mesh: every rank holds a slice
 * of each set (partition.h, "distributed meshes").
 *
 * Design
 * ------
 * A set declared from slices (loom_decl_set_slice, loom_decl_set_hdf5)
 * has on rank r the elements [lo[r], lo[r + 1]) of its global numbering,
 * with their map rows (entries in global numbers) and dat rows.  Sets
 * declared whole are cut into blocks first, so every set is a slice.  No
 * step allocates anything of a set's global size on any rank: each works
 * on the rank's slice, and what it needs from other slices it asks their
 * holders for (loomrt_dist_lookup: requests by holder, one all-to-all
 * there and one back), where the holder of element g is found by binary
 * search in lo.
 *
 * 1. The primary's graph, distributed: the same graph as the whole-mesh
 *    path (plan/renumber.c, design 2): element i ~ j when a map from the
 *    primary to itself has j as an entry of i, or when one element of
 *    another set has both among its entries through its maps into the
 *    primary; when that gives no edge on any rank, elements sharing an
 *    entry of a map out of the primary, chained per target at the
 *    target's holder.  Each pair goes to the holders of both ends, which
 *    sort their pairs and drop duplicates: a CSR of the slice's vertices
 *    with global neighbour numbers.
 * 2. The primary's owners: "ptscotch" hands that CSR to PT-Scotch as is
 *    (the slices are its vertex distribution); "metis" and "scotch"
 *    gather it on rank 0 (a whole graph there: the option for small
 *    meshes) and scatter the parts back; "block" gives element g the rank
 *    floor(g P / n), as the whole-mesh path does; "geom" cuts a
 *    space-filling curve through the coordinates (geom.c, no graph).
 * 3. The other sets follow the maps by the whole-mesh path's rules
 *    (partition.c): through a map into an assigned set, an element
 *    takes the owner of its slot-0 entry (a lookup); from an assigned set
 *    mapping into it, the owner of the lowest-numbered element mapping to
 *    it (records sent to the target's holder, which keeps the least).  So
 *    "block" partitions a mesh exactly as the whole-mesh path does.
 * 4. Migration, halos and the slices' release: dist_migrate.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "core/core.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

/* ---- communication helpers ---------------------------------------------- */

int loomrt_dist_holder(const int *lo, int P, int g) {
  int a = 0, b = P - 1; /* the last rank r with lo[r] <= g */
  while (a < b) {
    int m = (a + b + 1) / 2;
    if (lo[m] <= g)
      a = m;
    else
      b = m - 1;
  }
  return a;
}

static int *int_alloc(size_t n) { return loomrt_calloc(LOOM_MEM_STARTUP, n + 1, sizeof(int)); }

int loomrt_dist_exchange(const void *sbuf, const int *scount, size_t size,
                         void **rbuf, int *rcount, int *rtotal,
                         const char *what) {
  int P = loomrt_mpi_size();
  MPI_Comm comm = loomrt_mpi_comm();
  MPI_Datatype item = MPI_DATATYPE_NULL;
  int *sd = int_alloc((size_t)P), *rd = int_alloc((size_t)P);
  *rbuf = NULL;
  int status = sd && rd ? LOOM_OK
                        : loom_error_(LOOM_ENOMEM, "loom_partition: out of "
                                                   "memory (%s)", what);
  status = loomrt_mpi_agree(status, "loom_partition (distributed mesh)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm),
        "MPI_Alltoall of the counts of %s", what);
  long long total = 0;
  for (int q = 0; status == LOOM_OK && q < P; q++) {
    sd[q] = q ? sd[q - 1] + scount[q - 1] : 0;
    rd[q] = (int)total;
    total += rcount[q];
  }
  if (status == LOOM_OK && total > 0x7fffffffLL)
    status = loom_error_(LOOM_EINVAL, "loom_partition: %s: %lld items for "
                                      "one rank overflow an MPI count",
                         what, total);
  if (status == LOOM_OK && !(*rbuf = loomrt_alloc(LOOM_MEM_STARTUP, (size_t)total * size + 1)))
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory (%s)",
                         what);
  status = loomrt_mpi_agree(status, "loom_partition (distributed mesh)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Type_contiguous((int)size, MPI_BYTE, &item),
                              "MPI_Type_contiguous (%s)", what);
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Type_commit(&item), "MPI_Type_commit");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Alltoallv(sbuf, scount, sd, item, *rbuf,
                                            rcount, rd, item, comm),
                              "MPI_Alltoallv of %s", what);
  if (item != MPI_DATATYPE_NULL)
    MPI_Type_free(&item);
  if (status != LOOM_OK) {
    loomrt_free(*rbuf);
    *rbuf = NULL;
  }
  *rtotal = (int)total;
  loomrt_free(sd);
  loomrt_free(rd);
  return status;
}

void loomrt_dist_by_rank(const int *dest, int n, int P, int *count, int *order) {
  int *at = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof *at);
  memset(count, 0, (size_t)P * sizeof *count);
  for (int i = 0; i < n; i++)
    count[dest[i]]++;
  if (!at) { /* no memory for the cursors: P passes instead */
    for (int q = 0, k = 0; q < P; q++)
      for (int i = 0; i < n; i++)
        if (dest[i] == q)
          order[k++] = i;
    return;
  }
  for (int q = 1; q < P; q++)
    at[q] = at[q - 1] + count[q - 1];
  for (int i = 0; i < n; i++)
    order[at[dest[i]]++] = i;
  loomrt_free(at);
}

int loomrt_dist_lookup_rows(const int *lo, const void *value, size_t row,
                            const int *gid, int n, void *out, const char *what) {
  int P = loomrt_mpi_size(), me = loomrt_mpi_rank();
  int *dest = int_alloc((size_t)n), *order = int_alloc((size_t)n);
  int *ask = int_alloc((size_t)n), *count = int_alloc((size_t)P);
  int *rcount = int_alloc((size_t)P);
  int *got = NULL, nreq = 0, nback = 0;
  char *reply = NULL, *back = NULL;
  int status = dest && order && ask && count && rcount
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory "
                                              "(%s)", what);
  if (status == LOOM_OK) {
    for (int i = 0; i < n; i++)
      dest[i] = loomrt_dist_holder(lo, P, gid[i]);
    loomrt_dist_by_rank(dest, n, P, count, order);
    for (int k = 0; k < n; k++)
      ask[k] = gid[order[k]];
  }
  loomrt_free(dest); /* each buffer freed as soon as it is used: peak memory */
  dest = NULL;
  status = loomrt_mpi_agree(status, "loom_partition (distributed mesh)");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(ask, count, sizeof(int), (void **)&got,
                                  rcount, &nreq, what);
  loomrt_free(ask);
  ask = NULL;
  if (status == LOOM_OK && !(reply = loomrt_alloc(LOOM_MEM_STARTUP, (size_t)nreq * row + 1)))
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory (%s)",
                         what);
  status = loomrt_mpi_agree(status, "loom_partition (distributed mesh)");
  for (int k = 0; status == LOOM_OK && k < nreq; k++)
    memcpy(reply + (size_t)k * row,
           (const char *)value + (size_t)(got[k] - lo[me]) * row, row);
  loomrt_free(got);
  got = NULL;
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(reply, rcount, row, (void **)&back, count,
                                  &nback, what);
  for (int k = 0; status == LOOM_OK && k < n; k++)
    memcpy((char *)out + (size_t)order[k] * row, back + (size_t)k * row, row);
  loomrt_free(dest);
  loomrt_free(order);
  loomrt_free(ask);
  loomrt_free(count);
  loomrt_free(rcount);
  loomrt_free(got);
  loomrt_free(reply);
  loomrt_free(back);
  return status;
}

int loomrt_dist_lookup(const int *lo, const int *value, const int *gid,
                       int n, int *out, const char *what) {
  return loomrt_dist_lookup_rows(lo, value, sizeof(int), gid, n, out, what);
}

/* ---- slices ---------------------------------------------------------------- */

/* Keeps only the rows [off, off + n) of a whole set's maps and dats: the
 * set becomes this rank's block (the storage shrinks in place). */
static void slice_set(loomrt_mesh *mesh, int s, int off, int n) {
  loom_set set = mesh->sets[s];
  for (int m = 0; m < mesh->nmaps; m++)
    if (mesh->from[m] == s) {
      loom_map map = mesh->maps[m];
      memmove(map->values, map->values + (size_t)off * map->dim,
              (size_t)n * map->dim * sizeof(int));
    }
  for (int k = 0; k < mesh->ndats; k++) {
    loom_dat dat = mesh->dats[k];
    size_t row = (size_t)dat->dim * dat->elem_size;
    if (dat->set != set)
      continue;
    if (!dat->owner)
      memmove(dat->values, (char *)dat->values + (size_t)off * row,
              (size_t)n * row);
    dat->bytes = (size_t)n * row;
  }
  set->size = n;
  set->slice_off = off;
}

/* Every set a slice, and every rank's slice offsets of every set. */
static int slices(loomrt_dist *d) {
  loomrt_mesh *mesh = d->mesh;
  int ns = mesh->nsets, P = d->P;
  int *mine = int_alloc((size_t)ns), *all = int_alloc((size_t)ns * P);
  d->lo = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)ns + 1, sizeof *d->lo);
  int status = mine && all && d->lo ? LOOM_OK : LOOM_ENOMEM;
  for (int s = 0; status == LOOM_OK && s < ns; s++) {
    loom_set set = mesh->sets[s];
    if (set->new_of_old)
      status = loom_error_(LOOM_EINVAL,
                           "loom_partition: set '%s' was renumbered "
                           "(loom_renumber, $LOOM_RENUMBER=1), which a "
                           "distributed mesh does not support",
                           set->name);
    else if (set->slice_off < 0)
      slice_set(mesh, s, (int)((long long)d->me * set->gsize / P),
                (int)((long long)(d->me + 1) * set->gsize / P) -
                    (int)((long long)d->me * set->gsize / P));
    mine[s] = set->slice_off;
    if (!(d->lo[s] = int_alloc((size_t)P)))
      status = LOOM_ENOMEM;
  }
  if (status == LOOM_ENOMEM)
    loom_error_(status, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (slices)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allgather(mine, ns, MPI_INT, all, ns,
                                            MPI_INT, loomrt_mpi_comm()),
                              "MPI_Allgather of the slices");
  for (int s = 0; status == LOOM_OK && s < ns; s++) {
    for (int q = 0; q < P; q++)
      d->lo[s][q] = all[(size_t)q * ns + s];
    d->lo[s][P] = mesh->sets[s]->gsize;
  }
  loomrt_free(mine);
  loomrt_free(all);
  return status;
}

/* ---- the primary's graph ---------------------------------------------------- */

typedef struct pairs {
  long long *v; /* (i << 32 | j), i the vertex whose row gets j */
  size_t n, cap;
} pairs;

/* Appends (i, j) only. */
static int pair_push(pairs *p, int i, int j) {
  if (p->n + 1 > p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 1024;
    long long *v = loomrt_realloc(LOOM_MEM_STARTUP, p->v, cap * sizeof *v);
    if (!v)
      return LOOM_ENOMEM;
    p->v = v;
    p->cap = cap;
  }
  p->v[p->n++] = (long long)i << 32 | (unsigned)j;
  return LOOM_OK;
}

/* An edge of the graph: (i, j) and (j, i); none for i == j. */
static int pair_add(pairs *p, int i, int j) {
  if (i == j)
    return LOOM_OK;
  if (pair_push(p, i, j) != LOOM_OK)
    return LOOM_ENOMEM;
  return pair_push(p, j, i);
}


/* Edges from maps into the primary: self-maps, and a clique per element
 * of another set over its entries through all its maps into it. */
static int direct_edges(const loomrt_dist *d, int p, pairs *e) {
  const loomrt_mesh *mesh = d->mesh;
  int status = LOOM_OK;
  for (int s = 0; s < mesh->nsets && status == LOOM_OK; s++) {
    int width = 0;
    for (int m = 0; m < mesh->nmaps; m++)
      if (mesh->from[m] == s && mesh->to[m] == p)
        width += mesh->maps[m]->dim;
    int *row = int_alloc((size_t)width);
    if (!row)
      return LOOM_ENOMEM;
    for (int i = 0; width && i < mesh->sets[s]->size && status == LOOM_OK;
         i++) {
      int w = 0;
      for (int m = 0; m < mesh->nmaps; m++)
        if (mesh->from[m] == s && mesh->to[m] == p)
          for (int k = 0; k < mesh->maps[m]->dim; k++)
            row[w++] = mesh->maps[m]->values[(size_t)i * mesh->maps[m]->dim + k];
      if (s == p)
        for (int k = 0; k < w && status == LOOM_OK; k++)
          status = pair_add(e, mesh->sets[s]->slice_off + i, row[k]);
      else
        for (int a = 0; a < w && status == LOOM_OK; a++)
          for (int b = a + 1; b < w && status == LOOM_OK; b++)
            status = pair_add(e, row[a], row[b]);
    }
    loomrt_free(row);
  }
  return status;
}

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

/* Sends each pair to the holder of its first vertex (set with offsets
 * lo); on return e holds the pairs this rank received, sorted, unique. */
static int route_pairs(const loomrt_dist *d, const int *lo, pairs *e,
                       const char *what) {
  int P = d->P;
  size_t n = e->n;
  if (n > 0x7fffffff)
    return loom_error_(LOOM_EINVAL, "loom_partition: %zu graph pairs on one "
                                    "rank overflow an MPI count", n);
  int *dest = int_alloc(n), *order = int_alloc(n), *count = int_alloc(P);
  int *rcount = int_alloc(P);
  long long *send = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *send), *got = NULL;
  int total = 0;
  int status = dest && order && count && rcount && send ? LOOM_OK
                                                        : LOOM_ENOMEM;
  if (status == LOOM_OK) {
    for (size_t k = 0; k < n; k++)
      dest[k] = loomrt_dist_holder(lo, P, (int)(e->v[k] >> 32));
    loomrt_dist_by_rank(dest, (int)n, P, count, order);
    for (size_t k = 0; k < n; k++)
      send[k] = e->v[order[k]];
  } else {
    loom_error_(status, "loom_partition: out of memory (%s)", what);
  }
  status = loomrt_mpi_agree(status, "loom_partition (graph)");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(send, count, sizeof *send, (void **)&got,
                                  rcount, &total, what);
  loomrt_free(e->v);
  e->v = got;
  e->n = e->cap = status == LOOM_OK ? (size_t)total : 0;
  if (e->n)
    qsort(e->v, e->n, sizeof *e->v, cmp_ll);
  size_t u = 0;
  for (size_t k = 0; k < e->n; k++)
    if (u == 0 || e->v[k] != e->v[u - 1])
      e->v[u++] = e->v[k];
  e->n = u;
  loomrt_free(dest);
  loomrt_free(order);
  loomrt_free(count);
  loomrt_free(rcount);
  loomrt_free(send);
  return status;
}

/* The fallback: elements of the primary sharing an entry of a map out of
 * it, chained at each target's holder. */
static int shared_target_edges(const loomrt_dist *d, int p, pairs *e) {
  const loomrt_mesh *mesh = d->mesh;
  int status = LOOM_OK;
  loom_set set = mesh->sets[p];
  for (int m = 0; m < mesh->nmaps && status == LOOM_OK; m++) {
    if (mesh->from[m] != p || mesh->to[m] == p)
      continue;
    pairs t = {0};
    const loom_map map = mesh->maps[m];
    for (int i = 0; i < set->size && status == LOOM_OK; i++)
      for (int k = 0; k < map->dim && status == LOOM_OK; k++) {
        status = pair_push(&t, map->values[(size_t)i * map->dim + k],
                           set->slice_off + i); /* (target, source) */
      }
    status = loomrt_mpi_agree(status, "loom_partition (graph)");
    if (status == LOOM_OK)
      status = route_pairs(d, d->lo[mesh->to[m]], &t, "the map's targets");
    for (size_t k = 1; status == LOOM_OK && k < t.n; k++)
      if (t.v[k] >> 32 == t.v[k - 1] >> 32)
        status = pair_add(e, (int)(unsigned)t.v[k - 1], (int)(unsigned)t.v[k]);
    loomrt_free(t.v);
  }
  return status;
}

/* The CSR of this rank's slice of the primary (global neighbours). */
static int primary_graph(const loomrt_dist *d, int p, int **xadj, int **adj,
                         long long *edges) {
  loom_set set = d->mesh->sets[p];
  pairs e = {0};
  int status = direct_edges(d, p, &e);
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory (graph)");
  status = loomrt_mpi_agree(status, "loom_partition (graph)");
  long long mine = (long long)e.n;
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allreduce(&mine, edges, 1, MPI_LONG_LONG,
                                            MPI_SUM, loomrt_mpi_comm()),
                              "MPI_Allreduce of the graph's size");
  if (status == LOOM_OK && *edges == 0) {
    status = shared_target_edges(d, p, &e);
    mine = (long long)e.n;
    if (status == LOOM_OK)
      status = loomrt_mpi_check(MPI_Allreduce(&mine, edges, 1, MPI_LONG_LONG,
                                              MPI_SUM, loomrt_mpi_comm()),
                                "MPI_Allreduce of the graph's size");
  }
  if (status == LOOM_OK)
    status = route_pairs(d, d->lo[p], &e, "the primary's graph");
  *xadj = int_alloc((size_t)set->size + 1);
  *adj = int_alloc(e.n);
  if (status == LOOM_OK && (!*xadj || !*adj))
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory (graph)");
  if (status == LOOM_OK) {
    memset(*xadj, 0, ((size_t)set->size + 1) * sizeof **xadj);
    for (size_t k = 0; k < e.n; k++) {
      (*xadj)[(int)(e.v[k] >> 32) - set->slice_off + 1]++;
      (*adj)[k] = (int)(unsigned)e.v[k];
    }
    for (int i = 0; i < set->size; i++)
      (*xadj)[i + 1] += (*xadj)[i];
  }
  loomrt_free(e.v);
  return status;
}

/* ---- the primary's owners ------------------------------------------------- */

static void block_owner(const loom_set set, int *owner) {
  int P = loomrt_mpi_size();
  for (int i = 0; i < set->size; i++)
    owner[i] = (int)((long long)(set->slice_off + i) * P / set->gsize);
}

/* METIS or Scotch on rank 0: the graph gathered there, parts scattered. */
static int rank0_owners(const loomrt_dist *d, loomrt_part_method method,
                        loom_set set, const int *xadj, const int *adj,
                        int *owner) {
  int P = d->P, me = d->me, n = set->size, ne = xadj[n];
  MPI_Comm comm = loomrt_mpi_comm();
  int *nv = int_alloc(P), *nedge = int_alloc(P), *vd = int_alloc(P),
      *ed = int_alloc(P);
  int *deg = int_alloc((size_t)n), *gx = NULL, *ga = NULL, *part = NULL;
  int status = nv && nedge && vd && ed && deg ? LOOM_OK : LOOM_ENOMEM;
  for (int i = 0; status == LOOM_OK && i < n; i++)
    deg[i] = xadj[i + 1] - xadj[i];
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (gathering the graph)");
  if (status == LOOM_OK &&
      (MPI_Gather(&n, 1, MPI_INT, nv, 1, MPI_INT, 0, comm) != MPI_SUCCESS ||
       MPI_Gather(&ne, 1, MPI_INT, nedge, 1, MPI_INT, 0, comm) != MPI_SUCCESS))
    status = loom_error_(LOOM_ECOMM, "loom_partition: MPI_Gather failed");
  long long tv = 0, te = 0;
  for (int q = 0; me == 0 && status == LOOM_OK && q < P; q++) {
    vd[q] = (int)tv;
    ed[q] = (int)te;
    tv += nv[q];
    te += nedge[q];
  }
  if (me == 0 && status == LOOM_OK &&
      !((gx = int_alloc((size_t)tv + 1)) && (ga = int_alloc((size_t)te)) &&
        (part = int_alloc((size_t)tv))))
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory for the "
                                      "whole graph on rank 0");
  status = loomrt_mpi_agree(status, "loom_partition (gathering the graph)");
  if (status == LOOM_OK &&
      (MPI_Gatherv(deg, n, MPI_INT, gx ? gx + 1 : NULL, nv, vd, MPI_INT, 0,
                   comm) != MPI_SUCCESS ||
       MPI_Gatherv(adj, ne, MPI_INT, ga, nedge, ed, MPI_INT, 0, comm) !=
           MPI_SUCCESS))
    status = loom_error_(LOOM_ECOMM, "loom_partition: MPI_Gatherv failed");
  if (me == 0 && status == LOOM_OK) {
    gx[0] = 0;
    for (long long i = 0; i < tv; i++)
      gx[i + 1] += gx[i];
    status = loomrt_part_rank0(method, gx, ga, (int)tv, P, part);
  }
  status = loomrt_mpi_agree(status, "loom_partition (rank 0's partition)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Scatterv(part, nv, vd, MPI_INT, owner, n,
                                           MPI_INT, 0, comm),
                              "MPI_Scatterv of the partition");
  loomrt_free(nv);
  loomrt_free(nedge);
  loomrt_free(vd);
  loomrt_free(ed);
  loomrt_free(deg);
  loomrt_free(gx);
  loomrt_free(ga);
  loomrt_free(part);
  return status;
}

/* The primary's edge cut (counted once per edge), for $LOOM_DIAG. */
static long long edge_cut(const loomrt_dist *d, int p, const int *xadj,
                          const int *adj, const int *owner) {
  int n = d->mesh->sets[p]->size, ne = xadj[n];
  int *theirs = int_alloc((size_t)ne);
  long long cut = 0, all = -1;
  if (loomrt_dist_lookup(d->lo[p], owner, adj, theirs ? ne : 0, theirs,
                         "the edge cut") == LOOM_OK && theirs)
    for (int i = 0; i < n; i++)
      for (int k = xadj[i]; k < xadj[i + 1]; k++)
        cut += owner[i] != theirs[k];
  MPI_Allreduce(&cut, &all, 1, MPI_LONG_LONG, MPI_SUM, loomrt_mpi_comm());
  loomrt_free(theirs);
  return all / 2;
}

/* Returns the heap's free memory to the system: the partitioner's graph
 * and the migration's messages leave large holes (glibc keeps them). */
void loomrt_trim(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

static int primary_owners(loomrt_dist *d, loomrt_part_method method,
                          long long *cut) {
  int p = d->mesh->primary;
  loom_set set = d->mesh->sets[p];
  int *owner = d->mesh->owner[p], *xadj = NULL, *adj = NULL;
  long long edges = 0;
  int diag = loomrt_diag();
  int status = LOOM_OK;
  int geom = method == LOOMRT_PART_GEOM;
  if ((method != LOOMRT_PART_BLOCK && !geom) || diag)
    status = primary_graph(d, p, &xadj, &adj, &edges);
  loomrt_dist_step("the graph");
  int trivial = (edges == 0 && !geom) || d->P == 1 || set->gsize < d->P;
  if (status == LOOM_OK && (method == LOOMRT_PART_BLOCK || trivial))
    block_owner(set, owner);
  else if (status == LOOM_OK && geom)
    status = loomrt_geom_owners(d, p, owner);
  else if (status == LOOM_OK && method == LOOMRT_PART_PTSCOTCH)
    status = loomrt_part_ptscotch(xadj, adj, 0, set->size, d->P, set->name,
                                  owner);
  else if (status == LOOM_OK)
    status = rank0_owners(d, method, set, xadj, adj, owner);
  if (status == LOOM_OK && diag && xadj)
    *cut = edge_cut(d, p, xadj, adj, owner);
  loomrt_free(xadj);
  loomrt_free(adj);
  loomrt_trim();
  loomrt_dist_step("the primary's owners");
  return status;
}

/* ---- diagnostics ---------------------------------------------------------- */

/* Reads "Key:   N kB" from /proc/self/status; -1 where there is none. */
static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  size_t n = strlen(key);
  while (f && kb < 0 && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':')
      kb = strtol(line + n + 1, NULL, 10);
  if (f)
    fclose(f);
  return kb;
}

void loomrt_dist_step(const char *step) {
  static double last = 0.0;
  if (!loomrt_diag())
    return;
  double now = MPI_Wtime();
  if (!step) { /* the clock starts */
    last = now;
    return;
  }
  long rss = status_kb("VmRSS"), peak = status_kb("VmHWM");
  if (rss >= 0 && peak >= 0)
    fprintf(stderr, "loom: partition: rank %d after %s (%.3f s): resident "
            "%.1f MB, peak %.1f MB\n", loomrt_mpi_rank(), step,
            now - last, rss / 1024.0, peak / 1024.0);
  last = now;
}

/* ---- the other sets ----------------------------------------------------- */

/* Set s takes the owner of each element's slot-0 entry through map m. */
static int follow_into(loomrt_dist *d, int s, int m) {
  const loomrt_mesh *mesh = d->mesh;
  const loom_map map = mesh->maps[m];
  int n = mesh->sets[s]->size;
  int *first = int_alloc((size_t)n);
  int status = first ? LOOM_OK
                     : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  for (int i = 0; first && i < n; i++)
    first[i] = map->values[(size_t)i * map->dim];
  status = loomrt_mpi_agree(status, "loom_partition (owners)");
  if (status == LOOM_OK)
    status = loomrt_dist_lookup(d->lo[mesh->to[m]], mesh->owner[mesh->to[m]],
                                first, n, mesh->owner[s], "owners");
  loomrt_free(first);
  return status;
}

/* Set s takes the owner of the lowest-numbered element mapping to it
 * through map m (from an assigned set): records (target, source, owner)
 * at the target's holder. */
static int follow_from(loomrt_dist *d, int s, int m) {
  const loomrt_mesh *mesh = d->mesh;
  const loom_map map = mesh->maps[m];
  loom_set from = map->from, set = mesh->sets[s];
  size_t n = (size_t)from->size * map->dim;
  int *dest = int_alloc(n), *order = int_alloc(n), *count = int_alloc(d->P);
  int *rcount = int_alloc(d->P), *rec = int_alloc(3 * n), *got = NULL;
  int *best = int_alloc((size_t)set->size);
  int total = 0;
  int status = dest && order && count && rcount && rec && best
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  if (status == LOOM_OK) {
    for (size_t e = 0; e < n; e++)
      dest[e] = loomrt_dist_holder(d->lo[s], d->P, map->values[e]);
    loomrt_dist_by_rank(dest, (int)n, d->P, count, order);
    for (size_t k = 0; k < n; k++) {
      size_t e = (size_t)order[k], i = e / (size_t)map->dim;
      rec[3 * k] = map->values[e];
      rec[3 * k + 1] = from->slice_off + (int)i;
      rec[3 * k + 2] = mesh->owner[mesh->from[m]][i];
    }
  }
  status = loomrt_mpi_agree(status, "loom_partition (owners)");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(rec, count, 3 * sizeof(int), (void **)&got,
                                  rcount, &total, "owners");
  if (status == LOOM_OK) {
    int *owner = mesh->owner[s];
    for (int i = 0; i < set->size; i++)
      best[i] = -1;
    for (int k = 0; k < total; k++) {
      int i = got[3 * k] - set->slice_off;
      if (best[i] < 0 || got[3 * k + 1] < best[i]) {
        best[i] = got[3 * k + 1];
        owner[i] = got[3 * k + 2];
      }
    }
    for (int i = 0; i < set->size; i++)
      if (best[i] < 0) /* nothing maps to it */
        owner[i] = (int)((long long)(set->slice_off + i) * d->P / set->gsize);
  }
  loomrt_free(dest);
  loomrt_free(order);
  loomrt_free(count);
  loomrt_free(rcount);
  loomrt_free(rec);
  loomrt_free(got);
  loomrt_free(best);
  return status;
}

static int other_owners(loomrt_dist *d, char *assigned) {
  loomrt_mesh *mesh = d->mesh;
  int status = LOOM_OK;
  while (status == LOOM_OK) {
    int s = 0, m = -1, dir;
    for (dir = 1; dir <= 2 && m < 0; dir++)
      for (s = 0; s < mesh->nsets; s++)
        if (!assigned[s] && (m = loomrt_follow_map(mesh, assigned, s, dir)) >= 0)
          break;
    if (m < 0)
      break;
    status = dir - 1 == 1 ? follow_into(d, s, m) : follow_from(d, s, m);
    assigned[s] = 1;
  }
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    if (!assigned[s])
      block_owner(mesh->sets[s], mesh->owner[s]);
  return status;
}

/* ---- the whole partition ------------------------------------------------- */

int loomrt_slice_check(int status, int gsize, int offset, int count,
                       const char *name) {
  int P = loomrt_mpi_size(), mine[3] = {gsize, offset, count};
  int *all = int_alloc(3 * (size_t)P);
  if (status == LOOM_OK && !all)
    status = loom_error_(LOOM_ENOMEM, "set '%s': out of memory", name);
  status = loomrt_mpi_agree(status, "loom_decl_set_slice");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT,
                                            loomrt_mpi_comm()),
                              "MPI_Allgather of set '%s''s slices", name);
  long long next = 0;
  for (int q = 0; status == LOOM_OK && q < P; q++) {
    const int *v = all + 3 * q;
    if (v[0] != gsize || v[1] != next)
      status = loom_error_(
          LOOM_EINVAL,
          "set '%s': rank %d's slice is [%d, %d) of %d elements, but the "
          "ranks' slices must tile [0, %d) in rank order (expected a slice "
          "starting at %lld)",
          name, q, v[1], v[1] + v[2], v[0], gsize, next);
    next += v[2];
  }
  if (status == LOOM_OK && next != gsize)
    status = loom_error_(LOOM_EINVAL,
                         "set '%s': the ranks' slices cover [0, %lld), not "
                         "the %d elements declared",
                         name, next, gsize);
  loomrt_free(all);
  return status;
}

int loomrt_dist_partition(loomrt_mesh *mesh, loomrt_part_method method,
                          long long *cut) {
  loomrt_dist d = {mesh, loomrt_mpi_size(), loomrt_mpi_rank(), NULL};
  char *assigned = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)mesh->nsets + 1, 1);
  int status = assigned ? LOOM_OK : LOOM_ENOMEM;
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (owners)");
  loomrt_dist_step(NULL);
  if (status == LOOM_OK)
    status = slices(&d);
  loomrt_dist_step("the slices");
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    if (!(mesh->owner[s] = int_alloc((size_t)mesh->sets[s]->size)))
      status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (owners)");
  *cut = -1;
  if (status == LOOM_OK && mesh->primary >= 0) {
    status = primary_owners(&d, method, cut);
    assigned[mesh->primary] = 1;
  }
  if (status == LOOM_OK)
    status = other_owners(&d, assigned);
  loomrt_trim();
  loomrt_dist_step("the other owners");
  if (status == LOOM_OK)
    status = loomrt_dist_migrate(&d);
  loomrt_trim();
  for (int s = 0; d.lo && s < mesh->nsets; s++)
    loomrt_free(d.lo[s]);
  loomrt_free(d.lo);
  loomrt_free(assigned);
  return status;
}
