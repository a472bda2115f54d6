/*
 * core/map.c — maps: declaration with range checks, queries and the loom__ map
 * functions.
 *
 * Design
 * ------
 * A map gives, for each element of its `from` set, `dim` indices into its
 * `to` set, stored element-major (entry e is element e / dim, slot
 * e % dim).  The user's array is validated first (every entry in
 * [0, size(to)); the first bad entry is reported with its element and slot)
 * and then copied, so the runtime never depends on the caller's buffer.
 * A map declared after loom_renumber() is stored renumbered like the
 * others: its rows in the storage order of `from`, its entries translated
 * to the storage numbering of `to` (the entries are checked before).
 * Entry counts and byte sizes are computed in size_t with overflow checks.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"

const char *loomrt_map_problem(loom_map map) {
  static char buf[LOOMRT_STALE_MAX];
  static const loomrt_handle_kind kind = {
      LOOMRT_MAGIC_MAP, LOOMRT_RETIRED_MAP, "map",
      "is not a live map (freed by loom_exit, or not a loom_map)"};
  return loomrt_handle_problem(buf, &kind, map, map ? map->magic : 0, map ? map->name : NULL);
}

void loomrt_map_retire(loom_map map) {
  map->magic = LOOMRT_RETIRED_MAP;
  loomrt_free(map->values);
  map->values = NULL;
  free(map->shift);
  map->shift = NULL;
}

void loomrt_map_free(loom_map map) {
  loomrt_map_retire(map);
  map->magic = 0;
  free(map->name);
  free(map);
}

/* LOOM_OK when the runtime is active and `map` is live; otherwise reports
 * an error naming `call`. */
static int map_usable(loom_map map, const char *call) {
  int status = loomrt_require_active(call);
  if (status != LOOM_OK)
    return status;
  const char *problem = loomrt_map_problem(map);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: map handle %s", call, problem);
  return LOOM_OK;
}

/* Checks the sets and dim of a map about to be declared. */
static int check_decl_shape(loom_set from, loom_set to, int dim,
                            const char *name) {
  const char *problem = loomrt_set_problem(from);
  if (problem)
    return loom_error_(LOOM_EINVAL, "map '%s': 'from' set %s", name, problem);
  problem = loomrt_set_problem(to);
  if (problem)
    return loom_error_(LOOM_EINVAL, "map '%s': 'to' set %s", name, problem);
  if (dim < 1)
    return loom_error_(LOOM_EINVAL, "map '%s': arity is %d, must be >= 1", name,
                       dim);
  if (from->base || to->base)
    return loom_error_(LOOM_EINVAL, "map '%s': '%s' is extruded: declare a map of its "
                       "layers with loom_decl_extruded_map", name,
                       from->base ? from->name : to->name);
  return LOOM_OK;
}

/* Checks that every entry of `data` lies in [0, size(to)); reports the
 * first one that does not, and how many others do not either. */
static int check_entries(const int *data, size_t count, int dim, loom_set to,
                         const char *name) {
  size_t bad = 0, first = 0;
  for (size_t e = 0; e < count; e++) {
    if (data[e] < 0 || data[e] >= to->gsize) {
      if (bad++ == 0)
        first = e;
    }
  }
  if (bad == 0)
    return LOOM_OK;
  size_t d = (size_t)dim;
  return loom_error_(LOOM_EINVAL,
                     "map '%s': entry %zu (element %zu, slot %zu) is %d, "
                     "outside [0, %d) of set '%s'%s",
                     name, first, first / d, first % d, data[first], to->gsize,
                     to->name,
                     bad > 1 ? " (and more entries out of range)" : "");
}

/* Number of entries and bytes of a map; reports an overflow. */
static int map_extent(loom_set from, int dim, const char *name, size_t *count,
                      size_t *bytes) {
  if (!loomrt_mul_size((size_t)from->size, (size_t)dim, count) ||
      !loomrt_mul_size(*count, sizeof(int), bytes))
    return loom_error_(LOOM_EINVAL,
                       "map '%s': %d elements x arity %d overflows size_t", name,
                       from->size, dim);
  return LOOM_OK;
}

static loom_map map_new(loom_set from, loom_set to, int dim, const int *data,
                        size_t bytes, const char *name) {
  loom_map map = malloc(sizeof *map);
  char *copy = loomrt_strdup(name);
  int *values = loomrt_alloc(LOOM_MEM_MAPS, bytes ? bytes : 1);
  if (!map || !copy || !values) {
    free(map);
    free(copy);
    loomrt_free(values);
    loom_error_(LOOM_ENOMEM, "map '%s': out of memory allocating %zu bytes",
                name, bytes);
    return NULL;
  }
  if (bytes && from->new_of_old) /* declared after loom_renumber */
    loomrt_scatter_rows(values, data, (size_t)dim * sizeof(int), from->size,
                        from->new_of_old);
  else if (bytes)
    memcpy(values, data, bytes);
  if (to->new_of_old)
    for (size_t e = 0; e < bytes / sizeof(int); e++)
      values[e] = to->new_of_old[values[e]];
  map->magic = LOOMRT_MAGIC_MAP;
  map->name = copy;
  map->from = from;
  map->to = to;
  map->dim = dim;
  map->values = values;
  map->reach = 0;
  map->reach_values = NULL;
  map->reach_n = -1;
  map->base = NULL;
  map->shift = NULL;
  return map;
}

loom_map loom_decl_map(loom_set from, loom_set to, int dim, const int *data,
                       const char *name) {
  size_t count, bytes;
  if (loomrt_require_active("loom_decl_map") != LOOM_OK ||
      loomrt_check_name(name, "map") != LOOM_OK ||
      check_decl_shape(from, to, dim, name) != LOOM_OK ||
      map_extent(from, dim, name, &count, &bytes) != LOOM_OK)
    return NULL;
  if (loomrt_partitioned()) {
    loom_error_(LOOM_ESTATE,
                "map '%s': declared after the mesh was partitioned over the "
                "MPI ranks (declare every set and map before the first loop "
                "and loom_partition)",
                name);
    return NULL;
  }
  if (!data && count > 0) {
    loom_error_(LOOM_EINVAL,
                "map '%s': data is NULL but set '%s' has %d elements x arity %d",
                name, from->name, from->size, dim);
    return NULL;
  }
  if (count > 0 && check_entries(data, count, dim, to, name) != LOOM_OK)
    return NULL;
  loom_map map = map_new(from, to, dim, data, bytes, name);
  if (map && loomrt_register(LOOMRT_KIND_MAP, map, name) != LOOM_OK) {
    loomrt_map_free(map);
    return NULL;
  }
  return map;
}

const char *loom_map_name(loom_map map) {
  return map_usable(map, "loom_map_name") == LOOM_OK ? map->name : NULL;
}

/* Checks that the sets the loop passes for comparison are themselves live;
 * a NULL `to` means the loop does not check the target set. */
static int check_expected_sets(loom_set from, loom_set to, const char *loop,
                               int arg) {
  const char *problem = loomrt_set_problem(from);
  if (problem)
    return loom_error_(LOOM_EMISMATCH,
                       "loop %s (argument %d): expected 'from' set %s", loop,
                       arg, problem);
  problem = to ? loomrt_set_problem(to) : NULL;
  if (problem)
    return loom_error_(LOOM_EMISMATCH,
                       "loop %s (argument %d): expected 'to' set %s", loop,
                       arg, problem);
  return LOOM_OK;
}

static int loom__check_map_body(loom_map map, loom_set from, loom_set to, int dim, const char *loop, int arg);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_map(loom_map map, loom_set from, loom_set to, int dim, const char *loop, int arg) {
  return loomrt_leave(loom__check_map_body(map, from, to, dim, loop, arg));
}

static int loom__check_map_body(loom_map map, loom_set from, loom_set to, int dim,
                    const char *loop, int arg) {
  int status = loomrt_require_active("loom__check_map");
  if (status != LOOM_OK)
    return status;
  loop = loomrt_loop_label(loop);
  const char *problem = loomrt_map_problem(map);
  if (problem)
    return loom_error_(LOOM_EMISMATCH, "loop %s (argument %d): map %s", loop,
                       arg, problem);
  status = check_expected_sets(from, to, loop, arg);
  if (status != LOOM_OK)
    return status;
  if (map->from != from)
    return loom_error_(LOOM_EMISMATCH,
                       "map '%s': maps from set '%s' but loop %s (argument %d) "
                       "was compiled for a map from set '%s'",
                       map->name, map->from->name, loop, arg, from->name);
  if (to && map->to != to)
    return loom_error_(LOOM_EMISMATCH,
                       "map '%s': maps to set '%s' but loop %s (argument %d) "
                       "was compiled for a map to set '%s'",
                       map->name, map->to->name, loop, arg, to->name);
  if (map->dim != dim)
    return loom_error_(LOOM_EMISMATCH,
                       "map '%s': declared with arity %d but loop %s (argument "
                       "%d) was compiled for arity %d",
                       map->name, map->dim, loop, arg, dim);
  return LOOM_OK;
}

const int *loom__map_values(loom_map map) { /* partitioned first: dat.c */
  if (map_usable(map, "loom__map_values") != LOOM_OK)
    return NULL;
  if (!loomrt_partitioned() && loomrt_distribution.ready() != LOOM_OK)
    return NULL;
  return map->values;
}

/* The distinct targets of the entries of the owned elements (counted once
 * per values and owned count: maps do not change but by partitioning). */
int loom__map_reach(loom_map map) {
  if (map_usable(map, "loom__map_reach") != LOOM_OK)
    return 0;
  int n = map->from->gid ? map->from->owned : map->from->size;
  if (map->reach_values == map->values && map->reach_n == n)
    return map->reach;
  unsigned char *hit = calloc((size_t)map->to->size + 1, 1);
  if (!hit)
    return map->to->size; /* the diagnostics' model only: every target */
  int reach = 0;
  for (size_t k = 0; k < (size_t)n * map->dim; k++) {
    int t = map->values[k];
    if (t >= 0 && t < map->to->size && !hit[t]) {
      hit[t] = 1;
      reach++;
    }
  }
  free(hit);
  map->reach = reach;
  map->reach_values = map->values;
  map->reach_n = n;
  return reach;
}

loom_set loom__map_to(loom_map map) {
  return map_usable(map, "loom__map_to") == LOOM_OK ? map->to : NULL;
}
