/*
 * core/const.c — file-scope constants that kernels read (loom_decl_const, OP2's
 * op_decl_const).
 *
 * Design
 * ------
 * Kernels read a file-scope variable directly; the declaration tells the
 * runtime where it is, its shape and its name.  The runtime keeps no copy:
 * host code may assign the variable between loops (loomc orders the loops
 * around such a write, see dsl-spec/semantics.md §9.0).  Under MPI every
 * rank must hold the same values, since each runs the kernels on its part
 * of the mesh: the declaration is collective and compares a checksum of
 * the values across ranks (loomrt_mpi_same), and partitioning compares
 * them again.  A declaration of a name declared before updates it (a
 * program re-declares after changing a constant to have it checked).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"

typedef struct constant {
  char *name;
  const void *data;
  int dim;
  loom_type type;
  size_t bytes;
} constant;

static constant *consts;
static int nconsts, capconsts;

static constant *find(const char *name) {
  for (int i = 0; i < nconsts; i++)
    if (strcmp(consts[i].name, name) == 0)
      return &consts[i];
  return NULL;
}

static constant *add(const char *name) {
  if (nconsts == capconsts) {
    int cap = capconsts ? 2 * capconsts : 8;
    constant *c = realloc(consts, (size_t)cap * sizeof *c);
    if (!c)
      return NULL;
    consts = c;
    capconsts = cap;
  }
  char *copy = malloc(strlen(name) + 1);
  if (!copy)
    return NULL;
  strcpy(copy, name);
  constant *c = &consts[nconsts++];
  memset(c, 0, sizeof *c);
  c->name = copy;
  return c;
}

static int check_shape(int dim, loom_type type, size_t elem_size, const void *data,
                       const char *name) {
  if (dim < 1)
    return loom_error_(LOOM_EINVAL, "constant '%s': dim %d, expected at least 1", name, dim);
  size_t size = loomrt_type_size(type);
  if (size == 0 || size != elem_size)
    return loom_error_(LOOM_EINVAL, "constant '%s': unknown element type (code %d, %zu bytes)",
                       name, (int)type, elem_size);
  if (!data)
    return loom_error_(LOOM_EINVAL, "constant '%s': data is NULL", name);
  return LOOM_OK;
}

int loom_decl_const_(int dim, loom_type type, size_t elem_size, const void *data,
                     const char *name) {
  int status = loomrt_require_active("loom_decl_const");
  if (status == LOOM_OK)
    status = loomrt_check_name(name, "constant");
  if (status == LOOM_OK)
    status = check_shape(dim, type, elem_size, data, name);
  if (status != LOOM_OK)
    return status;
  constant *c = find(name);
  if (!c && !(c = add(name)))
    return loom_error_(LOOM_ENOMEM, "constant '%s': out of memory registering it", name);
  c->data = data;
  c->dim = dim;
  c->type = type;
  c->bytes = (size_t)dim * elem_size;
  return loomrt_const_check(c - consts);
}

int loomrt_const_count(void) { return nconsts; }

int loomrt_const_check(int i) {
  const constant *c = &consts[i];
  return loomrt_distribution.same(c->data, c->bytes, c->dim, c->name);
}

void loomrt_consts_free(void) {
  for (int i = 0; i < nconsts; i++)
    free(consts[i].name);
  free(consts);
  consts = NULL;
  nconsts = capconsts = 0;
}
