/*
 * extruded.c — the heat equation u_t = Δu in the unit cube, u = 0 on its
 * faces, u(0) = sin(πx) sin(πy) sin(πz) (the exact solution is
 * exp(-3π² t) times it), on an extruded mesh: the perturbed triangle mesh
 * of samples/common/tri_mesh.h (N x N squares, two triangles each) is the
 * base, and every triangle carries a column of N prisms (dsl-spec/
 * extruded.md).  P1 elements on the prisms (prism_kernels.h), the mass
 * lumped, explicit Euler in time:
 *
 *   u^{n+1} = u^n - dt M^-1 K u^n      at every vertex off the boundary
 *
 * dt = T / steps, steps = 2 N² (dt = h² / 64, h = 1/N; stable), T = 1/32:
 * the time error O(dt) and the space error O(h²) both fall 4 times per
 * refinement, and the L2 error's observed rate is 2.
 *
 * The sets: the triangles and their nodes (the base), the prisms
 * (N layers over each triangle) and the vertical lines over the nodes
 * (N + 1 points each); p2v reaches a prism's six vertices, the bottom
 * triangle's (shift 0) and the top one's (shift 1).  The vertices of the
 * bottom and top faces are marked by loops over the lines' first and last
 * layer (region(bottom), region(top)); those of the sides come with the
 * base's boundary.
 *
 * Usage: extruded [N [LEVELS [OUT]]]   (default N 4, LEVELS 3)
 * Prints, for each mesh (N, 2N, ...), its prisms, the steps, the L2 error
 * at T (weighted by the lumped mass), its observed rate (log2 of the
 * ratio to the coarser mesh's) and the largest error.  Under MPI every set
 * is declared before the first loop partitions the mesh: one mesh per run
 * (LEVELS 1).  With OUT (the MPI builds, which have HDF5), the last mesh's
 * u at T goes to OUT.h5, described by OUT.xmf for ParaView: the prisms as
 * wedges, u on their vertices (loom_write_xdmf).
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prism_kernels.h"
#include "../common/tri_mesh.h"

#define FINAL_TIME (1.0 / 32.0)

static void usage(const char *prog, int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [N [LEVELS [OUT]]]\n"
          "  solves u_t = laplace(u) in the unit cube to t = 1/32 on LEVELS extruded meshes\n"
          "  (N x N x N, 2N x 2N x 2N, ...; default 4 and 3), 2 N^2 explicit steps on each;\n"
          "  OUT: the last mesh's u into OUT.h5 and OUT.xmf (MPI builds)\n",
          prog);
  exit(status);
}

/* A positive integer no larger than max, or exit 2 naming what. */
static int positive(const char *s, int max, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > max) {
    fprintf(stderr, "extruded: %s must be an integer from 1 to %d, not '%s'\n", what, max, s);
    exit(2);
  }
  return (int)v;
}

/* The mesh of one level, in the layouts its declarations take. */
struct columns {
  struct tri_mesh base;
  int layers;     /* prisms per column */
  int *c2n6;      /* each triangle's nodes, twice: the bottom's, the top's */
  double *xyz;    /* each line's points, column by column */
  double *u0;     /* the exact solution at t = 0 there */
  int *side;      /* 1 at the points over the base's boundary */
};

static int columns_make(int n, struct columns *c) {
  memset(c, 0, sizeof *c);
  if (tri_mesh_make(n, &c->base))
    return 1;
  const struct tri_mesh *b = &c->base;
  const int points = n + 1, nb0 = b->nnode * points;
  int nb;
  int *bnd = tri_mesh_boundary(b, &nb);
  c->layers = n;
  c->c2n6 = malloc(sizeof(int) * 6 * (size_t)b->ncell);
  c->xyz = malloc(sizeof(double) * 3 * (size_t)nb0);
  c->u0 = malloc(sizeof(double) * (size_t)nb0);
  c->side = calloc((size_t)nb0, sizeof(int));
  if (!bnd || !c->c2n6 || !c->xyz || !c->u0 || !c->side) {
    fprintf(stderr, "extruded: out of memory for N = %d\n", n);
    free(bnd);
    return 1;
  }
  for (int e = 0; e < b->ncell; e++)
    for (int s = 0; s < 6; s++)
      c->c2n6[6 * e + s] = b->c2n[3 * e + s % 3];
  for (int v = 0; v < b->nnode; v++)
    for (int k = 0; k < points; k++) {
      double *x = c->xyz + 3 * ((size_t)v * points + k);
      x[0] = b->x[2 * v], x[1] = b->x[2 * v + 1], x[2] = (double)k / n;
      c->u0[(size_t)v * points + k] = prism_exact(x, 0.0);
    }
  for (int i = 0; i < nb; i++)
    for (int k = 0; k < points; k++)
      c->side[(size_t)bnd[i] * points + k] = 1;
  free(bnd);
  return 0;
}

static void columns_free(struct columns *c) {
  tri_mesh_free(&c->base);
  free(c->c2n6);
  free(c->xyz);
  free(c->u0);
  free(c->side);
}

/* Solves on the level-N mesh; the L2 error at T into *l2, the largest
 * into *largest, its prisms into *prisms; 1 when out of memory. */
static int solve(int n, const char *out, int *steps, double *l2, double *largest,
                 long *prisms) {
  struct columns c;
  if (columns_make(n, &c)) {
    columns_free(&c);
    return 1;
  }
  loom_set cells = loom_decl_set(c.base.ncell, "cells");
  loom_set nodes = loom_decl_set(c.base.nnode, "nodes");
  loom_map c2n = loom_decl_map(cells, nodes, 6, c.c2n6, "c2n");
  loom_set prism = loom_decl_extruded_set(cells, c.layers, "prisms");
  loom_set lines = loom_decl_extruded_set(nodes, c.layers + 1, "lines");
  static const int bottom_then_top[6] = {0, 0, 0, 1, 1, 1};
  loom_map p2v = loom_decl_extruded_map(prism, lines, 6, c2n, bottom_then_top, "p2v");
  loom_dat p_xy = loom_decl_dat(nodes, 2, double, c.base.x, "p_xy"); /* for the geometric
                                                                        partitioner */
  (void)p_xy;
  loom_dat p_x = loom_decl_dat(lines, 3, double, c.xyz, "p_x");
  loom_dat p_u = loom_decl_dat(lines, 1, double, c.u0, "p_u");
  loom_dat p_bnd = loom_decl_dat(lines, 1, int, c.side, "p_bnd");
  loom_dat p_m = loom_decl_temp(lines, 1, double, "p_m");
  loom_dat p_r = loom_decl_temp(lines, 1, double, "p_r");
  *prisms = (long)c.base.ncell * c.layers;
  columns_free(&c);

  *steps = 2 * n * n;
  double dt = FINAL_TIME / *steps, t = FINAL_TIME;
#pragma loom par_loop(prism_mark) over(lines) region(bottom) args(write: p_bnd)
#pragma loom par_loop(prism_mark) over(lines) region(top) args(write: p_bnd)
#pragma loom par_loop(prism_mass) over(prism) args(read: p_x[p2v[*]], inc: p_m[p2v[*]])
  for (int step = 0; step < *steps; step++) {
#pragma loom par_loop(prism_zero) over(lines) args(write: p_r)
#pragma loom par_loop(prism_stiffness) over(prism) \
    args(read: p_x[p2v[*]], p_u[p2v[*]], inc: p_r[p2v[*]])
#pragma loom par_loop(prism_step) over(lines) args(read: p_r, p_m, p_bnd, dt, rw: p_u)
  }
  double sum = 0.0, most = 0.0;
#pragma loom par_loop(prism_error) over(lines) \
    args(read: p_u, p_x, p_m, t, inc: sum, max: most)
  *l2 = sqrt(sum);
  *largest = most;
  if (out) {
    char xmf[4096], h5[4096];
    snprintf(xmf, sizeof xmf, "%s.xmf", out);
    snprintf(h5, sizeof h5, "%s.h5", out);
    if (loom_write_xdmf(xmf, h5, p2v, p_x, 1, &p_u) != LOOM_OK)
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
    usage(argv[0], 0);
  if (argc > 4)
    usage(argv[0], 2);
  const char *out = argc > 3 ? argv[3] : NULL;
  if (out && strlen(out) > 4000) {
    fprintf(stderr, "extruded: the output name is too long\n");
    return 2;
  }
  int n = argc > 1 ? positive(argv[1], 512, "N") : 4;
  int levels = argc > 2 ? positive(argv[2], 8, "LEVELS") : 3;
  if ((long)n << (levels - 1) > 512) {
    fprintf(stderr, "extruded: N x 2^(LEVELS-1) must be at most 512\n");
    return 2;
  }
  loom_init(&argc, &argv);
  double before = 0.0;
  for (int level = 0; level < levels; level++, n *= 2) {
    int steps;
    long prisms;
    double l2, largest;
    if (solve(n, level + 1 == levels ? out : NULL, &steps, &l2, &largest, &prisms)) {
      loom_exit();
      return 1;
    }
    if (loom_rank() == 0) { /* with MPI: rank 0 prints */
      printf("N %3d: %8ld prisms, %6d steps, L2 error %.10e", n, prisms, steps, l2);
      if (level > 0)
        printf(", rate %.2f", log2(before / l2));
      printf(", largest error %.10e\n", largest);
    }
    before = l2;
  }
  loom_exit();
  return 0;
}
