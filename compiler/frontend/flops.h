/*
 * flops.h — how many floating-point operations a kernel does per call,
 * counted from its text (flops.c says what counts), for the roofline
 * columns of LOOM_DIAG (loop.kernel_flops).
 */
#ifndef LOOMC_FLOPS_H
#define LOOMC_FLOPS_H

#include "frontend/frontend.h"

/* The operations of the body of kernel definition `def` (tokens in a). */
long frontend_kernel_flops(const frontend *fe, CXCursor def, arena *a);

#endif
