/*
 * mpi_hdf5.h — HDF5 helpers shared by mpi_hdf5.c and mpi_xdmf.c (only in
 * libloom_mpi).  Every function is collective and agrees on its status.
 */
#ifndef LOOM_MPI_HDF5_H
#define LOOM_MPI_HDF5_H

#include <hdf5.h>

#include "mpi_internal.h"

/* The file opened on every rank through MPI-IO: read-only, or for writing
 * (created when missing); < 0 on failure (not reported). */
hid_t loomrt_h5_open(const char *file, int write);
/* A map's rows with declared target numbers, in declared order, as the
 * dataset named after the map. */
int loomrt_h5_write_map(hid_t f, loom_map map, const char *file);
/* A dat's rows in declared order, as dataset `name`. */
int loomrt_h5_write_dat(hid_t f, loom_dat dat, const char *name,
                        const char *file);

#endif
