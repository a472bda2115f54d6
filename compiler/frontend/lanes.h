/*
 * lanes.h — a kernel's text, for the copy that runs it across a strip's
 * lanes.
 *
 * A staged loop (transform/vectorize.h) can call, instead of its kernel,
 * a copy of it that takes each pointer parameter as a base and an offset
 * (`q1[k]` becomes `q1[loom_o_q1 + (k)]`), so that the C compiler sees
 * the loop over a strip's elements as array accesses it can vectorize:
 * reads through maps gathered in registers, increments into per-component
 * strip locals.  This stage reads what that copy needs from the
 * translation unit: the definition's text and every use of a parameter.
 * A kernel qualifies when it returns void, is spelled in a file (not made
 * by a macro) and names each parameter only as `p[e]` or `*p`, outside
 * macros, not one inside another and never under `&`; otherwise
 * lanes_of says why.
 */
#ifndef LOOMC_LANES_H
#define LOOMC_LANES_H

#include "frontend/frontend.h"

/* The lanes of the kernel definition def (for loop.lanes), or NULL and
 * *why (for loop.lanes_why). */
const kernel_text *lanes_of(const frontend *fe, CXCursor def, const char **why, arena *a);

#endif
