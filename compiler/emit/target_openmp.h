/*
 * target_openmp.h — the OpenMP element loops over a range of the group's
 * set, shared by the openmp backend (the whole set) and the mpi+openmp
 * backend (target_mpi.c: the core elements, then the owned boundary and
 * executed halo).
 */
#ifndef LOOMC_TARGET_OPENMP_H
#define LOOMC_TARGET_OPENMP_H

#include "emit/codegen.h"

/* How a range is run. */
typedef struct omp_range {
  const char *lo, *hi; /* C expressions: the elements [lo, hi) */
  int ranged;          /* plans for [lo, hi) (loom__plan_get_range); else
                          for the whole set, and hi is its size */
  int progress;        /* let MPI move halo messages along meanwhile */
  const char *into;    /* reductions: the local the block partials are
                          combined into (NULL: the global itself) */
} omp_range;

/* Opens the parallel loops over the range (a plan is fetched first when
 * the group needs one); the body written next runs per element. */
void omp_range_begin(cg *g, const group *gr, const omp_range *r);
/* Closes them, and combines the reductions' block partials, in block
 * order, into r->into. */
void omp_range_end(cg *g, const group *gr, const omp_range *r);
/* The write_target hook: owner-computes plans redirect increments into
 * other threads' ranges to a scratch local. */
const char *omp_write_target(cg *g, const loop_arg *a, const char *index, const char *ptr);
/* The owner_computes hook: whether the group runs on an owner-computes
 * plan. */
int omp_owner_computes(cg *g, const group *gr);

#endif
