/*
 * mpi/session.c — libloom_mpi's session: MPI start and end, the runtime's
 * communicator, MPI error checks, the abort path of the default error
 * handler, and loom_partition / loom__mpi_ready, which run the steps of
 * partition.h once.
 *
 * Design
 * ------
 * loom_init starts MPI (MPI_Init_thread, FUNNELED: MPI+OpenMP programs
 * call MPI from the host thread only) unless the program did, and
 * duplicates MPI_COMM_WORLD with MPI_ERRORS_RETURN, so the runtime's
 * messages never match the program's and every MPI failure comes back as
 * a return code that loomrt_mpi_check turns into a loom error naming the
 * call and the object.  loom_exit frees the communicator; MPI, when
 * loom_init started it, is finalised at the process's exit (atexit), so
 * that a later loom_init starts a new session on it (MPI cannot be
 * initialised twice).
 *
 * Before partitioning, the ranks check that they declared the same mesh
 * (the contract of loom.h): the sizes of sets, the shapes and a checksum of
 * maps, and a checksum of dats' data, compared with one MPI_Allreduce each
 * of MIN and MAX; a difference is reported on every rank, naming the
 * object.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"
#include "plan/plan.h"
#include "mpi/mpi.h"
#include "mpi/partition.h"

static MPI_Comm comm = MPI_COMM_NULL;
static int my_rank = 0, nranks = 1;
static int started_mpi = 0; /* loom_init called MPI_Init */
static double init_time;    /* MPI_Wtime() at loom_init */

/* At the process's exit: MPI_Finalize, when loom_init started MPI and the
 * program did not finalise it since. */
static void finalize_at_exit(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin)
    MPI_Finalize();
}

MPI_Comm loomrt_mpi_comm(void) { return comm; }
int loomrt_mpi_rank(void) { return my_rank; }
int loomrt_mpi_size(void) { return nranks; }

int loom_rank(void) { return my_rank; }
int loom_nranks(void) { return nranks; }

int loomrt_mpi_check(int rc, const char *fmt, ...) {
  if (rc == MPI_SUCCESS)
    return LOOM_OK;
  char what[512], err[MPI_MAX_ERROR_STRING];
  int len = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (MPI_Error_string(rc, err, &len) != MPI_SUCCESS)
    snprintf(err, sizeof err, "MPI error code %d", rc);
  return loom_error_(LOOM_ECOMM, "%s failed: %s", what, err);
}

static int agreed; /* the error being reported is every rank's at once */

void loomrt_mpi_agreed_error(int on) { agreed = on; }

void loomrt_mpi_abort(const char *message) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin)
    return; /* the caller prints and exits */
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (agreed) {
    /* every rank is here, past one agreement that told them all (its
     * requests complete): rank 0's message, then a clean end on all */
    if (rank == 0) {
      fprintf(stderr, "loom: rank 0: error: %s\n", message);
      fflush(stderr);
    }
    MPI_Finalize();
    exit(1);
  }
  if (loomrt_mpi_reporting_peer()) {
    /* the rank that failed printed the message: stop with it */
    loomrt_mpi_stop_quietly();
    MPI_Finalize();
    exit(1);
  }
  fprintf(stderr, "loom: rank %d: error: %s\n", rank, message);
  fflush(stderr);
  if (loomrt_mpi_end_together(message)) {
    MPI_Finalize();
    exit(1);
  }
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ---- session ----------------------------------------------------------- */

int loomrt_mpi_init(int *argc, char ***argv) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (fin)
    return loom_error_(LOOM_ESTATE, "loom_init called after the program finalised "
                                    "MPI (MPI cannot be started again)");
  if (!init) {
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
      return loom_error_(LOOM_ESTATE, "loom_init: MPI_Init_thread failed");
    if (!started_mpi && atexit(finalize_at_exit) != 0)
      return loom_error_(LOOM_ESTATE, "loom_init: cannot register MPI_Finalize "
                                      "for the process's exit");
    started_mpi = 1;
  }
  init_time = MPI_Wtime();
  int status = loomrt_mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &comm),
                                "loom_init: MPI_Comm_dup");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN),
        "loom_init: MPI_Comm_set_errhandler");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Comm_rank(comm, &my_rank),
                              "loom_init: MPI_Comm_rank");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Comm_size(comm, &nranks),
                              "loom_init: MPI_Comm_size");
  if (status == LOOM_OK)
    status = loomrt_mpi_fail_init();
  if (status == LOOM_OK)
    status = loomrt_mpi_agree_init();
  return status;
}

int loomrt_mpi_exit_agree(void) {
  if (comm == MPI_COMM_NULL || loomrt_mpi_failed())
    return LOOM_OK;
  return loomrt_mpi_agree(LOOM_OK, "loom_exit");
}

void loomrt_mpi_exit(void) {
  loomrt_halo_state_free();
  loomrt_halo_plans_free();
  int failed = loomrt_mpi_failed();
  loomrt_mpi_agree_exit(failed);
  loomrt_mpi_fail_exit();
  if (comm != MPI_COMM_NULL && !failed) /* collective: not after a failure */
    MPI_Comm_free(&comm);
  comm = MPI_COMM_NULL;
  my_rank = 0;
  nranks = 1;
  /* MPI itself stays up for a later session: finalize_at_exit ends it */
}

/* ---- the mesh ---------------------------------------------------------- */

static int index_of(loom_set *sets, int n, loom_set s) {
  for (int i = 0; i < n; i++)
    if (sets[i] == s)
      return i;
  return -1;
}

int loomrt_mesh_load(loomrt_mesh *mesh) {
  memset(mesh, 0, sizeof *mesh);
  mesh->primary = -1;
  size_t n = loomrt_registry_count();
  mesh->sets = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *mesh->sets);
  mesh->maps = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *mesh->maps);
  mesh->dats = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *mesh->dats);
  if (!mesh->sets || !mesh->maps || !mesh->dats)
    return LOOM_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    loomrt_kind kind;
    void *obj = loomrt_registry_object(i, &kind);
    if (kind == LOOMRT_KIND_SET)
      mesh->sets[mesh->nsets++] = obj;
    else if (kind == LOOMRT_KIND_MAP)
      mesh->maps[mesh->nmaps++] = obj;
    else if (kind == LOOMRT_KIND_DAT) /* not mat/'s sparsities, matrices */
      mesh->dats[mesh->ndats++] = obj;
  }
  mesh->from = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)mesh->nmaps + 1) * sizeof *mesh->from);
  mesh->to = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)mesh->nmaps + 1) * sizeof *mesh->to);
  mesh->owner = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)mesh->nsets + 1, sizeof *mesh->owner);
  if (!mesh->from || !mesh->to || !mesh->owner)
    return LOOM_ENOMEM;
  for (int m = 0; m < mesh->nmaps; m++) {
    mesh->from[m] = index_of(mesh->sets, mesh->nsets, mesh->maps[m]->from);
    mesh->to[m] = index_of(mesh->sets, mesh->nsets, mesh->maps[m]->to);
  }
  return LOOM_OK;
}

void loomrt_mesh_free(loomrt_mesh *mesh) {
  if (mesh->owner)
    for (int s = 0; s < mesh->nsets; s++)
      loomrt_free(mesh->owner[s]);
  loomrt_free(mesh->owner);
  loomrt_free(mesh->sets);
  loomrt_free(mesh->maps);
  loomrt_free(mesh->dats);
  loomrt_free(mesh->from);
  loomrt_free(mesh->to);
  memset(mesh, 0, sizeof *mesh);
}

/* ---- every rank declared the same mesh --------------------------------- */

static unsigned long long checksum(const void *data, size_t bytes) {
  const unsigned char *p = data;
  unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
  for (size_t i = 0; i < bytes; i++)
    h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* One key per object: sets' sizes, maps' shape and entries, dats' shape
 * and values; only the sizes and shapes (`shape`) for a distributed mesh,
 * whose ranks hold different slices. */
static void mesh_keys(const loomrt_mesh *mesh, unsigned long long *key,
                      int shape) {
  int k = 0;
  for (int s = 0; s < mesh->nsets; s++)
    key[k++] = (unsigned long long)mesh->sets[s]->gsize;
  for (int m = 0; m < mesh->nmaps; m++) {
    const loom_map map = mesh->maps[m];
    key[k++] = (shape ? 0
                      : checksum(map->values, (size_t)map->from->size *
                                                  (size_t)map->dim *
                                                  sizeof(int))) ^
               ((unsigned long long)map->dim << 56) ^
               ((unsigned long long)mesh->from[m] << 48) ^
               ((unsigned long long)mesh->to[m] << 40);
  }
  for (int d = 0; d < mesh->ndats; d++)
    key[k++] = (shape ? mesh->dats[d]->elem_size
                      : checksum(mesh->dats[d]->values, mesh->dats[d]->bytes)) ^
               ((unsigned long long)mesh->dats[d]->dim << 56);
}

int loomrt_mpi_same(const void *data, size_t bytes, int dim, const char *name) {
  if (loomrt_mpi_failed())
    return loomrt_mpi_usable("loom_decl_const");
  unsigned long long h = checksum(data, bytes) ^ ((unsigned long long)dim << 56);
  unsigned long long mine[2] = {h, ~h}, all[2] = {0, 0};
  MPI_Request req = MPI_REQUEST_NULL;
  int status = loomrt_mpi_check(MPI_Iallreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                                               comm, &req),
                                "MPI_Iallreduce (constant '%s')", name);
  if (status == LOOM_OK)
    status = loomrt_mpi_wait(1, &req, "loom_decl_const: comparing the ranks' values");
  if (status != LOOM_OK)
    return status;
  if (all[0] != h || ~all[1] != h) { /* the largest and the smallest differ */
    loomrt_mpi_agreed_error(1);       /* on every rank */
    int err = loom_error_(LOOM_EMISMATCH,
                          "constant '%s': different values on different ranks; every "
                          "rank must hold the same constants",
                          name);
    loomrt_mpi_agreed_error(0);
    return err;
  }
  return LOOM_OK;
}

/* Reports object k of the key list, which differs between ranks. */
static int report_difference(const loomrt_mesh *mesh, int k, int shape) {
  const char *rule = shape ? "every rank must declare the same sets, maps "
                             "and dats, in the same order"
                           : "every rank must declare the whole mesh";
  if (k < mesh->nsets)
    return loom_error_(LOOM_EMISMATCH,
                       "set '%s': declared with different sizes on different "
                       "ranks (%d here); %s",
                       mesh->sets[k]->name, mesh->sets[k]->gsize, rule);
  k -= mesh->nsets;
  if (k < mesh->nmaps)
    return loom_error_(LOOM_EMISMATCH,
                       "map '%s': declared with different %s on different "
                       "ranks; %s",
                       mesh->maps[k]->name, shape ? "shapes" : "entries",
                       rule);
  k -= mesh->nmaps;
  return loom_error_(LOOM_EMISMATCH,
                     "dat '%s': declared with different %s on different "
                     "ranks; %s",
                     mesh->dats[k]->name, shape ? "shapes" : "values", rule);
}

static int check_same_mesh(const loomrt_mesh *mesh, int shape) {
  int counts[4] = {mesh->nsets, mesh->nmaps, mesh->ndats, loomrt_const_count()}, lo[4], hi[4];
  /* every rank here before the reductions (a rank elsewhere is named) */
  int status = loomrt_mpi_agree(LOOM_OK, "loom_partition (checking the mesh)");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Allreduce(counts, lo, 4, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(
        MPI_Allreduce(counts, hi, 4, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  if (status != LOOM_OK)
    return status;
  if (memcmp(lo, hi, sizeof lo) != 0) {
    loomrt_mpi_agreed_error(1); /* every rank sees the same reductions */
    int err = loom_error_(LOOM_EMISMATCH,
                          "the ranks declared different meshes (%d sets, %d "
                          "maps, %d dats, %d constants here); every rank must declare "
                          "the whole mesh",
                          counts[0], counts[1], counts[2], counts[3]);
    loomrt_mpi_agreed_error(0);
    return err;
  }
  int n = counts[0] + counts[1] + counts[2];
  unsigned long long *key = loomrt_alloc(LOOM_MEM_STARTUP, 3 * ((size_t)n + 1) * sizeof *key);
  if (!key)
    status = LOOM_ENOMEM;
  status = loomrt_mpi_agree(status, "loom_partition (checking the mesh)");
  if (status != LOOM_OK) {
    loomrt_free(key);
    return status == LOOM_ENOMEM
               ? loom_error_(status, "loom_partition: out of memory")
               : status;
  }
  mesh_keys(mesh, key, shape);
  status = loomrt_mpi_check(MPI_Allreduce(key, key + n, n,
                                          MPI_UNSIGNED_LONG_LONG, MPI_MIN,
                                          comm),
                            "MPI_Allreduce");
  if (status == LOOM_OK)
    status = loomrt_mpi_check(MPI_Allreduce(key, key + 2 * n, n,
                                            MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                                            comm),
                              "MPI_Allreduce");
  for (int k = 0; status == LOOM_OK && k < n; k++)
    if (key[n + k] != key[2 * n + k]) {
      loomrt_mpi_agreed_error(1); /* every rank finds the same first difference */
      status = report_difference(mesh, k, shape);
      loomrt_mpi_agreed_error(0);
    }
  loomrt_free(key);
  for (int c = 0; status == LOOM_OK && c < loomrt_const_count(); c++)
    status = loomrt_const_check(c); /* changed since its declaration? */
  return status;
}

/* ---- partitioning ------------------------------------------------------ */

static const char *method_name(loomrt_part_method m) {
  return m == LOOMRT_PART_METIS    ? "metis"
         : m == LOOMRT_PART_SCOTCH   ? "scotch"
         : m == LOOMRT_PART_PTSCOTCH ? "ptscotch"
         : m == LOOMRT_PART_GEOM     ? "geom"
                                   : "block";
}

/* Prints, on rank 0, the partition's quality: the primary graph's edge cut
 * and each rank's section sizes per set (collective). */
static void print_quality(const loomrt_mesh *mesh, loomrt_part_method method,
                          long long cut, double seconds) {
  int n = 4 * mesh->nsets;
  int *mine = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *mine);
  int *all = my_rank == 0 ? loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n * nranks + 1) * sizeof *all)
                          : NULL;
  int ok = mine && (my_rank != 0 || all);
  for (int s = 0; ok && s < mesh->nsets; s++) {
    const loom_set set = mesh->sets[s];
    mine[4 * s] = set->core;
    mine[4 * s + 1] = set->owned;
    mine[4 * s + 2] = set->exec - set->owned;
    mine[4 * s + 3] = set->size - set->exec;
  }
  if (ok && MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, 0, comm) ==
                MPI_SUCCESS &&
      my_rank == 0) {
    const char *primary =
        mesh->primary >= 0 ? mesh->sets[mesh->primary]->name : "(none)";
    fprintf(stderr,
            "loom: partition: %s over %d ranks, primary set '%s', edge cut "
            "%lld, %.3f ms\n",
            method_name(method), nranks, primary, cut, seconds * 1e3);
    for (int s = 0; s < mesh->nsets; s++)
      for (int r = 0; r < nranks; r++) {
        const int *v = all + (size_t)r * n + 4 * s;
        fprintf(stderr,
                "loom: partition: set '%s' rank %d: owned %d (core %d), "
                "exec halo %d, non-exec halo %d\n",
                mesh->sets[s]->name, r, v[1], v[0], v[2], v[3]);
      }
    fflush(stderr);
  }
  loomrt_free(mine);
  loomrt_free(all);
}

/* LOOM_DIAG=1: the start-up's phases on rank 0, each its wall time, the
 * first from loom_init (init_time) to the partitioning (the declarations:
 * reading or building the mesh). */

static void print_startup(const double *t, const char *method, int sliced) {
  if (!loomrt_diag() || my_rank != 0)
    return;
  char steps[160];
  if (sliced) /* the distributed path migrates as it partitions */
    snprintf(steps, sizeof steps, "partitioned (%s) and migrated %.3f s, halos %.3f s",
             method, t[4] - t[3], t[6] - t[5]);
  else
    snprintf(steps, sizeof steps, "partitioned (%s) %.3f s, migrated with halos %.3f s",
             method, t[4] - t[3], t[5] - t[4]);
  fprintf(stderr, "loom: start-up: declarations %.3f s, mesh gathered %.3f s, checked "
                  "%.3f s, %s; %.3f s from loom_init\n",
          t[1] - t[0], t[2] - t[1], t[3] - t[2], steps, t[6] - t[0]);
  fflush(stderr);
}

static int partition(loom_set primary, loomrt_part_method method) {
  double t0 = MPI_Wtime(), t[7] = {init_time, t0, t0, t0, t0, t0, t0};
  loomrt_mesh mesh;
  long long cut = -1;
  int status = loomrt_mesh_load(&mesh);
  if (status != LOOM_OK)
    loom_error_(status, "loom_partition: out of memory");
  status = loomrt_mpi_agree(status, "loom_partition (loading the mesh)");
  t[2] = MPI_Wtime();
  /* a distributed mesh, "geom", or $LOOM_DISTRIBUTE=1 (a whole mesh cut
   * into blocks and partitioned on the distributed path: for tests) */
  int slices = loomrt_any_sliced();
  const char *dist = getenv("LOOM_DISTRIBUTE");
  int sliced = slices || method == LOOMRT_PART_GEOM || (dist && strcmp(dist, "1") == 0);
  if (status == LOOM_OK)
    status = check_same_mesh(&mesh, slices);
  t[3] = MPI_Wtime();
  if (status == LOOM_OK) {
    if (!primary)
      primary = loomrt_primary_set();
    mesh.primary = primary ? index_of(mesh.sets, mesh.nsets, primary) : -1;
    status = sliced ? loomrt_dist_partition(&mesh, method, &cut)
                    : loomrt_mpi_owners(&mesh, method, loomrt_diag(), &cut);
  }
  t[4] = t[5] = MPI_Wtime();
  if (status == LOOM_OK && !sliced)
    status = loomrt_mpi_migrate(&mesh);
  t[5] = t[6] = MPI_Wtime();
  if (status == LOOM_OK) {
    loomrt_set_partitioned();
    if (sliced) { /* the slices had no halo rows */
      status = loomrt_dist_fill_halos(&mesh);
      loomrt_dist_step("the halos");
    }
    t[6] = MPI_Wtime();
    loomrt_plan_drop_all(); /* plans were built on the global numbering */
    if (loomrt_diag())
      print_quality(&mesh, method, cut, MPI_Wtime() - t0);
    print_startup(t, method_name(method), sliced);
  }
  loomrt_mesh_free(&mesh);
  if (status == LOOM_OK)
    loomrt_mem_started(); /* LOOM_DIAG's memory after start-up */
  return status;
}

static int loom_partition_body(loom_set primary, const char *method);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_partition(loom_set primary, const char *method) {
  return loomrt_leave(loom_partition_body(primary, method));
}

static int loom_partition_body(loom_set primary, const char *method) {
  int status = loomrt_require_active("loom_partition");
  if (status == LOOM_OK)
    status = loomrt_mpi_usable("loom_partition");
  const char *problem = primary && status == LOOM_OK ? loomrt_set_problem(primary) : NULL;
  if (problem)
    return loom_error_(LOOM_EINVAL, "loom_partition: primary set %s",
                       problem);
  loomrt_part_method m = LOOMRT_PART_METIS;
  if (status == LOOM_OK)
    status = loomrt_partition_method(method, &m);
  if (status != LOOM_OK || loomrt_partitioned())
    return status;
  const char *dist = getenv("LOOM_DISTRIBUTE");
  if (m == LOOMRT_PART_GEOM || (dist && strcmp(dist, "1") == 0))
    loomrt_renumber_cancel("the mesh is partitioned on the distributed path");
  status = loomrt_renumber_lazy(); /* a pending LOOM_RENUMBER=1 first */
  if (status != LOOM_OK)
    return status;
  return partition(primary, m);
}

static int loom__mpi_ready_body(void);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__mpi_ready(void) {
  return loomrt_leave(loom__mpi_ready_body());
}

static int loom__mpi_ready_body(void) {
  int status = loomrt_require_active("loom__mpi_ready");
  if (status == LOOM_OK)
    status = loomrt_mpi_usable("loom__mpi_ready"); /* a failed session runs no loop */
  if (status != LOOM_OK || loomrt_partitioned())
    return status;
  return loom_partition(NULL, NULL);
}

/* ---- the distribution core/ calls (core/dist.h) ------------------------ */

const loomrt_dist_ops loomrt_distribution = {
    .name = "mpi",
    .start = loomrt_mpi_init,
    .agree_exit = loomrt_mpi_exit_agree,
    .finish = loomrt_mpi_exit,
    .abort = loomrt_mpi_abort,
    .error_raised = loomrt_mpi_error_raised,
    .rank = loom_rank,
    .nranks = loom_nranks,
    .ready = loom__mpi_ready,
    .fetch = loomrt_mpi_fetch,
    .same = loomrt_mpi_same,
    .slice_check = loomrt_slice_check,
    .reduce_begin = loom__reduce_begin,
    .reduce_end = loom__reduce_end,
};
