/*
 * mat/write.c — loops that write element matrices into a matrix (mode
 * `write`): the entries they reach take the written values.
 *
 * Design
 * ------
 * A matrix is the sum of its element values (mat/mat.c: every slot of the
 * values array is one COO entry; the slots of one matrix entry, across
 * pairs, are summed by PETSc at assembly).  To replace an entry is then to
 * make its slots sum to the new value: all of them 0 but one, which holds
 * it.  No PETSc call is made, nothing is flushed, and the matrix stays
 * identical on every target, thread count and partition.
 *
 * A write loop gets a scratch block per element (loom__mat_write_values:
 * pair p's own buffer, zeroed, laid out like the pair's values, so that
 * the kernel's pre-zeroed element matrix is inserted whole, as PyOP2
 * inserts it).  After the loop, on the host thread,
 * loom__mat_write_end finds each reached entry's winner — the slot of the
 * element with the highest declared number (plain C's last writer, as for
 * `write` through maps on dats, plan/loopstart.c), and within one
 * element the last in row-major order — and sets the entry's slots: 0,
 * and the winner's value in the winner's slot.
 *
 * The entries: the slots sorted by (row, column) of their COO entry
 * (loomrt_sparsity_coo), grouped into entries (eslots, from efirst[e] to
 * efirst[e + 1]); entry[s] is slot s's entry, -1 for the slots PETSc
 * ignores (other ranks' rows, elements past exec).  Built at the first
 * write, again after a renumbering (the slots move), freed with the
 * matrix.  Under MPI every rank does this for its own rows, from its
 * executed elements: all of an owned entry's writers are among them
 * (owner-computes, mat/sparsity.c), so the winner is the same as on one
 * process, and nothing is communicated.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "mat/mat.h"
#include "plan/plan.h"

/* ---- the entries --------------------------------------------------------- */

typedef struct slot_col {
  PetscInt col;
  int slot;
} slot_col;

static int by_col(const void *x, const void *y) {
  const slot_col *a = x, *b = y;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  return a->slot < b->slot ? -1 : a->slot > b->slot;
}

static void entries_free(loom_mat A) {
  free(A->entry);
  free(A->efirst);
  free(A->eslots);
  A->entry = A->efirst = A->eslots = NULL;
  A->nentries = 0;
}

void loomrt_mat_write_free(loom_mat A) {
  entries_free(A);
  if (A->scratch)
    for (int p = 0; p < A->sp->npairs; p++)
      free(A->scratch[p]);
  free(A->scratch);
  A->scratch = NULL;
}

/* The slots of each row (rows lo .. lo + nrows - 1) in CSR form: *rfirst
 * (nrows + 1) and *rslots, sorted by column within the row. */
static int rows_csr(const PetscInt *ri, const PetscInt *ci, size_t n, PetscInt lo,
                    size_t nrows, size_t **rfirst, slot_col **rslots) {
  size_t *first = calloc(nrows + 2, sizeof *first);
  slot_col *slots = malloc((n + 1) * sizeof *slots);
  if (!first || !slots) {
    free(first);
    free(slots);
    return LOOM_ENOMEM;
  }
  for (size_t s = 0; s < n; s++)
    if (ri[s] >= 0)
      first[(size_t)(ri[s] - lo) + 2]++;
  for (size_t r = 0; r < nrows; r++)
    first[r + 2] += first[r + 1];
  for (size_t s = 0; s < n; s++)
    if (ri[s] >= 0)
      slots[first[(size_t)(ri[s] - lo) + 1]++] = (slot_col){ci[s], (int)s};
  for (size_t r = 0; r < nrows; r++)
    qsort(slots + first[r], first[r + 1] - first[r], sizeof *slots, by_col);
  *rfirst = first;
  *rslots = slots;
  return LOOM_OK;
}

/* entry, efirst, eslots from the slots of each row sorted by column: an
 * entry begins at each row's start and where the column changes. */
static int group_entries(loom_mat A, size_t n, const size_t *rfirst, size_t nrows,
                         const slot_col *slots) {
  size_t kept = rfirst[nrows];
  A->entry = malloc((n + 1) * sizeof *A->entry);
  A->efirst = malloc((kept + 2) * sizeof *A->efirst);
  A->eslots = malloc((kept + 1) * sizeof *A->eslots);
  if (!A->entry || !A->efirst || !A->eslots)
    return LOOM_ENOMEM;
  for (size_t s = 0; s < n; s++)
    A->entry[s] = -1;
  int e = -1;
  for (size_t r = 0; r < nrows; r++)
    for (size_t k = rfirst[r]; k < rfirst[r + 1]; k++) {
      if (k == rfirst[r] || slots[k].col != slots[k - 1].col)
        A->efirst[++e] = (int)k;
      A->entry[slots[k].slot] = e;
      A->eslots[k] = slots[k].slot;
    }
  A->nentries = e + 1;
  A->efirst[e + 1] = (int)kept;
  return LOOM_OK;
}

/* The entries of the current numbering (the design above). */
static int build_entries(loom_mat A) {
  loom_sparsity sp = A->sp;
  PetscInt *ri = NULL, *ci = NULL;
  int status = loomrt_sparsity_coo(sp, A->name, &ri, &ci);
  if (status != LOOM_OK)
    return status;
  size_t n = (size_t)sp->start[sp->npairs + 1];
  if (n >= (size_t)INT_MAX) {
    free(ri);
    free(ci);
    return loom_error_(LOOM_EINVAL, "matrix '%s': %zu element values, more than a loop "
                       "writing it (mode write) can index", A->name, n);
  }
  PetscInt lo = -1, hi = -1;
  for (size_t s = 0; s < n; s++)
    if (ri[s] >= 0) {
      lo = lo < 0 || ri[s] < lo ? ri[s] : lo;
      hi = ri[s] > hi ? ri[s] : hi;
    }
  size_t nrows = lo < 0 ? 0 : (size_t)(hi - lo + 1);
  size_t *rfirst = NULL;
  slot_col *slots = NULL;
  status = rows_csr(ri, ci, n, lo < 0 ? 0 : lo, nrows, &rfirst, &slots);
  free(ri);
  free(ci);
  if (status == LOOM_OK)
    status = group_entries(A, n, rfirst, nrows, slots);
  free(rfirst);
  free(slots);
  if (status != LOOM_OK) {
    entries_free(A);
    return loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory for the index of "
                       "its entries (a loop writing it)", A->name);
  }
  A->entries_epoch = A->epoch;
  return LOOM_OK;
}

/* ---- the loop ------------------------------------------------------------- */

/* Pair p's scratch, allocated at its first use. */
static double *pair_scratch(loom_mat A, int p) {
  loom_sparsity sp = A->sp;
  size_t n = (size_t)(sp->start[p + 1] - sp->start[p]);
  if (!A->scratch)
    A->scratch = calloc((size_t)sp->npairs + 1, sizeof *A->scratch);
  if (A->scratch && !A->scratch[p])
    A->scratch[p] = malloc((n + 1) * sizeof *A->scratch[p]);
  if (!A->scratch || !A->scratch[p]) {
    loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory for the element matrices "
                "of a loop writing it (%zu values)", A->name, n);
    return NULL;
  }
  memset(A->scratch[p], 0, n * sizeof *A->scratch[p]);
  return A->scratch[p];
}

static double *write_values_body(loom_mat A, loom_map rmap, loom_map cmap) {
  /* loom__mat_values's checks, renumbering and sync; its values unused */
  if (!loomrt_mat_pair_values(A, rmap, cmap, "loom__mat_write_values"))
    return NULL;
  if (A->entries_epoch != A->epoch || !A->entry) {
    entries_free(A);
    if (build_entries(A) != LOOM_OK)
      return NULL;
  }
  return pair_scratch(A, loomrt_sparsity_pair(A->sp, rmap, cmap));
}

/* On failure (NULL), the caller (a loop) leaves the communication
 * (loomrt_leave), as after its checks. */
double *loom__mat_write_values(loom_mat A, loom_map rmap, loom_map cmap) {
  double *values = write_values_body(A, rmap, cmap);
  if (!values)
    loomrt_leave(LOOM_EINVAL);
  return values;
}

/* best[e]: the winning slot of entry e among pair p's (-1: not reached). */
static void find_winners(const loom_mat A, int p, int *best) {
  loom_sparsity sp = A->sp;
  loom_set s = sp->rmaps[p]->from;
  const int *declared = loom__set_global(s);
  PetscCount lo = sp->start[p], b = s->size ? (sp->start[p + 1] - lo) / s->size : 1;
  for (int e = 0; e < s->size; e++)
    for (PetscCount k = 0; k < b; k++) {
      PetscCount slot = lo + (PetscCount)e * b + k;
      int id = A->entry[slot];
      if (id < 0)
        continue;
      int *w = &best[id];
      int was = *w < 0 ? -1 : (int)((*w - lo) / b);
      /* a later slot of the same element wins: k ascends */
      if (was < 0 || (declared ? declared[e] >= declared[was] : e >= was))
        *w = (int)slot;
    }
}

static int write_end_body(loom_mat A, loom_map rmap, loom_map cmap) {
  int status = loomrt_mat_usable(A, "loom__mat_write_end");
  int p = status == LOOM_OK ? loomrt_sparsity_pair(A->sp, rmap, cmap) : -1;
  if (status != LOOM_OK || p < 0 || !A->scratch || !A->scratch[p] || !A->entry ||
      A->entries_epoch != A->epoch)
    return status != LOOM_OK ? status
                             : loom_error_(LOOM_ESTATE, "matrix '%s': loom__mat_write_end "
                                           "without loom__mat_write_values", A->name);
  int *best = malloc(((size_t)A->nentries + 1) * sizeof *best);
  if (!best)
    return loom_error_(LOOM_ENOMEM, "matrix '%s': out of memory for the winners of a "
                       "loop writing it", A->name);
  for (int e = 0; e < A->nentries; e++)
    best[e] = -1;
  find_winners(A, p, best);
  const PetscCount lo = A->sp->start[p];
  for (int e = 0; e < A->nentries; e++) {
    if (best[e] < 0)
      continue;
    for (int k = A->efirst[e]; k < A->efirst[e + 1]; k++)
      A->values[A->eslots[k]] = 0;
    A->values[best[e]] = A->scratch[p][best[e] - lo];
  }
  free(best);
  A->pending = 1;
  return LOOM_OK;
}

/* On failure, the caller (a loop) leaves the communication. */
int loom__mat_write_end(loom_mat A, loom_map rmap, loom_map cmap) {
  return loomrt_leave(write_end_body(A, rmap, cmap));
}
