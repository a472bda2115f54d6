/*
 * translation.h — the translation as the transformations read it: the
 * command line, the program and its analysis (the regions, the pins
 * decided, the target's DAGs, the loop statements, the exchanges hoisted
 * out of them).  main.c's analyse() fills it in from what each of those
 * stages returned; fuse, narrow, vectorize, rotate and place take it
 * whole and return their own records (transformed.h).  Only notes are
 * added to its DAGs (dag_note: --report).
 */
#ifndef LOOMC_TRANSLATION_H
#define LOOMC_TRANSLATION_H

#include "analysis/dag.h"
#include "analysis/loops.h"
#include "analysis/region.h"
#include "analysis/temps.h"
#include "transform/hoist.h"
#include "util/options.h"

typedef struct translation {
  const options *opt;    /* the target, and the transformations turned off */
  program prog;          /* its text is its parse's */
  region_list regions;   /* the program's (region.h) */
  temp_info_list pins;   /* the pins decided (pin.h) */
  dag_list dags;         /* the target's DAGs of regions */
  loop_info_list loops;  /* the loop statements among regions (loops.h) */
  hoist_list hoists;     /* the exchanges hoisted out of them (hoist.h) */
} translation;

#endif
