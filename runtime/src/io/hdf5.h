/*
 * io/hdf5.h — HDF5 helpers, private to libloom_mpi's I/O: shared by
 * io/hdf5.c (sets, maps and dats read and written in OP2's layout,
 * checkpoints) and io/xdmf.c (loom_write_xdmf).  Only compiled with
 * -DLOOM_MPI (mpicc).  Every function is collective and agrees on its
 * status.  Builds on mpi/mpi.h (the session and the exchanges by rank).
 */
#ifndef LOOM_IO_HDF5_H
#define LOOM_IO_HDF5_H

#include <hdf5.h>

#include "mpi/mpi.h"

/* The file opened on every rank through MPI-IO: read-only, or for writing
 * (created when missing); < 0 on failure (not reported). */
hid_t loomrt_h5_open(const char *file, int write);
/* Why file cannot be opened for reading as HDF5 ("it does not exist",
 * "it is empty", "it is not an HDF5 file", ...), in buf or a constant. */
const char *loomrt_h5_why(const char *file, char *buf, size_t size);
/* A map's rows with declared target numbers, in declared order, as the
 * dataset named after the map. */
int loomrt_h5_write_map(hid_t f, loom_map map, const char *file);
/* A dat's rows in declared order, as dataset `name`. */
int loomrt_h5_write_dat(hid_t f, loom_dat dat, const char *name,
                        const char *file);

#endif /* LOOM_IO_HDF5_H */
