/*
 * outer_kernels.h — the kernels of lappy's diamond (seed 002):
 *   k = A x              matvec, one increment per (i, j)
 *   c = outer(sin(k), cos(k))
 * shared by outer.c (through loomc) and outer_ref.c (plain C), so both
 * perform the same floating-point operations in the same order.
 */
#ifndef LOOM_SAMPLES_OUTER_KERNELS_H
#define LOOM_SAMPLES_OUTER_KERNELS_H

#include <math.h>

/* k[i] += A[i][j] * x[j] */
static void matvec(const double *a, const double *x, double *k) { *k += *a * *x; }

/* c[i][j] = sin(k[i]) * cos(k[j]) */
static void outer(const double *ki, const double *kj, double *c) {
  *c = sin(*ki) * cos(*kj);
}

#endif
