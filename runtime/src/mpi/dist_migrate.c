/*
 * mpi/dist_migrate.c — step 2 for a distributed mesh: every element goes
 * to its owner, the halos are found and numbered, the slices are freed
 * (partition.h, "distributed meshes"; dist.c did step 1).
 *
 * Design
 * ------
 * The sections are those of the whole-mesh path (migrate.c): owned
 * (core when every entry through every map from the set is owned here,
 * else boundary), executed halo (owned elsewhere, with an entry owned
 * here), non-executed halo (an entry of an executed element, not
 * executed here), in the same local order: core and boundary by global
 * number, each halo by owner then global number.  So a mesh partitioned
 * alike numbers alike on either path.  Found without global arrays:
 *
 * 1. The holder of each slice element learns the owners of its entries
 *    (loomrt_dist_lookup per map), then sends the element to its owner
 *    and to every other rank owning one of its entries (its executed
 *    halo there) as a record: global number, owner, section at the
 *    receiver (core when the owner owns every entry, boundary, or
 *    executed halo), and per map from the set the entries; the dat rows
 *    go to the owner only, in a second message of the same order.  The
 *    slice is freed once packed, before the messages go.
 * 2. Each rank sorts what it received into its sections, one set at a
 *    time.  The records come in global order (a slice is a range, sent
 *    in order, and the ranks' ranges follow one another), so each
 *    record's local number is found by counting, without a sort, which
 *    with its scratch copy was the start-up's peak.  Its non-executed
 *    halo of a set T is the entries into T of its executed elements that
 *    are not executed here, de-duplicated; their owners are asked of T's
 *    slice holders.
 * 3. Local numbers are looked up by global number in a sorted array of
 *    (global << 32 | local) keys: maps are translated (rows of non-executed
 *    elements are -1, as on the whole-mesh path), dats get new storage
 *    with their owned rows; the halo rows are filled afterwards by one
 *    exchange per dat (loomrt_dist_fill_halos, once the mesh counts as
 *    partitioned).
 * 4. Halo plans: the receive side from the local order; the send side by
 *    one all-to-all of global numbers, which each owner looks up.  They
 *    are built once the maps are and before the dats get their storage:
 *    the keys and owners go first, and the dats' storage, with the rows
 *    still to copy into it, is the start-up's peak.
 *
 * Each rank's memory stays proportional to its slices and its part: the
 * records a rank receives are its own elements and its halo.  Between
 * steps the heap's free pages go back to the system (loomrt_trim), so one
 * step's transients do not add to the next one's peak; LOOM_DIAG=1 prints
 * each rank's resident and peak memory after each step.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

enum { CORE = 0, BOUNDARY = 1, EXEC = 2, NONEXEC = 3 };

/* One set's local elements while they are assembled. */
typedef struct lset {
  int nmaps, *maps;   /* the maps from this set */
  int rec;            /* ints per record: 3 + the sum of their dims */
  size_t row;         /* dat bytes per element (dats with storage of their own) */
  int *recs, nrec;    /* records received */
  char *rows;         /* dat rows received (owned records, in order) */
  int *own_ord;       /* per record: its rank among the owned ones, or -1 */
  int n[4], total;    /* elements per section */
  int *l2g, *lowner;  /* per local element */
  int *src;           /* per local element: its record, -1 when non-exec */
  long long *key;     /* (global << 32 | local), sorted */
} lset;

static int *int_alloc(size_t n) { return loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof(int)); }

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

/* The local number of global element g (sorted keys), or -1. */
static int local_of(const lset *ls, int g) {
  int a = 0, b = ls->total - 1;
  while (a <= b) {
    int m = a + (b - a) / 2;
    int mg = (int)(ls->key[m] >> 32);
    if (mg == g)
      return (int)(ls->key[m] & 0xffffffff);
    if (mg < g)
      a = m + 1;
    else
      b = m - 1;
  }
  return -1;
}

static void lset_free(lset *ls) {
  loomrt_free(ls->maps);
  loomrt_free(ls->recs);
  loomrt_free(ls->rows);
  loomrt_free(ls->own_ord);
  loomrt_free(ls->l2g);
  loomrt_free(ls->lowner);
  loomrt_free(ls->src);
  loomrt_free(ls->key);
}

/* ---- 1. records ---------------------------------------------------------- */

/* Nonzero when dat's rows on set travel with its elements: it has
 * storage of its own and values (a temporary is still all zero). */
static int moves(loom_dat dat, loom_set set) {
  return dat->set == set && !dat->owner && !dat->zero;
}

static void lset_shape(const loomrt_mesh *mesh, int s, lset *ls) {
  ls->rec = 3;
  for (int m = 0; m < mesh->nmaps; m++)
    if (mesh->from[m] == s) {
      ls->maps[ls->nmaps++] = m;
      ls->rec += mesh->maps[m]->dim;
    }
  for (int k = 0; k < mesh->ndats; k++)
    if (moves(mesh->dats[k], mesh->sets[s]))
      ls->row += (size_t)mesh->dats[k]->dim * mesh->dats[k]->elem_size;
}

/* The owners of every entry of the set's maps (per map, slice-sized). */
static int entry_owners(const loomrt_dist *d, int s, const lset *ls,
                        int **towner) {
  const loomrt_mesh *mesh = d->mesh;
  int status = LOOM_OK;
  for (int j = 0; j < ls->nmaps && status == LOOM_OK; j++) {
    int m = ls->maps[j];
    size_t n = (size_t)mesh->sets[s]->size * mesh->maps[m]->dim;
    towner[j] = int_alloc(n);
    status = towner[j] ? LOOM_OK
                       : loom_error_(LOOM_ENOMEM, "loom_partition: out of "
                                                  "memory (entry owners)");
    status = loomrt_mpi_agree(status, "loom_partition (migration)");
    if (status == LOOM_OK)
      status = loomrt_dist_lookup(d->lo[mesh->to[m]], mesh->owner[mesh->to[m]],
                                  mesh->maps[m]->values, (int)n, towner[j],
                                  "entry owners");
  }
  return status;
}

/* Destinations of slice element i: its owner first, then every other
 * owner of one of its entries; returns how many (at most cap). */
static int dests_of(const loomrt_mesh *mesh, int s, const lset *ls,
                    int *const *towner, int i, int *dest) {
  int n = 0;
  dest[n++] = mesh->owner[s][i];
  for (int j = 0; j < ls->nmaps; j++) {
    int dim = mesh->maps[ls->maps[j]]->dim;
    for (int k = 0; k < dim; k++) {
      int q = towner[j][(size_t)i * dim + k], seen = 0;
      for (int x = 0; x < n && !seen; x++)
        seen = dest[x] == q;
      if (!seen)
        dest[n++] = q;
    }
  }
  return n;
}

/* The section of slice element i at its owner: CORE when every entry
 * is owned there too, else BOUNDARY. */
static int owned_class(const loomrt_mesh *mesh, int s, const lset *ls,
                       int *const *towner, int i) {
  int owner = mesh->owner[s][i];
  for (int j = 0; j < ls->nmaps; j++) {
    int dim = mesh->maps[ls->maps[j]]->dim;
    for (int k = 0; k < dim; k++)
      if (towner[j][(size_t)i * dim + k] != owner)
        return BOUNDARY;
  }
  return CORE;
}

/* Writes slice element i's record at r: global number, owner, section
 * at the receiver (cls, or EXEC at a rank other than the owner), and
 * the entries of each map in global numbers. */
static void pack_record(const loomrt_mesh *mesh, int s, const lset *ls, int i,
                        int cls, int *r) {
  *r++ = mesh->sets[s]->slice_off + i;
  *r++ = mesh->owner[s][i];
  *r++ = cls;
  for (int j = 0; j < ls->nmaps; j++) {
    const loom_map map = mesh->maps[ls->maps[j]];
    memcpy(r, map->values + (size_t)i * map->dim, map->dim * sizeof(int));
    r += map->dim;
  }
}

/* Writes slice element i's dat rows at out. */
static void pack_rows(const loomrt_mesh *mesh, int s, int i, char *out) {
  for (int k = 0; k < mesh->ndats; k++) {
    loom_dat dat = mesh->dats[k];
    if (!moves(dat, mesh->sets[s]))
      continue;
    size_t row = (size_t)dat->dim * dat->elem_size;
    memcpy(out, (char *)dat->values + (size_t)i * row, row);
    out += row;
  }
}

/* The slice's rows of set s's maps and dats: packed, no longer needed. */
static void free_slice(const loomrt_mesh *mesh, int s) {
  for (int m = 0; m < mesh->nmaps; m++)
    if (mesh->from[m] == s) {
      loomrt_free(mesh->maps[m]->values);
      mesh->maps[m]->values = NULL;
    }
  for (int k = 0; k < mesh->ndats; k++) {
    loom_dat dat = mesh->dats[k];
    if (dat->set == mesh->sets[s] && !dat->owner) {
      loomrt_dat_storage_free(dat);
      dat->values = NULL;
    }
  }
}

/* Sends set s's records (and owned rows) to their ranks; ls receives.
 * Packed in two passes (count per rank, then fill at each rank's
 * cursor), so the only buffers of the slice's size are the messages;
 * the slice and its entries' owners (towner, freed) are released once
 * packed, before the messages go. */
static int send_records(const loomrt_dist *d, int s, lset *ls, int **towner) {
  const loomrt_mesh *mesh = d->mesh;
  int n = mesh->sets[s]->size, P = d->P, width = 1, got = 0;
  for (int j = 0; j < ls->nmaps; j++)
    width += mesh->maps[ls->maps[j]]->dim;
  int *dest = int_alloc((size_t)width);
  int *count = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof(int));
  int *at = int_alloc(P), *rcount = int_alloc(P);
  int *ocount = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof(int)), *oat = int_alloc(P);
  int *rec = NULL;
  char *rows = NULL;
  size_t items = 0;
  int status = dest && count && at && rcount && ocount && oat ? LOOM_OK
                                                               : LOOM_ENOMEM;
  for (int i = 0; status == LOOM_OK && i < n; i++) {
    int k = dests_of(mesh, s, ls, towner, i, dest);
    for (int x = 0; x < k; x++)
      count[dest[x]]++;
    items += (size_t)k;
    ocount[mesh->owner[s][i]]++;
  }
  if (status == LOOM_OK) {
    rec = int_alloc(items * (size_t)ls->rec);
    rows = loomrt_alloc(LOOM_MEM_STARTUP, (size_t)n * ls->row + 1);
    if (!rec || !rows)
      status = LOOM_ENOMEM;
    for (int q = 0; q < P; q++) {
      at[q] = q ? at[q - 1] + count[q - 1] : 0;
      oat[q] = q ? oat[q - 1] + ocount[q - 1] : 0;
    }
  }
  for (int i = 0; status == LOOM_OK && i < n; i++) {
    int k = dests_of(mesh, s, ls, towner, i, dest);
    int cls = owned_class(mesh, s, ls, towner, i);
    for (int x = 0; x < k; x++) /* dest[0] is the owner */
      pack_record(mesh, s, ls, i, x ? EXEC : cls,
                  rec + (size_t)at[dest[x]]++ * ls->rec);
    if (ls->row)
      pack_rows(mesh, s, i, rows + (size_t)oat[mesh->owner[s][i]]++ * ls->row);
  }
  for (int j = 0; j < ls->nmaps; j++) {
    loomrt_free(towner[j]);
    towner[j] = NULL;
  }
  if (status == LOOM_OK)
    free_slice(mesh, s);
  loomrt_trim();
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory (migrating set '%s')",
                mesh->sets[s]->name);
  status = loomrt_mpi_agree(status, "loom_partition (migration)");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(rec, count, (size_t)ls->rec * sizeof(int),
                                  (void **)&ls->recs, rcount, &ls->nrec,
                                  "the elements' records");
  loomrt_free(rec);
  if (status == LOOM_OK && ls->row)
    status = loomrt_dist_exchange(rows, ocount, ls->row, (void **)&ls->rows,
                                  rcount, &got, "the dats' rows");
  loomrt_free(dest);
  loomrt_free(count);
  loomrt_free(at);
  loomrt_free(rcount);
  loomrt_free(ocount);
  loomrt_free(oat);
  loomrt_free(rows);
  return status;
}

/* ---- 2. sections --------------------------------------------------------- */

/* Global number of record k. */
static int rec_gid(const lset *l, int k) { return l->recs[(size_t)k * l->rec]; }

/* The records of set l by global number: *order NULL when they came so
 * (each rank sends its slice in order, the ranks' slices follow one
 * another: the usual case), else (global << 32 | record) keys, sorted.
 * Counts the elements of each section and numbers the owned records
 * (own_ord: their rows came in that order). */
static int by_gid(lset *l, long long **order) {
  *order = NULL;
  l->own_ord = int_alloc((size_t)l->nrec);
  if (!l->own_ord)
    return LOOM_ENOMEM;
  int owned = 0, sorted = 1;
  for (int k = 0; k < l->nrec; k++) {
    int c = l->recs[(size_t)k * l->rec + 2];
    l->own_ord[k] = c == EXEC ? -1 : owned++;
    l->n[c]++;
    sorted = sorted && (k == 0 || rec_gid(l, k - 1) < rec_gid(l, k));
  }
  if (sorted)
    return LOOM_OK;
  if (!(*order = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)l->nrec + 1) * sizeof **order)))
    return LOOM_ENOMEM;
  for (int k = 0; k < l->nrec; k++)
    (*order)[k] = (long long)rec_gid(l, k) << 32 | (unsigned)k;
  qsort(*order, (size_t)l->nrec, sizeof **order, cmp_ll);
  return LOOM_OK;
}

/* The i-th record by global number. */
static int rec_at(const long long *order, int i) {
  return order ? (int)(order[i] & 0xffffffff) : i;
}

static int cmp_gid(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Whether g is in v[0..n), sorted (inline: called for every entry). */
static int has_gid(const int *v, int n, int g) {
  int a = 0, b = n;
  while (a < b) {
    int m = a + (b - a) / 2;
    if (v[m] < g)
      a = m + 1;
    else
      b = m;
  }
  return a < n && v[a] == g;
}

/* The entries into set t of the executed elements that are not executed
 * here: their global numbers, sorted and unique, into g (*n of them). */
static int nonexec_gids(const loomrt_mesh *mesh, const lset *ls, int t,
                        const int *exec_sorted, int **g, int *n) {
  size_t cap = 0, k = 0;
  for (int s = 0; s < mesh->nsets; s++)
    for (int j = 0; j < ls[s].nmaps; j++)
      if (mesh->to[ls[s].maps[j]] == t)
        cap += (size_t)ls[s].nrec * mesh->maps[ls[s].maps[j]]->dim;
  int *v = *g = int_alloc(cap), nexec = ls[t].n[0] + ls[t].n[1] + ls[t].n[2];
  if (!v)
    return LOOM_ENOMEM;
  for (int s = 0; s < mesh->nsets; s++) {
    int at = 3;
    for (int j = 0; j < ls[s].nmaps; j++) {
      int m = ls[s].maps[j], dim = mesh->maps[m]->dim;
      for (int r = 0; mesh->to[m] == t && r < ls[s].nrec; r++) {
        const int *e = ls[s].recs + (size_t)r * ls[s].rec + at;
        for (int x = 0; x < dim; x++)
          if (!has_gid(exec_sorted, nexec, e[x]))
            v[k++] = e[x];
      }
      at += dim;
    }
  }
  if (k)
    qsort(v, k, sizeof *v, cmp_gid);
  size_t u = 0;
  for (size_t i = 0; i < k; i++)
    if (u == 0 || v[i] != v[u - 1])
      v[u++] = v[i];
  *n = (int)u;
  return LOOM_OK;
}

/* Non-executed halo of set t: (owner << 32 | global) keys, sorted, into
 * *out (*n of them); the owners asked of the slices' holders
 * (collective: status, this rank's so far, is reported and agreed
 * first). */
static int nonexec_of(const loomrt_dist *d, const lset *ls, int t,
                      const int *exec_sorted, long long **out, int *n,
                      int status) {
  int *g = NULL, *owner = NULL;
  *out = NULL;
  *n = 0;
  if (status == LOOM_OK)
    status = nonexec_gids(d->mesh, ls, t, exec_sorted, &g, n);
  if (status == LOOM_OK &&
      (!(owner = int_alloc((size_t)*n)) ||
       !(*out = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)*n + 1) * sizeof **out))))
    status = LOOM_ENOMEM;
  if (status == LOOM_ENOMEM) /* here or in the caller: reported once */
    loom_error_(status, "loom_partition: out of memory (numbering set '%s')",
                d->mesh->sets[t]->name);
  status = loomrt_mpi_agree(status, "loom_partition (halo numbering)");
  if (status == LOOM_OK)
    status = loomrt_dist_lookup(d->lo[t], d->mesh->owner[t], g, *n, owner,
                                "the halo's owners");
  for (int i = 0; status == LOOM_OK && i < *n; i++)
    (*out)[i] = (long long)owner[i] << 32 | (unsigned)g[i];
  if (status == LOOM_OK && *n)
    qsort(*out, (size_t)*n, sizeof **out, cmp_ll);
  loomrt_free(g);
  loomrt_free(owner);
  return status;
}

/* Where each executed element goes in the local order: core, boundary,
 * then the executed halo by owner; within each, by global number.  So
 * first[c] is section c's first position, first[EXEC + q] that of the
 * halo owned by rank q. */
static int *section_starts(const lset *l) {
  int P = loomrt_mpi_size();
  int *first = int_alloc((size_t)EXEC + P);
  if (!first)
    return NULL;
  memset(first, 0, ((size_t)EXEC + P) * sizeof *first);
  first[BOUNDARY] = l->n[CORE];
  for (int k = 0; k < l->nrec; k++) {
    const int *r = l->recs + (size_t)k * l->rec;
    if (r[2] == EXEC && r[1] + 1 < P)
      first[EXEC + r[1] + 1]++;
  }
  first[EXEC] = l->n[CORE] + l->n[BOUNDARY];
  for (int q = 1; q < P; q++)
    first[EXEC + q] += first[EXEC + q - 1];
  return first;
}

/* Local numbering of set l: its records in section order (placed by
 * counting, in global order: no sort), then its non-executed halo ne
 * (nne keys, owner << 32 | global, sorted); then the sorted keys. */
static int number(lset *l, const long long *order, const long long *ne, int nne) {
  l->n[NONEXEC] = nne;
  l->total = l->nrec + nne;
  size_t n = (size_t)l->total;
  int *first = section_starts(l);
  l->l2g = int_alloc(n);
  l->lowner = int_alloc(n);
  l->src = int_alloc(n);
  if (!first || !l->l2g || !l->lowner || !l->src) {
    loomrt_free(first);
    return LOOM_ENOMEM;
  }
  for (int i = 0; i < l->nrec; i++) {
    int k = rec_at(order, i);
    const int *r = l->recs + (size_t)k * l->rec;
    int at = first[r[2] == EXEC ? EXEC + r[1] : r[2]]++;
    l->l2g[at] = r[0];
    l->lowner[at] = r[1];
    l->src[at] = k;
  }
  loomrt_free(first);
  for (int i = 0; i < nne; i++) {
    l->l2g[l->nrec + i] = (int)(ne[i] & 0xffffffff);
    l->lowner[l->nrec + i] = (int)(ne[i] >> 32);
    l->src[l->nrec + i] = -1;
  }
  return LOOM_OK;
}

/* The (global << 32 | local) keys of set l, sorted. */
static int keys(lset *l) {
  size_t n = (size_t)l->total;
  if (!(l->key = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *l->key)))
    return LOOM_ENOMEM;
  for (int i = 0; i < l->total; i++)
    l->key[i] = (long long)l->l2g[i] << 32 | (unsigned)i;
  if (l->total)
    qsort(l->key, n, sizeof *l->key, cmp_ll);
  return LOOM_OK;
}

/* The executed elements' global numbers, sorted. */
static int *executed_gids(const lset *l, const long long *order) {
  int *ex = int_alloc((size_t)l->nrec);
  for (int i = 0; ex && i < l->nrec; i++)
    ex[i] = rec_gid(l, rec_at(order, i));
  return ex;
}

/* One set at a time, so the work arrays are one set's (collective).
 * Each array goes as soon as it has served: the numbering is the
 * start-up's peak on a distributed mesh (issue 39). */
static int number_all(const loomrt_dist *d, lset *ls) {
  int status = LOOM_OK;
  for (int t = 0; status == LOOM_OK && t < d->mesh->nsets; t++) {
    long long *order = NULL, *ne = NULL;
    int *ex = NULL, nne = 0;
    status = by_gid(&ls[t], &order);
    if (status == LOOM_OK && !(ex = executed_gids(&ls[t], order)))
      status = LOOM_ENOMEM;
    status = nonexec_of(d, ls, t, ex, &ne, &nne, status);
    loomrt_free(ex);
    if (status == LOOM_OK &&
        (number(&ls[t], order, ne, nne) != LOOM_OK || keys(&ls[t]) != LOOM_OK))
      status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory "
                                        "(numbering set '%s')",
                           d->mesh->sets[t]->name);
    loomrt_free(order);
    loomrt_free(ne);
  }
  return status;
}

/* ---- 3. maps and dats ------------------------------------------------------ */

static int new_map(const loomrt_mesh *mesh, const lset *ls, int s, int j) {
  const lset *l = &ls[s], *t;
  int m = l->maps[j];
  loom_map map = mesh->maps[m];
  int dim = map->dim, nexec = l->n[0] + l->n[1] + l->n[2], at = 3;
  for (int x = 0; x < j; x++)
    at += mesh->maps[l->maps[x]]->dim;
  t = &ls[mesh->to[m]];
  int *v = int_alloc((size_t)l->total * dim);
  if (!v)
    return LOOM_ENOMEM;
  for (int i = 0; i < l->total; i++)
    for (int k = 0; k < dim; k++)
      v[(size_t)i * dim + k] =
          i < nexec ? local_of(t, l->recs[(size_t)l->src[i] * l->rec + at + k])
                    : -1;
  loomrt_free(map->values);
  map->values = v;
  loomrt_mem_kind(v, LOOM_MEM_MAPS); /* kept by the map */
  return LOOM_OK;
}

/* The rows each dat of set s needs: its own, or more when a temporary
 * of a larger set shares its storage. */
static size_t dat_need(const loomrt_mesh *mesh, const lset *ls, loom_dat dat) {
  size_t need = 0;
  for (int k = 0; k < mesh->ndats; k++) {
    loom_dat x = mesh->dats[k];
    if (x != dat && x->owner != dat)
      continue;
    int s = 0;
    while (mesh->sets[s] != x->set)
      s++;
    size_t b = (size_t)ls[s].total * x->dim * x->elem_size;
    need = b > need ? b : need;
  }
  return need;
}

static int new_dats(const loomrt_mesh *mesh, const lset *ls, int s) {
  const lset *l = &ls[s];
  size_t at = 0;
  for (int k = 0; k < mesh->ndats; k++) {
    loom_dat dat = mesh->dats[k];
    if (dat->set != mesh->sets[s] || dat->owner)
      continue;
    size_t row = (size_t)dat->dim * dat->elem_size;
    void *block = NULL;
    size_t block_bytes = 0;
    char *v = loomrt_dat_storage(dat, dat_need(mesh, ls, dat), &block, &block_bytes);
    if (!v)
      return LOOM_ENOMEM;
    for (int i = 0; !dat->zero && i < l->n[0] + l->n[1]; i++)
      memcpy(v + (size_t)i * row,
             l->rows + (size_t)l->own_ord[l->src[i]] * l->row + at, row);
    loomrt_dat_set_storage(dat, block, block_bytes, v);
    dat->bytes = (size_t)l->total * row;
    dat->halo_dirty = 0;
    at += dat->zero ? 0 : row;
  }
  return LOOM_OK;
}

/* ---- 4. halo plans ------------------------------------------------------- */

static int plan_of(const lset *l, loomrt_halo_plan *p, const char *name) {
  int P = loomrt_mpi_size(), first = l->n[0] + l->n[1];
  int halo = l->total - first, nsend = 0;
  int *count = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)P + 1, sizeof *count);
  int *rcount = int_alloc(P);
  int *fill = int_alloc(P), *want = int_alloc((size_t)halo), *got = NULL;
  int status = count && rcount && fill && want ? LOOM_OK : LOOM_ENOMEM;
  for (int i = first; status == LOOM_OK && i < l->total; i++)
    count[l->lowner[i]]++;
  if (status == LOOM_OK)
    status = loomrt_plan_side(count, P, &p->nrecv, &p->recv_rank,
                              &p->recv_start);
  if (status == LOOM_OK && (p->recv_idx = int_alloc((size_t)halo)))
    loomrt_mem_kind(p->recv_idx, LOOM_MEM_HALOS); /* kept by the plan */
  else if (status == LOOM_OK)
    status = LOOM_ENOMEM;
  for (int k = 0, q = 0; status == LOOM_OK && q < P; q++)
    fill[q] = count[q] > 0 ? p->recv_start[k++] : 0;
  for (int i = first; status == LOOM_OK && i < l->total; i++) {
    int at = fill[l->lowner[i]]++;
    p->recv_idx[at] = i;
    want[at] = l->l2g[i];
  }
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory (halo of set '%s')",
                name);
  status = loomrt_mpi_agree(status, "loom_partition (halo lists)");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(want, count, sizeof(int), (void **)&got,
                                  rcount, &nsend, "the halo lists");
  if (status == LOOM_OK)
    status = loomrt_plan_side(rcount, P, &p->nsend, &p->send_rank,
                              &p->send_start);
  for (int i = 0; status == LOOM_OK && i < nsend; i++) {
    int loc = local_of(l, got[i]);
    if (loc < 0 || loc >= first)
      status = loom_error_(LOOM_ESTATE,
                           "set '%s': a rank asked for element %d, which "
                           "this rank does not own (internal error)",
                           name, got[i]);
    got[i] = loc;
  }
  if (status == LOOM_OK) {
    p->send_idx = got;
    loomrt_mem_kind(got, LOOM_MEM_HALOS);
    got = NULL;
  }
  loomrt_free(count);
  loomrt_free(rcount);
  loomrt_free(fill);
  loomrt_free(want);
  loomrt_free(got);
  return status;
}

/* ---- the whole step ------------------------------------------------------ */

static void set_sections(loom_set set, lset *l) {
  set->size = l->total;
  set->core = l->n[0];
  set->owned = l->n[0] + l->n[1];
  set->exec = set->owned + l->n[2];
  loomrt_free(set->gid);
  set->gid = l->l2g;
  loomrt_mem_kind(set->gid, LOOM_MEM_SETS); /* kept by the set */
  l->l2g = NULL;
  set->slice_off = -1;
}

static int records_all(const loomrt_dist *d, lset *ls) {
  const loomrt_mesh *mesh = d->mesh;
  int status = LOOM_OK;
  for (int s = 0; s < mesh->nsets && status == LOOM_OK; s++) {
    int **towner = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)ls[s].nmaps + 1, sizeof *towner);
    status = towner ? entry_owners(d, s, &ls[s], towner) : LOOM_ENOMEM;
    if (status == LOOM_ENOMEM)
      loom_error_(status, "loom_partition: out of memory");
    status = loomrt_mpi_agree(status, "loom_partition (migration)");
    if (status == LOOM_OK)
      status = send_records(d, s, &ls[s], towner);
    loomrt_trim();
    loomrt_dist_step(mesh->sets[s]->name);
    for (int j = 0; towner && j < ls[s].nmaps; j++)
      loomrt_free(towner[j]);
    loomrt_free(towner);
  }
  return status;
}

/* The maps of every set, from its records (freed once translated). */
static int maps_all(const loomrt_mesh *mesh, lset *ls) {
  int status = LOOM_OK;
  for (int s = 0; s < mesh->nsets && status == LOOM_OK; s++) {
    for (int j = 0; j < ls[s].nmaps && status == LOOM_OK; j++)
      status = new_map(mesh, ls, s, j);
    loomrt_free(ls[s].recs); /* translated: no longer needed */
    ls[s].recs = NULL;
  }
  return status;
}

/* The dats of every set, from its rows (freed once copied), and the
 * temporaries that share another's storage pointed at it. */
static int dats_all(const loomrt_mesh *mesh, lset *ls) {
  int status = LOOM_OK;
  for (int s = 0; s < mesh->nsets && status == LOOM_OK; s++) {
    status = new_dats(mesh, ls, s);
    loomrt_free(ls[s].rows);
    ls[s].rows = NULL;
  }
  if (status != LOOM_OK)
    return status;
  for (int k = 0; k < mesh->ndats; k++) { /* temporaries sharing storage */
    loom_dat dat = mesh->dats[k];
    int s = 0;
    while (mesh->sets[s] != dat->set)
      s++;
    if (dat->owner) {
      dat->values = dat->owner->values;
      dat->bytes = (size_t)ls[s].total * dat->dim * dat->elem_size;
    }
  }
  return LOOM_OK;
}

int loomrt_dist_migrate(loomrt_dist *d) {
  loomrt_mesh *mesh = d->mesh;
  int ns = mesh->nsets;
  lset *ls = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)ns + 1, sizeof *ls);
  int status = ls ? LOOM_OK : LOOM_ENOMEM;
  for (int s = 0; status == LOOM_OK && s < ns; s++)
    if (!(ls[s].maps = int_alloc((size_t)mesh->nmaps)))
      status = LOOM_ENOMEM;
    else
      lset_shape(mesh, s, &ls[s]);
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (migration)");
  if (status == LOOM_OK)
    status = records_all(d, ls);
  if (status == LOOM_OK)
    status = number_all(d, ls);
  loomrt_trim();
  loomrt_dist_step("numbering");
  if (status == LOOM_OK && maps_all(mesh, ls) != LOOM_OK)
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory "
                                      "migrating the mesh");
  status = loomrt_mpi_agree(status, "loom_partition (migration)");
  /* The halo plans before the dats: they are the last to look elements
   * up by global number, so the sorted keys and the owners go before the
   * dats' new storage comes (the start-up's peak). */
  if (status == LOOM_OK && !loomrt_halo_plans_new(ns))
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  for (int s = 0; status == LOOM_OK && s < ns; s++)
    status = plan_of(&ls[s], loomrt_halo_plan_add(mesh->sets[s]),
                     mesh->sets[s]->name);
  for (int s = 0; s < ns; s++) {
    loomrt_free(ls[s].key);
    loomrt_free(ls[s].lowner);
    ls[s].key = NULL;
    ls[s].lowner = NULL;
  }
  if (status == LOOM_OK && dats_all(mesh, ls) != LOOM_OK)
    status = loom_error_(LOOM_ENOMEM, "loom_partition: out of memory "
                                      "migrating the mesh");
  loomrt_trim();
  loomrt_dist_step("the new maps and dats");
  status = loomrt_mpi_agree(status, "loom_partition (migration)");
  for (int s = 0; status == LOOM_OK && s < ns; s++)
    set_sections(mesh->sets[s], &ls[s]);
  for (int s = 0; ls && s < ns; s++)
    lset_free(&ls[s]);
  loomrt_free(ls);
  return status;
}

int loomrt_dist_fill_halos(loomrt_mesh *mesh) {
  int status = LOOM_OK;
  for (int k = 0; k < mesh->ndats && status == LOOM_OK; k++) {
    loom_dat dat = mesh->dats[k];
    if (dat->owner || dat->zero) /* zero everywhere, halo included */
      continue;
    loom__dat_dirty(dat);
    status = loom__halo_begin(dat);
    if (status == LOOM_OK)
      status = loom__halo_end(dat);
  }
  return status;
}
