/*
 * affine_isl.c — isl views of affine loops (see affine_isl.h).
 */
#include "analysis/affine_isl.h"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

__isl_give isl_set *affine_domain(isl_ctx *ctx, const loop *lp) {
  return isl_set_read_from_str(ctx, lp->aff->domain);
}

__isl_give isl_map *affine_access(isl_ctx *ctx, const loop *lp, int i) {
  isl_map *m = isl_map_read_from_str(ctx, lp->aff->args[i].access);
  return isl_map_intersect_domain(m, affine_domain(ctx, lp));
}

static int reads(access_mode m) { return m != MODE_WRITE; }
static int writes(access_mode m) { return m != MODE_READ; }

__isl_give isl_set *affine_footprint(isl_ctx *ctx, const loop *lp, const sym *array) {
  isl_set *fp = NULL;
  for (int i = 0; i < lp->nargs; i++) {
    if (lp->aff->args[i].array != array || !reads(lp->args[i].mode))
      continue;
    isl_set *part = isl_map_range(affine_access(ctx, lp, i));
    fp = fp ? isl_set_union(fp, part) : part;
  }
  return fp ? isl_set_coalesce(fp) : NULL;
}

__isl_give isl_map *affine_dependences(isl_ctx *ctx, const loop *lp) {
  isl_set *dom = affine_domain(ctx, lp);
  isl_map *deps = isl_map_empty(isl_space_map_from_set(isl_set_get_space(dom)));
  isl_set_free(dom);
  for (int i = 0; i < lp->nargs; i++)
    for (int j = 0; j < lp->nargs; j++) {
      const affine_arg *x = &lp->aff->args[i], *y = &lp->aff->args[j];
      if (x->array != y->array || !(writes(x->arg->mode) || writes(y->arg->mode)) ||
          x->arg->nsubs != y->arg->nsubs)
        continue;
      isl_map *ax = affine_access(ctx, lp, i), *ay = affine_access(ctx, lp, j);
      isl_map *pairs = isl_map_apply_range(ax, isl_map_reverse(ay));
      deps = isl_map_union(deps, pairs);
    }
  /* an iteration does not depend on itself */
  isl_map *self = isl_map_identity(isl_map_get_space(deps));
  return isl_map_coalesce(isl_map_subtract(deps, self));
}

int affine_outer_parallel(isl_ctx *ctx, __isl_keep isl_set *domain,
                          __isl_keep isl_map *deps) {
  (void)ctx;
  isl_map *d = isl_map_intersect_range(
      isl_map_intersect_domain(isl_map_copy(deps), isl_set_copy(domain)),
      isl_set_copy(domain));
  isl_set *delta = isl_map_deltas(d);
  isl_size n = isl_set_dim(delta, isl_dim_set);
  delta = isl_set_project_out(delta, isl_dim_set, 1, (unsigned)(n > 1 ? n - 1 : 0));
  isl_set *zero = isl_set_universe(isl_set_get_space(delta));
  zero = isl_set_fix_si(zero, isl_dim_set, 0, 0);
  isl_bool ok = isl_set_is_subset(delta, zero);
  isl_set_free(delta);
  isl_set_free(zero);
  return ok == isl_bool_error ? -1 : ok == isl_bool_true;
}
