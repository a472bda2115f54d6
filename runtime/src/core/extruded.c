/*
 * core/extruded.c — extruded sets and maps: columns of layers over a base.
 *
 * Design
 * ------
 * An extruded set is a base set and a number of layers; it owns nothing.
 * A dat declared on it is, to the rest of the runtime, a dat on the base
 * set whose element is a whole column (dim times layers values: dat.c,
 * loomrt_extruded_dat), so partitioning keeps columns whole, halos send
 * whole columns, renumbering moves columns and loom_dat_fetch returns the
 * columns one after the other — nothing below needed to learn layers.
 *
 * An extruded map is a map of the bases (or the identity) and a layer
 * shift per slot; it holds no values of its own.  Generated code reads the
 * base map's values once per column and walks the layers itself (loomc
 * knows the shifts at compile time; loom__check_layers checks, before a
 * loop runs, that they are the map's and that every slot stays in its
 * column).
 *
 * Both are registered under kinds of their own (core.h), which the loops
 * over the registry's sets and maps (partitioning, renumbering, files)
 * pass over.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"

static int set_checked(loom_set set, const char *call, const char *what, const char *name) {
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s('%s'): %s set handle %s", call, name, what, problem);
  return LOOM_OK;
}

static int registered(loomrt_kind kind, void *object, const char *name) {
  if (loomrt_register(kind, object, name) == LOOM_OK)
    return 1;
  if (kind == LOOMRT_KIND_XSET)
    loomrt_set_free(object);
  else
    loomrt_map_free(object);
  return 0;
}

/* An extruded set's declaration `call` may go on: the runtime active, a
 * name, and a base set that is not itself extruded. */
static int xset_decl_checked(loom_set base, const char *call, const char *name) {
  if (loomrt_require_active(call) != LOOM_OK || loomrt_check_name(name, "set") != LOOM_OK ||
      set_checked(base, call, "base", name) != LOOM_OK)
    return LOOM_EINVAL;
  if (base->base)
    return loom_error_(LOOM_EINVAL, "%s('%s'): its base '%s' is itself extruded: extrude the "
                       "base of '%s' instead", call, name, base->name, base->name);
  return LOOM_OK;
}

loom_set loom_decl_extruded_set(loom_set base, int layers, const char *name) {
  static const char call[] = "loom_decl_extruded_set";
  if (xset_decl_checked(base, call, name) != LOOM_OK)
    return NULL;
  if (layers < 1) {
    loom_error_(LOOM_EINVAL, "%s('%s'): layers is %d; a column holds at least one layer",
                call, name, layers);
    return NULL;
  }
  loom_set set = loomrt_set_new(0, name); /* no elements of its own */
  if (!set)
    return NULL;
  set->base = base;
  set->layers = layers;
  return registered(LOOMRT_KIND_XSET, set, name) ? set : NULL;
}

/* Each of the `rows` counts at least 1; *most the largest.
 * LOOM_OK, or a status after the error was reported. */
static int column_counts(const int *layers, int rows, const char *name, int *most) {
  static const char call[] = "loom_decl_extruded_set_columns";
  *most = 1;
  if (!layers && rows > 0)
    return loom_error_(LOOM_EINVAL, "%s('%s'): its layers are NULL", call, name);
  for (int e = 0; e < rows; e++) {
    if (layers[e] < 1)
      return loom_error_(LOOM_EINVAL, "%s('%s'): column %d has %d layers; a column holds "
                         "at least one", call, name, e, layers[e]);
    if (layers[e] > *most)
      *most = layers[e];
  }
  return LOOM_OK;
}

/* The most layers of any column over the ranks, each holding a slice of
 * the base (collective); a rank whose slice failed (failed != 0) fails
 * every rank. */
static int most_over_ranks(int failed, int *most, const char *name) {
  int v[2] = {*most, failed};
  loom__reduction r;
  int status = loomrt_distribution.reduce_begin(&r, v, 2, LOOM_INT, LOOM_REDUCE_MAX);
  if (status == LOOM_OK)
    status = loomrt_distribution.reduce_end(&r);
  if (status != LOOM_OK)
    return status;
  if (v[1] && !failed)
    return loom_error_(LOOM_EINVAL, "loom_decl_extruded_set_columns('%s'): another rank's "
                       "slice of its layers is wrong", name);
  *most = v[0];
  return failed ? LOOM_EINVAL : LOOM_OK;
}

loom_set loom_decl_extruded_set_columns(loom_set base, const int *layers, const char *name) {
  static const char call[] = "loom_decl_extruded_set_columns";
  if (xset_decl_checked(base, call, name) != LOOM_OK)
    return NULL;
  int sliced = base->slice_off >= 0, most;
  int status = column_counts(layers, sliced ? base->size : base->gsize, name, &most);
  if (sliced)
    status = most_over_ranks(status != LOOM_OK, &most, name);
  if (status != LOOM_OK)
    return NULL;
  char *label = malloc(strlen(name) + sizeof ":layers");
  if (!label) {
    loom_error_(LOOM_ENOMEM, "set '%s': out of memory", name);
    return NULL;
  }
  strcpy(label, name);
  strcat(label, ":layers");
  loom_dat columns = loom_decl_dat_(base, 1, LOOM_INT, sizeof(int), layers, label);
  free(label);
  loom_set set = columns ? loom_decl_extruded_set(base, most, name) : NULL;
  if (set)
    set->columns = columns;
  return set;
}

/* The counts as the loop will run them: partitioned first, as
 * loom__dat_values does (partitioning gives the counts new storage). */
const int *loom__set_columns(loom_set set) {
  if (loomrt_set_problem(set) != NULL || !set->columns)
    return NULL;
  return loom__dat_values(set->columns);
}

int loom_set_layers(loom_set set) {
  if (loomrt_require_active("loom_set_layers") != LOOM_OK)
    return -1;
  const char *problem = loomrt_set_problem(set);
  if (problem) {
    loom_error_(LOOM_EINVAL, "loom_set_layers: set handle %s", problem);
    return -1;
  }
  return set->base ? set->layers : 1;
}

/* The problem with an extruded map's sets and base, or LOOM_OK. */
static int check_map_shape(loom_set from, loom_set to, int dim, loom_map base,
                           const char *name) {
  static const char call[] = "loom_decl_extruded_map";
  if (set_checked(from, call, "from", name) != LOOM_OK ||
      set_checked(to, call, "to", name) != LOOM_OK)
    return LOOM_EINVAL;
  if (!from->base || !to->base)
    return loom_error_(LOOM_EINVAL, "%s('%s'): '%s' is not an extruded set (declare it "
                       "with loom_decl_extruded_set)", call, name,
                       from->base ? to->name : from->name);
  if (dim < 1)
    return loom_error_(LOOM_EINVAL, "%s('%s'): dim is %d, must be >= 1", call, name, dim);
  if (!base) {
    if (from->base != to->base)
      return loom_error_(LOOM_EINVAL, "%s('%s'): no base map (the identity), but '%s' "
                         "and '%s' stand on different base sets", call, name, from->name,
                         to->name);
    return LOOM_OK;
  }
  const char *problem = loomrt_map_problem(base);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s('%s'): base map handle %s", call, name, problem);
  if (base->base || base->from != from->base || base->to != to->base || base->dim != dim)
    return loom_error_(LOOM_EINVAL, "%s('%s'): its base map '%s' must map '%s' to '%s' "
                       "with arity %d", call, name, base->name, from->base->name,
                       to->base->name, dim);
  return LOOM_OK;
}

loom_map loom_decl_extruded_map(loom_set from, loom_set to, int dim, loom_map base,
                                const int *shift, const char *name) {
  if (loomrt_require_active("loom_decl_extruded_map") != LOOM_OK ||
      loomrt_check_name(name, "map") != LOOM_OK ||
      check_map_shape(from, to, dim, base, name) != LOOM_OK)
    return NULL;
  if (!shift) {
    loom_error_(LOOM_EINVAL, "loom_decl_extruded_map('%s'): its shifts are NULL", name);
    return NULL;
  }
  loom_map map = calloc(1, sizeof *map);
  char *copy = loomrt_strdup(name);
  int *shifts = malloc((size_t)dim * sizeof *shifts);
  if (!map || !copy || !shifts) {
    free(map);
    free(copy);
    free(shifts);
    loom_error_(LOOM_ENOMEM, "map '%s': out of memory", name);
    return NULL;
  }
  memcpy(shifts, shift, (size_t)dim * sizeof *shifts);
  map->magic = LOOMRT_MAGIC_MAP;
  map->name = copy;
  map->from = from;
  map->to = to;
  map->dim = dim;
  map->base = base;
  map->shift = shifts;
  map->reach_n = -1;
  return registered(LOOMRT_KIND_XMAP, map, name) ? map : NULL;
}

int loomrt_extruded_dat(loom_set *set, int *dim, loom_set *xset, const char *name) {
  if (!(*set)->base)
    return LOOM_OK;
  long long width = (long long)*dim * (*set)->layers;
  if (width > INT_MAX)
    return loom_error_(LOOM_EINVAL, "dat '%s': a column of '%s' holds %lld values, more "
                       "than an int counts", name, (*set)->name, width);
  *xset = *set;
  *dim = (int)width;
  *set = (*set)->base;
  return LOOM_OK;
}

loom_set loom__set_base(loom_set set) {
  return loomrt_set_problem(set) == NULL && set->base ? set->base : set;
}

loom_map loom__map_base(loom_map map) {
  return loomrt_map_problem(map) == NULL && map->shift ? map->base : map;
}

/* The layers [*first, *last] a loop of region `region` runs in a column
 * of n (first > last: none). */
static void region_layers(int region, int n, int *first, int *last) {
  *first = region == LOOM__REGION_TOP ? n - 1 : 0;
  *last = region == LOOM__REGION_BOTTOM     ? 0
          : region == LOOM__REGION_INTERIOR ? n - 2
                                            : n - 1;
}

static int out_of_column(loom_map map, int j, int column, int first, int last, int layers,
                         const char *loop, int arg) {
  long long lo = (long long)first + map->shift[j], hi = (long long)last + map->shift[j];
  if (column < 0)
    return loom_error_(LOOM_EINVAL, "loop %s (argument %d): map '%s' slot %d reaches layer "
                       "%lld of '%s', which has layers 0 to %d (the loop runs layers %d to "
                       "%d: choose its region, or the shift)", loop, arg, map->name, j,
                       lo < 0 ? lo : hi, map->to->name, layers - 1, first, last);
  return loom_error_(LOOM_EINVAL, "loop %s (argument %d): from column %d, which it runs at "
                     "layers %d to %d, map '%s' slot %d reaches layer %lld of a column of "
                     "'%s' that has layers 0 to %d (columns of their own heights: choose "
                     "the loop's region, the shift, or the heights)", loop, arg, column,
                     first, last, map->name, j, lo < 0 ? lo : hi, map->to->name, layers - 1);
}

/* Slot j of extruded map `map` in range from column e's layers of region
 * `region` (the sets' own layers, or each column's). */
static int column_in_range(loom_map map, int region, int e, int j, const char *loop, int arg) {
  const int *from = map->from->columns ? map->from->columns->values : NULL;
  const int *to = map->to->columns ? map->to->columns->values : NULL;
  int nt = map->to->layers, first, last;
  if (to) /* the layers of the column slot j reaches */
    nt = to[map->base ? map->base->values[(size_t)e * map->dim + j] : e];
  region_layers(region, from ? from[e] : map->from->layers, &first, &last);
  if (first > last || (first + map->shift[j] >= 0 && last + map->shift[j] < nt))
    return LOOM_OK;
  loom_set b = map->from->base;
  int column = !from && !to ? -1 : b->gid ? b->gid[e] : e;
  return out_of_column(map, j, column, first, last, nt, loop, arg);
}

/* Every slot of `map` in range over region `region`: once, for the layers
 * of the sets (one number each), else column by column (the executed
 * ones), remembered (the layers of columns never change). */
static int layers_in_range(loom_map map, int region, const char *loop, int arg) {
  if (!map->from->columns && !map->to->columns) {
    for (int j = 0; j < map->dim; j++) {
      int status = column_in_range(map, region, 0, j, loop, arg);
      if (status != LOOM_OK)
        return status;
    }
    return LOOM_OK;
  }
  if (map->checked & (1u << region))
    return LOOM_OK;
  /* the columns as this rank runs them (a distributed declaration's map
   * rows name other ranks' columns until the mesh is partitioned) */
  int status = loomrt_partitioned() ? LOOM_OK : loomrt_distribution.ready();
  for (int e = 0; status == LOOM_OK && e < map->from->base->exec; e++)
    for (int j = 0; status == LOOM_OK && j < map->dim; j++)
      status = column_in_range(map, region, e, j, loop, arg);
  if (status == LOOM_OK)
    map->checked |= 1u << region;
  return status;
}

static int loom__check_layers_body(loom_map map, int n, const int *shift, int region,
                                   const char *loop, int arg) {
  int status = loomrt_require_active("loom__check_layers");
  if (status != LOOM_OK)
    return status;
  loop = loomrt_loop_label(loop);
  const char *problem = loomrt_map_problem(map);
  if (problem)
    return loom_error_(LOOM_EMISMATCH, "loop %s (argument %d): map %s", loop, arg, problem);
  if (!map->shift || map->dim != n)
    return loom_error_(LOOM_EMISMATCH, "map '%s': loop %s (argument %d) was compiled for "
                       "an extruded map of arity %d", map->name, loop, arg, n);
  for (int j = 0; j < n; j++)
    if (map->shift[j] != shift[j])
      return loom_error_(LOOM_EMISMATCH, "map '%s': slot %d shifts %d layers, but loop %s "
                         "(argument %d) was compiled for %d (its shifts changed after "
                         "loomc read them)", map->name, j, map->shift[j], loop, arg, shift[j]);
  if (region < LOOM__REGION_ALL || region > LOOM__REGION_INTERIOR)
    return loom_error_(LOOM_EINVAL, "loop %s (argument %d): region %d is none of "
                       "loom_gen.h's", loop, arg, region);
  return layers_in_range(map, region, loop, arg);
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_layers(loom_map map, int n, const int *shift, int region, const char *loop,
                       int arg) {
  return loomrt_leave(loom__check_layers_body(map, n, shift, region, loop, arg));
}
