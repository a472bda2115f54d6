/*
 * mpi/migrate.c — step 2 of partitioning: sections, local numbering,
 * migration of maps and dats, and the halo plans (partition.h).
 *
 * Design
 * ------
 * Every rank holds the global mesh and every element's owner, so it finds
 * its own elements without communication.  For a set S on rank r:
 *   owned     owner == r;
 *   core      owned, and every entry through every map from S is owned;
 *   exec      owned elsewhere, and some entry through a map from S is
 *             owned by r (so r executes it: increments into r's elements
 *             are then complete with no reverse communication — OP2's
 *             executed halo);
 *   non-exec  owned elsewhere, not exec, and the entry of an executed
 *             element (owned or exec, of any set) through some map.
 * Local order: core, owned boundary (both by increasing global index),
 * exec, non-exec (each by owner rank, then global index).  So the rows a
 * neighbour sends are contiguous per section, and each section is one
 * range [0, core) [core, owned) [owned, exec) [exec, total).
 *
 * Migration rewrites each map and dat in place (the local rows are a
 * subset, so they fit in the declared storage; pointers stay valid):
 * rows of executed elements get their entries translated to local indices
 * of the target set (found there by construction), rows of non-executed
 * halo elements get -1.  Dats sharing another's storage are moved once.
 * The scratch is the size of the largest local rows, and the pages of a
 * dat's own mapping past its local rows then go back to the system
 * (loomrt_dat_trim).
 *
 * Halo plans: each rank lists, per owner, the global indices of its halo
 * elements in local order; one MPI_Alltoall of counts and one
 * MPI_Alltoallv of indices tell every owner what to send, in that order.
 * The gather lists of loom_dat_fetch (owned counts and declared indices of
 * every rank) come from one MPI_Allgather(v) per set.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

enum { CORE = 0, BOUNDARY = 1, EXEC = 2, NONEXEC = 3, NONE = 4 };

static loomrt_halo_plan *plans = NULL; /* one per partitioned set */
static int nplans = 0;

const loomrt_halo_plan *loomrt_halo_plan_of(loom_set set) {
  for (int i = 0; i < nplans; i++)
    if (plans[i].set == set)
      return &plans[i];
  return NULL;
}

static void plan_free(loomrt_halo_plan *p) {
  loomrt_free(p->send_rank);
  loomrt_free(p->send_start);
  loomrt_free(p->send_idx);
  loomrt_free(p->recv_rank);
  loomrt_free(p->recv_start);
  loomrt_free(p->recv_idx);
  loomrt_free(p->gather_count);
  loomrt_free(p->gather_displ);
  loomrt_free(p->gather_gid);
}

void loomrt_halo_plans_free(void) {
  for (int i = 0; i < nplans; i++)
    plan_free(&plans[i]);
  loomrt_free(plans);
  plans = NULL;
  nplans = 0;
}

/* ---- classification ---------------------------------------------------- */

/* Per set: class of each global element (CORE .. NONE). */
static void classify_owned(const loomrt_mesh *mesh, int s, unsigned char *cls) {
  int me = loomrt_mpi_rank(), n = mesh->sets[s]->size;
  const int *owner = mesh->owner[s];
  for (int i = 0; i < n; i++)
    cls[i] = owner[i] == me ? CORE : NONE;
  for (int m = 0; m < mesh->nmaps; m++) {
    if (mesh->from[m] != s)
      continue;
    const loom_map map = mesh->maps[m];
    const int *towner = mesh->owner[mesh->to[m]];
    for (int i = 0; i < n; i++)
      for (int k = 0; k < map->dim; k++) {
        int mine = towner[map->values[(size_t)i * map->dim + k]] == me;
        if (cls[i] == CORE && !mine)
          cls[i] = BOUNDARY;
        else if (cls[i] == NONE && mine)
          cls[i] = EXEC;
      }
  }
}

/* Marks the non-executed halo: targets of executed elements not local. */
static void classify_nonexec(const loomrt_mesh *mesh, unsigned char **cls) {
  for (int m = 0; m < mesh->nmaps; m++) {
    const loom_map map = mesh->maps[m];
    const unsigned char *fc = cls[mesh->from[m]];
    unsigned char *tc = cls[mesh->to[m]];
    for (int i = 0; i < map->from->size; i++)
      if (fc[i] <= EXEC)
        for (int k = 0; k < map->dim; k++) {
          int t = map->values[(size_t)i * map->dim + k];
          if (tc[t] == NONE)
            tc[t] = NONEXEC;
        }
  }
}

/* ---- local numbering --------------------------------------------------- */

typedef struct local_set {
  int n[4];    /* elements per class */
  int total;
  int *l2g;    /* local -> global storage index */
  int *g2l;    /* global storage index -> local, or -1 */
} local_set;

/* Numbers the local elements section by section (see the design). */
static int number_set(const loomrt_mesh *mesh, int s, const unsigned char *cls,
                      local_set *ls) {
  int n = mesh->sets[s]->size, P = loomrt_mpi_size();
  const int *owner = mesh->owner[s];
  memset(ls->n, 0, sizeof ls->n);
  for (int i = 0; i < n; i++)
    if (cls[i] != NONE)
      ls->n[cls[i]]++;
  ls->total = ls->n[0] + ls->n[1] + ls->n[2] + ls->n[3];
  ls->l2g = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)ls->total + 1) * sizeof *ls->l2g);
  ls->g2l = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *ls->g2l);
  /* per halo class */
  int *start = loomrt_calloc(LOOM_MEM_STARTUP, 2 * ((size_t)P + 1), sizeof *start);
  if (!ls->l2g || !ls->g2l || !start) {
    loomrt_free(start);
    return LOOM_ENOMEM;
  }
  for (int i = 0; i < n; i++)
    if (cls[i] == EXEC || cls[i] == NONEXEC)
      start[(cls[i] - EXEC) * (P + 1) + owner[i] + 1]++;
  start[0] = ls->n[0] + ls->n[1];
  start[P + 1] = start[0] + ls->n[2];
  for (int h = 0; h < 2; h++)
    for (int q = 0; q < P; q++)
      start[h * (P + 1) + q + 1] += start[h * (P + 1) + q];
  int next[2] = {0, ls->n[0]}; /* core, boundary */
  for (int i = 0; i < n; i++) {
    int l = -1;
    if (cls[i] <= BOUNDARY)
      l = next[cls[i]]++;
    else if (cls[i] <= NONEXEC)
      l = start[(cls[i] - EXEC) * (P + 1) + owner[i]]++;
    ls->g2l[i] = l;
    if (l >= 0)
      ls->l2g[l] = i;
  }
  loomrt_free(start);
  return LOOM_OK;
}

/* ---- migration --------------------------------------------------------- */

/* A map's local rows, in place; the rows of the other ranks' elements go
 * back (the storage shrinks to the local rows, as loomrt_dat_trim does a
 * dat's: at 4 ranks Airfoil's maps kept 33 MB per rank, the whole mesh's). */
static void migrate_map(loom_map map, const local_set *from,
                        const local_set *to, int *tmp) {
  int dim = map->dim, exec = from->n[0] + from->n[1] + from->n[2];
  size_t n = (size_t)from->total * dim;
  for (int l = 0; l < from->total; l++)
    for (int k = 0; k < dim; k++)
      tmp[(size_t)l * dim + k] =
          l < exec ? to->g2l[map->values[(size_t)from->l2g[l] * dim + k]]
                   : -1;
  memcpy(map->values, tmp, n * sizeof(int));
  int *kept = loomrt_realloc(LOOM_MEM_MAPS, map->values, (n ? n : 1) * sizeof(int));
  if (kept) /* else the larger storage stays, as valid */
    map->values = kept;
}

static void migrate_dat(loom_dat dat, const local_set *ls, char *tmp) {
  size_t row = (size_t)dat->dim * dat->elem_size;
  const char *v = dat->values;
  for (int l = 0; l < ls->total; l++)
    memcpy(tmp + (size_t)l * row, v + (size_t)ls->l2g[l] * row, row);
  memcpy(dat->values, tmp, (size_t)ls->total * row);
  dat->bytes = (size_t)ls->total * row;
  dat->halo_dirty = 0; /* every rank had the global values */
}

/* The declared index of each local element (undoing a global renumber). */
static int *declared_ids(loom_set set, const local_set *ls) {
  int *gid = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)ls->total + 1) * sizeof *gid);
  int *old_of_new = set->new_of_old
                        ? loomrt_alloc(LOOM_MEM_STARTUP,
                                       ((size_t)set->size + 1) * sizeof *old_of_new)
                        : NULL;
  if (!gid || (set->new_of_old && !old_of_new)) {
    loomrt_free(gid);
    loomrt_free(old_of_new);
    return NULL;
  }
  if (old_of_new)
    for (int i = 0; i < set->size; i++)
      old_of_new[set->new_of_old[i]] = i;
  for (int l = 0; l < ls->total; l++)
    gid[l] = old_of_new ? old_of_new[ls->l2g[l]] : ls->l2g[l];
  loomrt_free(old_of_new);
  return gid;
}

/* ---- halo plans -------------------------------------------------------- */

/* Compresses per-rank counts into the neighbour lists of a plan side. */
int loomrt_plan_side(const int *count, int P, int *nneigh, int **rank,
                     int **start) {
  int k = 0;
  for (int q = 0; q < P; q++)
    k += count[q] > 0;
  *nneigh = k;
  *rank = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)k + 1) * sizeof **rank);
  *start = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)k + 1) * sizeof **start);
  if (!*rank || !*start)
    return LOOM_ENOMEM;
  k = 0;
  (*start)[0] = 0;
  for (int q = 0; q < P; q++)
    if (count[q] > 0) {
      (*rank)[k] = q;
      (*start)[k + 1] = (*start)[k] + count[q];
      k++;
    }
  return LOOM_OK;
}

/* Receive side: the halo rows by owner, exec rows then non-exec rows. */
static int plan_recv(loomrt_halo_plan *p, const loomrt_mesh *mesh, int s,
                     const local_set *ls, int *count) {
  int P = loomrt_mpi_size(), halo = ls->n[2] + ls->n[3];
  int first = ls->n[0] + ls->n[1];
  memset(count, 0, (size_t)P * sizeof *count);
  for (int l = first; l < ls->total; l++)
    count[mesh->owner[s][ls->l2g[l]]]++;
  if (loomrt_plan_side(count, P, &p->nrecv, &p->recv_rank, &p->recv_start) != LOOM_OK)
    return LOOM_ENOMEM;
  p->recv_idx = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)halo + 1) * sizeof *p->recv_idx);
  if (!p->recv_idx)
    return LOOM_ENOMEM;
  int *fill = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)P + 1) * sizeof *fill);
  if (!fill)
    return LOOM_ENOMEM;
  for (int k = 0, q = 0; q < P; q++)
    fill[q] = count[q] > 0 ? p->recv_start[k++] : 0;
  for (int l = first; l < ls->total; l++)
    p->recv_idx[fill[mesh->owner[s][ls->l2g[l]]]++] = l;
  loomrt_free(fill);
  return LOOM_OK;
}

/* Send side: what each neighbour receives (Alltoall(v) of global ids). */
static int plan_send(loomrt_halo_plan *p, const local_set *ls, int *rcount,
                     const char *name, int status_before) {
  int P = loomrt_mpi_size();
  MPI_Comm comm = loomrt_mpi_comm();
  int *scount = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof *scount);
  int *rdispl = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof *rdispl);
  int *sdispl = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof *sdispl);
  int *want = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)(ls->n[2] + ls->n[3]) + 1) * sizeof *want);
  int status = status_before;
  if (status == LOOM_OK && !(scount && rdispl && sdispl && want))
    status = loom_error_(LOOM_ENOMEM, "set '%s': out of memory (halo)", name);
  if (status == LOOM_OK)
    for (int k = 0; k < p->nrecv; k++) {
      rcount[p->recv_rank[k]] = p->recv_start[k + 1] - p->recv_start[k];
      rdispl[p->recv_rank[k]] = p->recv_start[k];
      for (int i = p->recv_start[k]; i < p->recv_start[k + 1]; i++)
        want[i] = ls->l2g[p->recv_idx[i]];
    }
  status = loomrt_mpi_agree(status, "loom_partition (halo lists)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Alltoall(rcount, 1, MPI_INT, scount, 1, MPI_INT, comm),
        "MPI_Alltoall of the halo counts of set '%s'", name);
  int nsend = 0;
  for (int q = 0; status == LOOM_OK && q < P; q++) {
    sdispl[q] = nsend;
    nsend += scount[q];
  }
  if (status == LOOM_OK) {
    status = loomrt_plan_side(scount, P, &p->nsend, &p->send_rank, &p->send_start);
    p->send_idx = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)nsend + 1) * sizeof *p->send_idx);
    if (status != LOOM_OK || !p->send_idx)
      status = loom_error_(LOOM_ENOMEM, "set '%s': out of memory (halo)",
                           name);
    status = loomrt_mpi_agree(status, "loom_partition (halo lists)");
  }
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Alltoallv(want, rcount, rdispl, MPI_INT,
                                            p->send_idx, scount, sdispl,
                                            MPI_INT, comm),
                              "MPI_Alltoallv of the halo lists of set '%s'",
                              name);
  for (int i = 0; status == LOOM_OK && i < nsend; i++) {
    int l = ls->g2l[p->send_idx[i]];
    if (l < 0 || l >= ls->n[0] + ls->n[1])
      status = loom_error_(LOOM_ESTATE,
                           "set '%s': a rank asked for element %d, which this "
                           "rank does not own (internal error)",
                           name, p->send_idx[i]);
    else
      p->send_idx[i] = l;
  }
  loomrt_free(scount);
  loomrt_free(rdispl);
  loomrt_free(sdispl);
  loomrt_free(want);
  return status;
}

/* Gather lists for loom_dat_fetch, built at the first fetch of a dat on
 * the set (collective, as fetch is): they are of the set's global size. */
int loomrt_plan_gather(loomrt_halo_plan *p) {
  loom_set set = p->set;
  const int *gid = set->gid;
  int owned = set->owned;
  if (p->gather_gid)
    return LOOM_OK;
  int P = loomrt_mpi_size();
  MPI_Comm comm = loomrt_mpi_comm();
  p->gather_count = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)P + 1) * sizeof(int));
  p->gather_displ = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)P + 1) * sizeof(int));
  p->gather_gid = loomrt_alloc(LOOM_MEM_HALOS, ((size_t)set->gsize + 1) * sizeof(int));
  int status = p->gather_count && p->gather_displ && p->gather_gid
                   ? LOOM_OK
                   : LOOM_ENOMEM;
  status = loomrt_mpi_agree(status, "loom_partition (gather lists)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allgather(&owned, 1, MPI_INT,
                                            p->gather_count, 1, MPI_INT, comm),
                              "MPI_Allgather of set '%s'", set->name);
  if (status != LOOM_OK) {
    loomrt_free(p->gather_gid);
    p->gather_gid = NULL;
    return status;
  }
  for (int q = 0, at = 0; q < P; q++) {
    p->gather_displ[q] = at;
    at += p->gather_count[q];
  }
  status = loomrt_mpi_check(MPI_Allgatherv(gid, owned, MPI_INT, p->gather_gid,
                                           p->gather_count, p->gather_displ,
                                           MPI_INT, comm),
                            "MPI_Allgatherv of set '%s'", set->name);
  if (status != LOOM_OK) { /* built again at the next fetch */
    loomrt_free(p->gather_gid);
    p->gather_gid = NULL;
  }
  return status;
}

/* ---- the whole step ---------------------------------------------------- */

static void local_free(local_set *ls, int n) {
  if (ls)
    for (int s = 0; s < n; s++) {
      loomrt_free(ls[s].l2g);
      loomrt_free(ls[s].g2l);
    }
  loomrt_free(ls);
}

/* Classifies and numbers every set (local work only). */
static int number_all(const loomrt_mesh *mesh, local_set *ls) {
  unsigned char **cls = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)mesh->nsets + 1, sizeof *cls);
  int status = cls ? LOOM_OK : LOOM_ENOMEM;
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++) {
    cls[s] = loomrt_alloc(LOOM_MEM_STARTUP, (size_t)mesh->sets[s]->size + 1);
    if (!cls[s])
      status = LOOM_ENOMEM;
    else
      classify_owned(mesh, s, cls[s]);
  }
  if (status == LOOM_OK)
    classify_nonexec(mesh, cls);
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    status = number_set(mesh, s, cls[s], &ls[s]);
  for (int s = 0; cls && s < mesh->nsets; s++)
    loomrt_free(cls[s]);
  loomrt_free(cls);
  return status;
}

static int set_index(const loomrt_mesh *mesh, loom_set set) {
  int s = 0;
  while (mesh->sets[s] != set)
    s++;
  return s;
}

/* The scratch migrate_all needs: a map's or a dat's local rows, the most. */
static size_t scratch_bytes(const loomrt_mesh *mesh, const local_set *ls) {
  size_t most = 1;
  for (int m = 0; m < mesh->nmaps; m++) {
    size_t b = (size_t)ls[mesh->from[m]].total * mesh->maps[m]->dim * sizeof(int);
    most = b > most ? b : most;
  }
  for (int d = 0; d < mesh->ndats; d++) {
    loom_dat dat = mesh->dats[d];
    size_t b = (size_t)ls[set_index(mesh, dat->set)].total * dat->dim * dat->elem_size;
    most = b > most ? b : most;
  }
  return most;
}

/* Rewrites maps and dats in place (each map's and dat's storage past its
 * local rows then goes back: migrate_map, loomrt_dat_trim) and records
 * the sections in the sets. */
static int migrate_all(const loomrt_mesh *mesh, local_set *ls, int **gids) {
  size_t most = scratch_bytes(mesh, ls);
  char *tmp = loomrt_alloc(LOOM_MEM_STARTUP, most);
  int status = tmp ? LOOM_OK : LOOM_ENOMEM;
  for (int s = 0; status == LOOM_OK && s < mesh->nsets; s++)
    if (!(gids[s] = declared_ids(mesh->sets[s], &ls[s])))
      status = LOOM_ENOMEM;
  if (status == LOOM_OK) {
    for (int m = 0; m < mesh->nmaps; m++)
      migrate_map(mesh->maps[m], &ls[mesh->from[m]], &ls[mesh->to[m]],
                  (int *)(void *)tmp);
    for (int d = 0; d < mesh->ndats; d++) {
      loom_dat dat = mesh->dats[d];
      int s = set_index(mesh, dat->set);
      if (!dat->owner) {
        migrate_dat(dat, &ls[s], tmp);
        loomrt_dat_trim(dat);
      } else /* shares its owner's (moved) storage */
        dat->bytes = (size_t)ls[s].total * dat->dim * dat->elem_size;
    }
    for (int s = 0; s < mesh->nsets; s++) {
      loom_set set = mesh->sets[s];
      set->gsize = set->size;
      set->size = ls[s].total;
      set->core = ls[s].n[0];
      set->owned = ls[s].n[0] + ls[s].n[1];
      set->exec = set->owned + ls[s].n[2];
      set->gid = gids[s];
      loomrt_mem_kind(set->gid, LOOM_MEM_SETS); /* kept by the set */
      gids[s] = NULL;
    }
  }
  loomrt_free(tmp);
  return status;
}

loomrt_halo_plan *loomrt_halo_plans_new(int n) {
  plans = loomrt_calloc(LOOM_MEM_HALOS, (size_t)n + 1, sizeof *plans);
  nplans = 0;
  return plans;
}

loomrt_halo_plan *loomrt_halo_plan_add(loom_set set) {
  plans[nplans].set = set;
  return &plans[nplans++];
}

int loomrt_mpi_migrate(loomrt_mesh *mesh) {
  int ns = mesh->nsets, P = loomrt_mpi_size();
  local_set *ls = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)ns + 1, sizeof *ls);
  int **gids = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)ns + 1, sizeof *gids);
  int *count = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)P + 1) * sizeof *count);
  loomrt_halo_plans_new(ns);
  int status = ls && gids && count && plans ? LOOM_OK : LOOM_ENOMEM;
  if (status == LOOM_OK)
    status = number_all(mesh, ls);
  if (status == LOOM_OK)
    status = migrate_all(mesh, ls, gids);
  if (status == LOOM_ENOMEM)
    loom_error_(status, "loom_partition: out of memory migrating the mesh");
  status = loomrt_mpi_agree(status, "loom_partition (migration)");
  for (int s = 0; status == LOOM_OK && s < ns; s++) {
    loomrt_halo_plan *p = loomrt_halo_plan_add(mesh->sets[s]);
    status = plan_recv(p, mesh, s, &ls[s], count);
    if (status == LOOM_ENOMEM)
      loom_error_(status, "loom_partition: out of memory (halo of set '%s')",
                  p->set->name);
    status = plan_send(p, &ls[s], count, p->set->name, status);
  }
  for (int s = 0; gids && s < ns; s++)
    loomrt_free(gids[s]);
  loomrt_free(gids);
  loomrt_free(count);
  local_free(ls, ns);
  return status;
}
