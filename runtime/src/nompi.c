/*
 * nompi.c — the distributed-memory API of loom.h in the build without MPI
 * (libloom.a; libloom_mpi.a has mpi_*.c instead and leaves this file out).
 *
 * Design
 * ------
 * One process is rank 0 of 1 and owns every element, so partitioning does
 * nothing, a halo is always up to date (begin/end and the dirty bit are
 * no-ops that still validate their handle), and a reduction over one rank
 * leaves its values as they are.  Code generated for --target=mpi thus
 * also builds and runs against libloom.a, sequentially: a way to test it
 * without mpirun.
 */
#include "loom_internal.h"

int loom_rank(void) { return 0; }
int loom_nranks(void) { return 1; }

int loom_partition(loom_set primary, const char *method) {
  int status = loomrt_require_active("loom_partition");
  if (status != LOOM_OK)
    return status;
  const char *problem = primary ? loomrt_set_problem(primary) : NULL;
  if (problem)
    return loom_error_(LOOM_EINVAL, "loom_partition: primary set %s",
                       problem);
  (void)method; /* nothing to partition: the one rank owns everything */
  return LOOM_OK;
}

int loom__mpi_ready(void) { return loomrt_require_active("loom__mpi_ready"); }


int loom__halo_begin(loom_dat dat) { return loomrt_dat_usable(dat, "loom__halo_begin"); }
int loom__halo_end(loom_dat dat) { return loomrt_dat_usable(dat, "loom__halo_end"); }

void loom__dat_dirty(loom_dat dat) {
  if (loomrt_dat_usable(dat, "loom__dat_dirty") == LOOM_OK)
    dat->halo_dirty = 0; /* one rank: there is no halo to go stale */
}

int loom__dat_is_dirty(loom_dat dat) {
  return loomrt_dat_usable(dat, "loom__dat_is_dirty") == LOOM_OK ? 0 : -1;
}

double loom__halo_wait(void) { return 0.0; }

int loom__halo_progress(void) { return LOOM_OK; }

long loom__halo_messages(void) { return 0; }

long loom__halo_unscheduled(void) { return 0; }

int loom__reduce_begin(loom__reduction *r, void *values, int count,
                       loom_type type, int op) {
  if (!r)
    return loom_error_(LOOM_EINVAL, "loom__reduce_begin: reduction is NULL");
  if (count < 0 || (count > 0 && !values) || op < LOOM_REDUCE_INC ||
      op > LOOM_REDUCE_MAX)
    return loom_error_(LOOM_EINVAL,
                       "loom__reduce_begin: bad arguments (count %d, op %d)",
                       count, op);
  r->values = values;
  r->count = count;
  r->type = type;
  r->op = op;
  r->active = 1;
  return LOOM_OK;
}

int loom__reduce_end(loom__reduction *r) {
  if (!r || !r->active)
    return loom_error_(LOOM_ESTATE,
                       "loom__reduce_end without loom__reduce_begin");
  r->active = 0;
  return LOOM_OK;
}
