/*
 * plan/renumber.c — loom_renumber(): reverse Cuthill–McKee renumbering of the
 * declared sets, applied to maps and dats in place.
 *
 * Design
 * ------
 * 1. Choose a primary set: among the sets not yet ordered that some map
 *    touches, the one with the most maps into or out of it (a map from a
 *    set to itself counts twice); ties go to the set with the most data
 *    per element in dats (bytes: where locality pays most), then to more
 *    maps into it, then to more elements, then to the set declared first.
 *    For Airfoil (pedge, pecell, pbedge, pbecell, pcell) "nodes" and
 *    "cells" have 3 maps each, and "cells" wins with q, qold, adt and res
 *    (13 doubles per cell, against x's 2 per node).
 *
 * 2. Its graph, in CSR form: i ~ j when a map from the primary to itself
 *    has j as an entry of element i, or when one element of another set
 *    has both i and j among its entries through its maps into the primary
 *    (all those maps together: a clique per element).  When that gives no
 *    edge at all, elements that share an entry of a map out of the primary
 *    are linked instead (each target's sources as a chain, which keeps the
 *    graph linear in size and connected the same way).  Rows are
 *    de-duplicated with a marker array: no sorting, O(edges).
 *
 * 3. RCM: for each connected component (taken in index order) a
 *    pseudo-peripheral start (George–Liu: BFS from a node, restart from
 *    the lowest-degree node of the last level while the number of levels
 *    grows), then Cuthill–McKee (BFS, each node's unvisited neighbours
 *    appended by increasing degree, ties by index), and the whole order is
 *    reversed.  All linear except the neighbour sorts (short lists).
 *
 * 4. The other sets follow the maps: repeatedly, the first unordered set
 *    (in declaration order) with a map into an ordered set is stably
 *    ordered by the smallest new index among its entries through that map
 *    (the map whose target was ordered earliest; ties: declared first);
 *    when there is none, the first unordered set that an ordered set maps
 *    into is ordered by the smallest new index of the elements that map to
 *    each of its elements (elements nobody maps to go last, in order).
 *    Counting sorts: linear.  Sets still unordered then get a primary of
 *    their own (1.); sets that no map touches keep their order.
 *
 * 5. Apply, once every permutation is known (so running out of memory
 *    changes nothing): permute the rows of the dats and maps on a
 *    renumbered set, translate the entries of the maps into one, through
 *    one temporary buffer and in place (the storage pointers generated
 *    code got from loom__dat_values / loom__map_values stay valid); compose
 *    each set's `new_of_old` (declared index -> storage index) used by
 *    loom_dat_fetch and by later declarations (core/dat.c, core/map.c);
 *    drop the cached plans, which were built on the old numbering.
 *
 * $LOOM_RENUMBER=1 (read by loom_init) makes the first loom__check_set or
 * loom__plan_get call loom_renumber(), unless it was called before.
 *
 * Each renumbering counts (loomrt_renumber_epoch): matrices (mat/) keep
 * their rows, columns and element values in storage order, and compare
 * the count with the one they were built at.
 *
 * MPI: renumbering applies to the global mesh, before partitioning (which
 * loom__mpi_ready does after a pending $LOOM_RENUMBER=1), so each rank's
 * sections keep the RCM order; after partitioning it is refused.  The
 * partitioner reuses this file's primary choice and graph
 * (loomrt_primary_set, loomrt_set_graph).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "plan/plan.h"

static int lazy_pending = 0;
static unsigned renumberings = 0; /* applied in this process, all sessions */

static unsigned pending_session; /* the session lazy_pending is of */

/* $LOOM_RENUMBER=1 pending from the first call of a session on. */
static void renumber_session(void) {
  unsigned s = loomrt_session();
  if (!s || s == pending_session)
    return;
  pending_session = s;
  lazy_pending = loomrt_session_renumber();
}

unsigned loomrt_renumber_epoch(void) { return renumberings; }

void loomrt_renumber_cancel(const char *why) {
  renumber_session();
  if (lazy_pending && loomrt_diag())
    fprintf(stderr, "loom: LOOM_RENUMBER=1 ignored: %s\n", why);
  lazy_pending = 0;
}

int loomrt_renumber_lazy(void) {
  renumber_session();
  if (!lazy_pending)
    return LOOM_OK;
  lazy_pending = 0;
  if (loomrt_any_sliced()) { /* no whole mesh to renumber: a tuning knob */
    if (loomrt_diag())
      fprintf(stderr, "loom: LOOM_RENUMBER=1 ignored: the mesh is "
                      "distributed (declared from slices or HDF5)\n");
    return LOOM_OK;
  }
  return loom_renumber();
}

/* ---- the declared objects ---------------------------------------------- */

typedef struct world {
  loom_set *sets;
  loom_map *maps;
  loom_dat *dats;
  int nsets, nmaps, ndats;
  int *from, *to; /* per map: index of its sets in `sets` */
  int **perm;     /* per set: new index of each current index, or NULL */
  int *rank;      /* per set: order in which it was ordered, -1 if not */
} world;

static void world_free(world *w) {
  if (w->perm)
    for (int i = 0; i < w->nsets; i++)
      loomrt_free(w->perm[i]);
  loomrt_free(w->sets);
  loomrt_free(w->maps);
  loomrt_free(w->dats);
  loomrt_free(w->from);
  loomrt_free(w->to);
  loomrt_free(w->perm);
  loomrt_free(w->rank);
}

static int set_index(const world *w, loom_set s) {
  for (int i = 0; i < w->nsets; i++)
    if (w->sets[i] == s)
      return i;
  return -1; /* not reached: maps only point at registered sets */
}

static int world_load(world *w) {
  memset(w, 0, sizeof *w);
  size_t n = loomrt_registry_count();
  w->sets = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *w->sets);
  w->maps = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *w->maps);
  w->dats = loomrt_alloc(LOOM_MEM_STARTUP, (n + 1) * sizeof *w->dats);
  if (!w->sets || !w->maps || !w->dats)
    return LOOM_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    loomrt_kind kind;
    void *obj = loomrt_registry_object(i, &kind);
    if (kind == LOOMRT_KIND_SET)
      w->sets[w->nsets++] = obj;
    else if (kind == LOOMRT_KIND_MAP)
      w->maps[w->nmaps++] = obj;
    else if (kind == LOOMRT_KIND_DAT)
      w->dats[w->ndats++] = obj;
  }
  w->from = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)w->nmaps + 1) * sizeof *w->from);
  w->to = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)w->nmaps + 1) * sizeof *w->to);
  w->perm = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)w->nsets + 1, sizeof *w->perm);
  w->rank = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)w->nsets + 1) * sizeof *w->rank);
  if (!w->from || !w->to || !w->perm || !w->rank)
    return LOOM_ENOMEM;
  for (int m = 0; m < w->nmaps; m++) {
    w->from[m] = set_index(w, w->maps[m]->from);
    w->to[m] = set_index(w, w->maps[m]->to);
  }
  for (int s = 0; s < w->nsets; s++)
    w->rank[s] = -1;
  return LOOM_OK;
}

/* The new index of current element i of set s. */
static int new_index(const world *w, int s, int i) {
  return w->perm[s] ? w->perm[s][i] : i;
}

/* ---- the primary's graph ----------------------------------------------- */

typedef struct graph {
  int n;
  size_t *row; /* n + 1: row v starts at row[v] */
  int *deg;    /* n: row v is adj[row[v] .. row[v] + deg[v]) */
  int *adj;
  int counting; /* while enumerating: 1 counts, 0 fills */
  size_t nedges;
} graph;

static void add_edge(graph *g, int a, int b) {
  if (a == b)
    return;
  g->nedges += 2;
  if (g->counting) {
    g->deg[a]++;
    g->deg[b]++;
  } else {
    g->adj[g->row[a] + (size_t)g->deg[a]++] = b;
    g->adj[g->row[b] + (size_t)g->deg[b]++] = a;
  }
}

/* Enumerates the edges of set p's graph (see the design, 2.) into g;
 * `buf` holds the entries of one element through all its maps into p
 * (at least the sum of their dims).  Returns the number of edges. */
static size_t enumerate(const world *w, int p, graph *g, int *buf,
                        int *chain) {
  size_t before = g->nedges;
  for (int m = 0; m < w->nmaps; m++) /* maps from p to itself */
    if (w->from[m] == p && w->to[m] == p) {
      const loom_map map = w->maps[m];
      for (int e = 0; e < map->from->size; e++)
        for (int s = 0; s < map->dim; s++)
          add_edge(g, e, map->values[(size_t)e * map->dim + s]);
    }
  for (int src = 0; src < w->nsets; src++) { /* cliques through other sets */
    if (src == p)
      continue;
    int k = 0;
    for (int m = 0; m < w->nmaps; m++)
      if (w->from[m] == src && w->to[m] == p)
        k += w->maps[m]->dim;
    if (k < 2)
      continue;
    for (int x = 0; x < w->sets[src]->size; x++) {
      int used = 0;
      for (int m = 0; m < w->nmaps; m++)
        if (w->from[m] == src && w->to[m] == p) {
          const loom_map map = w->maps[m];
          memcpy(buf + used, map->values + (size_t)x * map->dim,
                 (size_t)map->dim * sizeof *buf);
          used += map->dim;
        }
      for (int i = 0; i < used; i++)
        for (int j = i + 1; j < used; j++)
          add_edge(g, buf[i], buf[j]);
    }
  }
  if (g->nedges > before)
    return g->nedges;
  /* No edge: elements sharing an entry of a map out of p, chained. */
  for (int m = 0; m < w->nmaps; m++) {
    if (w->from[m] != p || w->to[m] == p)
      continue;
    const loom_map map = w->maps[m];
    for (int t = 0; t < map->to->size; t++)
      chain[t] = -1; /* the last source of t seen */
    for (int e = 0; e < map->from->size; e++)
      for (int s = 0; s < map->dim; s++) {
        int t = map->values[(size_t)e * map->dim + s];
        if (chain[t] >= 0 && chain[t] != e)
          add_edge(g, chain[t], e);
        chain[t] = e;
      }
  }
  return g->nedges;
}

static void graph_free(graph *g) {
  loomrt_free(g->row);
  loomrt_free(g->deg);
  loomrt_free(g->adj);
}

/* Builds set p's graph (de-duplicated rows).  LOOM_OK or LOOM_ENOMEM. */
static int graph_build(const world *w, int p, graph *g) {
  memset(g, 0, sizeof *g);
  int n = w->sets[p]->size;
  g->n = n;
  size_t bufn = 1, chainn = 1;
  for (int m = 0; m < w->nmaps; m++) {
    if (w->to[m] == p)
      bufn += (size_t)w->maps[m]->dim;
    if (w->from[m] == p && (size_t)w->maps[m]->to->size + 1 > chainn)
      chainn = (size_t)w->maps[m]->to->size + 1;
  }
  int *buf = loomrt_alloc(LOOM_MEM_STARTUP, bufn * sizeof *buf);
  int *chain = loomrt_alloc(LOOM_MEM_STARTUP, chainn * sizeof *chain);
  g->row = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *g->row);
  g->deg = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)n + 1, sizeof *g->deg);
  int status = LOOM_ENOMEM;
  if (!buf || !chain || !g->row || !g->deg)
    goto done;
  g->counting = 1;
  enumerate(w, p, g, buf, chain);
  g->row[0] = 0;
  for (int v = 0; v < n; v++)
    g->row[v + 1] = g->row[v] + (size_t)g->deg[v];
  g->adj = loomrt_alloc(LOOM_MEM_STARTUP, (g->nedges + 1) * sizeof *g->adj);
  if (!g->adj)
    goto done;
  memset(g->deg, 0, ((size_t)n + 1) * sizeof *g->deg);
  g->counting = 0;
  g->nedges = 0;
  enumerate(w, p, g, buf, chain);
  /* De-duplicate each row. */
  int *mark = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *mark);
  if (!mark)
    goto done;
  for (int v = 0; v < n; v++)
    mark[v] = -1;
  for (int v = 0; v < n; v++) {
    int *r = g->adj + g->row[v], kept = 0;
    for (int i = 0; i < g->deg[v]; i++)
      if (mark[r[i]] != v) {
        mark[r[i]] = v;
        r[kept++] = r[i];
      }
    g->deg[v] = kept;
  }
  loomrt_free(mark);
  status = LOOM_OK;
done:
  loomrt_free(buf);
  loomrt_free(chain);
  if (status != LOOM_OK)
    graph_free(g);
  return status;
}

/* max |new(i) - new(j)| over the graph's edges (new = identity if NULL). */
static long long bandwidth(const graph *g, const int *perm) {
  long long bw = 0;
  for (int v = 0; v < g->n; v++)
    for (int i = 0; i < g->deg[v]; i++) {
      int u = g->adj[g->row[v] + (size_t)i];
      long long d = perm ? (long long)perm[v] - perm[u] : (long long)v - u;
      if (d > bw)
        bw = d;
    }
  return bw;
}

/* ---- RCM --------------------------------------------------------------- */

typedef struct rcm_work {
  int *seen;  /* BFS stamps */
  int *queue; /* BFS queue / the CM order */
  char *placed;
  unsigned long long *keys; /* (degree, index) of neighbours to sort */
  int stamp;
} rcm_work;

/* BFS from root over its component; returns the number of levels, and
 * the last level is queue[*last .. *end). */
static int bfs_levels(const graph *g, rcm_work *wk, int root, int *last,
                      int *end) {
  int id = ++wk->stamp, head = 0, tail = 0, levels = 0;
  wk->queue[tail++] = root;
  wk->seen[root] = id;
  while (head < tail) {
    int level_end = tail;
    *last = head;
    levels++;
    while (head < level_end) {
      int v = wk->queue[head++];
      const int *r = g->adj + g->row[v];
      for (int i = 0; i < g->deg[v]; i++)
        if (wk->seen[r[i]] != id) {
          wk->seen[r[i]] = id;
          wk->queue[tail++] = r[i];
        }
    }
  }
  *end = tail;
  return levels;
}

/* George–Liu pseudo-peripheral node of root's component. */
static int peripheral(const graph *g, rcm_work *wk, int root) {
  int last, end, v = root, levels = bfs_levels(g, wk, root, &last, &end);
  for (int iter = 0; iter < 16; iter++) {
    /* the lowest-degree node of the last level */
    int u = -1;
    for (int k = last; k < end; k++) {
      int c = wk->queue[k];
      if (u < 0 || g->deg[c] < g->deg[u] || (g->deg[c] == g->deg[u] && c < u))
        u = c;
    }
    if (u < 0 || u == v)
      break;
    int l2, e2, lv = bfs_levels(g, wk, u, &l2, &e2);
    if (lv <= levels)
      break;
    v = u;
    levels = lv;
    last = l2;
    end = e2;
  }
  return v;
}

static int cmp_keys(const void *a, const void *b) {
  unsigned long long x = *(const unsigned long long *)a,
                     y = *(const unsigned long long *)b;
  return (x > y) - (x < y);
}

/* new_of_old (n entries) = the RCM numbering of g. */
static void rcm(const graph *g, rcm_work *wk, int *new_of_old) {
  int n = g->n, pos = 0;
  int *order = new_of_old; /* CM order first, then inverted in place */
  for (int v = 0; v < n; v++) {
    wk->seen[v] = 0;
    wk->placed[v] = 0;
  }
  wk->stamp = 0;
  for (int r = 0; r < n; r++) {
    if (wk->placed[r])
      continue;
    int start = g->deg[r] == 0 ? r : peripheral(g, wk, r);
    int head = pos;
    order[pos++] = start;
    wk->placed[start] = 1;
    while (head < pos) {
      int v = order[head++], k = 0;
      const int *row = g->adj + g->row[v];
      for (int i = 0; i < g->deg[v]; i++)
        if (!wk->placed[row[i]]) {
          wk->placed[row[i]] = 1;
          wk->keys[k++] =
              ((unsigned long long)g->deg[row[i]] << 32) | (unsigned)row[i];
        }
      if (k > 16) {
        qsort(wk->keys, (size_t)k, sizeof *wk->keys, cmp_keys);
      } else {
        for (int i = 1; i < k; i++) { /* insertion sort */
          unsigned long long key = wk->keys[i];
          int j = i;
          for (; j > 0 && wk->keys[j - 1] > key; j--)
            wk->keys[j] = wk->keys[j - 1];
          wk->keys[j] = key;
        }
      }
      for (int i = 0; i < k; i++)
        order[pos++] = (int)(wk->keys[i] & 0xffffffffu);
    }
  }
  /* reverse, and invert: order[k] is the old index of new index n-1-k */
  int *tmp = wk->queue;
  for (int k = 0; k < n; k++)
    tmp[k] = order[k];
  for (int k = 0; k < n; k++)
    new_of_old[tmp[k]] = n - 1 - k;
}

/* Orders primary set p by RCM into w->perm[p]. */
static int order_primary(world *w, int p, long long *bw_before,
                         long long *bw_after) {
  int n = w->sets[p]->size;
  graph g;
  if (graph_build(w, p, &g) != LOOM_OK)
    return LOOM_ENOMEM;
  int maxdeg = 0;
  for (int v = 0; v < n; v++)
    if (g.deg[v] > maxdeg)
      maxdeg = g.deg[v];
  rcm_work wk = {loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof(int)),
                 loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof(int)),
                 loomrt_alloc(LOOM_MEM_STARTUP, (size_t)n + 1),
                 loomrt_alloc(LOOM_MEM_STARTUP,
                              ((size_t)maxdeg + 1) * sizeof(unsigned long long)),
                 0};
  int *perm = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *perm);
  int status = LOOM_ENOMEM;
  if (wk.seen && wk.queue && wk.placed && wk.keys && perm) {
    rcm(&g, &wk, perm);
    if (loomrt_diag()) {
      *bw_before = bandwidth(&g, NULL);
      *bw_after = bandwidth(&g, perm);
    }
    w->perm[p] = perm;
    perm = NULL;
    status = LOOM_OK;
  }
  loomrt_free(perm);
  loomrt_free(wk.seen);
  loomrt_free(wk.queue);
  loomrt_free(wk.placed);
  loomrt_free(wk.keys);
  graph_free(&g);
  return status;
}

/* ---- following the maps ------------------------------------------------ */

/* Stable counting sort of n elements by key[i] in [0, nkeys): perm = the
 * position of each element.  LOOM_OK or LOOM_ENOMEM. */
static int perm_by_keys(const int *key, int n, int nkeys, int **out) {
  int *count = loomrt_calloc(LOOM_MEM_STARTUP, (size_t)nkeys + 1, sizeof *count);
  int *perm = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *perm);
  if (!count || !perm) {
    loomrt_free(count);
    loomrt_free(perm);
    return LOOM_ENOMEM;
  }
  for (int i = 0; i < n; i++)
    count[key[i] + 1]++;
  for (int k = 0; k < nkeys; k++)
    count[k + 1] += count[k];
  for (int i = 0; i < n; i++)
    perm[i] = count[key[i]]++;
  loomrt_free(count);
  *out = perm;
  return LOOM_OK;
}

/* Orders set s by map m: from s into an ordered set (by the smallest new
 * index of its entries), or from an ordered set into s (by the smallest
 * new index of the elements mapping to it). */
static int order_follower(world *w, int s, int m) {
  loom_map map = w->maps[m];
  int n = w->sets[s]->size, nkeys;
  int *key = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof *key);
  if (!key)
    return LOOM_ENOMEM;
  if (w->from[m] == s) {
    int t = w->to[m];
    nkeys = w->sets[t]->size;
    for (int e = 0; e < n; e++) {
      int best = nkeys;
      for (int k = 0; k < map->dim; k++) {
        int v = new_index(w, t, map->values[(size_t)e * map->dim + k]);
        if (v < best)
          best = v;
      }
      key[e] = best;
    }
  } else {
    int f = w->from[m];
    nkeys = w->sets[f]->size + 1; /* the last key: nobody maps to it */
    for (int i = 0; i < n; i++)
      key[i] = nkeys - 1;
    for (int e = 0; e < map->from->size; e++) {
      int v = new_index(w, f, e);
      for (int k = 0; k < map->dim; k++) {
        int t = map->values[(size_t)e * map->dim + k];
        if (v < key[t])
          key[t] = v;
      }
    }
  }
  int status = perm_by_keys(key, n, nkeys, &w->perm[s]);
  loomrt_free(key);
  return status;
}

/* The map by which unordered set s can follow: 1 = maps from s into an
 * ordered set, 2 = maps from an ordered set into s; the one whose other
 * end has the lowest rank (ties: declared first).  -1 if none. */
static int follow_map(const world *w, int s, int direction) {
  int best = -1, best_rank = 0;
  for (int m = 0; m < w->nmaps; m++) {
    int mine = direction == 1 ? w->from[m] : w->to[m];
    int other = direction == 1 ? w->to[m] : w->from[m];
    if (mine != s || w->rank[other] < 0)
      continue;
    if (best < 0 || w->rank[other] < best_rank) {
      best = m;
      best_rank = w->rank[other];
    }
  }
  return best;
}

/* The next primary (design, 1.), or -1. */
static int choose_primary(const world *w) {
  int best = -1;
  long long best_key[4] = {0, 0, 0, 0};
  for (int s = 0; s < w->nsets; s++) {
    if (w->rank[s] >= 0)
      continue;
    long long key[4] = {0, 0, 0, w->sets[s]->gsize}; /* maps, bytes, into */
    for (int m = 0; m < w->nmaps; m++) {
      key[0] += (w->from[m] == s) + (w->to[m] == s);
      key[2] += w->to[m] == s;
    }
    if (key[0] == 0)
      continue;
    for (int d = 0; d < w->ndats; d++)
      if (w->dats[d]->set == w->sets[s])
        key[1] += (long long)(w->dats[d]->dim * w->dats[d]->elem_size);
    int better = best < 0, k = 0;
    while (!better && k < 4 && key[k] == best_key[k])
      k++;
    if (better || (k < 4 && key[k] > best_key[k])) {
      best = s;
      memcpy(best_key, key, sizeof key);
    }
  }
  return best;
}

/* ---- applying ---------------------------------------------------------- */

static size_t max_bytes(const world *w) {
  size_t most = 1;
  for (int m = 0; m < w->nmaps; m++)
    if (w->perm[w->from[m]]) {
      size_t b = (size_t)w->maps[m]->from->size * (size_t)w->maps[m]->dim *
                 sizeof(int);
      if (b > most)
        most = b;
    }
  for (int d = 0; d < w->ndats; d++)
    if (w->dats[d]->bytes > most && w->perm[set_index(w, w->dats[d]->set)])
      most = w->dats[d]->bytes;
  return most;
}

static void apply(world *w, void *tmp) {
  for (int m = 0; m < w->nmaps; m++) {
    loom_map map = w->maps[m];
    size_t count = (size_t)map->from->size * (size_t)map->dim;
    const int *pf = w->perm[w->from[m]], *pt = w->perm[w->to[m]];
    if (pf && count) {
      memcpy(tmp, map->values, count * sizeof(int));
      loomrt_scatter_rows(map->values, tmp, (size_t)map->dim * sizeof(int),
                          map->from->size, pf);
    }
    if (pt)
      for (size_t e = 0; e < count; e++)
        map->values[e] = pt[map->values[e]];
  }
  for (int d = 0; d < w->ndats; d++) {
    loom_dat dat = w->dats[d];
    const int *p = w->perm[set_index(w, dat->set)];
    if (p && dat->bytes && !dat->owner) { /* shared storage is permuted once */
      memcpy(tmp, dat->values, dat->bytes);
      loomrt_scatter_rows(dat->values, tmp, (size_t)dat->dim * dat->elem_size,
                          dat->set->size, p);
    }
  }
  for (int s = 0; s < w->nsets; s++) {
    loom_set set = w->sets[s];
    int *p = w->perm[s];
    if (!p)
      continue;
    loomrt_free(set->declared); /* loom__set_global builds it again */
    set->declared = NULL;
    if (set->new_of_old) {
      for (int i = 0; i < set->size; i++)
        set->new_of_old[i] = p[set->new_of_old[i]];
    } else {
      set->new_of_old = p;
      loomrt_mem_kind(p, LOOM_MEM_SETS);
      w->perm[s] = NULL; /* now owned by the set */
    }
  }
}

/* ---- for MPI partitioning (mpi/partition.c) ---------------------------- */

loom_set loomrt_primary_set(void) {
  world w;
  loom_set primary = NULL;
  if (world_load(&w) == LOOM_OK) {
    int p = choose_primary(&w);
    primary = p >= 0 ? w.sets[p] : NULL;
  }
  world_free(&w);
  return primary;
}

int loomrt_set_graph(loom_set p, int **xadj, int **adjncy) {
  world w;
  graph g;
  *xadj = NULL;
  *adjncy = NULL;
  int status = world_load(&w);
  int pi = status == LOOM_OK ? set_index(&w, p) : -1;
  if (status == LOOM_OK && pi < 0)
    status = LOOM_EINVAL;
  if (status == LOOM_OK)
    status = graph_build(&w, pi, &g);
  world_free(&w);
  if (status != LOOM_OK)
    return status;
  int n = g.n;
  size_t total = 0;
  for (int v = 0; v < n; v++)
    total += (size_t)g.deg[v];
  *xadj = loomrt_alloc(LOOM_MEM_STARTUP, ((size_t)n + 1) * sizeof **xadj);
  *adjncy = loomrt_alloc(LOOM_MEM_STARTUP, (total + 1) * sizeof **adjncy);
  if (!*xadj || !*adjncy) {
    loomrt_free(*xadj);
    loomrt_free(*adjncy);
    *xadj = *adjncy = NULL;
    graph_free(&g);
    return LOOM_ENOMEM;
  }
  size_t k = 0;
  for (int v = 0; v < n; v++) {
    (*xadj)[v] = (int)k;
    for (int i = 0; i < g.deg[v]; i++)
      (*adjncy)[k++] = g.adj[g.row[v] + (size_t)i];
  }
  (*xadj)[n] = (int)k;
  graph_free(&g);
  return LOOM_OK;
}

int loom_renumber(void) {
  int status = loomrt_require_active("loom_renumber");
  if (status != LOOM_OK)
    return status;
  if (loomrt_partitioned())
    return loom_error_(LOOM_ESTATE,
                       "loom_renumber called after the mesh was partitioned "
                       "over the MPI ranks (renumber first: LOOM_RENUMBER=1 "
                       "does, at the first loop)");
  if (loomrt_any_sliced())
    return loom_error_(LOOM_EINVAL,
                       "loom_renumber: the mesh is distributed (declared "
                       "from slices or HDF5), and only a whole mesh can be "
                       "renumbered before partitioning");
  renumber_session();
  lazy_pending = 0;
  double t0, t1;
  loom_timers(NULL, &t0);
  world w;
  void *tmp = NULL;
  int nordered = 0;
  status = world_load(&w);
  while (status == LOOM_OK) {
    int p = choose_primary(&w);
    if (p < 0)
      break;
    long long bw0 = 0, bw1 = 0;
    status = order_primary(&w, p, &bw0, &bw1);
    if (status != LOOM_OK)
      break;
    w.rank[p] = nordered++;
    if (loomrt_diag())
      fprintf(stderr,
              "loom: renumber: primary set '%s' (%d elements): bandwidth %lld "
              "-> %lld\n",
              w.sets[p]->name, w.sets[p]->size, bw0, bw1);
    for (;;) { /* followers */
      int s = 0, m = -1;
      for (int dir = 1; dir <= 2 && m < 0; dir++)
        for (s = 0; s < w.nsets; s++)
          if (w.rank[s] < 0 && (m = follow_map(&w, s, dir)) >= 0)
            break;
      if (m < 0)
        break;
      status = order_follower(&w, s, m);
      if (status != LOOM_OK)
        break;
      w.rank[s] = nordered++;
    }
  }
  if (status == LOOM_OK) {
    tmp = loomrt_alloc(LOOM_MEM_STARTUP, max_bytes(&w));
    if (!tmp)
      status = LOOM_ENOMEM;
  }
  if (status == LOOM_OK) {
    apply(&w, tmp);
    loomrt_plan_drop_all();
    renumberings++; /* mat/ rebuilds what it keeps in storage order */
  }
  loomrt_free(tmp);
  int nsets = w.nsets;
  world_free(&w);
  if (status != LOOM_OK)
    return loom_error_(status, "loom_renumber: out of memory (nothing was "
                               "renumbered)");
  loom_timers(NULL, &t1);
  if (loomrt_diag()) {
    fprintf(stderr, "loom: renumber: %d of %d sets renumbered in %.3f ms\n",
            nordered, nsets, (t1 - t0) * 1e3);
    fflush(stderr);
  }
  return LOOM_OK;
}
