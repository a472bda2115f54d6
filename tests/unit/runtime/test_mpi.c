/*
 * tests/unit/runtime/test_mpi.c — tests of libloom_mpi (runtime/src/mpi/
 * and io/): partitioning, sections, migration, halo exchange with dirty
 * bits, reductions and fetch, on small hand-made meshes; HDF5 (--hdf5).  Run under mpirun at any number of ranks (tests/mpi/run.sh runs
 * 1, 2, 3 and 4); not Criterion, whose forked tests do not mix with MPI.
 *
 *   test_mpi [metis|scotch|ptscotch|block|geom ...]   the meshes with each
 *                                       partitioner (default: all five;
 *                                       geom on the val_ dats), declared whole
 *                                       and declared from uneven slices
 *                                       (loom_decl_set_slice: distributed)
 *   test_mpi --fail                     rank 1 (or 0) declares a bad map:
 *                                       the job must end, naming the rank
 *   test_mpi --mismatch                 rank 1 declares a different mesh
 *   test_mpi --bad-slices               rank 1's slice leaves a gap
 *   test_mpi --skip-fetch               rank 0 alone fetches; the others
 *                                       call loom_exit
 *   test_mpi --skip-fetch-pointer       the same, rank 0 fetching through a
 *                                       function pointer (no call site)
 *   test_mpi --skip-first-loop          rank 0 alone runs a loop (which
 *                                       partitions); the others leave
 *   test_mpi --absent                   rank 1 makes no collective call
 *   test_mpi --fetch-apart              every rank fetches, rank 0 from
 *                                       another line than the others
 *   test_mpi --skip-loop                rank 1 skips a loop's halo exchange
 *   test_mpi --hdf5 FILE                a dat written to FILE and read back,
 *                                       and 4 ways of reading it wrongly
 *   test_mpi --big NX NY METHOD         times partitioning an NX x NY quad
 *                                       mesh (no checks; LOOM_DIAG=1 for
 *                                       the partition's quality)
 *
 * Every check is collective: each rank counts its failures (printing the
 * first few with details), then rank 0 prints "PASS name" or "FAIL name"
 * for the whole job; the exit status is 1 when any check failed.
 *
 * The expectations are computed here by brute force from the definitions
 * of dsl-spec/mpi.md, independently of the runtime: the owner of every
 * element is learnt from the ranks' owned elements (MPI_Allgatherv of
 * loom__set_global), and then every rank's core, owned, executed halo and
 * non-executed halo follow from the global maps.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loom_gen.h"

static int me, nranks, failures_total = 0, local_failures = 0;
static char check_name[200];

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (local_failures++ < 5) {                                              \
        fprintf(stderr, "rank %d: %s: ", me, check_name);                      \
        fprintf(stderr, __VA_ARGS__);                                          \
        fprintf(stderr, "\n");                                                 \
      }                                                                        \
    }                                                                          \
  } while (0)

static void check_begin(const char *mesh, const char *method,
                        const char *what) {
  snprintf(check_name, sizeof check_name, "%s/%s/%dranks: %s", mesh, method,
           nranks, what);
  local_failures = 0;
}

static void check_end(void) {
  int sum = 0;
  MPI_Allreduce(&local_failures, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("%s %s\n", sum ? "FAIL" : "PASS", check_name);
  fflush(stdout);
  failures_total += sum != 0;
}

/* ---- meshes ------------------------------------------------------------ */

enum { MAXSETS = 4, MAXMAPS = 4 };

typedef struct mesh {
  const char *name;
  int nsets, nmaps, primary;
  const char *set_name[MAXSETS];
  int size[MAXSETS];
  const char *map_name[MAXMAPS];
  int from[MAXMAPS], to[MAXMAPS], dim[MAXMAPS];
  int *values[MAXMAPS];
} mesh;

static void mesh_free(mesh *m) {
  for (int k = 0; k < m->nmaps; k++)
    free(m->values[k]);
}

/* A chain of n cells: edges between neighbours (edge i: cells i, i+1),
 * nodes at the ends of cells (cell i: nodes i, i+1). */
static mesh chain(int n) {
  mesh m = {.name = "chain", .nsets = 3, .nmaps = 2, .primary = 0};
  m.set_name[0] = "cells", m.size[0] = n;
  m.set_name[1] = "edges", m.size[1] = n - 1;
  m.set_name[2] = "nodes", m.size[2] = n + 1;
  m.map_name[0] = "pecell", m.from[0] = 1, m.to[0] = 0, m.dim[0] = 2;
  m.map_name[1] = "pcell", m.from[1] = 0, m.to[1] = 2, m.dim[1] = 2;
  m.values[0] = malloc(2 * (size_t)n * sizeof(int));
  m.values[1] = malloc(2 * (size_t)n * sizeof(int));
  for (int e = 0; e < n - 1; e++)
    m.values[0][2 * e] = e, m.values[0][2 * e + 1] = e + 1;
  for (int c = 0; c < n; c++)
    m.values[1][2 * c] = c, m.values[1][2 * c + 1] = c + 1;
  return m;
}

/* An nx x ny quad mesh: cells, nodes, interior edges with their two
 * cells and two nodes (OP2's Airfoil shape, without boundary edges). */
static mesh quads(int nx, int ny) {
  mesh m = {.name = "quads", .nsets = 3, .nmaps = 3, .primary = -1};
  int ncell = nx * ny, nnode = (nx + 1) * (ny + 1);
  int nedge = (nx - 1) * ny + nx * (ny - 1);
  m.set_name[0] = "nodes", m.size[0] = nnode;
  m.set_name[1] = "edges", m.size[1] = nedge;
  m.set_name[2] = "cells", m.size[2] = ncell;
  m.map_name[0] = "pedge", m.from[0] = 1, m.to[0] = 0, m.dim[0] = 2;
  m.map_name[1] = "pecell", m.from[1] = 1, m.to[1] = 2, m.dim[1] = 2;
  m.map_name[2] = "pcell", m.from[2] = 2, m.to[2] = 0, m.dim[2] = 4;
  for (int k = 0; k < 3; k++)
    m.values[k] = malloc(4 * (size_t)(ncell + nedge) * sizeof(int));
#define NODE(i, j) ((j) * (nx + 1) + (i))
#define CELL(i, j) ((j) * nx + (i))
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int *p = m.values[2] + 4 * CELL(i, j);
      p[0] = NODE(i, j), p[1] = NODE(i + 1, j);
      p[2] = NODE(i + 1, j + 1), p[3] = NODE(i, j + 1);
    }
  int e = 0;
  for (int j = 0; j < ny; j++) /* vertical edges between cells */
    for (int i = 1; i < nx; i++, e++) {
      m.values[0][2 * e] = NODE(i, j), m.values[0][2 * e + 1] = NODE(i, j + 1);
      m.values[1][2 * e] = CELL(i - 1, j), m.values[1][2 * e + 1] = CELL(i, j);
    }
  for (int j = 1; j < ny; j++) /* horizontal edges */
    for (int i = 0; i < nx; i++, e++) {
      m.values[0][2 * e] = NODE(i, j), m.values[0][2 * e + 1] = NODE(i + 1, j);
      m.values[1][2 * e] = CELL(i, j - 1), m.values[1][2 * e + 1] = CELL(i, j);
    }
#undef NODE
#undef CELL
  return m;
}

/* ---- expectations by brute force --------------------------------------- */

enum { CORE, BOUNDARY, EXEC, NONEXEC, NONE };

typedef struct world {
  loom_set set[MAXSETS];
  loom_map map[MAXMAPS];
  loom_dat val[MAXSETS]; /* dim 2 doubles: (g, -g) per element */
  int *owner[MAXSETS];   /* global element -> owner rank */
} world;

/* The owner of every element, from every rank's owned elements. */
static void learn_owners(const mesh *m, world *w) {
  int *counts = malloc((size_t)nranks * sizeof(int));
  int *displs = malloc((size_t)nranks * sizeof(int));
  for (int s = 0; s < m->nsets; s++) {
    int owned = loom__set_owned(w->set[s]), n = m->size[s];
    int *all = malloc(((size_t)n + 1) * sizeof(int));
    MPI_Allgather(&owned, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int q = 0, at = 0; q < nranks; q++)
      displs[q] = at, at += counts[q];
    MPI_Allgatherv(loom__set_global(w->set[s]), owned, MPI_INT, all, counts,
                   displs, MPI_INT, MPI_COMM_WORLD);
    w->owner[s] = malloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
      w->owner[s][i] = -1;
    for (int q = 0; q < nranks; q++)
      for (int k = displs[q]; k < displs[q] + counts[q]; k++) {
        EXPECT(w->owner[s][all[k]] < 0, "set %s: element %d owned twice",
               m->set_name[s], all[k]);
        w->owner[s][all[k]] = q;
      }
    for (int i = 0; i < n; i++)
      EXPECT(w->owner[s][i] >= 0, "set %s: element %d owned by no rank",
             m->set_name[s], i);
    free(all);
  }
  free(counts);
  free(displs);
}

/* The class of every element of every set on rank r (the definitions). */
static void expected_classes(const mesh *m, const world *w, int r,
                             unsigned char **cls) {
  for (int s = 0; s < m->nsets; s++)
    for (int i = 0; i < m->size[s]; i++) {
      int owned = w->owner[s][i] == r, all_mine = 1, any_mine = 0;
      for (int k = 0; k < m->nmaps; k++)
        if (m->from[k] == s)
          for (int j = 0; j < m->dim[k]; j++) {
            int t = m->values[k][i * m->dim[k] + j];
            int mine = w->owner[m->to[k]][t] == r;
            all_mine &= mine;
            any_mine |= mine;
          }
      cls[s][i] = owned ? (all_mine ? CORE : BOUNDARY)
                        : (any_mine ? EXEC : NONE);
    }
  for (int k = 0; k < m->nmaps; k++)
    for (int i = 0; i < m->size[m->from[k]]; i++)
      if (cls[m->from[k]][i] <= EXEC)
        for (int j = 0; j < m->dim[k]; j++) {
          int t = m->values[k][i * m->dim[k] + j];
          if (cls[m->to[k]][t] == NONE)
            cls[m->to[k]][t] = NONEXEC;
        }
}

static unsigned char **classes_new(const mesh *m) {
  unsigned char **cls = calloc(MAXSETS, sizeof *cls);
  for (int s = 0; s < m->nsets; s++)
    cls[s] = malloc((size_t)m->size[s] + 1);
  return cls;
}

static void classes_free(unsigned char **cls) {
  for (int s = 0; s < MAXSETS; s++)
    free(cls[s]);
  free(cls);
}

/* The section of local index l. */
static int section_of(loom_set set, int l) {
  return l < loom__set_core(set)    ? CORE
         : l < loom__set_owned(set) ? BOUNDARY
         : l < loom__set_exec(set)  ? EXEC
                                    : NONEXEC;
}

/* ---- the checks -------------------------------------------------------- */

static void check_sections(const mesh *m, const world *w) {
  const char *env = getenv("LOOM_RENUMBER");
  int renumbered = env && strcmp(env, "1") == 0;
  unsigned char **cls = classes_new(m);
  expected_classes(m, w, me, cls);
  for (int s = 0; s < m->nsets; s++) {
    loom_set set = w->set[s];
    int c = loom__set_core(set), o = loom__set_owned(set);
    int x = loom__set_exec(set), t = loom__set_total(set);
    const int *gid = loom__set_global(set);
    EXPECT(gid != NULL, "set %s: no global ids", m->set_name[s]);
    if (!gid)
      continue;
    EXPECT(0 <= c && c <= o && o <= x && x <= t, "set %s: sections %d %d %d %d",
           m->set_name[s], c, o, x, t);
    EXPECT(loom_set_size(set) == m->size[s], "set %s: global size %d",
           m->set_name[s], loom_set_size(set));
    EXPECT(loom__set_size(set) == o, "set %s: loom__set_size %d != owned %d",
           m->set_name[s], loom__set_size(set), o);
    int expect_total = 0;
    for (int i = 0; i < m->size[s]; i++)
      expect_total += cls[s][i] != NONE;
    EXPECT(t == expect_total, "set %s: %d local elements, expected %d",
           m->set_name[s], t, expect_total);
    for (int l = 0; l < t; l++) {
      int g = gid[l], sec = section_of(set, l);
      EXPECT(cls[s][g] == sec, "set %s: element %d is in section %d, expected %d",
             m->set_name[s], g, sec, cls[s][g]);
      /* order within a section (by declared index: not after a global
       * LOOM_RENUMBER=1, whose order this test does not know) */
      if (!renumbered && l > 0 && section_of(set, l - 1) == sec) {
        int prev = gid[l - 1];
        int before = sec <= BOUNDARY
                         ? prev < g
                         : (w->owner[s][prev] < w->owner[s][g] ||
                            (w->owner[s][prev] == w->owner[s][g] && prev < g));
        EXPECT(before, "set %s: elements %d, %d out of order in section %d",
               m->set_name[s], prev, g, sec);
      }
    }
  }
  classes_free(cls);
}

static void check_maps(const mesh *m, const world *w) {
  for (int k = 0; k < m->nmaps; k++) {
    loom_set from = w->set[m->from[k]], to = w->set[m->to[k]];
    const int *v = loom__map_values(w->map[k]);
    const int *gf = loom__set_global(from), *gt = loom__set_global(to);
    int d = m->dim[k];
    for (int l = 0; l < loom__set_total(from); l++)
      for (int j = 0; j < d; j++) {
        int e = v[l * d + j];
        if (l >= loom__set_exec(from)) {
          EXPECT(e == -1, "map %s: non-exec row %d has %d", m->map_name[k], l, e);
          continue;
        }
        EXPECT(e >= 0 && e < loom__set_total(to),
               "map %s: row %d slot %d is %d, not local", m->map_name[k], l, j, e);
        if (e >= 0 && e < loom__set_total(to))
          EXPECT(gt[e] == m->values[k][gf[l] * d + j],
                 "map %s: element %d slot %d -> global %d, expected %d",
                 m->map_name[k], gf[l], j, gt[e], m->values[k][gf[l] * d + j]);
      }
  }
}

static void check_dats(const mesh *m, const world *w) {
  for (int s = 0; s < m->nsets; s++) {
    const double *v = loom__dat_values(w->val[s]);
    const int *gid = loom__set_global(w->set[s]);
    for (int l = 0; l < loom__set_total(w->set[s]); l++)
      EXPECT(v[2 * l] == gid[l] && v[2 * l + 1] == -gid[l],
             "dat on %s: row %d (global %d) is (%g, %g)", m->set_name[s], l,
             gid[l], v[2 * l], v[2 * l + 1]);
    EXPECT(loom__dat_is_dirty(w->val[s]) == 0, "dat on %s: dirty after migration",
           m->set_name[s]);
  }
}

/* Ranks that receive halo rows of set s from rank r (brute force). */
static int expected_sends(const mesh *m, const world *w, int s, int r) {
  int n = 0;
  unsigned char **cls = classes_new(m);
  for (int q = 0; q < nranks; q++) {
    if (q == r)
      continue;
    expected_classes(m, w, q, cls);
    int any = 0;
    for (int i = 0; i < m->size[s]; i++)
      any |= (cls[s][i] == EXEC || cls[s][i] == NONEXEC) && w->owner[s][i] == r;
    n += any;
  }
  classes_free(cls);
  return n;
}

/* A halo end without a begin: nothing on a clean halo; a stale one is
 * exchanged on the spot, and counted as unscheduled. */
static void check_end_without_begin(const mesh *m, const world *w, int s) {
  loom_dat d = w->val[s];
  double *v = loom__dat_values(d);
  const int *gid = loom__set_global(w->set[s]);
  int o = loom__set_owned(w->set[s]), t = loom__set_total(w->set[s]);
  long before = loom__halo_messages(), unscheduled = loom__halo_unscheduled();
  EXPECT(loom__halo_end(d) == LOOM_OK, "end without begin on a clean halo failed");
  EXPECT(loom__halo_messages() == before && loom__halo_unscheduled() == unscheduled,
         "end without begin on the clean halo of %s exchanged it", m->set_name[s]);
  for (int l = 0; l < o; l++)
    v[2 * l] = 3000.0 * me - gid[l];
  for (int l = o; l < t; l++)
    v[2 * l] = -9;
  loom__dat_dirty(d);
  EXPECT(loom__halo_end(d) == LOOM_OK, "end without begin on a stale halo failed");
  EXPECT(loom__dat_is_dirty(d) == 0, "stale halo still dirty after an end");
  EXPECT(loom__halo_unscheduled() == unscheduled + 1, "unscheduled count %ld, expected %ld",
         loom__halo_unscheduled(), unscheduled + 1);
  EXPECT(loom__halo_messages() - before == expected_sends(m, w, s, me),
         "end without begin on %s: %ld messages, expected %d", m->set_name[s],
         loom__halo_messages() - before, expected_sends(m, w, s, me));
  for (int l = o; l < t; l++)
    EXPECT(v[2 * l] == 3000.0 * w->owner[s][gid[l]] - gid[l],
           "set %s: halo row %d after an end without begin is %g", m->set_name[s], l,
           v[2 * l]);
  for (int l = 0; l < t; l++) /* back to check_halo's values, for check_fetch */
    v[2 * l] = 1000.0 * w->owner[s][gid[l]] + gid[l];
}

static void check_halo(const mesh *m, const world *w) {
  for (int s = 0; s < m->nsets; s++) {
    loom_dat d = w->val[s];
    loom_set set = w->set[s];
    double *v = loom__dat_values(d);
    const int *gid = loom__set_global(set);
    int o = loom__set_owned(set), t = loom__set_total(set);
    for (int l = 0; l < o; l++)
      v[2 * l] = 1000.0 * me + gid[l], v[2 * l + 1] = gid[l];
    for (int l = o; l < t; l++)
      v[2 * l] = v[2 * l + 1] = -7; /* stale */
    long before = loom__halo_messages();
    /* a clean halo is not exchanged */
    EXPECT(loom__halo_begin(d) == LOOM_OK && loom__halo_end(d) == LOOM_OK,
           "exchange of a clean dat failed");
    EXPECT(loom__halo_messages() == before, "clean halo of %s sent %ld messages",
           m->set_name[s], loom__halo_messages() - before);
    EXPECT(t == o || v[2 * o] == -7, "clean halo of %s was overwritten",
           m->set_name[s]);
    loom__dat_dirty(d);
    EXPECT(loom__dat_is_dirty(d) == 1, "not dirty after loom__dat_dirty");
    EXPECT(loom__halo_begin(d) == LOOM_OK, "halo_begin failed");
    EXPECT(loom__halo_end(d) == LOOM_OK, "halo_end failed");
    long sent = loom__halo_messages() - before;
    int expect = expected_sends(m, w, s, me);
    EXPECT(sent == expect, "dirty halo of %s: %ld messages, expected %d",
           m->set_name[s], sent, expect);
    EXPECT(loom__dat_is_dirty(d) == 0, "dirty after the exchange");
    for (int l = o; l < t; l++)
      EXPECT(v[2 * l] == 1000.0 * w->owner[s][gid[l]] + gid[l] &&
                 v[2 * l + 1] == gid[l],
             "set %s: halo row %d (global %d, owner %d) is (%g, %g)",
             m->set_name[s], l, gid[l], w->owner[s][gid[l]], v[2 * l],
             v[2 * l + 1]);
    /* now clean: a second exchange sends nothing */
    before = loom__halo_messages();
    loom__halo_begin(d);
    loom__halo_end(d);
    EXPECT(loom__halo_messages() == before, "second exchange of %s sent %ld",
           m->set_name[s], loom__halo_messages() - before);
    check_end_without_begin(m, w, s);
  }
}

/* An increment loop over [0, exec) of each map's from-set, as generated
 * code would run it: every owned target element must get exactly the
 * increments of the serial loop (its number of incoming entries). */
static void check_increments(const mesh *m, const world *w) {
  for (int k = 0; k < m->nmaps; k++) {
    loom_set from = w->set[m->from[k]], to = w->set[m->to[k]];
    int *count = calloc((size_t)loom__set_total(to) + 1, sizeof(int));
    const int *v = loom__map_values(w->map[k]);
    for (int l = 0; l < loom__set_exec(from); l++)
      for (int j = 0; j < m->dim[k]; j++)
        count[v[l * m->dim[k] + j]]++;
    int *serial = calloc((size_t)m->size[m->to[k]] + 1, sizeof(int));
    for (int i = 0; i < m->size[m->from[k]] * m->dim[k]; i++)
      serial[m->values[k][i]]++;
    const int *gt = loom__set_global(to);
    for (int l = 0; l < loom__set_owned(to); l++)
      EXPECT(count[l] == serial[gt[l]],
             "map %s: owned element %d got %d increments, serial %d",
             m->map_name[k], gt[l], count[l], serial[gt[l]]);
    /* core elements read owned elements only */
    for (int l = 0; l < loom__set_core(from); l++)
      for (int j = 0; j < m->dim[k]; j++)
        EXPECT(v[l * m->dim[k] + j] < loom__set_owned(to),
               "map %s: core row %d reads halo element", m->map_name[k], l);
    free(count);
    free(serial);
  }
}

/* start copies the partial result (the caller's storage may go), fold
 * adds an inc into the variable and stores min and max; a fold without a
 * start leaves the variable; a second start before the fold fails. */
static void quiet(int status, const char *message, void *ctx) {
  (void)status, (void)message, (void)ctx;
}

static void check_start_fold(void) {
  static loom__reduction rs, rmin;
  double part[2] = {1.0, (double)me}, var[2] = {10.0, 20.0};
  int lo = me, var_min = 1 << 30;
  EXPECT(loom__reduce_start(&rs, part, 2, LOOM_DOUBLE, LOOM_REDUCE_INC) == LOOM_OK &&
             loom__reduce_start(&rmin, &lo, 1, LOOM_INT, LOOM_REDUCE_MIN) == LOOM_OK,
         "reduce_start failed");
  part[0] = part[1] = -1e9; /* start took a copy */
  lo = 1 << 20;
  loom_error_handler old = loom_set_error_handler(quiet, NULL);
  EXPECT(loom__reduce_start(&rs, part, 2, LOOM_DOUBLE, LOOM_REDUCE_INC) == LOOM_ESTATE,
         "a second start before the fold did not fail");
  loom_set_error_handler(old, NULL);
  EXPECT(loom__reduce_fold(&rs, var) == LOOM_OK && loom__reduce_fold(&rmin, &var_min) == LOOM_OK,
         "reduce_fold failed");
  double ranks_sum = (double)nranks * (nranks - 1) / 2;
  EXPECT(var[0] == 10.0 + nranks && var[1] == 20.0 + ranks_sum,
         "inc fold: %g %g, expected %g %g", var[0], var[1], 10.0 + nranks, 20.0 + ranks_sum);
  EXPECT(var_min == 0, "min fold: %d, expected 0", var_min);
  var[0] = 5.0;
  EXPECT(loom__reduce_fold(&rs, var) == LOOM_OK && var[0] == 5.0,
         "a fold without a start changed the variable");
}

static void check_reductions(const mesh *m, const world *w) {
  loom_set set = w->set[0];
  const int *gid = loom__set_global(set);
  int n = m->size[0];
  double sum[2] = {0, 0};
  int isum = 0, mn = 1 << 30, mx = -1;
  for (int l = 0; l < loom__set_owned(set); l++) {
    sum[0] += gid[l], sum[1] += 2.0 * gid[l];
    isum += gid[l];
    mn = gid[l] < mn ? gid[l] : mn;
    mx = gid[l] > mx ? gid[l] : mx;
  }
  loom__reduction r1, r2, r3, r4;
  /* all four in flight at once: begin ... begin, end ... end */
  int ok = loom__reduce_begin(&r1, sum, 2, LOOM_DOUBLE, LOOM_REDUCE_INC) == 0 &&
           loom__reduce_begin(&r2, &isum, 1, LOOM_INT, LOOM_REDUCE_INC) == 0 &&
           loom__reduce_begin(&r3, &mn, 1, LOOM_INT, LOOM_REDUCE_MIN) == 0 &&
           loom__reduce_begin(&r4, &mx, 1, LOOM_INT, LOOM_REDUCE_MAX) == 0;
  ok = ok && loom__reduce_end(&r4) == 0 && loom__reduce_end(&r2) == 0 &&
       loom__reduce_end(&r1) == 0 && loom__reduce_end(&r3) == 0;
  EXPECT(ok, "a reduction call failed");
  double expect = (double)n * (n - 1) / 2;
  EXPECT(sum[0] == expect && sum[1] == 2 * expect, "inc: %g %g, expected %g %g",
         sum[0], sum[1], expect, 2 * expect);
  EXPECT(isum == n * (n - 1) / 2, "int inc: %d", isum);
  EXPECT(mn == 0 && mx == n - 1, "min %d max %d, expected 0 and %d", mn, mx,
         n - 1);
  check_start_fold();
}

static void check_fetch(const mesh *m, const world *w) {
  for (int s = 0; s < m->nsets; s++) {
    int n = m->size[s];
    double *buf = malloc(2 * (size_t)n * sizeof(double) + 1);
    EXPECT(loom_dat_fetch(w->val[s], buf, 2 * (size_t)n * sizeof(double)) ==
               LOOM_OK,
           "fetch failed");
    for (int i = 0; i < n; i++) /* values written by each owner (check_halo) */
      EXPECT(buf[2 * i] == 1000.0 * w->owner[s][i] + i && buf[2 * i + 1] == i,
             "fetch of %s: element %d is (%g, %g)", m->set_name[s], i,
             buf[2 * i], buf[2 * i + 1]);
    free(buf);
  }
  /* a dat declared after partitioning: given global, stored local */
  int n = m->size[0];
  int *data = malloc((size_t)n * sizeof(int) + 1);
  for (int i = 0; i < n; i++)
    data[i] = 3 * i + 1;
  loom_dat late = loom_decl_dat(w->set[0], 1, int, data, "late");
  const int *v = loom__dat_values(late);
  const int *gid = loom__set_global(w->set[0]);
  for (int l = 0; l < loom__set_total(w->set[0]); l++)
    EXPECT(v[l] == 3 * gid[l] + 1, "late dat: row %d is %d", l, v[l]);
  memset(data, 0, (size_t)n * sizeof(int));
  EXPECT(loom_dat_fetch(late, data, (size_t)n * sizeof(int)) == LOOM_OK,
         "fetch of the late dat failed");
  for (int i = 0; i < n; i++)
    EXPECT(data[i] == 3 * i + 1, "late dat: fetched element %d is %d", i,
           data[i]);
  free(data);
}

/* This rank's slice of n elements in a distributed declaration: uneven
 * on purpose (rank r starts at n r^2 / P^2, so the first ranks hold few
 * or none). */
static void slice_of(int n, int *off, int *count) {
  long long P2 = (long long)nranks * nranks;
  *off = (int)((long long)n * me * me / P2);
  *count = (int)((long long)n * (me + 1) * (me + 1) / P2) - *off;
}

/* What the ledger counts (loom_memory): the kinds sum to the total at
 * every moment it keeps; start-up leaves nothing behind; each set keeps
 * the global numbers of its local elements; the maps hold their local
 * rows and no more (the other ranks' rows go back; at most one int for a
 * map without local rows), and the halos something when there are
 * several ranks. */
static void check_memory(const mesh *m, const world *w) {
  const loom_mem_when whens[] = {LOOM_MEM_NOW, LOOM_MEM_PEAK, LOOM_MEM_STARTED};
  for (int i = 0; i < 3; i++) {
    size_t sum = 0;
    for (int k = 0; k < LOOM_MEM_TOTAL; k++)
      sum += loom_memory((loom_mem_kind)k, whens[i]);
    EXPECT(sum == loom_memory(LOOM_MEM_TOTAL, whens[i]), "kinds sum to %zu, total %zu "
           "(when %d)", sum, loom_memory(LOOM_MEM_TOTAL, whens[i]), (int)whens[i]);
  }
  EXPECT(loom_memory(LOOM_MEM_STARTUP, LOOM_MEM_STARTED) == 0,
         "start-up left %zu bytes", loom_memory(LOOM_MEM_STARTUP, LOOM_MEM_STARTED));
  size_t sets = 0, maps = 0, dats = 0;
  for (int s = 0; s < m->nsets; s++) {
    sets += (size_t)loom__set_total(w->set[s]) * sizeof(int);
    dats += (size_t)loom__set_total(w->set[s]) * 2 * sizeof(double);
  }
  for (int k = 0; k < m->nmaps; k++)
    maps += (size_t)loom__set_total(w->set[m->from[k]]) * m->dim[k] * sizeof(int);
  EXPECT(loom_memory(LOOM_MEM_SETS, LOOM_MEM_NOW) >= sets, "sets %zu, local elements %zu",
         loom_memory(LOOM_MEM_SETS, LOOM_MEM_NOW), sets);
  EXPECT(loom_memory(LOOM_MEM_MAPS, LOOM_MEM_NOW) >= maps, "maps %zu, local rows %zu",
         loom_memory(LOOM_MEM_MAPS, LOOM_MEM_NOW), maps);
  EXPECT(loom_memory(LOOM_MEM_MAPS, LOOM_MEM_NOW) <= maps + (size_t)m->nmaps * sizeof(int),
         "maps %zu, more than their local rows %zu", loom_memory(LOOM_MEM_MAPS, LOOM_MEM_NOW),
         maps);
  EXPECT(loom_memory(LOOM_MEM_DATS, LOOM_MEM_NOW) >= dats, "dats %zu, local rows %zu",
         loom_memory(LOOM_MEM_DATS, LOOM_MEM_NOW), dats);
  EXPECT(nranks == 1 || loom_memory(LOOM_MEM_HALOS, LOOM_MEM_NOW) > 0, "no halo counted");
}

/* Declares m: whole on every rank, or (dist) each rank its slice through
 * loom_decl_set_slice and the slice's rows of every map and dat. */
static void declare(const mesh *m, world *w, int dist) {
  for (int s = 0; s < m->nsets; s++) {
    int off = 0, n = m->size[s];
    if (dist)
      slice_of(m->size[s], &off, &n);
    w->set[s] = dist ? loom_decl_set_slice(m->size[s], off, n, m->set_name[s])
                     : loom_decl_set(n, m->set_name[s]);
  }
  for (int k = 0; k < m->nmaps; k++) {
    int off = 0, n;
    slice_of(m->size[m->from[k]], &off, &n);
    w->map[k] = loom_decl_map(w->set[m->from[k]], w->set[m->to[k]], m->dim[k],
                              m->values[k] + (dist ? (size_t)off * m->dim[k] : 0),
                              m->map_name[k]);
  }
  for (int s = 0; s < m->nsets; s++) {
    double *data = malloc(2 * (size_t)m->size[s] * sizeof(double) + 1);
    for (int i = 0; i < m->size[s]; i++)
      data[2 * i] = i, data[2 * i + 1] = -i;
    int off = 0, n;
    slice_of(m->size[s], &off, &n);
    char name[64];
    snprintf(name, sizeof name, "val_%s", m->set_name[s]);
    w->val[s] = loom_decl_dat(w->set[s], 2, double, data + (dist ? 2 * (size_t)off : 0),
                              name);
    free(data);
  }
}

/* One session: declare, partition, check everything. */
static void run_mesh(mesh *m, const char *method, int dist) {
  world w;
  memset(&w, 0, sizeof w);
  loom_init(NULL, NULL);
  declare(m, &w, dist);
  char label[96];
  snprintf(label, sizeof label, "%s%s", m->name, dist ? " (slices)" : "");
  const char *saved = m->name;
  m->name = label;
  check_begin(m->name, method, "partition");
  int rc = loom_partition(m->primary >= 0 ? w.set[m->primary] : NULL, method);
  EXPECT(rc == LOOM_OK, "loom_partition returned %d", rc);
  EXPECT(loom_rank() == me && loom_nranks() == nranks, "rank %d of %d",
         loom_rank(), loom_nranks());
  learn_owners(m, &w);
  check_end();
  check_begin(m->name, method, "sections (core/owned/exec/non-exec)");
  check_sections(m, &w);
  check_end();
  check_begin(m->name, method, "map renumbering");
  check_maps(m, &w);
  check_end();
  check_begin(m->name, method, "dat migration");
  check_dats(m, &w);
  check_end();
  check_begin(m->name, method, "increments over the executed halo");
  check_increments(m, &w);
  check_end();
  check_begin(m->name, method, "halo exchange and dirty bits");
  check_halo(m, &w);
  check_end();
  check_begin(m->name, method, "reductions inc/min/max");
  check_reductions(m, &w);
  check_end();
  check_begin(m->name, method, "fetch in global order");
  check_fetch(m, &w);
  check_end();
  check_begin(m->name, method, "memory ledger");
  check_memory(m, &w);
  check_end();
  loom_exit();
  EXPECT(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW) == 0, "%zu bytes still counted after "
         "loom_exit", loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW));
  m->name = saved;
  for (int s = 0; s < m->nsets; s++)
    free(w.owner[s]);
}

/* --bad-slices: slices that leave a gap (rank 1 starts one element late)
 * are an error naming the set and the rank, on every rank. */
static int run_bad_slices(void) {
  loom_init(NULL, NULL);
  int off = 10 * me + (me == 1), count = 10 - (me == 1);
  loom_decl_set_slice(10 * nranks, off, count, "cells");
  loom_exit();
  return 0; /* not reached: the runtime aborts the job */
}

/* --fail / --mismatch: errors on one rank must end the job. */
static int run_failure(int mismatch) {
  int bad = nranks > 1 ? 1 : 0;
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(mismatch && me == bad ? 9 : 10, "cells");
  loom_set edges = loom_decl_set(9, "edges");
  int map[18];
  for (int e = 0; e < 9; e++)
    map[2 * e] = e, map[2 * e + 1] = e + 1;
  if (!mismatch && me == bad)
    map[5] = 99; /* out of range on one rank */
  if (mismatch && me == bad)
    map[17] = 0;
  loom_decl_map(edges, cells, 2, map, "pecell");
  loom_partition(NULL, "block");
  loom_exit();
  return 0; /* not reached: the runtime aborts the job */
}

/* --fail-after: after partitioning, rank 1 alone fails (a set declared
 * too late: the default handler) while the others wait in a halo exchange
 * with it.  Every rank must stop within seconds: rank 1's one message,
 * no MPI_Abort (tests/mpi/run.sh). */
static int run_failure_after(void) {
  int bad = nranks > 1 ? 1 : 0;
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  loom_set edges = loom_decl_set(9, "edges");
  int map[18];
  for (int e = 0; e < 9; e++)
    map[2 * e] = e, map[2 * e + 1] = e + 1;
  loom_decl_map(edges, cells, 2, map, "pecell");
  double v[10] = {0};
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  loom_partition(NULL, "block");
  if (me == bad)
    loom_decl_set(3, "late");
  loom__dat_dirty(x);
  if (loom__halo_begin(x) == LOOM_OK)
    loom__halo_end(x);
  loom_exit();
  return 0; /* not reached: the runtime ends the job */
}

/* --skip-fetch: rank 0 alone fetches a dat (OP2 programs often do), the
 * others go on to loom_exit: the ranks meet at different collective calls,
 * which must end the job on every rank with a message naming the calls
 * and their lines (tests/mpi/run.sh finds the lines by the comments
 * "misuse: ...").  --skip-fetch-pointer: rank 0 fetches through a function
 * pointer, which records no line: its message must name none (not the
 * line of loom_partition, the call before).  --absent: rank 1 makes no
 * collective call at all (it sleeps, then ends without loom_exit) while
 * the others fetch: they must not wait for it past
 * $LOOM_COLLECTIVE_TIMEOUT, and rank 0 names it. */
static int run_collective_misuse(int absent, int by_pointer) {
  int (*fetch)(loom_dat, void *, size_t) = loom_dat_fetch;
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  double v[10] = {0}, all[10];
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  loom_partition(NULL, "block");
  if (absent && me == 1) {
    sleep(30);
    return 0;
  }
  if (by_pointer && me == 0)
    fetch(x, all, sizeof all);
  else if (absent || me == 0)
    loom_dat_fetch(x, all, sizeof all); /* misuse: fetch */
  loom_exit(); /* misuse: exit */
  return 0; /* not reached: the runtime aborts the job */
}

/* --skip-first-loop: rank 0 runs a loop (as generated code does: its
 * label's check, then its dats' values, which partition the mesh the
 * program did not), the others go on to loom_exit: rank 0's message names
 * the loop's directive line, from the label. */
static int run_first_loop_misuse(void) {
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  double v[10] = {0};
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  if (me == 0) {
    static const char loop[] = "scale at prog.c:12";
    if (loom__check_set(cells, loop) == LOOM_OK && loom__dat_values(x))
      loom__loop_done(loop, 0.0);
  }
  loom_exit(); /* misuse: exit after a loop */
  return 0; /* not reached: the runtime aborts the job */
}

/* --fetch-apart: every rank fetches, rank 0 from one line and the others
 * from another (programs branch on the rank): one collective call, which
 * agrees whatever the lines. */
static int run_fetch_apart(void) {
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  double v[10], all[10] = {0};
  for (int i = 0; i < 10; i++)
    v[i] = i;
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  loom_partition(NULL, "block");
  int rc;
  if (me == 0)
    rc = loom_dat_fetch(x, all, sizeof all); /* apart: rank 0 */
  else
    rc = loom_dat_fetch(x, all, sizeof all); /* apart: the others */
  int ok = rc == LOOM_OK && all[0] == 0.0 && all[9] == 9.0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int exited = loom_exit() == LOOM_OK;
  if (me == 0)
    printf("%s: one fetch from two lines at %d ranks\n",
           all_ok && exited ? "PASS" : "FAIL", nranks);
  MPI_Finalize();
  return !(all_ok && exited);
}

/* --skip-loop: rank 1 skips a loop the others run (it sleeps): rank 0's
 * halo exchange for it, as generated code does it, must not wait past
 * $LOOM_COLLECTIVE_TIMEOUT, and names rank 1. */
static int run_skip_loop(void) {
  loom_init(NULL, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  loom_set edges = loom_decl_set(9, "edges");
  int map[18];
  for (int e = 0; e < 9; e++)
    map[2 * e] = e, map[2 * e + 1] = e + 1;
  double v[10] = {0};
  loom_decl_map(edges, cells, 2, map, "pecell");
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  loom_partition(NULL, "block");
  if (me == 1) {
    sleep(30);
    return 0;
  }
  loom__dat_dirty(x); /* a loop wrote x: the next one reading it exchanges */
  if (loom__halo_begin(x) == LOOM_OK)
    loom__halo_end(x);
  loom_exit();
  return 0; /* not reached: the runtime aborts the job */
}

/* --handler-before / --handler-after: an error on rank 1 only, with a
 * user handler that returns; every rank then does what generated code
 * does (the loop's checks, partitioning, a fetch, a reduction).  Rank 1
 * stops communicating; the others must not wait for it: each rank prints
 * how many errors its handler saw and the last one, and exits 0. */
static int handled;
static char handled_last[1024];

static void keep(int status, const char *message, void *ctx) {
  (void)status;
  (void)ctx;
  handled++;
  snprintf(handled_last, sizeof handled_last, "%s", message);
}

static int run_handler(int after) {
  int bad = nranks > 1 ? 1 : 0;
  loom_init(NULL, NULL);
  loom_set_error_handler(keep, NULL);
  loom_set cells = loom_decl_set(10, "cells");
  loom_set edges = loom_decl_set(9, "edges");
  int map[18];
  for (int e = 0; e < 9; e++)
    map[2 * e] = e, map[2 * e + 1] = e + 1;
  if (!after && me == bad)
    map[5] = 99; /* out of range on one rank: its map is not declared */
  loom_map pecell = loom_decl_map(edges, cells, 2, map, "pecell");
  double v[10] = {0};
  loom_dat x = loom_decl_dat(cells, 1, double, v, "x");
  /* a loop: its checks, then partitioning */
  if (loom__check_set(edges, "loop") == LOOM_OK &&
      loom__check_map(pecell, edges, cells, 2, "loop", 1) == LOOM_OK &&
      loom__mpi_ready() == LOOM_OK) {
    double all[10];
    /* a fetch with a wrong size on one rank */
    loom_dat_fetch(x, all, after && me == bad ? 8 : sizeof all);
    double sum = 1.0;
    loom__reduction r;
    if (loom__reduce_begin(&r, &sum, 1, LOOM_DOUBLE, LOOM_REDUCE_INC) == LOOM_OK)
      loom__reduce_end(&r);
  }
  loom_exit();
  printf("rank %d: %d error(s), last: %s\n", me, handled, handled_last);
  fflush(stdout);
  MPI_Finalize(); /* the program started MPI: it ends it, failed session or not */
  return 0;
}

/* --big: partitioning time on a large mesh. */
static int run_big(int nx, int ny, const char *method) {
  mesh m = quads(nx, ny);
  loom_init(NULL, NULL);
  loom_set set[MAXSETS];
  for (int s = 0; s < m.nsets; s++)
    set[s] = loom_decl_set(m.size[s], m.set_name[s]);
  for (int k = 0; k < m.nmaps; k++)
    loom_decl_map(set[m.from[k]], set[m.to[k]], m.dim[k], m.values[k],
                  m.map_name[k]);
  loom_decl_temp(set[2], 4, double, "q");
  double t0 = MPI_Wtime();
  int rc = loom_partition(set[2], method);
  double t1 = MPI_Wtime();
  if (me == 0)
    printf("%s: %d cells over %d ranks in %.3f s\n", method, m.size[2],
           nranks, t1 - t0);
  loom_exit();
  mesh_free(&m);
  MPI_Finalize();
  return rc != LOOM_OK;
}

/* --trim: a whole mesh's dat of several MiB keeps, once the mesh is
 * migrated, little more than its local rows in the ledger (the pages past
 * them went back), and its values, fetched, are the declared ones. */
static int run_trim(void) {
  mesh m = quads(400, 300); /* 3.84 MB of q: a mapping of its own */
  loom_init(NULL, NULL);
  loom_set set[MAXSETS];
  for (int s = 0; s < m.nsets; s++)
    set[s] = loom_decl_set(m.size[s], m.set_name[s]);
  for (int k = 0; k < m.nmaps; k++)
    loom_decl_map(set[m.from[k]], set[m.to[k]], m.dim[k], m.values[k], m.map_name[k]);
  int n = m.size[2];
  size_t whole = 4 * (size_t)n * sizeof(double);
  double *q = malloc(whole), *got = malloc(whole);
  for (size_t i = 0; i < 4 * (size_t)n; i++)
    q[i] = (double)i;
  loom_dat d = loom_decl_dat(set[2], 4, double, q, "q");
  int failed = loom_partition(set[2], "metis") != LOOM_OK;
  size_t local = 4 * (size_t)loom__set_total(set[2]) * sizeof(double);
  size_t held = loom_memory(LOOM_MEM_DATS, LOOM_MEM_NOW);
  if (held > local + (2u << 20) + 8192 || (nranks > 1 && held >= whole)) {
    fprintf(stderr, "rank %d: dats hold %zu bytes for %zu local (%zu whole)\n", me, held,
            local, whole);
    failed = 1;
  }
  failed |= loom_dat_fetch(d, got, whole) != LOOM_OK || memcmp(got, q, whole) != 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0)
    printf("%s: trim, %d cells over %d ranks\n", any ? "FAIL" : "PASS", n, nranks);
  loom_exit();
  free(q);
  free(got);
  mesh_free(&m);
  MPI_Finalize();
  return any;
}

/* --hdf5 FILE: a dat written with loom_dat_write_hdf5 from a partitioned
 * mesh reads back (loom_decl_dat_hdf5, uneven slices) in declared order,
 * and reading it wrongly is a named error on every rank. */
static int hdf5_session(const char *file, const char *dataset, int dim,
                        int as_int, const char *expect) {
  loom_init(NULL, NULL);
  loom_set_error_handler(keep, NULL);
  handled = 0;
  handled_last[0] = 0;
  int off, n, failed = 0;
  slice_of(30, &off, &n);
  loom_set cells = loom_decl_set_slice(30, off, n, "cells");
  loom_dat d = as_int ? loom_decl_dat_hdf5(cells, dim, int, file, dataset)
                      : loom_decl_dat_hdf5(cells, dim, double, file, dataset);
  if (expect) {
    failed = d != NULL || !strstr(handled_last, expect);
    if (failed)
      fprintf(stderr, "rank %d: %s: expected an error containing \"%s\", "
                      "got \"%s\"\n", me, dataset, expect, handled_last);
  } else {
    double got[60];
    failed = !d || loom_partition(NULL, "block") != LOOM_OK ||
             loom_dat_fetch(d, got, sizeof got) != LOOM_OK;
    for (int i = 0; !failed && i < 30; i++)
      failed = got[2 * i] != i || got[2 * i + 1] != -i;
    if (failed)
      fprintf(stderr, "rank %d: read back wrongly (%s)\n", me, handled_last);
  }
  loom_exit();
  return failed;
}

/* A set's size read from a file is checked: one int of -5 in dataset
 * "neg" (a dat of one element, written) is an error naming the set and
 * the file, not a slice the program never declared. */
static int negative_size_session(const char *file) {
  loom_init(NULL, NULL);
  loom_set_error_handler(keep, NULL);
  handled = 0;
  handled_last[0] = 0;
  int minus5 = -5;
  loom_set one = loom_decl_set(1, "one");
  loom_dat neg = loom_decl_dat(one, 1, int, &minus5, "neg");
  int failed = loom_dat_write_hdf5(neg, file, "neg") != LOOM_OK;
  failed |= loom_decl_set_hdf5(file, "neg") != NULL ||
            !strstr(handled_last, "set 'neg' has -5 elements there (dataset 'neg'): a set's "
                                  "size is 0 or more");
  if (failed)
    fprintf(stderr, "rank %d: negative size: \"%s\"\n", me, handled_last);
  loom_exit();
  return failed;
}

static int run_hdf5(const char *file) {
  mesh m = chain(30);
  world w;
  memset(&w, 0, sizeof w);
  loom_init(NULL, NULL);
  declare(&m, &w, 0);
  int failed = loom_partition(w.set[0], "metis") != LOOM_OK ||
               loom_dat_write_hdf5(w.val[0], file, "val") != LOOM_OK ||
               loom_dat_write_hdf5(w.val[0], file, "val") != LOOM_OK; /* again */
  loom_exit();
  mesh_free(&m);
  failed |= hdf5_session(file, "val", 2, 0, NULL);
  failed |= hdf5_session(file, "val", 3, 0, "is 30 x 2, but its set has 30 elements x dim 3");
  failed |= hdf5_session(file, "val", 2, 1, "holds floating-point values, declared int");
  failed |= hdf5_session(file, "nothing", 2, 0, "has no dataset 'nothing'");
  char missing[1100];
  snprintf(missing, sizeof missing, "%s.missing", file);
  failed |= hdf5_session(missing, "val", 2, 0, "cannot open HDF5 file");
  failed |= negative_size_session(file);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0)
    printf("%s: HDF5 write, read back and 5 errors at %d ranks\n",
           any ? "FAIL" : "PASS", nranks);
  MPI_Finalize();
  return any;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv); /* several loom sessions in one run */
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (argc > 1 && strcmp(argv[1], "--fail") == 0)
    return run_failure(0);
  if (argc > 1 && strcmp(argv[1], "--mismatch") == 0)
    return run_failure(1);
  if (argc > 1 && strcmp(argv[1], "--fail-after") == 0)
    return run_failure_after();
  if (argc > 1 && strcmp(argv[1], "--bad-slices") == 0)
    return run_bad_slices();
  if (argc > 2 && strcmp(argv[1], "--hdf5") == 0)
    return run_hdf5(argv[2]);
  if (argc > 1 && strcmp(argv[1], "--skip-first-loop") == 0)
    return run_first_loop_misuse();
  if (argc > 1 && strcmp(argv[1], "--skip-fetch") == 0)
    return run_collective_misuse(0, 0);
  if (argc > 1 && strcmp(argv[1], "--skip-fetch-pointer") == 0)
    return run_collective_misuse(0, 1);
  if (argc > 1 && strcmp(argv[1], "--absent") == 0)
    return run_collective_misuse(1, 0);
  if (argc > 1 && strcmp(argv[1], "--fetch-apart") == 0)
    return run_fetch_apart();
  if (argc > 1 && strcmp(argv[1], "--skip-loop") == 0)
    return run_skip_loop();
  if (argc > 1 && strncmp(argv[1], "--handler-", 10) == 0)
    return run_handler(strcmp(argv[1], "--handler-after") == 0);
  if (argc > 1 && strcmp(argv[1], "--trim") == 0)
    return run_trim();
  if (argc > 4 && strcmp(argv[1], "--big") == 0)
    return run_big(atoi(argv[2]), atoi(argv[3]), argv[4]);
  const char *all[] = {"metis", "scotch", "ptscotch", "block", "geom"};
  const char **methods = argc > 1 ? (const char **)argv + 1 : all;
  int nmethods = argc > 1 ? argc - 1 : 5;
  for (int k = 0; k < nmethods; k++) {
    mesh c = chain(13), q = quads(6, 5);
    for (int dist = 0; dist <= 1; dist++) {
      run_mesh(&c, methods[k], dist);
      run_mesh(&q, methods[k], dist);
    }
    mesh_free(&c);
    mesh_free(&q);
  }
  if (me == 0)
    printf("%s: %d failed check(s) at %d ranks\n",
           failures_total ? "FAIL" : "PASS", failures_total, nranks);
  MPI_Finalize();
  return failures_total ? 1 : 0;
}
