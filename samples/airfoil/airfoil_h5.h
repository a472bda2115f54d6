/*
 * airfoil_h5.h — writes an Airfoil mesh (struct airfoil_mesh) to an HDF5
 * file in OP2's layout: shared by loom-mesh (from the text mesh) and the
 * HDF5 build of the NACA0012 generator (directly).
 *
 * What OP2's convert_mesh writes, under the same names: the sets (one int
 * each: nodes, edges, bedges, cells), the maps (int, size x dim: pedge,
 * pecell, pbedge, pbecell, pcell), the dats (size x dim, with attributes
 * "dim", "size" in bytes per element and "type": p_bound, p_x, p_q set to
 * the free stream qinf, and p_qold, p_adt, p_res zero) and the constants
 * (gam, gm1, cfl, eps, mach, alpha, qinf; attributes "dim" and "type").
 * airfoil_write_h5 writes OUT.tmp serially (HDF5's default driver) and
 * renames it, so a failure leaves no partial file.  Needs hdf5.h and
 * airfoil_kernels.h's constants (airfoil_set_constants() called first).
 */
#ifndef AIRFOIL_H5_H
#define AIRFOIL_H5_H

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_kernels.h"
#include "airfoil_mesh.h"

/* Dataset creation without modification times: the same mesh gives the
 * same bytes. */
static hid_t untimed(void) {
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_obj_track_times(p, 0);
  return p;
}

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
  hid_t dcpl = untimed();
  hid_t ds = H5Dcreate2(f, name, mtype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Pclose(dcpl);
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
    fprintf(stderr, "error: cannot write dataset '%s'\n", name);
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
  hid_t dcpl = untimed();
  hid_t ds = H5Dcreate2(f, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT);
  H5Pclose(dcpl);
  int bad = ds < 0 ||
            H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
            attr_int(ds, "dim", dim) || attr_text(ds, "type", "double");
  if (ds >= 0)
    H5Dclose(ds);
  H5Sclose(sp);
  if (bad)
    fprintf(stderr, "error: cannot write constant '%s'\n", name);
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

/* The mesh to `path` (through path.tmp).  0, or 1 after a message. */
static int airfoil_write_h5(const char *path, const struct airfoil_mesh *m) {
  size_t tmp_len = strlen(path) + 5;
  char *tmp = malloc(tmp_len);
  double *q = malloc(4 * (size_t)m->ncell * sizeof *q + 1);
  double *zero = calloc(4 * (size_t)m->ncell + 1, sizeof *zero);
  if (!tmp || !q || !zero) {
    fprintf(stderr, "error: out of memory writing '%s'\n", path);
    free(tmp), free(q), free(zero);
    return 1;
  }
  snprintf(tmp, tmp_len, "%s.tmp", path);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  int bad = f < 0;
  if (bad)
    fprintf(stderr, "error: cannot create '%s'\n", tmp);
  else
    bad = write_all(f, m, q, zero);
  if (f >= 0 && H5Fclose(f) < 0)
    bad = 1;
  if (!bad && rename(tmp, path) != 0) {
    perror("error: rename");
    bad = 1;
  }
  if (bad)
    remove(tmp);
  free(tmp);
  free(q);
  free(zero);
  return bad;
}

#endif
