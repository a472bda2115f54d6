/*
 * core/dist.h — the distribution, as core/ sees it: one table of
 * operations that core calls, whoever implements them.
 *
 * libloom is one process owning the whole mesh: core/nompi.c defines the
 * table (loom_init starts nothing, one rank, a fetch or a constant needs
 * no agreement).  libloom_mpi is MPI ranks: mpi/session.c defines it (MPI
 * started and ended, errors told to the other ranks, dats gathered,
 * constants compared, the mesh partitioned before its first use).  Each
 * library holds exactly one of the two, so core/ is compiled once, for
 * both, and calls nothing of mpi/ by name: the layer check
 * (scripts/check-layers.py) holds it to that.
 */
#ifndef LOOM_CORE_DIST_H
#define LOOM_CORE_DIST_H

#include <stddef.h>

#include "loom_gen.h"

typedef struct loomrt_dist_ops {
  const char *name; /* "serial", "mpi" */
  /* loom_init's first step (MPI_Init); LOOM_OK or a reported status */
  int (*start)(int *argc, char ***argv);
  /* loom_exit's first step: the ranks agree that they all leave, before
   * any collective of the end (a failure fails the session) */
  int (*agree_exit)(void);
  /* loom_exit's last step: halo and partition state, then MPI_Finalize */
  void (*finish)(void);
  /* the default error handler's end: "loom: rank R: error: MESSAGE" and
   * MPI_Abort; returns when there is nothing to abort (then exit(1)) */
  void (*abort)(const char *message);
  /* this rank leaves the program's communication after the error
   * `message`: the session fails, the other ranks are told */
  void (*error_raised)(const char *message);
  /* this rank and the number of ranks */
  int (*rank)(void);
  int (*nranks)(void);
  /* before a dat's or map's storage is handed out while the mesh is not
   * partitioned: partitions it (collective); LOOM_OK or a reported status */
  int (*ready)(void);
  /* loom_dat_fetch of a partitioned dat: gathers it on every rank */
  int (*fetch)(loom_dat dat, void *buf, size_t bytes);
  /* LOOM_OK when `bytes` at data are the same on every rank
   * (collective), else LOOM_EMISMATCH on every rank, naming constant
   * `name` */
  int (*same)(const void *data, size_t bytes, int dim, const char *name);
  /* agrees on `status` (a slice declaration's own checks) over the ranks
   * and checks that the slices of set `name` tile [0, gsize) in rank
   * order (collective) */
  int (*slice_check)(int status, int gsize, int offset, int count, const char *name);
  /* a reduction's values combined over the ranks: started, and waited
   * for (loom_gen.h, loom__reduce_begin/end) */
  int (*reduce_begin)(loom__reduction *r, void *values, int count, loom_type type, int op);
  int (*reduce_end)(loom__reduction *r);
} loomrt_dist_ops;

/* The library's distribution (core/nompi.c or mpi/session.c). */
extern const loomrt_dist_ops loomrt_distribution;

#endif /* LOOM_CORE_DIST_H */
