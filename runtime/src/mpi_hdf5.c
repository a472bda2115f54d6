/*
 * mpi_hdf5.c — sets, maps and dats read from HDF5 files in OP2's layout,
 * each rank reading its slice; dats written back in declared order.
 *
 * Design
 * ------
 * OP2's layout (op_decl_*_hdf5, op_fetch_data_hdf5_file): a set is a
 * dataset named after it holding its size (one int); a map a 2-D int
 * dataset (size(from) x dim); a dat a 2-D dataset (size(set) x dim) of its
 * C type, with attributes "dim" (int), "size" (bytes per element, int)
 * and "type" (a string: "double", "float", "int").  A 1-D dataset of
 * size x dim values is read the same way (and a set's single int may be a
 * scalar dataset).
 *
 * Reading: the file is opened on every rank through MPI-IO
 * (H5Pset_fapl_mpio on the runtime's communicator); rank r reads the rows
 * [floor(r n / P), floor((r + 1) n / P)) of a set's elements with one
 * collective hyperslab read (H5FD_MPIO_COLLECTIVE), and declares them as
 * its slice (loom_decl_set_slice; maps and dats through the ordinary
 * declarations, which copy the slice).  A map or dat of a set declared
 * whole is read whole, on every rank.  Each step's status is agreed across
 * ranks, so a missing file or a wrong shape is an error on every rank,
 * never a hang; HDF5's own error stack printing is turned off (the
 * messages name the file, the dataset and what is wrong).
 *
 * Writing (loom_dat_write_hdf5): the mesh is partitioned first if no loop
 * did; every rank sends its owned rows to the holder of their declared
 * numbers' block (one all-to-all), and the blocks are written with one
 * collective hyperslab write: the dataset is in declared order whatever
 * the partition.  The file is created if missing; an existing dataset of
 * the same shape and type is overwritten.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "mpi_internal.h"

/* ---- files ------------------------------------------------------------------- */

static hid_t file_open(const char *file, int write) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), f = -1;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  if (fapl < 0)
    return -1;
  if (H5Pset_fapl_mpio(fapl, loomrt_mpi_comm(), MPI_INFO_NULL) >= 0) {
    int exists = 0;
    if (write) { /* one rank looks, all agree */
      FILE *probe = loomrt_mpi_rank() == 0 ? fopen(file, "rb") : NULL;
      exists = probe != NULL;
      if (probe)
        fclose(probe);
      MPI_Bcast(&exists, 1, MPI_INT, 0, loomrt_mpi_comm());
    }
    if (!write || exists)
      f = H5Fopen(file, write ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
    else
      f = H5Fcreate(file, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
  }
  H5Pclose(fapl);
  return f;
}

static hid_t collective(void) {
  hid_t x = H5Pcreate(H5P_DATASET_XFER);
  if (x >= 0)
    H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE);
  return x;
}

/* The rows of a set this rank reads or writes: its slice when the set is
 * sliced, the whole set otherwise. */
static void rows_of(loom_set set, int *off, int *n) {
  *off = set->slice_off >= 0 ? set->slice_off : 0;
  *n = set->size;
}

/* This rank's block of n elements (also the slice a set read here gets). */
static void block_of(int n, int *off, int *count) {
  int P = loomrt_mpi_size(), r = loomrt_mpi_rank();
  *off = (int)((long long)r * n / P);
  *count = (int)((long long)(r + 1) * n / P) - *off;
}

/* ---- reading ----------------------------------------------------------------- */

/* The dataset's shape as (rows, cols): 2-D as is, 1-D as (n / cols, cols)
 * when cols divides it, a scalar as (1, 1).  LOOM_OK or reported. */
static int shape_of(hid_t ds, const char *file, const char *name,
                    long long *rows, long long *cols, int *rank) {
  hid_t sp = H5Dget_space(ds);
  hsize_t dims[2] = {1, 1};
  *rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
  if (*rank < 0 || *rank > 2) {
    if (sp >= 0)
      H5Sclose(sp);
    return loom_error_(LOOM_EINVAL, "HDF5 file '%s': dataset '%s' has %d "
                                    "dimensions, expected 1 or 2",
                       file, name, *rank);
  }
  if (*rank > 0)
    H5Sget_simple_extent_dims(sp, dims, NULL);
  H5Sclose(sp);
  *rows = (long long)dims[0];
  *cols = *rank == 2 ? (long long)dims[1] : 1;
  return LOOM_OK;
}

static const char *type_name(loom_type t) {
  return t == LOOM_DOUBLE  ? "double"
         : t == LOOM_FLOAT ? "float"
         : t == LOOM_INT   ? "int"
                                : "?";
}

static hid_t mem_type(loom_type t) {
  return t == LOOM_DOUBLE  ? H5T_NATIVE_DOUBLE
         : t == LOOM_FLOAT ? H5T_NATIVE_FLOAT
         : t == LOOM_INT   ? H5T_NATIVE_INT
                                : -1;
}

/* The dataset's "type" attribute must name `want` when it exists; its
 * datatype class must be integer for "int", floating for the others. */
static int check_type(hid_t ds, const char *file, const char *name,
                      const char *want) {
  hid_t dt = H5Dget_type(ds);
  H5T_class_t cls = dt >= 0 ? H5Tget_class(dt) : H5T_NO_CLASS;
  if (dt >= 0)
    H5Tclose(dt);
  int is_int = strcmp(want, "int") == 0;
  if (cls != (is_int ? H5T_INTEGER : H5T_FLOAT))
    return loom_error_(LOOM_EINVAL,
                       "HDF5 file '%s': dataset '%s' holds %s values, "
                       "declared %s",
                       file, name,
                       cls == H5T_INTEGER ? "integer"
                       : cls == H5T_FLOAT ? "floating-point"
                                          : "other",
                       want);
  if (H5Aexists(ds, "type") <= 0)
    return LOOM_OK;
  char text[64] = "";
  hid_t a = H5Aopen(ds, "type", H5P_DEFAULT);
  hid_t at = a >= 0 ? H5Aget_type(a) : -1;
  if (at >= 0 && H5Tget_class(at) == H5T_STRING && !H5Tis_variable_str(at) &&
      H5Tget_size(at) < sizeof text) {
    hid_t mt = H5Tcopy(at);
    H5Aread(a, mt, text);
    H5Tclose(mt);
  }
  if (at >= 0)
    H5Tclose(at);
  if (a >= 0)
    H5Aclose(a);
  if (strcmp(text, want) != 0 &&
      !(strcmp(want, "double") == 0 && strcmp(text, "double:soa") == 0))
    return loom_error_(LOOM_EINVAL,
                       "HDF5 file '%s': dataset '%s' has type \"%s\", "
                       "declared %s",
                       file, name, text, want);
  return LOOM_OK;
}

/* Reads rows [off, off + n) of a (rows x cols) dataset into buf. */
static int read_rows(hid_t ds, int rank, long long cols, int off, int n,
                     hid_t mtype, void *buf, const char *file,
                     const char *name) {
  hsize_t start[2] = {(hsize_t)off, 0}, count[2] = {(hsize_t)n, (hsize_t)cols};
  if (rank == 1) {
    start[0] *= (hsize_t)cols;
    count[0] *= (hsize_t)cols;
  }
  hid_t fs = H5Dget_space(ds);
  hid_t ms = H5Screate_simple(rank, count, NULL);
  hid_t x = collective();
  herr_t rc = -1;
  if (fs >= 0 && ms >= 0 && x >= 0) {
    if (n == 0) {
      H5Sselect_none(fs);
      H5Sselect_none(ms);
    } else {
      H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    }
    rc = H5Dread(ds, mtype, ms, fs, x, buf);
  }
  if (x >= 0)
    H5Pclose(x);
  if (ms >= 0)
    H5Sclose(ms);
  if (fs >= 0)
    H5Sclose(fs);
  return rc < 0 ? loom_error_(LOOM_EIO, "HDF5 file '%s': reading dataset "
                                        "'%s' failed",
                              file, name)
                : LOOM_OK;
}

/* An open file and dataset, both checked on every rank. */
typedef struct source {
  hid_t f, ds;
  long long rows, cols;
  int rank;
} source;

static int source_open(source *s, const char *call, const char *file,
                       const char *name) {
  s->f = s->ds = -1;
  int status = loomrt_require_active(call);
  if (status == LOOM_OK && (!file || !name))
    status = loom_error_(LOOM_EINVAL, "%s: the file or dataset name is NULL",
                         call);
  if (status == LOOM_OK)
    status = loomrt_mpi_usable(call);
  if (status == LOOM_OK && (s->f = file_open(file, 0)) < 0)
    status = loom_error_(LOOM_EIO, "%s: cannot open HDF5 file '%s'", call,
                         file);
  if (status == LOOM_OK && (s->ds = H5Dopen2(s->f, name, H5P_DEFAULT)) < 0)
    status = loom_error_(LOOM_EINVAL, "%s: HDF5 file '%s' has no dataset "
                                      "'%s'",
                         call, file, name);
  if (status == LOOM_OK)
    status = shape_of(s->ds, file, name, &s->rows, &s->cols, &s->rank);
  return loomrt_mpi_agree(status, call);
}

static void source_close(source *s) {
  if (s->ds >= 0)
    H5Dclose(s->ds);
  if (s->f >= 0)
    H5Fclose(s->f);
}

/* The (rows x cols) shape must be (n x dim); a 1-D dataset is taken as n
 * rows of dim. */
static int check_shape(source *s, long long n, int dim, const char *file,
                       const char *name, const char *what) {
  if (s->rank == 1 && s->rows == n * dim) {
    s->rows = n;
    s->cols = dim;
  }
  if (s->rows == n && s->cols == dim)
    return LOOM_OK;
  return loom_error_(LOOM_EINVAL,
                     "HDF5 file '%s': dataset '%s' is %lld x %lld, but %s "
                     "has %lld elements x dim %d",
                     file, name, s->rows, s->cols, what, n, dim);
}

loom_set loom_decl_set_hdf5(const char *file, const char *name) {
  source s;
  int status = source_open(&s, "loom_decl_set_hdf5", file, name);
  int size = -1;
  if (status == LOOM_OK && (s.rows != 1 || s.cols != 1))
    status = loom_error_(LOOM_EINVAL, "HDF5 file '%s': dataset '%s' is not "
                                      "a set's size (one int)",
                         file, name);
  if (status == LOOM_OK)
    status = check_type(s.ds, file, name, "int");
  if (status == LOOM_OK &&
      H5Dread(s.ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &size) < 0)
    status = loom_error_(LOOM_EIO, "HDF5 file '%s': reading dataset '%s' "
                                   "failed",
                         file, name);
  source_close(&s);
  status = loomrt_mpi_agree(status, "loom_decl_set_hdf5");
  if (status != LOOM_OK)
    return NULL;
  int off, count;
  block_of(size, &off, &count);
  return loom_decl_set_slice(size, off, count, name);
}

loom_map loom_decl_map_hdf5(loom_set from, loom_set to, int dim,
                            const char *file, const char *name) {
  const char *problem = loomrt_set_problem(from);
  if (!problem)
    problem = loomrt_set_problem(to);
  if (problem || dim < 1) {
    loom_error_(LOOM_EINVAL, "loom_decl_map_hdf5('%s'): %s%s", name,
                problem ? "a set handle " : "dim must be >= 1",
                problem ? problem : "");
    return NULL;
  }
  source s;
  int status = source_open(&s, "loom_decl_map_hdf5", file, name), off, n;
  rows_of(from, &off, &n);
  int *buf = malloc((size_t)n * dim * sizeof *buf + 1);
  if (status == LOOM_OK)
    status = check_shape(&s, from->gsize, dim, file, name, "its 'from' set");
  if (status == LOOM_OK)
    status = check_type(s.ds, file, name, "int");
  if (status == LOOM_OK && !buf)
    status = loom_error_(LOOM_ENOMEM, "map '%s': out of memory", name);
  status = loomrt_mpi_agree(status, "loom_decl_map_hdf5");
  if (status == LOOM_OK)
    status = read_rows(s.ds, s.rank, dim, off, n, H5T_NATIVE_INT, buf, file,
                       name);
  source_close(&s);
  status = loomrt_mpi_agree(status, "loom_decl_map_hdf5");
  loom_map map = status == LOOM_OK ? loom_decl_map(from, to, dim, buf, name)
                                   : NULL;
  free(buf);
  return map;
}

loom_dat loom_decl_dat_hdf5_(loom_set set, int dim, loom_type type,
                             size_t elem_size, const void *type_witness,
                             const char *file, const char *name) {
  (void)type_witness;
  const char *problem = loomrt_set_problem(set);
  if (problem || dim < 1 || mem_type(type) < 0) {
    loom_error_(LOOM_EINVAL, "loom_decl_dat_hdf5('%s'): %s%s", name,
                problem ? "set handle " : "dim must be >= 1 and the type "
                                          "double, float or int",
                problem ? problem : "");
    return NULL;
  }
  source s;
  int status = source_open(&s, "loom_decl_dat_hdf5", file, name), off, n;
  rows_of(set, &off, &n);
  char *buf = malloc((size_t)n * dim * elem_size + 1);
  if (status == LOOM_OK)
    status = check_shape(&s, set->gsize, dim, file, name, "its set");
  if (status == LOOM_OK)
    status = check_type(s.ds, file, name, type_name(type));
  if (status == LOOM_OK && !buf)
    status = loom_error_(LOOM_ENOMEM, "dat '%s': out of memory", name);
  status = loomrt_mpi_agree(status, "loom_decl_dat_hdf5");
  if (status == LOOM_OK)
    status = read_rows(s.ds, s.rank, dim, off, n, mem_type(type), buf, file,
                       name);
  source_close(&s);
  status = loomrt_mpi_agree(status, "loom_decl_dat_hdf5");
  loom_dat dat = status == LOOM_OK
                     ? loom_decl_dat_(set, dim, type, elem_size, buf, name)
                     : NULL;
  free(buf);
  return dat;
}

/* ---- writing ----------------------------------------------------------------- */

/* This rank's block of the dat in declared order: owned rows sent to the
 * holders of their declared numbers' blocks. */
static int gather_block(loom_dat dat, char **block, int *off, int *n) {
  loom_set set = dat->set;
  int P = loomrt_mpi_size(), owned = set->owned, got = 0;
  size_t row = (size_t)dat->dim * dat->elem_size, rec = row + sizeof(int);
  int *dest = malloc(((size_t)owned + 1) * sizeof *dest);
  int *order = malloc(((size_t)owned + 1) * sizeof *order);
  int *count = malloc(((size_t)P + 1) * sizeof *count);
  int *rcount = malloc(((size_t)P + 1) * sizeof *rcount);
  char *send = malloc((size_t)owned * rec + 1), *recv = NULL;
  block_of(set->gsize, off, n);
  *block = malloc((size_t)*n * row + 1);
  int status = dest && order && count && rcount && send && *block
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "dat '%s': out of memory "
                                              "writing it", dat->name);
  for (int i = 0; status == LOOM_OK && i < owned; i++) {
    int g = set->gid ? set->gid[i] : i;
    dest[i] = (int)((long long)g * P / set->gsize);
    while (dest[i] > 0 && (long long)dest[i] * set->gsize / P > g)
      dest[i]--; /* the block holding g: floor(r n / P) <= g */
    while (dest[i] + 1 < P && (long long)(dest[i] + 1) * set->gsize / P <= g)
      dest[i]++;
  }
  if (status == LOOM_OK) {
    loomrt_dist_by_rank(dest, owned, P, count, order);
    for (int k = 0; k < owned; k++) {
      int i = order[k], g = set->gid ? set->gid[i] : i;
      memcpy(send + (size_t)k * rec, &g, sizeof g);
      memcpy(send + (size_t)k * rec + sizeof g,
             (char *)dat->values + (size_t)i * row, row);
    }
  }
  status = loomrt_mpi_agree(status, "loom_dat_write_hdf5");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(send, count, rec, (void **)&recv, rcount,
                                  &got, "the dat's rows");
  for (int k = 0; status == LOOM_OK && k < got; k++) {
    int g;
    memcpy(&g, recv + (size_t)k * rec, sizeof g);
    memcpy(*block + (size_t)(g - *off) * row, recv + (size_t)k * rec + sizeof g,
           row);
  }
  free(dest);
  free(order);
  free(count);
  free(rcount);
  free(send);
  free(recv);
  return status;
}

static int attr_int(hid_t ds, const char *name, int v) {
  if (H5Aexists(ds, name) > 0)
    H5Adelete(ds, name);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(ds, name, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = a >= 0 ? H5Awrite(a, H5T_NATIVE_INT, &v) : -1;
  if (a >= 0)
    H5Aclose(a);
  H5Sclose(sp);
  return rc < 0 ? -1 : 0;
}

static int attr_text(hid_t ds, const char *name, const char *v) {
  if (H5Aexists(ds, name) > 0)
    H5Adelete(ds, name);
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v));
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(ds, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = a >= 0 ? H5Awrite(a, t, v) : -1;
  if (a >= 0)
    H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
  return rc < 0 ? -1 : 0;
}

/* The dataset for a dat (created, or an existing one of its shape). */
static hid_t dat_dataset(hid_t f, loom_dat dat, const char *file,
                         const char *name, int *status) {
  hsize_t dims[2] = {(hsize_t)dat->set->gsize, (hsize_t)dat->dim};
  hid_t ds = -1;
  if (H5Lexists(f, name, H5P_DEFAULT) > 0) {
    source s = {f, H5Dopen2(f, name, H5P_DEFAULT), 0, 0, 0};
    if (s.ds < 0 ||
        shape_of(s.ds, file, name, &s.rows, &s.cols, &s.rank) != LOOM_OK ||
        s.rank != 2 ||
        check_shape(&s, dat->set->gsize, dat->dim, file, name,
                    "the dat's set") != LOOM_OK ||
        check_type(s.ds, file, name, type_name(dat->type)) != LOOM_OK) {
      if (s.ds >= 0)
        H5Dclose(s.ds);
      *status = LOOM_EINVAL;
      return -1;
    }
    return s.ds;
  }
  hid_t sp = H5Screate_simple(2, dims, NULL);
  if (sp >= 0)
    ds = H5Dcreate2(f, name, mem_type(dat->type), sp, H5P_DEFAULT,
                    H5P_DEFAULT, H5P_DEFAULT);
  if (sp >= 0)
    H5Sclose(sp);
  if (ds < 0)
    *status = loom_error_(LOOM_EIO, "HDF5 file '%s': cannot create dataset "
                                    "'%s'",
                          file, name);
  return ds;
}

static int write_block(hid_t ds, loom_dat dat, const char *block, int off,
                       int n, const char *file, const char *name) {
  hsize_t start[2] = {(hsize_t)off, 0}, count[2] = {(hsize_t)n, (hsize_t)dat->dim};
  hid_t fs = H5Dget_space(ds), ms = H5Screate_simple(2, count, NULL);
  hid_t x = collective();
  herr_t rc = -1;
  if (fs >= 0 && ms >= 0 && x >= 0) {
    if (n == 0) {
      H5Sselect_none(fs);
      H5Sselect_none(ms);
    } else {
      H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    }
    rc = H5Dwrite(ds, mem_type(dat->type), ms, fs, x, block);
  }
  if (x >= 0)
    H5Pclose(x);
  if (ms >= 0)
    H5Sclose(ms);
  if (fs >= 0)
    H5Sclose(fs);
  if (rc >= 0 && (attr_int(ds, "dim", dat->dim) < 0 ||
                  attr_int(ds, "size", (int)(dat->dim * dat->elem_size)) < 0 ||
                  attr_text(ds, "type", type_name(dat->type)) < 0))
    rc = -1;
  return rc < 0 ? loom_error_(LOOM_EIO, "HDF5 file '%s': writing dataset "
                                        "'%s' failed",
                              file, name)
                : LOOM_OK;
}

static int write_body(loom_dat dat, const char *file, const char *name) {
  int status = loomrt_dat_usable(dat, "loom_dat_write_hdf5");
  if (status == LOOM_OK && (!file || !name))
    status = loom_error_(LOOM_EINVAL, "loom_dat_write_hdf5: the file or "
                                      "dataset name is NULL");
  if (status == LOOM_OK)
    status = loom__mpi_ready(); /* partitions if no loop did yet */
  char *block = NULL;
  int off = 0, n = 0;
  if (status == LOOM_OK)
    status = gather_block(dat, &block, &off, &n);
  hid_t f = -1, ds = -1;
  if (status == LOOM_OK && (f = file_open(file, 1)) < 0)
    status = loom_error_(LOOM_EIO, "loom_dat_write_hdf5: cannot open or "
                                   "create HDF5 file '%s'",
                         file);
  status = loomrt_mpi_agree(status, "loom_dat_write_hdf5");
  if (status == LOOM_OK)
    ds = dat_dataset(f, dat, file, name, &status);
  status = loomrt_mpi_agree(status, "loom_dat_write_hdf5");
  if (status == LOOM_OK)
    status = write_block(ds, dat, block, off, n, file, name);
  if (ds >= 0)
    H5Dclose(ds);
  if (f >= 0)
    H5Fclose(f);
  free(block);
  return loomrt_mpi_agree(status, "loom_dat_write_hdf5");
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_dat_write_hdf5(loom_dat dat, const char *file, const char *name) {
  return loomrt_leave(write_body(dat, file, name));
}
