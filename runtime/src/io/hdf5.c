/*
 * io/hdf5.c — sets, maps and dats read from HDF5 files in OP2's layout,
 * each rank reading its slice; dats written back in declared order; and
 * checkpoints (loom_checkpoint, loom_checkpoint_step).
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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hdf5.h>
#include <limits.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "io/hdf5.h"

/* ---- files ------------------------------------------------------------------- */

hid_t loomrt_h5_open(const char *file, int write) {
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

/* Why file cannot be opened for reading as HDF5, in the user's terms:
 * missing, unreadable, empty, not HDF5, or (HDF5's signature there, the
 * open failing all the same) truncated or corrupt. */
const char *loomrt_h5_why(const char *file, char *buf, size_t size) {
  struct stat st;
  if (stat(file, &st) != 0) {
    snprintf(buf, size, "it does not exist (%s)", strerror(errno));
    return buf;
  }
  if (S_ISDIR(st.st_mode))
    return "it is a directory";
  FILE *f = fopen(file, "rb");
  if (!f) {
    snprintf(buf, size, "it cannot be read (%s)", strerror(errno));
    return buf;
  }
  fclose(f);
  if (st.st_size == 0)
    return "it is empty (0 bytes)";
  htri_t hdf5 = H5Fis_hdf5(file);
  if (hdf5 == 0)
    return "it is not an HDF5 file (no HDF5 signature)";
  return "it is truncated or corrupt (an HDF5 signature, but HDF5 cannot open it)";
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

/* Rows [off, off + n) of a (rows x cols) dataset (rank 1: flattened),
 * read into or written from buf with one collective transfer. */
static herr_t transfer_rows(hid_t ds, int rank, long long cols, int off, int n,
                            hid_t mtype, void *buf, int write) {
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
    rc = write ? H5Dwrite(ds, mtype, ms, fs, x, buf)
               : H5Dread(ds, mtype, ms, fs, x, buf);
  }
  if (x >= 0)
    H5Pclose(x);
  if (ms >= 0)
    H5Sclose(ms);
  if (fs >= 0)
    H5Sclose(fs);
  return rc;
}

/* Reads rows [off, off + n) of a (rows x cols) dataset into buf. */
static int read_rows(hid_t ds, int rank, long long cols, int off, int n,
                     hid_t mtype, void *buf, const char *file,
                     const char *name) {
  if (transfer_rows(ds, rank, cols, off, n, mtype, buf, 0) >= 0)
    return LOOM_OK;
  return loom_error_(LOOM_EIO, "HDF5 file '%s': reading dataset '%s' failed",
                     file, name);
}

/* An open file and dataset, both checked on every rank. */
typedef struct source {
  hid_t f, ds;
  long long rows, cols;
  int rank;
} source;

static int source_open(source *s, const char *call, const char *file,
                       const char *name) {
  char why[256];
  s->f = s->ds = -1;
  int status = loomrt_require_active(call);
  if (status == LOOM_OK && (!file || !name))
    status = loom_error_(LOOM_EINVAL, "%s: the file or dataset name is NULL",
                         call);
  status = loomrt_mpi_agree(status, call); /* every rank here: the open is collective */
  if (status == LOOM_OK && (s->f = loomrt_h5_open(file, 0)) < 0)
    status = loom_error_(LOOM_EIO, "%s: cannot open HDF5 file '%s': %s", call, file,
                         loomrt_h5_why(file, why, sizeof why));
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
/* `what` has n elements of `per` (a map's "arity", a dat's "dim") values. */
static int check_shape(source *s, long long n, int dim, const char *per, const char *file,
                       const char *name, const char *what) {
  if (s->rank == 1 && s->rows == n * dim) {
    s->rows = n;
    s->cols = dim;
  }
  if (s->rows == n && s->cols == dim)
    return LOOM_OK;
  return loom_error_(LOOM_EINVAL,
                     "HDF5 file '%s': dataset '%s' is %lld x %lld, but %s "
                     "has %lld elements x %s %d",
                     file, name, s->rows, s->cols, what, n, per, dim);
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
  if (status == LOOM_OK && size < 0)
    status = loom_error_(LOOM_EINVAL, "HDF5 file '%s': set '%s' has %d elements there "
                                      "(dataset '%s'): a set's size is 0 or more",
                         file, name, size, name);
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
                problem ? "a set handle " : "its arity must be >= 1",
                problem ? problem : "");
    return NULL;
  }
  source s;
  int status = source_open(&s, "loom_decl_map_hdf5", file, name), off, n;
  rows_of(from, &off, &n);
  int *buf = malloc((size_t)n * dim * sizeof *buf + 1);
  if (status == LOOM_OK)
    status = check_shape(&s, from->gsize, dim, "arity", file, name, "its 'from' set");
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
  /* on an extruded set: a row per element, the base's columns one after
   * the other (what this rank reads: its base rows' columns) */
  loom_set on = set->base ? set->base : set;
  const int per = set->base ? set->layers : 1;
  if ((long long)on->gsize * per > INT_MAX) {
    loom_error_(LOOM_EINVAL, "loom_decl_dat_hdf5('%s'): '%s' has more elements than an "
                "int counts", name, set->name);
    return NULL;
  }
  source s;
  int status = source_open(&s, "loom_decl_dat_hdf5", file, name), off, n;
  rows_of(on, &off, &n);
  char *buf = malloc((size_t)n * per * dim * elem_size + 1);
  if (status == LOOM_OK)
    status = check_shape(&s, (long long)on->gsize * per, dim, "dim", file, name, "its set");
  if (status == LOOM_OK)
    status = check_type(s.ds, file, name, type_name(type));
  if (status == LOOM_OK && !buf)
    status = loom_error_(LOOM_ENOMEM, "dat '%s': out of memory", name);
  status = loomrt_mpi_agree(status, "loom_decl_dat_hdf5");
  if (status == LOOM_OK)
    status = read_rows(s.ds, s.rank, dim, off * per, n * per, mem_type(type), buf, file,
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

/* The rank holding declared element g in the block distribution of n
 * elements over P ranks (rank r: [floor(r n / P), floor((r + 1) n / P))). */
static int block_holder(int g, int n, int P) {
  int r = (int)((long long)g * P / n);
  while (r > 0 && (long long)r * n / P > g)
    r--;
  while (r + 1 < P && (long long)(r + 1) * n / P <= g)
    r++;
  return r;
}

static int declared_of(loom_set set, int i) { return set->gid ? set->gid[i] : i; }

/* This rank's block, in declared order, of rows of `row` bytes given per
 * owned element in `values` (local order): each owned row is sent to the
 * holder of its declared number's block. */
static int gather_block(loom_set set, const char *values, size_t row,
                        const char *what, char **block, int *off, int *n) {
  int P = loomrt_mpi_size(), owned = set->owned, got = 0;
  size_t rec = row + sizeof(int);
  int *dest = malloc(((size_t)owned + 1) * sizeof *dest);
  int *order = malloc(((size_t)owned + 1) * sizeof *order);
  int *count = malloc(((size_t)P + 1) * sizeof *count);
  int *rcount = malloc(((size_t)P + 1) * sizeof *rcount);
  char *send = malloc((size_t)owned * rec + 1), *recv = NULL;
  block_of(set->gsize, off, n);
  *block = malloc((size_t)*n * row + 1);
  int status = dest && order && count && rcount && send && *block
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "%s: out of memory writing it",
                                 what);
  for (int i = 0; status == LOOM_OK && i < owned; i++)
    dest[i] = block_holder(declared_of(set, i), set->gsize, P);
  if (status == LOOM_OK) {
    loomrt_dist_by_rank(dest, owned, P, count, order);
    for (int k = 0; k < owned; k++) {
      int i = order[k], g = declared_of(set, i);
      memcpy(send + (size_t)k * rec, &g, sizeof g);
      memcpy(send + (size_t)k * rec + sizeof g, values + (size_t)i * row, row);
    }
  }
  status = loomrt_mpi_agree(status, "writing HDF5");
  if (status == LOOM_OK)
    status = loomrt_dist_exchange(send, count, rec, (void **)&recv, rcount,
                                  &got, "rows to write");
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
  loomrt_free(recv); /* loomrt_dist_exchange's */
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

/* A dataset to write: `rows` x `dim` values of `type` (`elem` bytes). */
typedef struct table {
  const char *name;
  int rows, dim;
  loom_type type;
  size_t elem;
} table;

/* A dat's rows in a file: one per element, an extruded set's columns one
 * after the other (the layers of a base row, each `width` values). */
static int layers_per_row(loom_dat dat) { return dat->xset ? dat->xset->layers : 1; }
static int width_of(loom_dat dat) { return dat->xset ? dat->xdim : dat->dim; }

static table dat_table(loom_dat dat, const char *name) {
  return (table){name, dat->set->gsize * layers_per_row(dat), width_of(dat), dat->type,
                 dat->elem_size};
}

/* The dataset for t (created, or an existing one of its shape). */
static hid_t table_dataset(hid_t f, const table *t, const char *file,
                           int *status) {
  hsize_t dims[2] = {(hsize_t)t->rows, (hsize_t)t->dim};
  hid_t ds = -1;
  if (H5Lexists(f, t->name, H5P_DEFAULT) > 0) {
    source s = {f, H5Dopen2(f, t->name, H5P_DEFAULT), 0, 0, 0};
    if (s.ds < 0 ||
        shape_of(s.ds, file, t->name, &s.rows, &s.cols, &s.rank) != LOOM_OK ||
        check_shape(&s, t->rows, t->dim, "dim", file, t->name, "the dat's set") !=
            LOOM_OK ||
        check_type(s.ds, file, t->name, type_name(t->type)) != LOOM_OK) {
      if (s.ds >= 0)
        H5Dclose(s.ds);
      *status = LOOM_EINVAL;
      return -1;
    }
    return s.ds;
  }
  hid_t sp = H5Screate_simple(2, dims, NULL);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_obj_track_times(dcpl, 0); /* the same data, the same bytes */
  if (sp >= 0)
    ds = H5Dcreate2(f, t->name, mem_type(t->type), sp, H5P_DEFAULT, dcpl,
                    H5P_DEFAULT);
  H5Pclose(dcpl);
  if (sp >= 0)
    H5Sclose(sp);
  if (ds < 0)
    *status = loom_error_(LOOM_EIO, "HDF5 file '%s': cannot create dataset "
                                    "'%s'",
                          file, t->name);
  return ds;
}

/* Writes rows [off, off + n) of t from block (collective) and t's
 * attributes. */
static int write_block(hid_t ds, const table *t, const char *block, int off,
                       int n, const char *file) {
  herr_t rc = transfer_rows(ds, 2, t->dim, off, n, mem_type(t->type),
                            (void *)block, 1);
  if (rc >= 0 && (attr_int(ds, "dim", t->dim) < 0 ||
                  attr_int(ds, "size", (int)(t->dim * t->elem)) < 0 ||
                  attr_text(ds, "type", type_name(t->type)) < 0))
    rc = -1;
  return rc < 0 ? loom_error_(LOOM_EIO, "HDF5 file '%s': writing dataset "
                                        "'%s' failed",
                              file, t->name)
                : LOOM_OK;
}

/* Writes t, given as this rank's block [off, off + n), into open file f. */
static int write_table(hid_t f, const table *t, const char *block, int off,
                       int n, const char *file) {
  int status = LOOM_OK;
  hid_t ds = table_dataset(f, t, file, &status);
  status = loomrt_mpi_agree(status, "writing HDF5");
  if (status == LOOM_OK)
    status = write_block(ds, t, block, off, n, file);
  if (ds >= 0)
    H5Dclose(ds);
  return loomrt_mpi_agree(status, "writing HDF5");
}

/* Gathers a dat's owned rows into blocks and writes them to f. */
int loomrt_h5_write_dat(hid_t f, loom_dat dat, const char *name,
                        const char *file) {
  char *block = NULL;
  int off = 0, n = 0;
  table t = dat_table(dat, name);
  int status = gather_block(dat->set, dat->values,
                            (size_t)dat->dim * dat->elem_size, dat->name,
                            &block, &off, &n);
  const int per = layers_per_row(dat);
  if (status == LOOM_OK)
    status = write_table(f, &t, block, off * per, n * per, file);
  free(block);
  return status;
}

static int write_body(loom_dat dat, const char *file, const char *name) {
  int status = loomrt_dat_usable(dat, "loom_dat_write_hdf5");
  if (status == LOOM_OK && (!file || !name))
    status = loom_error_(LOOM_EINVAL, "loom_dat_write_hdf5: the file or "
                                      "dataset name is NULL");
  if (status == LOOM_OK && mem_type(dat->type) < 0)
    status = loom_error_(LOOM_EINVAL, "loom_dat_write_hdf5: dat '%s' holds "
                                      "%s values; HDF5 output takes double, "
                                      "float or int", dat->name,
                         type_name(dat->type));
  status = loomrt_mpi_agree(status, "loom_dat_write_hdf5"); /* every rank here */
  if (status == LOOM_OK)
    status = loom__mpi_ready(); /* partitions if no loop did yet */
  hid_t f = -1;
  if (status == LOOM_OK && (f = loomrt_h5_open(file, 1)) < 0)
    status = loom_error_(LOOM_EIO, "loom_dat_write_hdf5: cannot open or "
                                   "create HDF5 file '%s'",
                         file);
  status = loomrt_mpi_agree(status, "loom_dat_write_hdf5");
  if (status == LOOM_OK)
    status = loomrt_h5_write_dat(f, dat, name, file);
  if (f >= 0)
    H5Fclose(f);
  return loomrt_mpi_agree(status, "loom_dat_write_hdf5");
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_dat_write_hdf5(loom_dat dat, const char *file, const char *name) {
  return loomrt_leave(write_body(dat, file, name));
}

/* ---- checkpoints --------------------------------------------------------------- */

/* A map's owned rows with declared target numbers, in blocks, to f. */
/* An extruded map: a row per element of `from` (its base's columns one
 * after the other), each slot the declared number of the element of `to`
 * it reaches (base row's declared number times to's layers, plus the
 * layer and the shift).  Above the top of a column of its own height
 * (loom_decl_extruded_set_columns), where the rows of `from`'s dats are
 * storage only, every slot is the point slot 0 reaches from the column's
 * top element: a cell collapsed to a point, which shows nothing. */
static int write_xmap(hid_t f, loom_map map, const char *file) {
  loom_set from = map->from->base, to = map->to->base;
  const int L = map->from->layers, Lt = map->to->layers, ar = map->dim;
  const size_t row = (size_t)L * ar;
  int *rows = malloc(((size_t)from->owned * row + 1) * sizeof *rows);
  char *block = NULL;
  int off = 0, n = 0;
  int status = rows ? LOOM_OK
                    : loom_error_(LOOM_ENOMEM, "map '%s': out of memory", map->name);
  const int *own = map->from->columns ? map->from->columns->values : NULL;
  for (int c = 0; rows && c < from->owned; c++)
    for (int k = 0; k < L; k++)
      for (int j = 0; j < ar; j++) {
        int top = own ? own[c] : L, at = k < top ? k : top - 1, slot = k < top ? j : 0;
        int col = map->base ? declared_of(to, map->base->values[(size_t)c * ar + slot])
                            : declared_of(from, c);
        rows[(size_t)c * row + (size_t)k * ar + j] = col * Lt + at + map->shift[slot];
      }
  status = loomrt_mpi_agree(status, "loom_write_xdmf");
  if (status == LOOM_OK)
    status = gather_block(from, (const char *)rows, row * sizeof(int), map->name, &block,
                          &off, &n);
  table t = {map->name, from->gsize * L, ar, LOOM_INT, sizeof(int)};
  if (status == LOOM_OK)
    status = write_table(f, &t, block, off * L, n * L, file);
  free(rows);
  free(block);
  return status;
}

int loomrt_h5_write_map(hid_t f, loom_map map, const char *file) {
  if (map->shift)
    return write_xmap(f, map, file);
  loom_set from = map->from;
  int *rows = malloc(((size_t)from->owned * map->dim + 1) * sizeof *rows);
  char *block = NULL;
  int off = 0, n = 0;
  int status = rows ? LOOM_OK
                    : loom_error_(LOOM_ENOMEM, "map '%s': out of memory", map->name);
  for (size_t e = 0; rows && e < (size_t)from->owned * map->dim; e++)
    rows[e] = declared_of(map->to, map->values[e]);
  status = loomrt_mpi_agree(status, "loom_checkpoint");
  if (status == LOOM_OK)
    status = gather_block(from, (const char *)rows, map->dim * sizeof(int),
                          map->name, &block, &off, &n);
  table t = {map->name, from->gsize, map->dim, LOOM_INT, sizeof(int)};
  if (status == LOOM_OK)
    status = write_table(f, &t, block, off, n, file);
  free(rows);
  free(block);
  return status;
}

/* One int (a set's size, the step), written by rank 0. */
static int write_int(hid_t f, const char *name, int v, const char *file) {
  table t = {name, 1, 1, LOOM_INT, sizeof(int)};
  return write_table(f, &t, (const char *)&v, 0, loomrt_mpi_rank() == 0,
                     file);
}

/* The name of registry object i (its kind in *kind); NULL for the objects
 * a checkpoint leaves out (mat/'s sparsities and matrices). */
static const char *registry_name(size_t i, loomrt_kind *kind) {
  void *o = loomrt_registry_object(i, kind);
  return *kind == LOOMRT_KIND_SET   ? ((loom_set)o)->name
         : *kind == LOOMRT_KIND_MAP ? ((loom_map)o)->name
         : *kind == LOOMRT_KIND_DAT ? ((loom_dat)o)->name
                                    : NULL;
}

/* The registry's sets, maps and dats, with distinct names (OP2's layout
 * is flat) and types HDF5 takes. */
static int checkpoint_names(void) {
  size_t n = loomrt_registry_count();
  for (size_t i = 0; i < n; i++) {
    loomrt_kind ki;
    const char *a = registry_name(i, &ki);
    if (!a)
      continue;
    if (strcmp(a, "loom_step") == 0)
      return loom_error_(LOOM_EINVAL, "loom_checkpoint: an object is named "
                                      "'loom_step', the dataset of the step");
    for (size_t j = i + 1; j < n; j++) {
      loomrt_kind kj;
      const char *b = registry_name(j, &kj);
      if (b && strcmp(a, b) == 0)
        return loom_error_(LOOM_EINVAL, "loom_checkpoint: two objects are "
                                        "named '%s'; each becomes a dataset "
                                        "of that name", a);
    }
    loom_dat dat = ki == LOOMRT_KIND_DAT ? loomrt_registry_object(i, &ki) : NULL;
    if (dat && mem_type(dat->type) < 0)
      return loom_error_(LOOM_EINVAL, "loom_checkpoint: dat '%s' holds %s "
                                      "values; HDF5 output takes double, "
                                      "float or int", dat->name,
                         type_name(dat->type));
  }
  return LOOM_OK;
}

static int checkpoint_all(hid_t f, int step, const char *file) {
  int status = write_int(f, "loom_step", step, file);
  size_t n = loomrt_registry_count();
  for (size_t i = 0; i < n && status == LOOM_OK; i++) {
    loomrt_kind kind;
    void *obj = loomrt_registry_object(i, &kind);
    if (kind == LOOMRT_KIND_SET)
      status = write_int(f, ((loom_set)obj)->name, ((loom_set)obj)->gsize, file);
    else if (kind == LOOMRT_KIND_MAP)
      status = loomrt_h5_write_map(f, obj, file);
    else if (kind == LOOMRT_KIND_DAT)
      status = loomrt_h5_write_dat(f, obj, ((loom_dat)obj)->name, file);
  }
  return status;
}

static int checkpoint_body(const char *file, int step) {
  int status = loomrt_require_active("loom_checkpoint");
  if (status == LOOM_OK && !file)
    status = loom_error_(LOOM_EINVAL, "loom_checkpoint: the file name is NULL");
  if (status == LOOM_OK)
    status = checkpoint_names();
  status = loomrt_mpi_agree(status, "loom_checkpoint"); /* every rank here */
  if (status == LOOM_OK)
    status = loom__mpi_ready();
  size_t len = file ? strlen(file) + 5 : 1;
  char *tmp = malloc(len);
  if (status == LOOM_OK && !tmp)
    status = loom_error_(LOOM_ENOMEM, "loom_checkpoint: out of memory");
  status = loomrt_mpi_agree(status, "loom_checkpoint");
  hid_t f = -1;
  if (status == LOOM_OK) {
    snprintf(tmp, len, "%s.tmp", file);
    if (loomrt_mpi_rank() == 0)
      remove(tmp); /* a failed checkpoint's leftovers */
    MPI_Barrier(loomrt_mpi_comm());
    if ((f = loomrt_h5_open(tmp, 1)) < 0)
      status = loom_error_(LOOM_EIO, "loom_checkpoint: cannot create HDF5 "
                                     "file '%s'", tmp);
  }
  status = loomrt_mpi_agree(status, "loom_checkpoint");
  if (status == LOOM_OK)
    status = checkpoint_all(f, step, file);
  if (f >= 0 && H5Fclose(f) < 0 && status == LOOM_OK)
    status = loom_error_(LOOM_EIO, "loom_checkpoint: closing '%s' failed", tmp);
  status = loomrt_mpi_agree(status, "loom_checkpoint");
  if (status == LOOM_OK && loomrt_mpi_rank() == 0 && rename(tmp, file) != 0)
    status = loom_error_(LOOM_EIO, "loom_checkpoint: cannot rename '%s' to "
                                   "'%s'", tmp, file);
  free(tmp);
  return loomrt_mpi_agree(status, "loom_checkpoint");
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_checkpoint(const char *file, int step) {
  return loomrt_leave(checkpoint_body(file, step));
}

int loom_checkpoint_step(const char *file) {
  source s;
  int step = -1;
  int status = source_open(&s, "loom_checkpoint_step", file, "loom_step");
  if (status == LOOM_OK && (s.rows != 1 || s.cols != 1))
    status = loom_error_(LOOM_EINVAL, "HDF5 file '%s': 'loom_step' is not "
                                      "one int", file);
  if (status == LOOM_OK &&
      H5Dread(s.ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &step) < 0)
    status = loom_error_(LOOM_EIO, "HDF5 file '%s': reading 'loom_step' "
                                   "failed", file);
  if (status == LOOM_OK && step < 0)
    status = loom_error_(LOOM_EINVAL, "HDF5 file '%s': its checkpoint step 'loom_step' "
                                      "is %d, but loom_checkpoint writes steps of 0 or "
                                      "more", file, step);
  source_close(&s);
  status = loomrt_mpi_agree(status, "loom_checkpoint_step");
  return status == LOOM_OK ? step : -1;
}

/* ---- reading into a declared dat --------------------------------------------- */

/* Fills this rank's owned rows of dat from the file's rows in blocks: each
 * rank read its block; the owners ask the blocks' holders for their rows
 * by declared number (a distributed lookup); the halo follows by one
 * exchange. */
static int scatter_rows(loom_dat dat, const char *blk) {
  loom_set set = dat->set;
  int P = loomrt_mpi_size(), owned = set->owned;
  int *lo = malloc(((size_t)P + 1) * sizeof *lo);
  int *gid = malloc(((size_t)owned + 1) * sizeof *gid);
  int status = lo && gid ? LOOM_OK
                         : loom_error_(LOOM_ENOMEM, "dat '%s': out of memory",
                                       dat->name);
  for (int r = 0; lo && r <= P; r++)
    lo[r] = (int)((long long)r * set->gsize / P);
  for (int i = 0; gid && i < owned; i++)
    gid[i] = declared_of(set, i);
  status = loomrt_mpi_agree(status, "loom_dat_read_hdf5");
  if (status == LOOM_OK)
    status = loomrt_dist_lookup_rows(lo, blk, (size_t)dat->dim * dat->elem_size,
                                     gid, owned, dat->values, "rows read");
  free(lo);
  free(gid);
  return status;
}

static int read_body(loom_dat dat, const char *file, const char *name) {
  int status = loomrt_dat_usable(dat, "loom_dat_read_hdf5");
  status = loomrt_mpi_agree(status, "loom_dat_read_hdf5"); /* every rank here */
  if (status == LOOM_OK)
    status = loom__mpi_ready(); /* partitions if no loop did yet */
  if (status != LOOM_OK)
    return status;
  source s;
  int off, n;
  status = source_open(&s, "loom_dat_read_hdf5", file, name);
  block_of(dat->set->gsize, &off, &n);
  char *blk = malloc((size_t)n * dat->dim * dat->elem_size + 1);
  if (status == LOOM_OK)
    status = check_shape(&s, (long long)dat->set->gsize * layers_per_row(dat), width_of(dat),
                         "dim", file, name, "the dat's set");
  if (status == LOOM_OK)
    status = mem_type(dat->type) < 0
                 ? loom_error_(LOOM_EINVAL, "dat '%s' holds %s values; HDF5 "
                                            "input takes double, float or int",
                               dat->name, type_name(dat->type))
                 : check_type(s.ds, file, name, type_name(dat->type));
  if (status == LOOM_OK && !blk)
    status = loom_error_(LOOM_ENOMEM, "dat '%s': out of memory", dat->name);
  status = loomrt_mpi_agree(status, "loom_dat_read_hdf5");
  if (status == LOOM_OK)
    status = read_rows(s.ds, s.rank, width_of(dat), off * layers_per_row(dat),
                       n * layers_per_row(dat), mem_type(dat->type), blk, file, name);
  source_close(&s);
  status = loomrt_mpi_agree(status, "loom_dat_read_hdf5");
  if (status == LOOM_OK)
    status = scatter_rows(dat, blk);
  free(blk);
  if (status == LOOM_OK) { /* the halo from the owners' new rows */
    loom__dat_dirty(dat);
    status = loom__halo_begin(dat);
    if (status == LOOM_OK)
      status = loom__halo_end(dat);
  }
  return status;
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_dat_read_hdf5(loom_dat dat, const char *file, const char *name) {
  return loomrt_leave(read_body(dat, file, name));
}
