/*
 * core/tune.c — staged or element by element, per loop, by measurement.
 *
 * Design
 * ------
 * A group function with staged loops (loomc's transform/vectorize.h) can
 * run each strip's staged kernels over gathered rows or lanes, or element
 * by element through the maps; both give the same bits, and which is
 * faster depends on the kernel, the machine and the flags it was compiled
 * with (SSE2 gathers cost more than they save on one kernel, AVX-512 wins
 * on it).  So the function asks its tuner (a static loom__tuner of its
 * own) which to run: its first TUNE_CALLS calls alternate, staged first,
 * each timed from the loop's start to its end; then it keeps the one
 * whose best call was faster.  $LOOM_VECTOR (read by loom_init: 0 or 1)
 * forces one.  Under LOOM_DIAG=1, rank 0 prints each choice on stderr
 * when it is made.  Each MPI rank chooses for itself: the results do not
 * depend on it.  An OpenMP loop says how many threads it runs on
 * (loom__tune_threads): which way is faster may change with it (two
 * threads share the memory bandwidth staging saves), so a new count
 * starts the timing again.
 *
 * AVX-512 twins: where the C compiler allows, loomc writes such a function
 * twice, the second compiled for AVX-512, and runs the twin when
 * loom__twin_avx512() says so: the CPU has the instructions the twin was
 * compiled for and $LOOM_AVX512 is not 0.  Under LOOM_DIAG=1 the first
 * call says which runs.
 */
#include <stdio.h>

#include "core/core.h"
#include "core/dist.h"

enum { TUNE_CALLS = 6 }; /* 3 of each */

int loom__tune_pick(const loom__tuner *t) {
  int forced = loomrt_vector_mode();
  if (forced >= 0)
    return forced;
  if (t->calls < TUNE_CALLS)
    return t->calls % 2 == 0;
  return t->staged;
}

void loom__tune_threads(loom__tuner *t, int threads) {
  if (t->threads == threads)
    return;
  if (t->threads != 0)
    *t = (loom__tuner){0};
  t->threads = threads;
}

static void report(const loom__tuner *t, const char *loop) {
  if (!loomrt_diag() || loomrt_distribution.rank() != 0)
    return;
  char threads[32] = "";
  if (t->threads > 0)
    snprintf(threads, sizeof threads, ", %d thread%s", t->threads, t->threads == 1 ? "" : "s");
  fprintf(stderr,
          "loom: %s: staged %.3f ms, element by element %.3f ms (best of %d calls "
          "each%s): %s\n",
          loop, 1e3 * t->best[1], 1e3 * t->best[0], TUNE_CALLS / 2, threads,
          t->staged ? "staged" : "element by element");
}

void loom__tune_done(loom__tuner *t, int pick, double t0, const char *loop) {
  if (loomrt_vector_mode() >= 0 || t->calls >= TUNE_CALLS)
    return;
  double s = loom__wall() - t0;
  int v = pick != 0;
  if (t->calls < 2 || s < t->best[v])
    t->best[v] = s;
  if (++t->calls == TUNE_CALLS) {
    t->staged = t->best[1] <= t->best[0];
    report(t, loop);
  }
}

/* Whether the CPU has what twins are compiled for (emit/cpu_avx512.c); asked
 * once. */
static int cpu_has_avx512(void) {
  static int has = -1;
#if defined(__x86_64__) && defined(__GNUC__)
  if (has < 0)
    has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
          __builtin_cpu_supports("avx512cd");
#else
  has = 0;
#endif
  return has;
}

/* Called per strip by the threads of OpenMP loops (their twins are the
 * strips'): after the first call it only reads, so that the threads do
 * not pass a written cache line between them. */
int loom__twin_avx512(void) {
  static int said;
  int twin = loomrt_avx512_allowed() && cpu_has_avx512();
  if (said)
    return twin;
  if (loomrt_diag() && loomrt_distribution.rank() == 0)
    fprintf(stderr, "loom: loops that time their turns run %s\n",
            twin ? "their AVX-512 twins (LOOM_AVX512=0: not)"
                 : cpu_has_avx512() ? "as built (LOOM_AVX512=0)"
                                    : "as built (the CPU has no AVX-512)");
  said = 1;
  return twin;
}
