/*
 * core/set.c — sets: declaration, queries and the loom__ set functions.
 *
 * Design
 * ------
 * A set is a name and a size (number of elements, >= 0).  It owns no data;
 * maps and dats refer to it by handle.  Its sections (core / owned /
 * executed halo / non-executed halo, loom.h) are set by MPI partitioning
 * (mpi/migrate.c): `size` then counts the local elements, `gsize` the
 * declared ones and `gid` gives each local element's declared index.
 * Without MPI (or before partitioning) the whole set is one section.
 *
 * After loom_renumber() a set also records where each element (in the
 * order of the declaration) is stored: `new_of_old` (plan/renumber.c).
 *
 * Every public function checks the runtime state and the handle before it
 * touches the object, and reports failures naming the call and, where one
 * exists, the set.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"

const char *loomrt_set_problem(loom_set set) {
  static char buf[LOOMRT_STALE_MAX];
  static const loomrt_handle_kind kind = {
      LOOMRT_MAGIC_SET, LOOMRT_RETIRED_SET, "set",
      "is not a live set (freed by loom_exit, or not a loom_set)"};
  return loomrt_handle_problem(buf, &kind, set, set ? set->magic : 0, set ? set->name : NULL);
}

void loomrt_set_retire(loom_set set) {
  set->magic = LOOMRT_RETIRED_SET;
  loomrt_free(set->new_of_old);
  loomrt_free(set->gid);
  loomrt_free(set->declared);
  set->new_of_old = set->gid = set->declared = NULL;
}

void loomrt_set_free(loom_set set) {
  loomrt_set_retire(set);
  set->magic = 0;
  free(set->name);
  free(set);
}

/* LOOM_OK when the runtime is active and `set` is live; otherwise reports
 * an error naming `call`. */
static int set_usable(loom_set set, const char *call) {
  int status = loomrt_require_active(call);
  if (status != LOOM_OK)
    return status;
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: set handle %s", call, problem);
  return LOOM_OK;
}

loom_set loomrt_set_new(int size, const char *name) {
  loom_set set = malloc(sizeof *set);
  char *copy = loomrt_strdup(name);
  if (!set || !copy) {
    free(set);
    free(copy);
    loom_error_(LOOM_ENOMEM, "set '%s': out of memory", name);
    return NULL;
  }
  set->magic = LOOMRT_MAGIC_SET;
  set->name = copy;
  set->size = size;
  set->new_of_old = NULL;
  set->gsize = size;
  set->core = set->owned = set->exec = size;
  set->gid = NULL;
  set->declared = NULL;
  set->slice_off = -1;
  set->base = NULL;
  set->layers = 0;
  set->columns = NULL;
  return set;
}

/* LOOM_OK when a set may be declared now (the runtime is active, the name
 * valid and the mesh not yet partitioned); otherwise reports. */
static int set_declarable(const char *call, const char *name) {
  if (loomrt_require_active(call) != LOOM_OK ||
      loomrt_check_name(name, "set") != LOOM_OK)
    return LOOM_EINVAL;
  if (loomrt_partitioned())
    return loom_error_(LOOM_ESTATE,
                       "set '%s': declared after the mesh was partitioned "
                       "over the MPI ranks (declare every set and map "
                       "before the first loop and loom_partition)",
                       name);
  return LOOM_OK;
}

static loom_set set_register(loom_set set, const char *name) {
  if (set && loomrt_register(LOOMRT_KIND_SET, set, name) != LOOM_OK) {
    loomrt_set_free(set);
    return NULL;
  }
  return set;
}

/* A slice: each rank's [offset, offset + count) of gsize elements; the
 * ranks' slices tile [0, gsize) in rank order (checked collectively under
 * MPI by loomrt_slice_check; without MPI, or on one rank, the one slice is
 * the whole set, which is then an ordinary set). */
loom_set loom_decl_set_slice(int gsize, int offset, int count,
                             const char *name) {
  if (set_declarable("loom_decl_set_slice", name) != LOOM_OK)
    return NULL;
  int status = LOOM_OK;
  if (gsize < 0 || offset < 0 || count < 0 || offset > gsize ||
      count > gsize - offset)
    status = loom_error_(LOOM_EINVAL,
                         "set '%s': slice [%d, %d + %d) is not inside "
                         "[0, %d) (loom_decl_set_slice(gsize, offset, count))",
                         name, offset, offset, count, gsize);
  status = loomrt_distribution.slice_check(status, gsize, offset, count, name);
  if (status != LOOM_OK)
    return NULL;
  loom_set set = loomrt_set_new(count, name);
  if (set) {
    set->gsize = gsize;
    set->slice_off = loomrt_distribution.nranks() > 1 ? offset : -1;
  }
  return set_register(set, name);
}

int loomrt_any_sliced(void) {
  size_t n = loomrt_registry_count();
  for (size_t i = 0; i < n; i++) {
    loomrt_kind kind;
    loom_set set = loomrt_registry_object(i, &kind);
    if (kind == LOOMRT_KIND_SET && set->magic == LOOMRT_MAGIC_SET &&
        set->slice_off >= 0)
      return 1;
  }
  return 0;
}

loom_set loom_decl_set(int size, const char *name) {
  if (set_declarable("loom_decl_set", name) != LOOM_OK)
    return NULL;
  if (size < 0) {
    loom_error_(LOOM_EINVAL, "set '%s': size is %d, must be >= 0", name,
                size);
    return NULL;
  }
  return set_register(loomrt_set_new(size, name), name);
}

int loom_set_size(loom_set set) { /* declared (global) size */
  if (set_usable(set, "loom_set_size") != LOOM_OK)
    return -1;
  if (!set->base)
    return set->gsize;
  long long n = (long long)set->base->gsize * set->layers; /* extruded */
  if (n <= INT_MAX)
    return (int)n;
  loom_error_(LOOM_EINVAL, "loom_set_size: '%s' has %lld elements, more than an int counts",
              set->name, n);
  return -1;
}

const char *loom_set_name(loom_set set) {
  return set_usable(set, "loom_set_name") == LOOM_OK ? set->name : NULL;
}

int loom__set_size(loom_set set) { /* owned elements */
  return set_usable(set, "loom__set_size") == LOOM_OK ? set->owned : -1;
}

int loom__set_core(loom_set set) {
  return set_usable(set, "loom__set_core") == LOOM_OK ? set->core : -1;
}

int loom__set_owned(loom_set set) {
  return set_usable(set, "loom__set_owned") == LOOM_OK ? set->owned : -1;
}

int loom__set_exec(loom_set set) {
  return set_usable(set, "loom__set_exec") == LOOM_OK ? set->exec : -1;
}

int loom__set_total(loom_set set) {
  return set_usable(set, "loom__set_total") == LOOM_OK ? set->size : -1;
}

/* The declared index of each element: after partitioning the set's gid;
 * after renumbering alone the inverse of new_of_old, built once (dropped
 * when the set is renumbered again); NULL when they are the same. */
const int *loom__set_global(loom_set set) {
  if (set_usable(set, "loom__set_global") != LOOM_OK)
    return NULL;
  if (set->gid || !set->new_of_old)
    return set->gid;
  if (!set->declared) {
    set->declared = loomrt_alloc(LOOM_MEM_SETS, ((size_t)set->size + 1) * sizeof *set->declared);
    if (!set->declared) {
      loom_error_(LOOM_ENOMEM, "set '%s': out of memory for its declared numbers",
                  set->name);
      return NULL;
    }
    for (int i = 0; i < set->size; i++)
      set->declared[set->new_of_old[i]] = i;
  }
  return set->declared;
}

void loomrt_local_rows(void *dst, const void *src, size_t row_bytes,
                       loom_set set) {
  char *d = dst;
  const char *s = src;
  for (int i = 0; i < set->size; i++)
    memcpy(d + (size_t)i * row_bytes, s + (size_t)set->gid[i] * row_bytes,
           row_bytes);
}
