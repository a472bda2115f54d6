/*
 * outer_ref.c — lappy's diamond in plain C, the reference for outer.c:
 *   k = A x;  c[i][j] = sin(k[i]) * cos(k[j]).
 * Usage: outer_ref N OUT (see outer_host.h).
 */
#include <stdlib.h>
#include <string.h>

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
  double *x = malloc(sizeof(double[n])), *k = malloc(sizeof(double[n]));
  if (!A || !c || !x || !k) {
    fprintf(stderr, "outer_ref: out of memory\n");
    return 1;
  }
  outer_inputs(n, A, x);
  for (int i = 0; i < n; i++) {
    k[i] = 0.0;
    for (int j = 0; j < n; j++)
      matvec(&A[i][j], &x[j], &k[i]);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      outer(&k[i], &k[j], &c[i][j]);
  rc = outer_write(n, c, out);
  free(A);
  free(c);
  free(x);
  free(k);
  return rc;
}
