/*
 * io/xdmf.c — loom_write_xdmf: fields on the mesh for ParaView and VisIt,
 * as an XDMF file describing datasets of an HDF5 file.
 *
 * Design
 * ------
 * The HDF5 file gets, in declared order (hdf5.c's collective writes),
 * the topology map (element -> node, declared node numbers), the
 * coordinates and each field, each a dataset named after its object.
 * Rank 0 then writes the XDMF (version 2) text: one uniform grid whose
 * Topology is the map (3 entries: triangles; 4: quadrilaterals in 2-D,
 * tetrahedra in 3-D; 6: wedges; 8: hexahedra; 2: polylines), whose Geometry is the
 * coordinates (XY or XYZ), and one Attribute per field, centred on the
 * cells (a dat on the map's `from` set) or the nodes (on its `to` set):
 * Scalar for one value per element, Vector for 2 or 3, Matrix otherwise.
 * An extruded mesh (dsl-spec/extruded.md) is written element by element:
 * its map, from prisms (or hexahedra over quadrilaterals) to the vertical
 * lines' points, as the declared point each slot reaches (hdf5.c), its
 * dats a row per element, so that ParaView shows the 3-D field.
 * DataItems name the HDF5 file as given, relative to the XDMF file when it
 * is relative, as readers resolve it.  The XDMF is written to FILE.tmp and
 * renamed, so a reader never sees half of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mpi/mpi.h"
#include "io/hdf5.h"

static const char *topology_type(int arity, int space_dim) {
  switch (arity) {
  case 2:
    return "Polyline";
  case 3:
    return "Triangle";
  case 4:
    return space_dim == 3 ? "Tetrahedron" : "Quadrilateral";
  case 6:
    return space_dim == 3 ? "Wedge" : NULL;
  case 8:
    return "Hexahedron";
  default:
    return NULL;
  }
}

/* A set's elements in the file, and a dat's set and values per element as
 * declared (an extruded set's: its base's times its layers). */
static int set_rows(loom_set s) { return s->base ? s->base->gsize * s->layers : s->gsize; }
static loom_set dat_set(loom_dat d) { return d->xset ? d->xset : d->set; }
static int dat_width(loom_dat d) { return d->xset ? d->xdim : d->dim; }

static const char *number_type(loom_type t) {
  return t == LOOM_INT ? "Int" : "Float";
}

static void data_item(FILE *f, int rows, int cols, loom_dat dat, const char *h5,
                      const char *name) {
  fprintf(f,
          "        <DataItem Dimensions=\"%d %d\" NumberType=\"%s\" "
          "Precision=\"%zu\" Format=\"HDF\">%s:/%s</DataItem>\n",
          rows, cols, dat ? number_type(dat->type) : "Int",
          dat ? dat->elem_size : sizeof(int), h5, name);
}

/* The HDF5 file as the XDMF names it: readers resolve a relative name
 * from the XDMF file's directory, so a file in that same directory is
 * named by its base name; any other name is kept as given. */
static const char *h5_ref(const char *xmf, const char *h5) {
  const char *xs = strrchr(xmf, '/'), *hs = strrchr(h5, '/');
  size_t xd = xs ? (size_t)(xs - xmf) : 0, hd = hs ? (size_t)(hs - h5) : 0;
  if (h5[0] != '/' && xd == hd && strncmp(xmf, h5, xd) == 0)
    return hs ? hs + 1 : h5;
  return h5;
}

/* The XDMF text (rank 0). */
static int write_text(const char *xmf, const char *h5, loom_map top,
                      loom_dat xy, int nfields, const loom_dat *fields) {
  size_t len = strlen(xmf) + 5;
  char *tmp = malloc(len);
  FILE *f = NULL;
  if (tmp) {
    snprintf(tmp, len, "%s.tmp", xmf);
    f = fopen(tmp, "w");
  }
  if (!f) {
    free(tmp);
    return loom_error_(LOOM_EIO, "loom_write_xdmf: cannot create '%s.tmp'", xmf);
  }
  fprintf(f, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
             "<Xdmf Version=\"2.0\">\n  <Domain>\n"
             "    <Grid Name=\"%s\" GridType=\"Uniform\">\n",
          top->from->name);
  fprintf(f, "      <Topology TopologyType=\"%s\" NumberOfElements=\"%d\">\n",
          topology_type(top->dim, dat_width(xy)), set_rows(top->from));
  data_item(f, set_rows(top->from), top->dim, NULL, h5, top->name);
  fprintf(f, "      </Topology>\n      <Geometry GeometryType=\"%s\">\n",
          dat_width(xy) == 3 ? "XYZ" : "XY");
  data_item(f, set_rows(dat_set(xy)), dat_width(xy), xy, h5, xy->name);
  fprintf(f, "      </Geometry>\n");
  for (int i = 0; i < nfields; i++) {
    loom_dat d = fields[i];
    int w = dat_width(d);
    const char *kind = w == 1 ? "Scalar" : w <= 3 ? "Vector" : "Matrix";
    fprintf(f, "      <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"%s\">\n",
            d->name, kind, dat_set(d) == top->from ? "Cell" : "Node");
    data_item(f, set_rows(dat_set(d)), w, d, h5, d->name);
    fprintf(f, "      </Attribute>\n");
  }
  fprintf(f, "    </Grid>\n  </Domain>\n</Xdmf>\n");
  int bad = ferror(f) != 0;
  bad |= fclose(f) != 0;
  if (!bad && rename(tmp, xmf) != 0)
    bad = 1;
  if (bad)
    remove(tmp);
  free(tmp);
  return bad ? loom_error_(LOOM_EIO, "loom_write_xdmf: writing '%s' failed", xmf)
             : LOOM_OK;
}

/* The arguments: live handles, a topology XDMF knows, fields on its sets. */
static int check_args(const char *xmf, const char *h5, loom_map top,
                      loom_dat xy, int nfields, const loom_dat *fields) {
  int status = loomrt_require_active("loom_write_xdmf");
  if (status == LOOM_OK && (!xmf || !h5 || nfields < 0 || (nfields && !fields)))
    status = loom_error_(LOOM_EINVAL, "loom_write_xdmf: a file name or the "
                                      "field list is NULL");
  const char *problem = status == LOOM_OK ? loomrt_map_problem(top) : NULL;
  if (problem)
    return loom_error_(LOOM_EINVAL, "loom_write_xdmf: topology map %s", problem);
  if (status == LOOM_OK)
    status = loomrt_dat_usable(xy, "loom_write_xdmf");
  if (status != LOOM_OK)
    return status;
  if (dat_set(xy) != top->to || (dat_width(xy) != 2 && dat_width(xy) != 3) ||
      (xy->type != LOOM_DOUBLE && xy->type != LOOM_FLOAT))
    return loom_error_(LOOM_EINVAL, "loom_write_xdmf: coordinates '%s' must "
                                    "be 2 or 3 doubles (or floats) per element "
                                    "of '%s', the topology map's target",
                       xy->name, top->to->name);
  if (!topology_type(top->dim, dat_width(xy)))
    return loom_error_(LOOM_EINVAL, "loom_write_xdmf: map '%s' has %d entries "
                                    "per element; XDMF topologies here take "
                                    "2, 3, 4, 6 (3-D) or 8",
                       top->name, top->dim);
  for (int i = 0; i < nfields && status == LOOM_OK; i++) {
    status = loomrt_dat_usable(fields[i], "loom_write_xdmf");
    if (status == LOOM_OK && dat_set(fields[i]) != top->from && dat_set(fields[i]) != top->to)
      status = loom_error_(LOOM_EINVAL, "loom_write_xdmf: field '%s' is on set "
                                        "'%s', neither the cells ('%s') nor "
                                        "the nodes ('%s') of map '%s'",
                           fields[i]->name, dat_set(fields[i])->name,
                           top->from->name, top->to->name, top->name);
  }
  return status;
}

static int xdmf_body(const char *xmf, const char *h5, loom_map top,
                     loom_dat xy, int nfields, const loom_dat *fields) {
  int status = check_args(xmf, h5, top, xy, nfields, fields);
  status = loomrt_mpi_agree(status, "loom_write_xdmf"); /* every rank here */
  if (status == LOOM_OK)
    status = loom__mpi_ready(); /* partitions if no loop did yet */
  hid_t f = -1;
  if (status == LOOM_OK && (f = loomrt_h5_open(h5, 1)) < 0)
    status = loom_error_(LOOM_EIO, "loom_write_xdmf: cannot open or create "
                                   "HDF5 file '%s'", h5);
  status = loomrt_mpi_agree(status, "loom_write_xdmf");
  if (status == LOOM_OK)
    status = loomrt_h5_write_map(f, top, h5);
  if (status == LOOM_OK)
    status = loomrt_h5_write_dat(f, xy, xy->name, h5);
  for (int i = 0; i < nfields && status == LOOM_OK; i++)
    status = loomrt_h5_write_dat(f, fields[i], fields[i]->name, h5);
  if (f >= 0)
    H5Fclose(f);
  status = loomrt_mpi_agree(status, "loom_write_xdmf");
  if (status == LOOM_OK && loomrt_mpi_rank() == 0)
    status = write_text(xmf, h5_ref(xmf, h5), top, xy, nfields, fields);
  return loomrt_mpi_agree(status, "loom_write_xdmf");
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_write_xdmf(const char *xmf, const char *h5, loom_map topology,
                    loom_dat coords, int nfields, const loom_dat *fields) {
  return loomrt_leave(xdmf_body(xmf, h5, topology, coords, nfields, fields));
}
