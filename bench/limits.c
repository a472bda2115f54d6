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
 * The caches: their sizes as the machine reports them (sysconf, glibc's
 * reading of CPUID), and the triad's bandwidth over arrays of a given
 * total size, repeated so that each pass moves at least 2 GB: at half the
 * L2 per thread the data stay in L2, at half the last level cache in it,
 * at four times it they come from memory.  roofline.sh measures at each
 * loop's own working set as well, so that its roof is the bandwidth of
 * the level that holds that much data, measured at that size.
 *
 *   limits triad THREADS...          "triad THREADS GBPS" per thread count
 *   limits caches                    "cache l2 BYTES" and "cache llc BYTES"
 *   limits at THREADS BYTES...       "at THREADS BYTES GBPS": the triad over
 *                                    arrays of BYTES in all
 *   limits peak                      "peak GFLOPS"
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The triad over arrays of `bytes` in all (3 arrays of doubles), on
 * `threads` threads: GB/s, best of PASSES passes of at least 2 GB each. */
static double triad_at(long bytes, int threads) {
  long n = bytes / 24 > 1024 ? bytes / 24 : 1024;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  double *c = malloc(sizeof(double) * (size_t)n);
  if (!a || !b || !c) {
    free(a), free(b), free(c);
    return 0.0;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; i++) { /* first touch by the threads that use it */
    a[i] = 0.0;
    b[i] = 1.0 + (double)(i & 7);
    c[i] = 0.5;
  }
  long reps = (2L << 30) / (24 * n) + 1;
  double best = 1e30;
  for (int pass = 0; pass < PASSES; pass++) {
    double t0 = omp_get_wtime();
    for (long r = 0; r < reps; r++) {
#pragma omp parallel for num_threads(threads) schedule(static)
      for (long i = 0; i < n; i++)
        a[i] = b[i] + 3.0 * c[i];
    }
    double t = (omp_get_wtime() - t0) / (double)reps;
    best = t < best ? t : best;
  }
  int odd = a[n - 1] != b[n - 1] + 3.0 * c[n - 1]; /* keeps the stores */
  free(a);
  free(b);
  free(c);
  return odd ? 0.0 : 24.0 * (double)n / best * 1e-9;
}

static int run_at(int argc, char **argv) {
  int threads = atoi(argv[2]);
  for (int k = 3; k < argc; k++)
    printf("at %d %ld %.2f\n", threads, atol(argv[k]), triad_at(atol(argv[k]), threads));
  return 0;
}

/* The size of a cache level as sysconf reports it, else 0. */
static long cache_size(int name) {
  long v = sysconf(name);
  return v > 0 ? v : 0;
}

static int run_caches(void) {
  long l2 = cache_size(_SC_LEVEL2_CACHE_SIZE), l3 = cache_size(_SC_LEVEL3_CACHE_SIZE);
  printf("cache l2 %ld\n", l2 ? l2 : 256L << 10);
  printf("cache llc %ld\n", l3 ? l3 : l2 ? l2 : 256L << 10);
  return 0;
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
  if (argc == 2 && strcmp(argv[1], "caches") == 0)
    return run_caches();
  if (argc >= 4 && strcmp(argv[1], "at") == 0)
    return run_at(argc, argv);
  fprintf(stderr, "usage: limits triad THREADS... | limits caches | limits at THREADS BYTES... "
                  "| limits peak\n");
  return 2;
}
