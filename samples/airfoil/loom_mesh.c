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
 * The file's contents: airfoil_h5.h.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_h5.h"

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

static void usage(FILE *to, const char *prog) {
  fprintf(to, "usage: %s IN.dat OUT.h5\n"
              "  converts OP2's Airfoil text mesh to HDF5 in OP2's layout\n"
              "       %s --extract FILE.h5 DATASET OUT.bin\n"
              "  writes a double dataset's values, raw\n"
              "       %s --list FILE.h5\n"
              "  prints each dataset's name, dimensions and type\n",
          prog, prog, prog);
}

int main(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout, argv[0]);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--list") == 0)
    return list(argv[2]);
  if (argc == 5 && strcmp(argv[1], "--extract") == 0)
    return extract(argv[2], argv[3], argv[4]);
  if (argc != 3) {
    usage(stderr, argv[0]);
    return 2;
  }
  struct airfoil_mesh m;
  if (airfoil_read_mesh(argv[1], &m))
    return 1;
  airfoil_set_constants();
  int bad = airfoil_write_h5(argv[2], &m);
  airfoil_free_mesh(&m);
  return bad;
}
