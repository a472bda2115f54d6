/*
 * xcolumns.c — columns of their own heights (loom_decl_extruded_set_columns),
 * checked against the same computation in plain C.
 *
 * The base is tri_mesh.h's N x N triangle mesh; the column over triangle
 * c holds 1 + hash(c) % 5 prisms, the vertical line over node v one point
 * more than the highest column around v.  Two loops first count the
 * columns' tops and the prisms (they name no dat, so the mesh is
 * partitioned inside the first, after it read where each column's layers
 * are); then each of STEPS steps runs:
 *
 *   avg     (prisms)            q = the mean of a prism's six points' x
 *   spread  (prisms)            w += q at each point (the top ones halved)
 *   jump    (prisms, interior)  sum += q above - q below (up: own column)
 *   lid     (prisms, top)       top += q of each column's top prism
 *   lift    (lines, bottom)     w += 1, x += w / 8 at each line's foot
 *   relax   (lines)             x += w / 64 on every point
 *
 * then checks the counts, w, x, sum and top against plain C (the points
 * above a line's top keep their declared values: 0), prints "xcolumns:
 * ok" or what differs, and exits 1 if anything does.  Sums over the
 * elements are compared within 1e-12 (relative): ranks and threads add in
 * another order.  With OUT (MPI builds), the prisms go to OUT.h5 and OUT.xmf as
 * wedges with q on them (loom_write_xdmf).
 *
 * Usage: xcolumns [N [STEPS [OUT]]]   (default 6 and 3)
 */
#include <loom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tri_mesh.h" /* samples/common */

#define TALLEST 5

static void avg(const double *a, const double *b, const double *c, const double *d,
                const double *e, const double *f, double *q) {
  q[0] = (a[0] + b[0] + c[0] + d[0] + e[0] + f[0]) / 6.0;
}
static void spread(const double *q, double *a, double *b, double *c, double *d, double *e,
                   double *f) {
  a[0] += q[0];
  b[0] += q[0];
  c[0] += q[0];
  d[0] += 0.5 * q[0];
  e[0] += 0.5 * q[0];
  f[0] += 0.5 * q[0];
}
static void jump(const double *below, const double *above, double *sum) {
  *sum += above[0] - below[0];
}
static void lid(const double *q, double *top) { *top += q[0]; }
static void count(int *n) { *n += 1; }
static void lift(double *w, double *x) {
  w[0] += 1.0;
  x[0] += w[0] / 8.0;
}
static void relax(const double *w, double *x) { x[0] += w[0] / 64.0; }

/* ---- the same in plain C ------------------------------------------------ */

typedef struct plain {
  int ncell, nnode, Lc, Ll;
  const int *c2n, *hc, *hl;
  double *x, *w, *q, sum, top;
} plain;

static double *at(const plain *p, double *v, int col, int L, int k) {
  (void)p;
  return v + (size_t)col * L + k;
}

static void plain_step(plain *p) {
  for (int c = 0; c < p->ncell; c++)
    for (int k = 0; k < p->hc[c]; k++) {
      const int *n = p->c2n + 3 * c;
      double s = 0.0;
      for (int j = 0; j < 6; j++)
        s += *at(p, p->x, n[j % 3], p->Ll, k + j / 3);
      *at(p, p->q, c, p->Lc, k) = s / 6.0;
    }
  for (int c = 0; c < p->ncell; c++)
    for (int k = 0; k < p->hc[c]; k++)
      for (int j = 0; j < 6; j++)
        *at(p, p->w, p->c2n[3 * c + j % 3], p->Ll, k + j / 3) +=
            (j < 3 ? 1.0 : 0.5) * *at(p, p->q, c, p->Lc, k);
  for (int c = 0; c < p->ncell; c++) {
    for (int k = 0; k + 1 < p->hc[c]; k++)
      p->sum += *at(p, p->q, c, p->Lc, k + 1) - *at(p, p->q, c, p->Lc, k);
    p->top += *at(p, p->q, c, p->Lc, p->hc[c] - 1);
  }
  for (int v = 0; v < p->nnode; v++) {
    p->w[(size_t)v * p->Ll] += 1.0;
    p->x[(size_t)v * p->Ll] += p->w[(size_t)v * p->Ll] / 8.0;
  }
  for (int v = 0; v < p->nnode; v++)
    for (int k = 0; k < p->hl[v]; k++)
      *at(p, p->x, v, p->Ll, k) += *at(p, p->w, v, p->Ll, k) / 64.0;
}

/* ---- checks --------------------------------------------------------------- */

static int close_to(double a, double b) {
  return fabs(a - b) <= 1e-12 * (fabs(b) > 1.0 ? fabs(b) : 1.0);
}

/* Dat d's values against want (n of them); 0 when all are close. */
static int compare(loom_dat d, const double *want, size_t n, const char *name) {
  double *got = malloc(n * sizeof *got);
  int bad = !got || loom_dat_fetch(d, got, n * sizeof *got) != LOOM_OK;
  for (size_t i = 0; !bad && i < n; i++)
    if (!close_to(got[i], want[i])) {
      if (loom_rank() == 0)
        printf("xcolumns: %s[%zu] is %.17g, plain C says %.17g\n", name, i, got[i], want[i]);
      bad = 1;
    }
  free(got);
  return bad;
}

static int positive(const char *s, int max) {
  int v = atoi(s);
  if (v < 1 || v > max) {
    fprintf(stderr, "xcolumns: '%s' is not an integer from 1 to %d\n", s, max);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  int n = argc > 1 ? positive(argv[1], 200) : 6, steps = argc > 2 ? positive(argv[2], 100) : 3;
  const char *out = argc > 3 ? argv[3] : NULL;
  struct tri_mesh m;
  if (tri_mesh_make(n, &m) != 0)
    return 1;
  int *hc = malloc(sizeof(int) * (size_t)m.ncell), *hl = calloc((size_t)m.nnode, sizeof(int));
  for (int c = 0; c < m.ncell; c++) {
    hc[c] = 1 + (int)(tri_mesh_hash(0x51edU + (unsigned)c) % TALLEST);
    for (int j = 0; j < 3; j++)
      if (hl[m.c2n[3 * c + j]] < hc[c] + 1)
        hl[m.c2n[3 * c + j]] = hc[c] + 1;
  }
  int Lc = 0, Ll = 0;
  for (int c = 0; c < m.ncell; c++)
    Lc = hc[c] > Lc ? hc[c] : Lc;
  for (int v = 0; v < m.nnode; v++)
    Ll = hl[v] > Ll ? hl[v] : Ll;
  size_t nl = (size_t)m.nnode * Ll, nc = (size_t)m.ncell * Lc;
  double *x0 = calloc(nl, sizeof(double)), *xyz = calloc(3 * nl, sizeof(double));
  for (int v = 0; v < m.nnode; v++)
    for (int k = 0; k < hl[v]; k++) {
      size_t i = (size_t)v * Ll + k;
      x0[i] = sin(3.0 * m.x[2 * v]) + cos(2.0 * m.x[2 * v + 1]) + 0.25 * k;
      xyz[3 * i] = m.x[2 * v];
      xyz[3 * i + 1] = m.x[2 * v + 1];
      xyz[3 * i + 2] = 0.2 * k;
    }

  loom_set cells = loom_decl_set(m.ncell, "cells");
  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  int *c6 = malloc(sizeof(int) * 6 * (size_t)m.ncell); /* a triangle's nodes, twice */
  for (int i = 0; i < 6 * m.ncell; i++)
    c6[i] = m.c2n[3 * (i / 6) + i % 3];
  loom_map cn = loom_decl_map(cells, nodes, 6, c6, "cn");
  loom_dat xy = loom_decl_dat(nodes, 2, double, m.x, "xy"); /* for the geometric partitioner */
  (void)xy;
  loom_set prisms = loom_decl_extruded_set_columns(cells, hc, "prisms");
  loom_set lines = loom_decl_extruded_set_columns(nodes, hl, "lines");
  loom_map p2v = loom_decl_extruded_map(prisms, lines, 6, cn,
                                        (const int[]){0, 0, 0, 1, 1, 1}, "p2v");
  loom_map up = loom_decl_extruded_map(prisms, prisms, 2, NULL, (const int[]){0, 1}, "up");
  loom_dat x = loom_decl_dat(lines, 1, double, x0, "x");
  loom_dat w = loom_decl_dat(lines, 1, double, NULL, "w");
  loom_dat q = loom_decl_dat(prisms, 1, double, NULL, "q");
  loom_dat coords = loom_decl_dat(lines, 3, double, xyz, "coords");
  double sum = 0.0, top = 0.0;
  int tops = 0, prisms_in_all = 0;

  /* first, loops that name no dat: the mesh is partitioned inside the
   * first one, after it read where each column's layers are */
#pragma loom par_loop(count) over(prisms) region(top) args(inc: tops)
#pragma loom par_loop(count) over(prisms) args(inc: prisms_in_all)

  for (int s = 0; s < steps; s++) {
#pragma loom par_loop(avg) over(prisms) \
    args(read: x[p2v[0]], x[p2v[1]], x[p2v[2]], x[p2v[3]], x[p2v[4]], x[p2v[5]], write: q)
#pragma loom par_loop(spread) over(prisms) \
    args(read: q, inc: w[p2v[0]], w[p2v[1]], w[p2v[2]], w[p2v[3]], w[p2v[4]], w[p2v[5]])
#pragma loom par_loop(jump) over(prisms) region(interior) \
    args(read: q[up[0]], q[up[1]], inc: sum)
#pragma loom par_loop(lid) over(prisms) region(top) args(read: q, inc: top)
#pragma loom par_loop(lift) over(lines) region(bottom) args(rw: w, rw: x)
#pragma loom par_loop(relax) over(lines) args(read: w, rw: x)
  }

  plain p = {m.ncell, m.nnode, Lc, Ll, m.c2n, hc, hl, calloc(nl, sizeof(double)),
             calloc(nl, sizeof(double)), calloc(nc, sizeof(double)), 0.0, 0.0};
  memcpy(p.x, x0, nl * sizeof(double));
  for (int s = 0; s < steps; s++)
    plain_step(&p);
  int bad = compare(x, p.x, nl, "x") | compare(w, p.w, nl, "w") | compare(q, p.q, nc, "q");
  int all = 0;
  for (int c = 0; c < m.ncell; c++)
    all += hc[c];
  if (tops != m.ncell || prisms_in_all != all) {
    if (loom_rank() == 0)
      printf("xcolumns: %d tops and %d prisms counted, not %d and %d\n", tops, prisms_in_all,
             m.ncell, all);
    bad = 1;
  }
  if (!close_to(sum, p.sum) || !close_to(top, p.top)) {
    if (loom_rank() == 0)
      printf("xcolumns: sum %.17g top %.17g, plain C says %.17g and %.17g\n", sum, top, p.sum,
             p.top);
    bad = 1;
  }
  if (out && !bad) {
    char h5[512], xmf[512];
    snprintf(h5, sizeof h5, "%s.h5", out);
    snprintf(xmf, sizeof xmf, "%s.xmf", out);
    if (loom_write_xdmf(xmf, h5, p2v, coords, 1, (loom_dat[]){q}) != LOOM_OK)
      bad = 1;
  }
  if (loom_rank() == 0 && !bad)
    printf("xcolumns: ok (%d triangles, columns of 1 to %d prisms, %d steps, sum %.6f, top %.6f)\n",
           m.ncell, Lc, steps, sum, top);
  free(hc);
  free(hl);
  free(c6);
  free(x0);
  free(xyz);
  free(p.x);
  free(p.w);
  free(p.q);
  tri_mesh_free(&m);
  loom_exit();
  return bad;
}
