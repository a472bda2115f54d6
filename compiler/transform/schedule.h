/*
 * schedule.h — the order in which each region's computations run.
 *
 * Takes the DAGs for the target (analysis/dag.h) and gives each its
 * schedule (dag.order): a topological order of the computations that
 * were not removed.  For seq and openmp it is program order.  For mpi it
 * is program order but for the communication: each HaloSend and
 * ReductionBegin as early and each HaloRecv and ReductionEnd as late as
 * the DAG allows (seed 001: communication overlaps computation), so that
 * an exchange begins right after the last computation it depends on and
 * ends right before the first that needs it.  Each computation moved past
 * one that precedes (or follows) it in program order is noted, with why,
 * in its DAG (--report).  place.h then lays the schedule onto the output.
 */
#ifndef LOOMC_SCHEDULE_H
#define LOOMC_SCHEDULE_H

#include "analysis/dag.h"

/* Fills the order of every DAG of dags (dag*). */
void schedule(dag_list *dags, arena *a);

#endif
