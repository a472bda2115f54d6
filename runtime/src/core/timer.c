/*
 * core/timer.c — loom_timers(): process CPU time and wall-clock time (OP2's
 * op_timers).
 *
 * Design
 * ------
 * Both clocks come from POSIX clock_gettime: CLOCK_PROCESS_CPUTIME_ID for
 * CPU time (all threads of the process) and CLOCK_MONOTONIC for wall time,
 * which never jumps backwards when the system clock is adjusted.  Values
 * are seconds as doubles from an arbitrary origin: only differences mean
 * something.  loom_timers needs no runtime state, so it works before
 * loom_init and after loom_exit (programs may time their setup).  Should a
 * clock be unavailable, CPU time falls back to clock() and wall time to 0.
 */
#define _POSIX_C_SOURCE 200809L

#include <time.h>

#include "loom.h"

static double timespec_seconds(const struct timespec *ts) {
  return (double)ts->tv_sec + 1e-9 * (double)ts->tv_nsec;
}

static double cpu_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    return timespec_seconds(&ts);
  return (double)clock() / (double)CLOCKS_PER_SEC;
}

static double wall_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
    return timespec_seconds(&ts);
  return 0.0;
}

void loom_timers(double *cpu, double *wall) {
  if (cpu)
    *cpu = cpu_seconds();
  if (wall)
    *wall = wall_seconds();
}
