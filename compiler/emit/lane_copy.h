/*
 * lane_copy.h — the text of a kernel's lane copy.
 *
 * A staged loop that runs as lanes (transform/vectorize.h) calls a copy
 * of its kernel in which each parameter p the copy takes as base and
 * offset gains a parameter `int loom_o_p`, and each use `p[e]` or `*p`
 * (frontend/lanes.h) becomes `p[loom_o_p + S * (e)]`, S the parameter's
 * stride: 1 for the mesh's own rows, STRIP_WIDTH for a strip local laid
 * out component by component.  A parameter of stride 0 is left as
 * written (a global).  The rest of the text is the kernel's, byte for
 * byte, so that `#line` maps it to the kernel's own lines.
 */
#ifndef LOOMC_LANE_COPY_H
#define LOOMC_LANE_COPY_H

#include "ir/ir.h"

/* The copy of lp's kernel (lp->lanes) named `name`, from `static inline
 * void` to its closing brace; strides[i] for parameter i. */
const char *lane_copy(arena *a, const loop *lp, const char *name, const int *strides);

/* Whether the copy takes parameter i as base and offset: it has a stride
 * and the kernel names it. */
int lane_copy_offset(const loop *lp, const int *strides, int i);

#endif
