/*
 * aero_ref.c — the hand-written plain-C aero benchmark: the baseline that
 * Loom's generated code (aero.c) is compared against, for results (the rms
 * lines and the final potential, bit-identical to Loom's seq target) and
 * for speed.  No Loom at all.
 *
 * Usage: aero_ref MESH [ITERS [OUT]]   (as aero; see aero_mesh.h)
 *
 * Each loop of aero.c runs here over its set in element order, calling the
 * same kernels (aero_kernels.h) with the same arguments.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "aero_kernels.h"
#include "aero_mesh.h"

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The fields: per node the potential phim, the residual resm and CG's
 * vectors U, V, P; per cell the element matrix K. */
struct aero_state {
  double *phim, *resm, *U, *V, *P, *K;
};

static void free_state(struct aero_state *s) {
  free(s->phim);
  free(s->resm);
  free(s->U);
  free(s->V);
  free(s->P);
  free(s->K);
}

static int alloc_state(struct aero_state *s, const struct aero_mesh *m) {
  size_t n = (size_t)m->nnode;
  s->phim = malloc(n * sizeof(double));
  s->resm = calloc(n, sizeof(double));
  s->U = calloc(n, sizeof(double));
  s->V = calloc(n, sizeof(double));
  s->P = calloc(n, sizeof(double));
  s->K = calloc(16 * (size_t)m->ncell, sizeof(double));
  if (s->phim && s->resm && s->U && s->V && s->P && s->K)
    return 0;
  fprintf(stderr, "aero_ref: out of memory for %d nodes\n", m->nnode);
  free_state(s);
  return 1;
}

static void assemble(const struct aero_mesh *m, struct aero_state *s) {
  for (int c = 0; c < m->ncell; c++) {
    const int *n = m->cell + 4 * (size_t)c;
    res_calc(m->x + 2 * n[0], m->x + 2 * n[1], m->x + 2 * n[2], m->x + 2 * n[3],
             s->phim + n[0], s->phim + n[1], s->phim + n[2], s->phim + n[3],
             s->K + 16 * (size_t)c, s->resm + n[0], s->resm + n[1], s->resm + n[2],
             s->resm + n[3]);
  }
}

static void fix_far_field(const struct aero_mesh *m, double *v) {
  for (int b = 0; b < m->nbnode; b++)
    dirichlet(v + m->bnode[b]);
}

static void multiply(const struct aero_mesh *m, struct aero_state *s) {
  for (int c = 0; c < m->ncell; c++) {
    const int *n = m->cell + 4 * (size_t)c;
    spMV(s->V + n[0], s->V + n[1], s->V + n[2], s->V + n[3], s->K + 16 * (size_t)c,
         s->P + n[0], s->P + n[1], s->P + n[2], s->P + n[3]);
  }
}

/* CG on K U = resm, U from 0, until the residual falls by 10 or 200 steps;
 * returns the steps taken. */
static int solve(const struct aero_mesh *m, struct aero_state *s) {
  double c1 = 0.0, c2, c3, alpha, beta;
  for (int n = 0; n < m->nnode; n++)
    init_cg(s->resm + n, &c1, s->U + n, s->V + n, s->P + n);
  double res0 = sqrt(c1), res = res0;
  int inner_iter = 0, maxiter = 200;
  while (res > 0.1 * res0 && inner_iter < maxiter) {
    multiply(m, s);
    fix_far_field(m, s->V);
    c2 = 0.0;
    for (int n = 0; n < m->nnode; n++)
      dotPV(s->P + n, s->V + n, &c2);
    alpha = c1 / c2;
    c3 = 0.0;
    for (int n = 0; n < m->nnode; n++) {
      updateUR(s->U + n, s->resm + n, s->P + n, s->V + n, &alpha);
      dotR(s->resm + n, &c3);
    }
    beta = c3 / c1;
    for (int n = 0; n < m->nnode; n++)
      updateP(s->resm + n, s->P + n, &beta);
    c1 = c3;
    res = sqrt(c1);
    inner_iter++;
  }
  return inner_iter;
}

int main(int argc, char **argv) {
  const char *mesh_path, *out_path;
  int niter;
  aero_parse_args(argc, argv, &mesh_path, &niter, &out_path);

  struct aero_mesh m;
  if (aero_read_mesh(mesh_path, &m))
    return 1;
  aero_set_constants();
  struct aero_state s;
  if (alloc_state(&s, &m)) {
    aero_free_mesh(&m);
    return 1;
  }
  for (int n = 0; n < m.nnode; n++)
    s.phim[n] = minf * m.x[2 * n];

  double wall0 = wall_seconds(), rms = 1.0;
  for (int iter = 1; iter <= niter; iter++) {
    assemble(&m, &s);
    fix_far_field(&m, s.resm);
    int inner_iter = solve(&m, &s);
    rms = 0.0;
    for (int n = 0; n < m.nnode; n++)
      update(s.phim + n, s.resm + n, s.U + n, &rms);
    rms = sqrt(rms / (double)m.nnode);
    printf("%d %d %3.15E\n", iter, inner_iter, rms);
  }
  double wall1 = wall_seconds();

  int status = aero_check(rms, m.ncell, niter);
  fflush(stdout);
  fprintf(stderr, "aero_ref: main loop wall time %.6f s\n", wall1 - wall0);
  if (out_path && aero_write_phi(out_path, s.phim, m.nnode))
    status = 1;
  free_state(&s);
  aero_free_mesh(&m);
  return status;
}
