#!/usr/bin/env bash
# bench/plan.sh — execution plans and renumbering on an Airfoil mesh.
#
# Usage: bench/plan.sh [-s] [MESH [BLOCK_SIZE ...]]
#
# Reads MESH (default build/samples/airfoil/new_grid.dat; `make all
# build/samples/airfoil/new_grid.dat` makes it and libloom), declares it
# as airfoil.c does, and for each BLOCK_SIZE (default 512) builds the plans
# of a res_calc-like loop (edges writing cells through both slots of
# pecell) and a bres_calc-like loop (bedges writing cells through pbecell
# slot 0), checks them with loom__plan_check, and prints their blocks,
# colours and the best of 3 build times.  Then loom_renumber(): its time,
# the bandwidth (max |i - j| over the entries of one element) of pecell,
# pedge and pcell before and after, that loom_dat_fetch still returns the
# declared order, and the plans again on the renumbered mesh.
#
# -s numbers nodes, cells and edges of the mesh at random first (to see
# what RCM does to a mesh without a good numbering).
#
# The C program is compiled into build/bench/plan_bench against
# build/lib/libloom.a.  This is a measuring tool, not a test.
set -euo pipefail

shuffle=0
if [[ ${1:-} == -s ]]; then
  shuffle=1
  shift
fi
mesh=${1:-build/samples/airfoil/new_grid.dat}
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(512)

root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/build/lib/libloom.a
[[ -f $lib ]] || { echo "plan.sh: $lib missing (run make)" >&2; exit 2; }
[[ -f $mesh ]] || { echo "plan.sh: mesh $mesh missing" >&2; exit 2; }

out=$root/build/bench
mkdir -p "$out"
cat >"$out/plan_bench.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <loom_gen.h>
#include "airfoil_mesh.h"

static double now(void) {
  double w;
  loom_timers(NULL, &w);
  return w;
}

static long bandwidth(loom_map m, int n, int dim) {
  const int *v = loom__map_values(m);
  long bw = 0;
  for (long e = 0; e < n; e++)
    for (int i = 0; i < dim; i++)
      for (int j = i + 1; j < dim; j++) {
        long d = labs((long)v[e * dim + i] - v[e * dim + j]);
        bw = d > bw ? d : bw;
      }
  return bw;
}

static unsigned long long rng = 88172645463325252ull;
static int below(int n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int)(rng % (unsigned long long)n);
}
static int *perm(int n) {
  int *p = malloc((size_t)n * sizeof *p);
  for (int i = 0; i < n; i++)
    p[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = below(i + 1), t = p[i];
    p[i] = p[j], p[j] = t;
  }
  return p;
}

/* Numbers nodes, cells and edges at random. */
static void shuffle(struct airfoil_mesh *m) {
  int *pn = perm(m->nnode), *pc = perm(m->ncell), *pe = perm(m->nedge);
  double *x = malloc((size_t)m->nnode * 2 * sizeof *x);
  for (int i = 0; i < m->nnode; i++)
    memcpy(x + 2 * pn[i], m->x + 2 * i, 2 * sizeof *x);
  memcpy(m->x, x, (size_t)m->nnode * 2 * sizeof *x);
  int *cell = malloc((size_t)m->ncell * 4 * sizeof *cell);
  for (int i = 0; i < m->ncell; i++)
    for (int k = 0; k < 4; k++)
      cell[4 * pc[i] + k] = pn[m->cell[4 * i + k]];
  memcpy(m->cell, cell, (size_t)m->ncell * 4 * sizeof *cell);
  int *edge = malloc((size_t)m->nedge * 4 * sizeof *edge);
  for (int i = 0; i < m->nedge; i++)
    for (int k = 0; k < 2; k++) {
      edge[2 * pe[i] + k] = pn[m->edge[2 * i + k]];
      edge[2 * m->nedge + 2 * pe[i] + k] = pc[m->ecell[2 * i + k]];
    }
  memcpy(m->edge, edge, (size_t)m->nedge * 2 * sizeof *edge);
  memcpy(m->ecell, edge + 2 * m->nedge, (size_t)m->nedge * 2 * sizeof *edge);
  for (int i = 0; i < m->nbedge; i++) {
    m->bedge[2 * i] = pn[m->bedge[2 * i]];
    m->bedge[2 * i + 1] = pn[m->bedge[2 * i + 1]];
    m->becell[i] = pc[m->becell[i]];
  }
  free(pn), free(pc), free(pe), free(x), free(cell), free(edge);
}

static const char res_calc[] = "res_calc", bres_calc[] = "bres_calc";

static void one(const char *what, const char *loop, loom_set set, int nargs,
                const loom__plan_arg *args) {
  int bs = loom_block_size();
  double best = 1e30;
  const loom__plan *p = NULL;
  for (int r = 0; r < 3; r++) {
    loom_set_block_size(bs + 1); /* drops the cache */
    loom_set_block_size(bs);
    double t0 = now();
    p = loom__plan_get(loop, set, nargs, args);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  double t0 = now();
  int ok = loom__plan_check(p, set, nargs, args) == LOOM_OK;
  double tc = now() - t0;
  printf("  %-9s %8d elements, %7d blocks of %4d, %3d block colours, up to "
         "%3d element colours, built in %7.2f ms; check %s (%.1f ms)\n",
         what, p->nelems, p->nblocks, p->block_size, p->ncolours,
         p->max_elem_colours, best * 1e3, ok ? "ok" : "FAILED", tc * 1e3);
}

static void plans(int nsizes, char **sizes, loom_set edges, loom_set bedges,
                  loom_map pecell, loom_map pbecell) {
  loom__plan_arg ra[] = {{pecell, 0}, {pecell, 1}}, ba[] = {{pbecell, 0}};
  for (int i = 0; i < nsizes; i++) {
    loom_set_block_size(atoi(sizes[i]));
    one("res_calc", res_calc, edges, 2, ra);
    one("bres_calc", bres_calc, bedges, 1, ba);
  }
}

int main(int argc, char **argv) {
  struct airfoil_mesh m;
  if (argc < 4 || airfoil_read_mesh(argv[1], &m))
    return 2;
  if (atoi(argv[2]))
    shuffle(&m);
  loom_init(NULL, NULL);
  loom_set nodes = loom_decl_set(m.nnode, "nodes");
  loom_set edges = loom_decl_set(m.nedge, "edges");
  loom_set bedges = loom_decl_set(m.nbedge, "bedges");
  loom_set cells = loom_decl_set(m.ncell, "cells");
  loom_map pedge = loom_decl_map(edges, nodes, 2, m.edge, "pedge");
  loom_map pecell = loom_decl_map(edges, cells, 2, m.ecell, "pecell");
  loom_decl_map(bedges, nodes, 2, m.bedge, "pbedge");
  loom_map pbecell = loom_decl_map(bedges, cells, 1, m.becell, "pbecell");
  loom_map pcell = loom_decl_map(cells, nodes, 4, m.cell, "pcell");
  loom_decl_dat(bedges, 1, int, m.bound, "p_bound");
  loom_dat p_x = loom_decl_dat(nodes, 2, double, m.x, "p_x");
  loom_decl_temp(cells, 4, double, "p_q");
  loom_decl_temp(cells, 4, double, "p_qold");
  loom_decl_temp(cells, 1, double, "p_adt");
  loom_decl_temp(cells, 4, double, "p_res");
  printf("mesh %s%s: %d nodes, %d cells, %d edges, %d bedges\n", argv[1],
         atoi(argv[2]) ? " (numbered at random)" : "", m.nnode, m.ncell,
         m.nedge, m.nbedge);
  printf("declared numbering:\n");
  plans(argc - 3, argv + 3, edges, bedges, pecell, pbecell);
  long b0[3] = {bandwidth(pecell, m.nedge, 2), bandwidth(pedge, m.nedge, 2),
                bandwidth(pcell, m.ncell, 4)};
  double t0 = now();
  int status = loom_renumber();
  double t = now() - t0;
  long b1[3] = {bandwidth(pecell, m.nedge, 2), bandwidth(pedge, m.nedge, 2),
                bandwidth(pcell, m.ncell, 4)};
  printf("loom_renumber: %s in %.1f ms; bandwidth pecell %ld -> %ld, pedge "
         "%ld -> %ld, pcell %ld -> %ld\n",
         status == LOOM_OK ? "ok" : "FAILED", t * 1e3, b0[0], b1[0], b0[1],
         b1[1], b0[2], b1[2]);
  double *x = malloc((size_t)m.nnode * 2 * sizeof *x);
  loom_dat_fetch(p_x, x, (size_t)m.nnode * 2 * sizeof *x);
  printf("loom_dat_fetch after renumbering: %s\n",
         memcmp(x, m.x, (size_t)m.nnode * 2 * sizeof *x) ? "DIFFERS"
                                                          : "declared order");
  printf("renumbered:\n");
  plans(argc - 3, argv + 3, edges, bedges, pecell, pbecell);
  free(x);
  airfoil_free_mesh(&m);
  loom_exit();
  return 0;
}
EOF
${CC:-cc} -std=c11 -O2 -Wall -Wextra -I"$root/runtime/include" \
  -I"$root/samples/airfoil" -o "$out/plan_bench" "$out/plan_bench.c" "$lib"
"$out/plan_bench" "$mesh" "$shuffle" "${sizes[@]}"
