/*
 * bench/limits.c — the machine's limits for the roofline (bench/roofline.sh):
 * STREAM's triad bandwidth, a[i] = b[i] + s * c[i] over arrays far larger
 * than the caches, counted as STREAM counts it (24 bytes per element), best
 * of 5 passes, at the thread counts given; and the peak floating-point rate
 * of a multiply and an add on ACC independent accumulators (no dependence
 * between them: throughput, not latency), as compiled: roofline.sh builds
 * it with -fno-tree-vectorize (the scalar peak), with the samples' -O3 (the
 * SIMD peak of the default build) and, on a CPU with AVX-512, as the
 * AVX-512 twins of generated code are compiled (512-bit vectors, no
 * multiply-add contraction) with ACC=64: eight vectors of eight, enough to
 * cover the latency of each addition.
 *
 *   limits triad THREADS...   "triad THREADS GBPS" per thread count
 *   limits peak               "peak GFLOPS"
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ACC
#define ACC 16
#endif
enum { N = 1 << 24, PASSES = 5 };

static double triad(double *a, const double *b, const double *c, int threads) {
  double best = 1e30;
  for (int pass = 0; pass < PASSES; pass++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < N; i++)
      a[i] = b[i] + 3.0 * c[i];
    double t = omp_get_wtime() - t0;
    best = t < best ? t : best;
  }
  return 24.0 * N / best * 1e-9;
}

static int run_triad(int argc, char **argv) {
  double *a = malloc(sizeof(double) * N), *b = malloc(sizeof(double) * N);
  double *c = malloc(sizeof(double) * N);
  if (!a || !b || !c)
    return 1;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++) { /* first touch by the threads that use it */
    a[i] = 0.0;
    b[i] = 1.0 + (double)(i & 7);
    c[i] = 0.5;
  }
  for (int k = 2; k < argc; k++)
    printf("triad %d %.2f\n", atoi(argv[k]), triad(a, b, c, atoi(argv[k])));
  int odd = a[N - 1] != b[N - 1] + 3.0 * c[N - 1]; /* keeps the stores */
  free(a);
  free(b);
  free(c);
  return odd ? 3 : 0;
}

static int run_peak(void) {
  double x[ACC], best = 1e30;
  const double m = 0.999999, p = 1e-7;
  for (int k = 0; k < ACC; k++)
    x[k] = 1.0 + k;
  const long iters = 20000000;
  for (int pass = 0; pass < 3; pass++) {
    double t0 = omp_get_wtime();
    for (long i = 0; i < iters; i++)
      for (int k = 0; k < ACC; k++)
        x[k] = x[k] * m + p;
    double t = omp_get_wtime() - t0;
    best = t < best ? t : best;
  }
  double sum = 0.0;
  for (int k = 0; k < ACC; k++)
    sum += x[k];
  printf("peak %.2f\n", 2.0 * ACC * (double)iters / best * 1e-9);
  return sum < 0.0; /* keeps the arithmetic */
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "triad") == 0)
    return run_triad(argc, argv);
  if (argc == 2 && strcmp(argv[1], "peak") == 0)
    return run_peak();
  fprintf(stderr, "usage: limits triad THREADS... | limits peak\n");
  return 2;
}
