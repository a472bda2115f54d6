/* The effects model beyond arguments (semantics.md §9.2): a kernel reads
 * the file-scope variables it names (scale), also in the functions it
 * calls whose bodies loomc sees (gain, through amplify); host code writes
 * them directly (scale = 100.0), through a function whose body loomc sees
 * (set_gain), or through the unseen state — a call of a function loomc
 * does not see (load_settings) or a store through a pointer (*p = 2.0).
 * Each orders the loops that read what it writes, and only those: kcopy
 * reads no variable and is ordered against none of them, so it fuses into
 * kscale's group past `scale = 100.0` no more than kscale itself moves.
 * A C library call writes what its non-const pointer arguments point to
 * (memcpy into table, which kdot reads through), nothing else (fprintf to
 * stderr is no computation). */
#include <loom.h>
#include <stdio.h>
#include <string.h>

double scale, gain = 1.0;
extern void load_settings(const char *path);
static void set_gain(double g) { gain = g; }
static double amplify(double v) { return gain * v; }

static void kscale(const double *q, double *r) { *r = scale * *q; }
static void kgain(const double *q, double *s) { *s = amplify(*q); }
static void kcopy(const double *q, double *u) { *u = *q; }
static double *table;
static void kdot(const double *q, double *u) { *u = table[0] * *q; }

int main(int argc, char **argv) {
  double qv[4] = {1, 2, 3, 4};
  double *p = &gain;
  loom_init(&argc, &argv);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat q = loom_decl_dat(cells, 1, double, qv, "q");
  loom_dat r = loom_decl_temp(cells, 1, double, "r");
  loom_dat s = loom_decl_temp(cells, 1, double, "s");
  loom_dat u = loom_decl_temp(cells, 1, double, "u");
  scale = 1.0;
#pragma loom par_loop(kscale) over(cells) args(read: q, write: r)
#pragma loom par_loop(kgain) over(cells) args(read: q, write: s)
  scale = 100.0;
#pragma loom par_loop(kcopy) over(cells) args(read: q, write: u)
  set_gain(3.0);
#pragma loom par_loop(kgain) over(cells) args(read: q, write: s)
  load_settings("run.cfg");
#pragma loom par_loop(kscale) over(cells) args(read: q, write: r)
  *p = 2.0;
#pragma loom par_loop(kgain) over(cells) args(read: q, write: s)
  table = qv;
#pragma loom par_loop(kdot) over(cells) args(read: q, write: u)
  memcpy(table, qv + 1, sizeof(double));
  fprintf(stderr, "table changed\n");
#pragma loom par_loop(kdot) over(cells) args(read: q, write: u)
  (void)r, (void)s, (void)u;
  loom_exit();
  return 0;
}
