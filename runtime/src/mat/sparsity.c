/*
 * mat/sparsity.c — sparsities: declaration, their entries in PETSc's
 * coordinate (COO) form, and the exact count of entries per row.
 *
 * Design
 * ------
 * A sparsity is PyOP2's: the rows are the nodes of a set `rows`, the
 * columns those of `cols`, each node holding rdim (rows) or cdim (columns)
 * components, interleaved (scalar row node * rdim + r).  Each pair p of
 * maps (rmaps[p] into rows, cmaps[p] into cols, both from one iteration
 * set) makes element e couple every row node of rmaps[p] at e with every
 * column node of cmaps[p] at e; with rows == cols the diagonal blocks
 * (node i, node i) are added, so that every row has its diagonal (PETSc's
 * MatZeroRowsColumns and its preconditioners need it).
 *
 * The entries are listed, not stored: pair after pair, element after
 * element (storage order of the iteration set), each element's block
 * row-major [ra * rdim][ca * cdim], then the diagonal blocks, node after
 * node.  A matrix's values array has exactly this layout (loom.h,
 * loom__mat_values): loomrt_sparsity_coo gives the row and column of
 * each entry, which PETSc's MatSetPreallocationCOO turns into the pattern
 * and, summing repeated entries, into the values (mat/mat.c).  The offset
 * of each pair's entries (start[]) does not depend on the numbering.
 *
 * The count of entries of each scalar row (nnz: distinct column nodes of
 * the row node times cdim) is computed once, in linear time: the elements
 * incident to each row node (across all pairs) in CSR form, then for each
 * row node its column nodes marked in an array over the column set.  It
 * is the exact preallocation of the matrices, and checks PETSc's pattern.
 *
 * Renumbering: rows, columns and elements are in the runtime's storage
 * order, which loom_renumber changes (plan/renumber.c counts them).  A
 * sparsity remembers the renumbering its counts are for and counts again
 * when asked after another (loomrt_sparsity_sync); the COO entries are
 * always computed from the maps as they are.
 *
 * MPI (libloom_mpi, any number of ranks): the declaration is collective
 * and partitions the mesh first, as a loop would (after a pending
 * $LOOM_RENUMBER=1, which renumbers the global mesh), so the numbering is
 * final from then on (loom_renumber is refused after partitioning).  Each
 * rank holds the rows of the nodes it owns (owner-computes, no entry for
 * another rank): PETSc numbers rank r's owned nodes after those of ranks
 * < r, in local order (rnum, cnum: petsc.c's loomrt_mat_numbering, whose
 * halo nodes get their owners' numbers; computed once, at the
 * declaration, as partitioned sets never change numbering again and the
 * identity of one process survives renumbering).  The entries are those
 * of the elements [0, exec) of each iteration set, the ones a loop writing
 * through maps runs: every element incident to an owned node through a
 * map is executed on the node's owner, so these are all the contributions
 * to its rows, and every column node they reach is local (owned or halo)
 * there.  Rows of halo nodes, and elements past exec (whose map rows are
 * -1), get -1 as row and column, which PETSc's COO assembly ignores; the
 * values array keeps a slot for every local element all the same, so that
 * generated code indexes it by local element.  The counts are of the
 * owned rows.  Without MPI every node is owned and every element executed,
 * and all of this is the identity.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mat/mat.h"
#include "plan/plan.h"

/* ---- handles -------------------------------------------------------------- */

const char *loomrt_sparsity_problem(loom_sparsity sp) {
  static char buf[LOOMRT_STALE_MAX];
  static const loomrt_handle_kind kind = {
      LOOMRT_MAGIC_SPARSITY, LOOMRT_RETIRED_SPARSITY, "sparsity",
      "is not a live sparsity (freed by loom_exit, or not a loom_sparsity)"};
  return loomrt_handle_problem(buf, &kind, sp, sp ? sp->magic : 0, sp ? sp->name : NULL);
}

void loomrt_sparsity_retire(void *object) {
  loom_sparsity sp = object;
  sp->magic = LOOMRT_RETIRED_SPARSITY;
  free(sp->rmaps);
  free(sp->cmaps);
  free(sp->start);
  free(sp->nnz);
  if (sp->cnum != sp->rnum)
    free(sp->cnum);
  free(sp->rnum);
  if (sp->clocal != sp->rlocal)
    free(sp->clocal);
  free(sp->rlocal);
  sp->rmaps = sp->cmaps = NULL;
  sp->start = NULL;
  sp->nnz = NULL;
  sp->rnum = sp->cnum = NULL;
  sp->rlocal = sp->clocal = NULL;
}

void loomrt_sparsity_release(void *object) {
  loom_sparsity sp = object;
  loomrt_sparsity_retire(sp);
  sp->magic = 0;
  free(sp->name);
  free(sp);
}

/* ---- checks of a declaration ---------------------------------------------- */

/* The scalar rows (n nodes x dim, of the whole set) fit PETSc's PetscInt. */
static int check_extent(const char *name, const char *which, loom_set set,
                        int dim) {
  if ((PetscInt64)set->gsize * dim <= PETSC_MAX_INT)
    return LOOM_OK;
  return loom_error_(LOOM_EINVAL,
                     "sparsity '%s': %s set '%s' has %d nodes x %d components, "
                     "more than PETSc's %lld indices (PetscInt)",
                     name, which, set->name, set->gsize, dim,
                     (long long)PETSC_MAX_INT);
}

static int check_sets(loom_set rows, loom_set cols, int rdim, int cdim,
                      int npairs, const char *name) {
  const char *problem = loomrt_set_problem(rows);
  if (problem)
    return loom_error_(LOOM_EINVAL, "sparsity '%s': row set %s", name, problem);
  problem = loomrt_set_problem(cols);
  if (problem)
    return loom_error_(LOOM_EINVAL, "sparsity '%s': column set %s", name, problem);
  if (rdim < 1 || cdim < 1)
    return loom_error_(LOOM_EINVAL,
                       "sparsity '%s': block of %d x %d components, both must be "
                       ">= 1",
                       name, rdim, cdim);
  if (npairs < 0)
    return loom_error_(LOOM_EINVAL, "sparsity '%s': %d pairs of maps", name,
                       npairs);
  int status = check_extent(name, "row", rows, rdim);
  return status == LOOM_OK ? check_extent(name, "column", cols, cdim) : status;
}

/* Pair p: two live maps from one set, into rows and cols, not a repeat. */
static int check_pair(loom_set rows, loom_set cols, const loom_map *rmaps,
                      const loom_map *cmaps, int p, const char *name) {
  loom_map r = rmaps[p], c = cmaps[p];
  const char *problem = loomrt_map_problem(r);
  if (problem)
    return loom_error_(LOOM_EINVAL, "sparsity '%s': pair %d: row map %s", name,
                       p, problem);
  problem = loomrt_map_problem(c);
  if (problem)
    return loom_error_(LOOM_EINVAL, "sparsity '%s': pair %d: column map %s", name,
                       p, problem);
  if (r->to != rows)
    return loom_error_(LOOM_EINVAL,
                       "sparsity '%s': pair %d: row map '%s' maps to set '%s', "
                       "not to the row set '%s'",
                       name, p, r->name, r->to->name, rows->name);
  if (c->to != cols)
    return loom_error_(LOOM_EINVAL,
                       "sparsity '%s': pair %d: column map '%s' maps to set '%s', "
                       "not to the column set '%s'",
                       name, p, c->name, c->to->name, cols->name);
  if (r->from != c->from)
    return loom_error_(LOOM_EINVAL,
                       "sparsity '%s': pair %d: maps '%s' (from set '%s') and "
                       "'%s' (from set '%s') must map from the same set",
                       name, p, r->name, r->from->name, c->name, c->from->name);
  for (int q = 0; q < p; q++)
    if (rmaps[q] == r && cmaps[q] == c)
      return loom_error_(LOOM_EINVAL,
                         "sparsity '%s': pairs %d and %d are both ('%s', '%s')",
                         name, q, p, r->name, c->name);
  return LOOM_OK;
}

static int check_pairs(loom_set rows, loom_set cols, int npairs,
                       const loom_map *rmaps, const loom_map *cmaps,
                       const char *name) {
  if (npairs > 0 && (!rmaps || !cmaps))
    return loom_error_(LOOM_EINVAL,
                       "sparsity '%s': %d pairs but the %s maps' array is NULL",
                       name, npairs, !rmaps ? "row" : "column");
  for (int p = 0; p < npairs; p++) {
    int status = check_pair(rows, cols, rmaps, cmaps, p, name);
    if (status != LOOM_OK)
      return status;
  }
  return LOOM_OK;
}

/* ---- layout of the entries ------------------------------------------------- */

/* Entries of one element of pair p. */
static PetscCount block_entries(loom_sparsity sp, int p) {
  return (PetscCount)sp->rmaps[p]->dim * sp->rdim * sp->cmaps[p]->dim * sp->cdim;
}

/* start[]: pair p's entries (every local element), then the diagonal
 * blocks' (every owned row node). */
static void layout(loom_sparsity sp) {
  PetscCount at = 0;
  for (int p = 0; p < sp->npairs; p++) {
    sp->start[p] = at;
    at += (PetscCount)sp->rmaps[p]->from->size * block_entries(sp, p);
  }
  sp->start[sp->npairs] = at;
  if (sp->diag)
    at += (PetscCount)sp->rows->owned * sp->rdim * sp->cdim;
  sp->start[sp->npairs + 1] = at;
}

/* ---- entries per row -------------------------------------------------------- */

/* The elements incident to each row node through the pairs' row maps, in
 * CSR form: row node r's are item[first[r] .. first[r + 1]), each the
 * pair (items' pair[]) and the element.  Executed elements only ([0,
 * exec): the others' map rows are -1 under MPI). */
typedef struct incidence {
  size_t *first;
  int *pair, *elem;
} incidence;

static void incidence_free(incidence *inc) {
  free(inc->first);
  free(inc->pair);
  free(inc->elem);
}

static int incidence_build(loom_sparsity sp, incidence *inc) {
  int nr = sp->rows->size;
  size_t total = 0;
  for (int p = 0; p < sp->npairs; p++)
    total += (size_t)sp->rmaps[p]->from->exec * (size_t)sp->rmaps[p]->dim;
  inc->first = calloc((size_t)nr + 2, sizeof *inc->first);
  inc->pair = malloc((total + 1) * sizeof *inc->pair);
  inc->elem = malloc((total + 1) * sizeof *inc->elem);
  if (!inc->first || !inc->pair || !inc->elem)
    return LOOM_ENOMEM;
  for (int p = 0; p < sp->npairs; p++) { /* counts, shifted by two */
    loom_map m = sp->rmaps[p];
    size_t n = (size_t)m->from->exec * (size_t)m->dim;
    for (size_t k = 0; k < n; k++)
      inc->first[m->values[k] + 2]++;
  }
  for (int r = 0; r < nr; r++) /* first[r + 1]: where row r's items go */
    inc->first[r + 2] += inc->first[r + 1];
  for (int p = 0; p < sp->npairs; p++) {
    loom_map m = sp->rmaps[p];
    for (int e = 0; e < m->from->exec; e++)
      for (int i = 0; i < m->dim; i++) {
        size_t at = inc->first[m->values[(size_t)e * m->dim + i] + 1]++;
        inc->pair[at] = p;
        inc->elem[at] = e;
      }
  }
  return LOOM_OK; /* first[r] is now row r's start */
}

/* nnz[] of the current numbering: for each owned row node, its distinct
 * column nodes (marked with the row's number) times cdim, for each
 * component. */
static int count_entries(loom_sparsity sp) {
  incidence inc = {0};
  int nr = sp->rows->owned, nc = sp->cols->size;
  int *mark = malloc(((size_t)nc + 1) * sizeof *mark);
  int status = mark ? incidence_build(sp, &inc) : LOOM_ENOMEM;
  if (status != LOOM_OK) {
    free(mark);
    incidence_free(&inc);
    return loom_error_(LOOM_ENOMEM, "sparsity '%s': out of memory counting its "
                                    "entries", sp->name);
  }
  for (int c = 0; c < nc; c++)
    mark[c] = -1;
  for (int r = 0; r < nr; r++) {
    PetscInt count = 0;
    if (sp->diag) {
      mark[r] = r;
      count = 1;
    }
    for (size_t k = inc.first[r]; k < inc.first[r + 1]; k++) {
      loom_map m = sp->cmaps[inc.pair[k]];
      const int *col = m->values + (size_t)inc.elem[k] * m->dim;
      for (int j = 0; j < m->dim; j++)
        if (mark[col[j]] != r) {
          mark[col[j]] = r;
          count++;
        }
    }
    for (int k = 0; k < sp->rdim; k++)
      sp->nnz[(size_t)r * sp->rdim + k] = count * sp->cdim;
  }
  free(mark);
  incidence_free(&inc);
  sp->epoch = loomrt_renumber_epoch();
  return LOOM_OK;
}

int loomrt_sparsity_sync(loom_sparsity sp) {
  return sp->epoch == loomrt_renumber_epoch() ? LOOM_OK : count_entries(sp);
}

int loomrt_sparsity_pair(loom_sparsity sp, loom_map rmap, loom_map cmap) {
  for (int p = 0; p < sp->npairs; p++)
    if (sp->rmaps[p] == rmap && sp->cmaps[p] == cmap)
      return p;
  return -1;
}

/* ---- COO entries ------------------------------------------------------------- */

/* Pair p's entries from ri + start[p], ci + start[p]: global PETSc
 * indices; -1 for rows of nodes another rank owns and for the elements
 * past exec. */
static void pair_coo(loom_sparsity sp, int p, PetscInt *ri, PetscInt *ci) {
  loom_map rm = sp->rmaps[p], cm = sp->cmaps[p];
  int rdim = sp->rdim, cdim = sp->cdim, owned = sp->rows->owned;
  int exec = rm->from->exec;
  size_t k = (size_t)sp->start[p];
  for (int e = 0; e < rm->from->size; e++) {
    const int *rn = rm->values + (size_t)e * rm->dim;
    const int *cn = cm->values + (size_t)e * cm->dim;
    for (int i = 0; i < rm->dim; i++)
      for (int r = 0; r < rdim; r++) {
        PetscInt row = e < exec && rn[i] < owned ? sp->rnum[rn[i]] * rdim + r : -1;
        for (int j = 0; j < cm->dim; j++)
          for (int c = 0; c < cdim; c++, k++) {
            ri[k] = row;
            ci[k] = row < 0 ? -1 : sp->cnum[cn[j]] * cdim + c;
          }
      }
  }
}

int loomrt_sparsity_coo(loom_sparsity sp, const char *name, PetscInt **ri,
                        PetscInt **ci) {
  size_t n = (size_t)sp->start[sp->npairs + 1];
  *ri = malloc((n + 1) * sizeof **ri);
  *ci = malloc((n + 1) * sizeof **ci);
  if (!*ri || !*ci) {
    free(*ri);
    free(*ci);
    *ri = *ci = NULL;
    return loom_error_(LOOM_ENOMEM,
                       "matrix '%s': out of memory for the %zu entries of "
                       "sparsity '%s'",
                       name, n, sp->name);
  }
  for (int p = 0; p < sp->npairs; p++)
    pair_coo(sp, p, *ri, *ci);
  size_t k = (size_t)sp->start[sp->npairs];
  if (sp->diag) /* rows == cols: owned node i's diagonal block */
    for (int i = 0; i < sp->rows->owned; i++)
      for (int r = 0; r < sp->rdim; r++)
        for (int c = 0; c < sp->cdim; c++, k++) {
          (*ri)[k] = sp->rnum[i] * sp->rdim + r;
          (*ci)[k] = sp->cnum[i] * sp->cdim + c;
        }
  return LOOM_OK;
}

/* ---- declared numbers ---------------------------------------------------------- */

/* The table of a partitioned set: declared -> local (-1 elsewhere). */
static int *local_table(loom_set s) {
  int *tab = malloc(((size_t)s->gsize + 1) * sizeof *tab);
  if (!tab)
    return NULL;
  for (int i = 0; i < s->gsize; i++)
    tab[i] = -1;
  for (int i = 0; i < s->size; i++)
    tab[s->gid[i]] = i;
  return tab;
}

int loomrt_sparsity_local(loom_sparsity sp, int cols, int declared, int *local) {
  loom_set s = cols ? sp->cols : sp->rows;
  if (!s->gid) { /* one process: the storage index */
    *local = s->new_of_old ? s->new_of_old[declared] : declared;
    return LOOM_OK;
  }
  int **tab = cols ? &sp->clocal : &sp->rlocal;
  if (!*tab && sp->rows == sp->cols)
    *tab = cols ? sp->rlocal : sp->clocal; /* one set: one table */
  if (!*tab) {
    *tab = local_table(s);
    if (!*tab)
      return loom_error_(LOOM_ENOMEM,
                         "sparsity '%s': out of memory for the local numbers of "
                         "set '%s'", sp->name, s->name);
  }
  *local = (*tab)[declared];
  return LOOM_OK;
}

/* ---- declaration ----------------------------------------------------------- */

/* Collective (the numbering), with the ranks' agreement on the outcome:
 * NULL on every rank or on none. */
static loom_sparsity sparsity_new(loom_set rows, loom_set cols, int rdim,
                                  int cdim, int npairs, const loom_map *rmaps,
                                  const loom_map *cmaps, const char *name) {
  loom_sparsity sp = calloc(1, sizeof *sp);
  size_t np = (size_t)npairs;
  if (sp) {
    sp->name = loomrt_strdup(name);
    sp->rmaps = malloc((np + 1) * sizeof *sp->rmaps);
    sp->cmaps = malloc((np + 1) * sizeof *sp->cmaps);
    sp->start = malloc((np + 2) * sizeof *sp->start);
    sp->nnz = malloc(((size_t)rows->owned * rdim + 1) * sizeof *sp->nnz);
    sp->rnum = malloc(((size_t)rows->size + 1) * sizeof *sp->rnum);
    sp->cnum = rows == cols ? sp->rnum
                            : malloc(((size_t)cols->size + 1) * sizeof *sp->cnum);
  }
  int status = sp && sp->name && sp->rmaps && sp->cmaps && sp->start && sp->nnz &&
                       sp->rnum && sp->cnum
                   ? LOOM_OK
                   : loom_error_(LOOM_ENOMEM, "sparsity '%s': out of memory", name);
  status = loomrt_mat_agree(status, "loom_decl_sparsity");
  if (status == LOOM_OK)
    status = loomrt_mat_numbering(rows, sp->rnum, "loom_decl_sparsity");
  if (status == LOOM_OK && cols != rows)
    status = loomrt_mat_numbering(cols, sp->cnum, "loom_decl_sparsity");
  if (status == LOOM_OK) {
    sp->magic = LOOMRT_MAGIC_SPARSITY;
    sp->rows = rows;
    sp->cols = cols;
    sp->rdim = rdim;
    sp->cdim = cdim;
    sp->npairs = npairs;
    if (npairs > 0) {
      memcpy(sp->rmaps, rmaps, np * sizeof *rmaps);
      memcpy(sp->cmaps, cmaps, np * sizeof *cmaps);
    }
    sp->diag = rows == cols;
    layout(sp);
    status = count_entries(sp);
  }
  if (loomrt_mat_agree(status, "loom_decl_sparsity") != LOOM_OK) {
    if (sp)
      loomrt_sparsity_release(sp);
    return NULL;
  }
  return sp;
}

/* Collective under MPI: the checks are agreed on before PETSc starts
 * (PetscInitialize is collective), and the mesh is partitioned, as by a
 * loop, so that the numbering is final. */
loom_sparsity loom_decl_sparsity(loom_set rows, loom_set cols, int rdim,
                                 int cdim, int npairs, const loom_map *rmaps,
                                 const loom_map *cmaps, const char *name) {
  static const char call[] = "loom_decl_sparsity";
  if (loomrt_require_active(call) != LOOM_OK)
    return NULL;
  int status = loomrt_check_name(name, "sparsity");
  if (status == LOOM_OK)
    status = check_sets(rows, cols, rdim, cdim, npairs, name);
  if (status == LOOM_OK)
    status = check_pairs(rows, cols, npairs, rmaps, cmaps, name);
  status = loomrt_mat_agree(status, call);
  if (status == LOOM_OK)
    status = loomrt_mat_agree(loomrt_petsc_start(call), call);
#ifdef LOOM_MPI
  if (status == LOOM_OK && !loomrt_partitioned())
    status = loom__mpi_ready(); /* fails the session on failure (loomrt_leave) */
#endif
  if (status != LOOM_OK)
    return NULL;
  loom_sparsity sp =
      sparsity_new(rows, cols, rdim, cdim, npairs, rmaps, cmaps, name);
  if (!sp)
    return NULL; /* agreed on */
  status = loomrt_register(LOOMRT_KIND_SPARSITY, sp, name);
  if (status != LOOM_OK)
    loomrt_sparsity_release(sp);
  /* where it failed elsewhere, the registered one is loom_exit's */
  return loomrt_mat_agree(status, call) == LOOM_OK ? sp : NULL;
}
