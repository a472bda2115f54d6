/*
 * target.h — the code loomc generates for, resolved once from the command
 * line (options.h): what the stages ask of it is a fact of the value
 * (distributed: MPI ranks, halos and exchanges; threaded: OpenMP), never
 * its name.  emit/emit.c picks the backend by its kind.
 */
#ifndef LOOMC_TARGET_H
#define LOOMC_TARGET_H

typedef enum target_kind {
  TARGET_SEQ,
  TARGET_OPENMP,
  TARGET_MPI,
  TARGET_MPI_OPENMP,
  TARGET_COUNT
} target_kind;

typedef struct target {
  target_kind kind;
  const char *name;  /* as --target spells it: "mpi+openmp" */
  int distributed;   /* MPI: a partitioned mesh, exchanges, global reductions */
  int threaded;      /* OpenMP: loops run by a team of threads */
} target;

/* The target --target=NAME names, or NULL: none does. */
const target *target_named(const char *name);
/* The target of a kind (TARGET_SEQ: the DAGs of plain C order). */
const target *target_of(target_kind kind);
/* The names, for a message: "'seq', 'openmp', 'mpi' or 'mpi+openmp'". */
const char *target_names(void);

#endif
