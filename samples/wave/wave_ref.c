/*
 * wave_ref.c — the hand-written plain-C wave example: the baseline that
 * Loom's generated code (wave.c) is compared against, for results (bit-
 * identical norm lines and final state) and for speed.  No Loom at all.
 *
 * Usage: wave_ref MESH ITERS [OUT]   (as wave; see wave_host.h)
 *
 * The seven loops of a step run in the order of wave.c, each over its set
 * in element order, calling the same kernels (wave_kernels.h) with the same
 * arguments, so the floating-point results are those of Loom's seq target.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "wave_host.h"
#include "wave_kernels.h"

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The fields: per node p, phi and the temporaries t1 (stiffness times
 * phi), t2 (lumped mass). */
struct wave_state {
  double *p, *phi, *t1, *t2;
};

static void free_state(struct wave_state *s) {
  free(s->p);
  free(s->phi);
  free(s->t1);
  free(s->t2);
}

static int alloc_state(struct wave_state *s, int nnode) {
  size_t bytes = (size_t)nnode * sizeof(double);
  s->p = malloc(bytes);
  s->phi = malloc(bytes);
  s->t1 = calloc((size_t)nnode, sizeof(double));
  s->t2 = calloc((size_t)nnode, sizeof(double));
  if (s->p && s->phi && s->t1 && s->t2)
    return 0;
  fprintf(stderr, "wave: out of memory for %d nodes\n", nnode);
  free_state(s);
  return 1;
}

static void time_march(const struct wave_mesh *m, struct wave_state *s,
                       int niter) {
  const double *x = m->x;
  const int *c2n = m->cell;
  double *p = s->p, *phi = s->phi, *t1 = s->t1, *t2 = s->t2;
  const int nnode = m->nnode, ncell = m->ncell;

  for (int step = 1; step <= niter; step++) {
    for (int n = 0; n < nnode; n++)
      phi_expr(&p[n], &phi[n]);

    for (int n = 0; n < nnode; n++)
      zero(&t1[n]);
    for (int c = 0; c < ncell; c++) {
      const int *t = &c2n[3 * c];
      const double *xc[3] = {&x[2 * t[0]], &x[2 * t[1]], &x[2 * t[2]]};
      const double *phic[3] = {&phi[t[0]], &phi[t[1]], &phi[t[2]]};
      double *t1c[3] = {&t1[t[0]], &t1[t[1]], &t1[t[2]]};
      assemble1(xc, phic, t1c);
    }
    for (int n = 0; n < nnode; n++)
      zero(&t2[n]);
    for (int c = 0; c < ncell; c++) {
      const int *t = &c2n[3 * c];
      const double *xc[3] = {&x[2 * t[0]], &x[2 * t[1]], &x[2 * t[2]]};
      double *t2c[3] = {&t2[t[0]], &t2[t[1]], &t2[t[2]]};
      assemble2(xc, t2c);
    }
    for (int n = 0; n < nnode; n++)
      expr(&t1[n], &t2[n], &p[n]);

    for (int n = 0; n < nnode; n++)
      phi_expr(&p[n], &phi[n]);

    if (wave_reports(step, niter)) {
      double sum = 0.0;
      for (int n = 0; n < nnode; n++)
        sqnorm(&p[n], &sum);
      printf(" %d  %10.5e\n", step, sqrt(sum / (double)nnode));
      fflush(stdout); /* progress is visible when stdout is a file */
    }
  }
}

int main(int argc, char **argv) {
  struct wave_args args;
  wave_parse_args(argc, argv, &args);

  struct wave_mesh mesh;
  if (wave_load_mesh(&args, &mesh))
    return 1;
  wave_set_constants(wave_min_edge(&mesh));

  struct wave_state state;
  if (alloc_state(&state, mesh.nnode)) {
    wave_free_mesh(&mesh);
    return 1;
  }
  wave_initial(&mesh, state.p, state.phi);

  double t0 = wall_seconds();
  time_march(&mesh, &state, args.niter);
  double t1 = wall_seconds();
  fflush(stdout);
  fprintf(stderr, "wave: main loop wall time %.6f s\n", t1 - t0);

  int status = 0;
  if (args.out_path &&
      wave_write_state(args.out_path, state.p, state.phi, mesh.nnode))
    status = 1;
  free_state(&state);
  wave_free_mesh(&mesh);
  return status;
}
