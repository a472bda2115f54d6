/*
 * airfoil_ref.c — the hand-written plain-C Airfoil: the baseline that
 * Loom's generated code is compared against, for results (bit-identical
 * rms lines) and for speed.  No Loom at all.
 *
 * Usage: airfoil_ref MESH ITERS [OUT]
 *   prints " ITER  RMS" every 100 iterations on stdout, the main loop's wall
 *   time on stderr ("airfoil: main loop wall time T s"), and with OUT writes
 *   the final q (4 doubles per cell).
 *
 * The loops and the indirect accesses follow OP2's Airfoil exactly (same
 * loop order, same element order, same kernel arguments), so the floating-
 * point results are those of OP2's sequential code.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "airfoil_kernels.h"
#include "airfoil_mesh.h"

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The flow state: per cell q (4), qold (4), res (4) and adt (1). */
struct airfoil_state {
  double *q, *qold, *res, *adt;
};

static int alloc_state(struct airfoil_state *s, int ncell) {
  s->q = malloc(4 * (size_t)ncell * sizeof(double));
  s->qold = malloc(4 * (size_t)ncell * sizeof(double));
  s->res = malloc(4 * (size_t)ncell * sizeof(double));
  s->adt = malloc((size_t)ncell * sizeof(double));
  if (s->q && s->qold && s->res && s->adt)
    return 0;
  fprintf(stderr, "airfoil: out of memory for %d cells\n", ncell);
  return 1;
}

static void free_state(struct airfoil_state *s) {
  free(s->q);
  free(s->qold);
  free(s->res);
  free(s->adt);
}

/* q = qinf in every cell, res = 0. */
static void init_state(struct airfoil_state *s, int ncell) {
  for (int n = 0; n < ncell; n++) {
    for (int m = 0; m < 4; m++) {
      s->q[4 * n + m] = qinf[m];
      s->res[4 * n + m] = 0.0f;
    }
  }
}

/* One predictor or corrector stage; returns the sum of squared updates. */
static double stage(const struct airfoil_mesh *mesh, struct airfoil_state *s) {
  const double *x = mesh->x;
  const int *cell = mesh->cell, *edge = mesh->edge, *ecell = mesh->ecell;
  const int *bedge = mesh->bedge, *becell = mesh->becell;
  const int *bound = mesh->bound;
  double *q = s->q, *qold = s->qold, *res = s->res, *adt = s->adt;

  for (int c = 0; c < mesh->ncell; c++)
    adt_calc(&x[2 * cell[4 * c + 0]], &x[2 * cell[4 * c + 1]],
             &x[2 * cell[4 * c + 2]], &x[2 * cell[4 * c + 3]], &q[4 * c],
             &adt[c]);

  for (int e = 0; e < mesh->nedge; e++)
    res_calc(&x[2 * edge[2 * e + 0]], &x[2 * edge[2 * e + 1]],
             &q[4 * ecell[2 * e + 0]], &q[4 * ecell[2 * e + 1]],
             &adt[ecell[2 * e + 0]], &adt[ecell[2 * e + 1]],
             &res[4 * ecell[2 * e + 0]], &res[4 * ecell[2 * e + 1]]);

  for (int b = 0; b < mesh->nbedge; b++)
    bres_calc(&x[2 * bedge[2 * b + 0]], &x[2 * bedge[2 * b + 1]],
              &q[4 * becell[b]], &adt[becell[b]], &res[4 * becell[b]],
              &bound[b]);

  double rms = 0.0;
  for (int c = 0; c < mesh->ncell; c++)
    update(&qold[4 * c], &q[4 * c], &res[4 * c], &adt[c], &rms);
  return rms;
}

static void time_march(const struct airfoil_mesh *mesh,
                       struct airfoil_state *s, int niter) {
  for (int iter = 1; iter <= niter; iter++) {
    for (int c = 0; c < mesh->ncell; c++)
      save_soln(&s->q[4 * c], &s->qold[4 * c]);

    double rms = 0.0;
    for (int k = 0; k < 2; k++)
      rms = stage(mesh, s); /* the corrector's rms is the one printed */

    rms = sqrt(rms / (double)mesh->ncell);
    if (iter % 100 == 0) {
      printf(" %d  %10.5e\n", iter, rms);
      fflush(stdout); /* progress is visible when stdout is a file */
    }
  }
}

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  int niter;
  airfoil_parse_args(argc, argv, &mesh_path, &niter, &out_path);

  struct airfoil_mesh mesh;
  if (airfoil_read_mesh(mesh_path, &mesh))
    return 1;

  airfoil_set_constants();
  struct airfoil_state state;
  if (alloc_state(&state, mesh.ncell)) {
    free_state(&state);
    airfoil_free_mesh(&mesh);
    return 1;
  }
  init_state(&state, mesh.ncell);

  double t0 = wall_seconds();
  time_march(&mesh, &state, niter);
  double t1 = wall_seconds();
  fflush(stdout);
  fprintf(stderr, "airfoil: main loop wall time %.6f s\n", t1 - t0);

  int status = 0;
  if (out_path && airfoil_write_q(out_path, state.q, mesh.ncell))
    status = 1;
  free_state(&state);
  airfoil_free_mesh(&mesh);
  return status;
}
