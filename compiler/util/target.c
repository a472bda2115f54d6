/*
 * target.c — the targets (see target.h): one table, read by name once.
 */
#include "util/target.h"

#include <string.h>

static const target targets[TARGET_COUNT] = {
    [TARGET_SEQ] = {TARGET_SEQ, "seq", 0, 0},
    [TARGET_OPENMP] = {TARGET_OPENMP, "openmp", 0, 1},
    [TARGET_MPI] = {TARGET_MPI, "mpi", 1, 0},
    [TARGET_MPI_OPENMP] = {TARGET_MPI_OPENMP, "mpi+openmp", 1, 1},
};

const target *target_named(const char *name) {
  for (int k = 0; k < TARGET_COUNT; k++)
    if (strcmp(targets[k].name, name) == 0)
      return &targets[k];
  return NULL;
}

const target *target_of(target_kind kind) { return &targets[kind]; }

const char *target_names(void) { return "'seq', 'openmp', 'mpi' or 'mpi+openmp'"; }
