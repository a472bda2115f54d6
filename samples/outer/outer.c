/*
 * outer.c — lappy's diamond (seed 002) as two affine loops:
 *
 *       A @ x            matvec over [i, j]: k[i] += A[i][j] * x[j]
 *         |
 *         k              the temporary
 *        / \
 *   sin(k)  cos(k)       outer over [i, j]: c[i][j] = sin(k[i]) * cos(k[j])
 *        \ /
 *         c
 *
 * Three versions from this one file:
 *   (no define)        no hint: loomc chooses (--report says what and why)
 *   -DOUTER_PIN        #pragma loom pin(k): k is never stored; at each use
 *                      in outer, k[i] and k[j] are recomputed into locals
 *   -DOUTER_PIN_CSE    #pragma loom pin_cse(k): k is computed once per
 *                      element outer reads, in its own loop nest over a
 *                      duplicated domain (i_dup, j_dup), then read
 * All three give the bits of outer_ref.c.  Usage: outer N OUT.
 */
#include <stdlib.h>

#include "outer_host.h"
#include "outer_kernels.h"

int main(int argc, char **argv) {
  int n;
  const char *out;
  int rc = outer_args(argc, argv, &n, &out);
  if (rc)
    return rc;
  double (*A)[n] = malloc(sizeof(double[n][n]));
  double (*c)[n] = malloc(sizeof(double[n][n]));
  double *x = malloc(sizeof(double[n]));
  double *k = calloc((size_t)n, sizeof(double));
  if (!A || !c || !x || !k) {
    fprintf(stderr, "outer: out of memory\n");
    return 1;
  }
  outer_inputs(n, A, x);
#if defined(OUTER_PIN)
#pragma loom pin(k)
#elif defined(OUTER_PIN_CSE)
#pragma loom pin_cse(k)
#endif
#pragma loom par_loop(matvec) domain("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }") \
    args(read: A[i][j], x[j], inc: k[i])
#pragma loom par_loop(outer) domain("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }") \
    args(read: k[i], k[j], write: c[i][j])
  rc = outer_write(n, c, out);
  free(A);
  free(c);
  free(x);
  free(k);
  return rc;
}
