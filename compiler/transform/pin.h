/*
 * pin.h — the pin and pin_cse hints on temporaries of mesh loops.
 *
 * `#pragma loom pin(t)`: t is never stored; each loop that reads it
 * evaluates t's producer at every element it reads, into a local.
 * `#pragma loom pin_cse(t)`: t is computed once per element by its
 * producer, in a loop of its own, and stored; consumers read memory.
 *
 * Takes the regions (what their items may write, without pins, comes
 * from the effects model); gives the fates of the hinted temporaries
 * (analysis/temps.h), which the DAGs are then built with.  A hint that
 * cannot be honoured is an error that says why (its producer has other
 * effects, an input changes before the last consumer, with MPI a
 * consumer would evaluate it beyond the executed halo ...); each honoured
 * one carries a note saying what it means, which the DAG of its region
 * starts with (--report).
 */
#ifndef LOOMC_PIN_H
#define LOOMC_PIN_H

#include "analysis/effects.h"
#include "analysis/region.h"
#include "analysis/temps.h"
#include "util/target.h"

/* The fates of the hinted temporaries (temp_info*), in program order of
 * the hints, region by region, each with its region and its note. */
temp_info_list pin(const program *prog, const region_list *regions, const target *t,
                   arena *a);

#endif
