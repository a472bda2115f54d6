/*
 * affine_isl.h — isl views of affine loops (frontend/affine.h): their
 * domains, access relations, footprints and dependences, read back from
 * the isl text that resolving kept.  Each result belongs to the caller
 * (__isl_give), in the context the caller passes (affine_ctx_new), so no
 * isl object outlives the function that asked for it.
 */
#ifndef LOOMC_AFFINE_ISL_H
#define LOOMC_AFFINE_ISL_H

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include "frontend/affine.h"

/* The loop's domain. */
__isl_give isl_set *affine_domain(isl_ctx *ctx, const loop *lp);
/* The access relation of argument i, restricted to the domain. */
__isl_give isl_map *affine_access(isl_ctx *ctx, const loop *lp, int i);
/* The elements of `array` that the loop reads (its footprint), or NULL
 * when it reads none. */
__isl_give isl_set *affine_footprint(isl_ctx *ctx, const loop *lp, const sym *array);
/* The dependences between iterations of the loop (flow, anti and output,
 * as pairs of iterations that touch one element and at least one writes). */
__isl_give isl_map *affine_dependences(isl_ctx *ctx, const loop *lp);
/* Whether no dependence crosses iterations of the outermost variable:
 * 1, 0, or -1 on an isl error. */
int affine_outer_parallel(isl_ctx *ctx, __isl_keep isl_set *domain,
                          __isl_keep isl_map *deps);

#endif
