/*
 * loom_mesh.c — loom-mesh: OP2's Airfoil text mesh (new_grid.dat) to an
 * HDF5 file in OP2's layout (new_grid.h5), which loom_decl_*_hdf5 and
 * OP2's op_decl_*_hdf5 read.
 *
 * Usage: loom-mesh IN.dat OUT.h5
 *        loom-mesh --extract FILE.h5 DATASET OUT.bin
 *          writes a double dataset's values, raw (as Airfoil's q files)
 *        loom-mesh --list FILE.h5
 *          prints each dataset: name, dimensions, class (Int or Float)
 *          and element size (as XDMF names them)
 *
 * Design
 * ------
 * What OP2's convert_mesh writes, under the same names: the sets (one int
 * each: nodes, edges, bedges, cells), the maps (int, size x dim: pedge,
 * pecell, pbedge, pbecell, pcell), the dats (size x dim, with attributes
 * "dim", "size" in bytes per element and "type": p_bound, p_x, p_q set to
 * the free stream qinf, and p_qold, p_adt, p_res zero) and the constants
 * (gam, gm1, cfl, eps, mach, alpha, qinf; attributes "dim" and "type").
 * The file is written serially (HDF5's default driver); the output is
 * written to OUT.h5.tmp and renamed, so a failure leaves no partial file.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_kernels.h"
#include "airfoil_mesh.h"

static int attr_int(hid_t obj, const char *name, int v) {
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT);
  int bad = a < 0 || H5Awrite(a, H5T_NATIVE_INT, &v) < 0;
  if (a >= 0)
    H5Aclose(a);
  H5Sclose(sp);
  return bad;
}

static int attr_text(hid_t obj, const char *name, const char *v) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v));
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  int bad = a < 0 || H5Awrite(a, t, v) < 0;
  if (a >= 0)
    H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
  return bad;
}

/* A (rows x cols) dataset of `mtype` values; `type` names the C type for
 * the attribute (NULL: none, as for sets). */
static int dataset(hid_t f, const char *name, hid_t mtype, int rank,
                   hsize_t rows, hsize_t cols, const void *data,
                   const char *type, int elem_bytes) {
  hsize_t dims[2] = {rows, cols};
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  hid_t ds = H5Dcreate2(f, name, mtype, sp, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT);
  int bad = ds < 0 ||
            (rows * cols > 0 &&
             H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0);
  if (!bad && type)
    bad = attr_int(ds, "dim", (int)cols) ||
          attr_int(ds, "size", (int)cols * elem_bytes) ||
          attr_text(ds, "type", type);
  if (ds >= 0)
    H5Dclose(ds);
  H5Sclose(sp);
  if (bad)
    fprintf(stderr, "loom-mesh: error: cannot write dataset '%s'\n", name);
  return bad;
}

static int set(hid_t f, const char *name, int size) {
  return dataset(f, name, H5T_NATIVE_INT, 1, 1, 1, &size, NULL, 0);
}

static int map(hid_t f, const char *name, int n, int dim, const int *v) {
  return dataset(f, name, H5T_NATIVE_INT, 2, (hsize_t)n, (hsize_t)dim, v,
                 "int", (int)sizeof(int));
}

static int dat(hid_t f, const char *name, int n, int dim, const double *v) {
  return dataset(f, name, H5T_NATIVE_DOUBLE, 2, (hsize_t)n, (hsize_t)dim, v,
                 "double", (int)sizeof(double));
}

static int constant(hid_t f, const char *name, int dim, const double *v) {
  hsize_t dims[1] = {(hsize_t)dim};
  hid_t sp = H5Screate_simple(1, dims, NULL);
  hid_t ds = H5Dcreate2(f, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT,
                        H5P_DEFAULT, H5P_DEFAULT);
  int bad = ds < 0 ||
            H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
            attr_int(ds, "dim", dim) || attr_text(ds, "type", "double");
  if (ds >= 0)
    H5Dclose(ds);
  H5Sclose(sp);
  if (bad)
    fprintf(stderr, "loom-mesh: error: cannot write constant '%s'\n", name);
  return bad;
}

static int write_all(hid_t f, const struct airfoil_mesh *m, double *q,
                     double *zero) {
  for (int n = 0; n < m->ncell; n++)
    memcpy(q + 4 * (size_t)n, qinf, sizeof qinf);
  double c[6] = {gam, gm1, cfl, eps, mach, alpha};
  const char *cname[6] = {"gam", "gm1", "cfl", "eps", "mach", "alpha"};
  int bad = set(f, "nodes", m->nnode) || set(f, "edges", m->nedge) ||
            set(f, "bedges", m->nbedge) || set(f, "cells", m->ncell) ||
            map(f, "pedge", m->nedge, 2, m->edge) ||
            map(f, "pecell", m->nedge, 2, m->ecell) ||
            map(f, "pbedge", m->nbedge, 2, m->bedge) ||
            map(f, "pbecell", m->nbedge, 1, m->becell) ||
            map(f, "pcell", m->ncell, 4, m->cell) ||
            map(f, "p_bound", m->nbedge, 1, m->bound) || /* an int dat */
            dat(f, "p_x", m->nnode, 2, m->x) ||
            dat(f, "p_q", m->ncell, 4, q) ||
            dat(f, "p_qold", m->ncell, 4, zero) ||
            dat(f, "p_adt", m->ncell, 1, zero) ||
            dat(f, "p_res", m->ncell, 4, zero);
  for (int k = 0; k < 6 && !bad; k++)
    bad = constant(f, cname[k], 1, &c[k]);
  return bad || constant(f, "qinf", 4, qinf);
}

/* --extract: a double dataset's values, raw, to OUT (e.g. a q written by
 * loom_dat_write_hdf5, to compare with a text run's q file). */
static int extract(const char *file, const char *name, const char *out) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t ds = f >= 0 ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
  hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
  hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
  double *v = n >= 0 ? malloc((size_t)n * sizeof *v + 1) : NULL;
  int bad = !v || H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                          H5P_DEFAULT, v) < 0;
  if (bad)
    fprintf(stderr, "loom-mesh: error: cannot read dataset '%s' of '%s'\n",
            name, file);
  FILE *o = bad ? NULL : fopen(out, "wb");
  if (!bad && (!o || fwrite(v, sizeof *v, (size_t)n, o) != (size_t)n)) {
    fprintf(stderr, "loom-mesh: error: cannot write '%s'\n", out);
    bad = 1;
  }
  if (o && fclose(o) != 0)
    bad = 1;
  free(v);
  if (sp >= 0)
    H5Sclose(sp);
  if (ds >= 0)
    H5Dclose(ds);
  if (f >= 0)
    H5Fclose(f);
  return bad;
}

static herr_t list_one(hid_t g, const char *name, const H5L_info_t *info,
                       void *data) {
  (void)info, (void)data;
  hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
  if (ds < 0)
    return 0;
  hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
  hsize_t dims[2] = {1, 1};
  int rank = H5Sget_simple_extent_ndims(sp);
  if (rank > 0 && rank <= 2)
    H5Sget_simple_extent_dims(sp, dims, NULL);
  printf("%s %llu %llu %s %zu\n", name, (unsigned long long)dims[0],
         rank == 2 ? (unsigned long long)dims[1] : 1ULL,
         H5Tget_class(t) == H5T_INTEGER ? "Int" : "Float", H5Tget_size(t));
  H5Tclose(t);
  H5Sclose(sp);
  H5Dclose(ds);
  return 0;
}

/* --list: the file's datasets, one per line. */
static int list(const char *file) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "loom-mesh: error: cannot open '%s'\n", file);
    return 1;
  }
  H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, NULL, list_one, NULL);
  H5Fclose(f);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--list") == 0)
    return list(argv[2]);
  if (argc == 5 && strcmp(argv[1], "--extract") == 0)
    return extract(argv[2], argv[3], argv[4]);
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN.dat OUT.h5\n"
                    "  converts OP2's Airfoil text mesh to HDF5 in OP2's "
                    "layout\n"
                    "       %s --extract FILE.h5 DATASET OUT.bin\n"
                    "  writes a double dataset's values, raw\n"
                    "       %s --list FILE.h5\n"
                    "  prints each dataset's name, dimensions and type\n",
            argv[0], argv[0], argv[0]);
    return 2;
  }
  struct airfoil_mesh m;
  if (airfoil_read_mesh(argv[1], &m))
    return 1;
  airfoil_set_constants();
  size_t tmp_len = strlen(argv[2]) + 5;
  char *tmp = malloc(tmp_len);
  double *q = malloc(4 * (size_t)m.ncell * sizeof *q + 1);
  double *zero = calloc(4 * (size_t)m.ncell + 1, sizeof *zero);
  if (!tmp || !q || !zero) {
    fprintf(stderr, "loom-mesh: error: out of memory\n");
    return 1;
  }
  snprintf(tmp, tmp_len, "%s.tmp", argv[2]);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  int bad = f < 0;
  if (bad)
    fprintf(stderr, "loom-mesh: error: cannot create '%s'\n", tmp);
  else
    bad = write_all(f, &m, q, zero);
  if (f >= 0 && H5Fclose(f) < 0)
    bad = 1;
  if (!bad && rename(tmp, argv[2]) != 0) {
    perror("loom-mesh: error: rename");
    bad = 1;
  }
  if (bad)
    remove(tmp);
  free(tmp);
  free(q);
  free(zero);
  airfoil_free_mesh(&m);
  return bad;
}
