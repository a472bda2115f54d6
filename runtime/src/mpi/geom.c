/*
 * mpi/geom.c — "geom": the primary set cut along a space-filling curve
 * through its elements' coordinates, in parallel (partition.h,
 * "distributed meshes").
 *
 * Design
 * ------
 * Coordinates: the first dat (declaration order) of 2 or 3 doubles or
 * floats per element, with values, on the primary set; else on a set a
 * map from the primary reaches, the element then standing at the mean of
 * its entries (their rows fetched from their holders: Airfoil's cells at
 * the centre of their four nodes' p_x).
 * Keys: the global bounding box (MPI_Allreduce), each coordinate scaled to
 * 2^21 steps, then the Hilbert index of the point (2-D: the classic
 * rotate-and-reflect walk over 21 bit levels; 3-D: Morton order, bits
 * interleaved), 63 bits at most.  Neighbouring keys are nearby points, so
 * equal runs of the curve are compact parts.
 * Cuts: P - 1 splitters chosen by bisection on the key range, each step one
 * MPI_Allreduce of how many keys lie below every candidate (the local keys
 * sorted, counted by binary search): 64 steps, each O(P log n).  Element
 * with key k goes to the number of splitters <= k, so parts are runs of
 * the curve of n / P elements (up to elements of equal keys).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

enum { BITS = 21 };

/* ---- keys ----------------------------------------------------------------- */

static uint64_t hilbert2(uint32_t x, uint32_t y) {
  uint64_t d = 0;
  for (uint32_t s = 1u << (BITS - 1); s > 0; s >>= 1) {
    uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
    d += (uint64_t)s * s * ((3 * rx) ^ ry);
    if (ry == 0) { /* rotate the quadrant */
      if (rx == 1) {
        x = s - 1 - (x & (s - 1)) + (x & ~(s - 1));
        y = s - 1 - (y & (s - 1)) + (y & ~(s - 1));
      }
      uint32_t t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

static uint64_t morton3(uint32_t x, uint32_t y, uint32_t z) {
  uint64_t d = 0;
  for (int b = BITS - 1; b >= 0; b--)
    d = d << 3 | (uint64_t)((x >> b) & 1) << 2 | (uint64_t)((y >> b) & 1) << 1 |
        ((z >> b) & 1);
  return d;
}

/* ---- coordinates ------------------------------------------------------------ */

/* The coordinate dat and, when it is not on the primary, the map to it. */
static loom_dat coord_dat(const loomrt_mesh *mesh, int p, int *via) {
  *via = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < mesh->ndats; k++) {
      loom_dat d = mesh->dats[k];
      if (d->zero || d->owner || d->xset || (d->dim != 2 && d->dim != 3) ||
          (d->type != LOOM_DOUBLE && d->type != LOOM_FLOAT))
        continue;
      if (pass == 0 && d->set == mesh->sets[p])
        return d;
      for (int m = 0; pass == 1 && m < mesh->nmaps; m++)
        if (mesh->from[m] == p && mesh->sets[mesh->to[m]] == d->set) {
          *via = m;
          return d;
        }
    }
  return NULL;
}

static double coord_of(loom_dat d, const char *row, int c) {
  return d->type == LOOM_DOUBLE ? ((const double *)(const void *)row)[c]
                                : ((const float *)(const void *)row)[c];
}

/* Each slice element's coordinates (dim per element) into xyz. */
static int coordinates(const loomrt_dist *d, int p, loom_dat cd, int via,
                       double *xyz) {
  const loomrt_mesh *mesh = d->mesh;
  int n = mesh->sets[p]->size, dim = cd->dim;
  size_t row = (size_t)dim * cd->elem_size;
  if (via < 0) {
    for (int i = 0; i < n; i++)
      for (int c = 0; c < dim; c++)
        xyz[(size_t)i * dim + c] = coord_of(cd, (char *)cd->values + i * row, c);
    return LOOM_OK;
  }
  const loom_map map = mesh->maps[via];
  size_t ne = (size_t)n * map->dim;
  char *rows = malloc(ne * row + 1);
  int status = rows ? LOOM_OK
                    : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory "
                                               "(coordinates)");
  status = loomrt_mpi_agree(status, "loom_partition (geom)");
  if (status == LOOM_OK)
    status = loomrt_dist_lookup_rows(d->lo[mesh->to[via]], cd->values, row,
                                     map->values, (int)ne, rows,
                                     "the coordinates");
  for (int i = 0; status == LOOM_OK && i < n; i++)
    for (int c = 0; c < dim; c++) {
      double sum = 0;
      for (int k = 0; k < map->dim; k++)
        sum += coord_of(cd, rows + ((size_t)i * map->dim + k) * row, c);
      xyz[(size_t)i * dim + c] = sum / map->dim;
    }
  free(rows);
  return status;
}

/* ---- keys of the slice -------------------------------------------------------- */

static int keys_of(const double *xyz, int n, int dim, uint64_t *key) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  double glo[3], ghi[3];
  for (int i = 0; i < n; i++)
    for (int c = 0; c < dim; c++) {
      double v = xyz[(size_t)i * dim + c];
      lo[c] = v < lo[c] ? v : lo[c];
      hi[c] = v > hi[c] ? v : hi[c];
    }
  MPI_Comm comm = loomrt_mpi_comm();
  int status = loomrt_mpi_check(MPI_Allreduce(lo, glo, 3, MPI_DOUBLE, MPI_MIN, comm),
                                "MPI_Allreduce (bounding box)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allreduce(hi, ghi, 3, MPI_DOUBLE, MPI_MAX, comm),
                              "MPI_Allreduce (bounding box)");
  double span = 0;
  for (int c = 0; c < dim; c++)
    span = ghi[c] - glo[c] > span ? ghi[c] - glo[c] : span;
  double scale = span > 0 ? ((1u << BITS) - 1) / span : 0; /* one scale: no stretching */
  for (int i = 0; status == LOOM_OK && i < n; i++) {
    uint32_t q[3] = {0, 0, 0};
    for (int c = 0; c < dim; c++)
      q[c] = (uint32_t)((xyz[(size_t)i * dim + c] - glo[c]) * scale);
    key[i] = dim == 2 ? hilbert2(q[0], q[1]) : morton3(q[0], q[1], q[2]);
  }
  return status;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Local keys below k (sorted keys). */
static long long below(const uint64_t *sorted, int n, uint64_t k) {
  int a = 0, b = n;
  while (a < b) {
    int m = a + (b - a) / 2;
    if (sorted[m] < k)
      a = m + 1;
    else
      b = m;
  }
  return a;
}

/* P - 1 splitters: splitter j is the least key with at least (j+1) N / P
 * keys below or at it... found by bisection, all at once. */
static int splitters(uint64_t *sorted, int n, long long total, int P,
                     uint64_t *split) {
  uint64_t *lo = calloc((size_t)P, sizeof *lo), *hi = calloc((size_t)P, sizeof *hi);
  long long *cnt = calloc((size_t)P, sizeof *cnt), *all = calloc((size_t)P, sizeof *all);
  int status = lo && hi && cnt && all ? LOOM_OK
                                      : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (geom)");
  for (int j = 0; status == LOOM_OK && j < P - 1; j++)
    lo[j] = 0, hi[j] = UINT64_MAX >> 1;
  for (int step = 0; status == LOOM_OK && step < 64; step++) {
    for (int j = 0; j < P - 1; j++)
      cnt[j] = below(sorted, n, lo[j] + (hi[j] - lo[j]) / 2);
    status = loomrt_mpi_check(MPI_Allreduce(cnt, all, P - 1, MPI_LONG_LONG, MPI_SUM,
                                            loomrt_mpi_comm()),
                              "MPI_Allreduce (geom splitters)");
    for (int j = 0; status == LOOM_OK && j < P - 1; j++) {
      uint64_t mid = lo[j] + (hi[j] - lo[j]) / 2;
      long long want = (long long)((j + 1) * (double)total / P);
      if (all[j] < want)
        lo[j] = mid + 1 > hi[j] ? hi[j] : mid + 1;
      else
        hi[j] = mid;
    }
  }
  for (int j = 0; status == LOOM_OK && j < P - 1; j++)
    split[j] = lo[j];
  free(lo);
  free(hi);
  free(cnt);
  free(all);
  return status;
}

int loomrt_geom_owners(const loomrt_dist *d, int p, int *owner) {
  const loomrt_mesh *mesh = d->mesh;
  loom_set set = mesh->sets[p];
  int via, n = set->size;
  loom_dat cd = coord_dat(mesh, p, &via);
  if (!cd) /* the same declarations on every rank: the same answer */
    return loom_error_(LOOM_EINVAL,
                       "loom_partition: \"geom\" needs coordinates: a dat of "
                       "2 or 3 doubles (or floats) per element with values, "
                       "on set '%s' or on a set a map from it reaches",
                       set->name);
  int dim = cd->dim;
  double *xyz = malloc(((size_t)n * dim + 1) * sizeof *xyz);
  uint64_t *key = malloc(((size_t)n + 1) * sizeof *key);
  uint64_t *sorted = malloc(((size_t)n + 1) * sizeof *sorted);
  uint64_t *split = malloc(((size_t)d->P + 1) * sizeof *split);
  int status = xyz && key && sorted && split
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (geom)");
  if (status == LOOM_OK)
    status = coordinates(d, p, cd, via, xyz);
  if (status == LOOM_OK)
    status = keys_of(xyz, n, dim, key);
  if (status == LOOM_OK) {
    memcpy(sorted, key, (size_t)n * sizeof *key);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_u64);
    status = splitters(sorted, n, set->gsize, d->P, split);
  }
  for (int i = 0; status == LOOM_OK && i < n; i++) {
    int r = 0;
    while (r < d->P - 1 && split[r] <= key[i])
      r++;
    owner[i] = r;
  }
  free(xyz);
  free(key);
  free(sorted);
  free(split);
  return status;
}
