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

loom_set loom_decl_extruded_set(loom_set base, int layers, const char *name) {
  static const char call[] = "loom_decl_extruded_set";
  if (loomrt_require_active(call) != LOOM_OK || loomrt_check_name(name, "set") != LOOM_OK ||
      set_checked(base, call, "base", name) != LOOM_OK)
    return NULL;
  if (base->base) {
    loom_error_(LOOM_EINVAL, "%s('%s'): its base '%s' is itself extruded: extrude the "
                "base of '%s' instead", call, name, base->name, base->name);
    return NULL;
  }
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

static int loom__check_layers_body(loom_map map, int n, const int *shift, int first,
                                   int last, const char *loop, int arg) {
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
  for (int j = 0; j < n; j++) {
    if (map->shift[j] != shift[j])
      return loom_error_(LOOM_EMISMATCH, "map '%s': slot %d shifts %d layers, but loop %s "
                         "(argument %d) was compiled for %d (its shifts changed after "
                         "loomc read them)", map->name, j, map->shift[j], loop, arg, shift[j]);
    long long lo = (long long)first + shift[j], hi = (long long)last + shift[j];
    if (first <= last && (lo < 0 || hi >= map->to->layers))
      return loom_error_(LOOM_EINVAL, "loop %s (argument %d): map '%s' slot %d reaches "
                         "layer %lld of '%s', which has layers 0 to %d (the loop runs "
                         "layers %d to %d: choose its region, or the shift)", loop, arg,
                         map->name, j, lo < 0 ? lo : hi, map->to->name,
                         map->to->layers - 1, first, last);
  }
  return LOOM_OK;
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_layers(loom_map map, int n, const int *shift, int first, int last,
                       const char *loop, int arg) {
  return loomrt_leave(loom__check_layers_body(map, n, shift, first, last, loop, arg));
}
