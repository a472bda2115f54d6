/*
 * outer_host.h — what outer.c and outer_ref.c share besides the kernels:
 * the command line, the input data, the output file.
 *
 *   outer N OUT    N: the size (A is N x N); OUT: c, N*N doubles in native
 *                  byte order, row after row.  Prints "outer: n=N
 *                  sum=S" (the sum of c) on stdout.  Exit status 2 on a bad
 *                  command line, 1 when OUT cannot be written.
 */
#ifndef LOOM_SAMPLES_OUTER_HOST_H
#define LOOM_SAMPLES_OUTER_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_file.h"

static int outer_args(int argc, char **argv, int *n, const char **out) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("usage: %s N OUT (1 <= N <= 20000)\n"
           "  k = A x, then c = outer(sin(k), cos(k)) for an N x N matrix A;\n"
           "  writes c to OUT (raw doubles) and prints its sum\n", argv[0]);
    exit(0);
  }
  char *end = NULL;
  long v = argc == 3 ? strtol(argv[1], &end, 10) : 0;
  if (argc != 3 || !end || *end || v < 1 || v > 20000) {
    fprintf(stderr, "usage: %s N OUT (1 <= N <= 20000)\n", argv[0]);
    return 2;
  }
  *n = (int)v;
  *out = argv[2];
  return out_check(*out) ? 2 : 0; /* before computing, not after */
}

/* A[i][j] and x[j]: small exact values, so any order of summation that
 * differs would show. */
static void outer_inputs(int n, double (*A)[n], double *x) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = 1.0 / (1.0 + i + 2.0 * j);
  for (int j = 0; j < n; j++)
    x[j] = 0.25 * (double)(j % 7) - 0.5;
}

static int outer_write(int n, double (*c)[n], const char *path) {
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += c[i][j];
  printf("outer: n=%d sum=%.17g\n", n, sum);
  char *tmp;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  int failed = fwrite(c, sizeof(double), (size_t)n * (size_t)n, fp) != (size_t)n * (size_t)n;
  return out_commit(fp, tmp, path, failed);
}

#endif
