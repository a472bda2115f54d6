/*
 * plan/colour.c — building a colouring plan: its blocks, their colours
 * and the colours of the elements within each block (loomrt_plan_build,
 * for the cache of cache.c), and the target views of a loop's writes
 * (loomrt_plan_views), which the checker (check.c) and the loop-start
 * checks (loopstart.c) walk too.
 *
 * Design
 * ------
 * A plan covers a range [lo, hi) of the iteration set (cache.c).  The map
 * rows of the elements outside the range are never read (those of
 * non-executed halo elements hold -1).  Blocks and block_start use
 * absolute element indices; elem_colour is indexed by e - lo.  Target
 * sets are not cut: the masks below cover every target element.
 *
 * The plan splits its range into blocks of `block_size` consecutive
 * elements (the last one shorter) and colours them as PyOP2 and OP2 do:
 *
 *  - Targets.  Each plan argument (map, slot) names target elements: the
 *    entries of `slot` (or of every slot, for slot -1) of each element.
 *    Conflicts are per element of a target SET: two arguments whose maps
 *    point into the same set share that set's colour masks.  The distinct
 *    target sets are laid end to end in one array of uint32 masks.
 *
 *  - Block colours, in passes of 32.  In a pass, every block not yet
 *    coloured ORs the masks of all the target elements its elements write;
 *    it takes the lowest bit that is free, and sets that bit in those
 *    masks.  A block that finds all 32 bits taken waits for the next pass,
 *    which clears the masks and numbers its colours from 32 (then 64, ...).
 *    The blocks still waiting are kept in a list, so a pass only visits
 *    them.  Cost: O(entries written by the loop) per pass, plus clearing
 *    the masks (O(size of the target sets)) from the second pass on.
 *
 *  - Element colours, the same way within each block: masks start clear,
 *    and after each pass over a block only the masks that block touched
 *    are cleared again, so the total cost stays linear in the entries.
 *
 *  - nargs == 0: blocks only; every block has colour 0 and every element
 *    colour 0 (one colour; none for an empty range).
 *
 * Block and element colours are therefore greedy in ascending order of
 * block (element) id, which makes plans deterministic.  blocks_by_colour
 * lists the blocks colour by colour, ascending within a colour (a counting
 * sort of block_colour).
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "plan/plan_internal.h"

/* ---- targets ------------------------------------------------------------ */

size_t loomrt_plan_views(loom_set set, int nargs, const loom__plan_arg *args,
                         target_view *views) {
  size_t total = 0;
  for (int i = 0; i < nargs; i++) {
    loom_map map = args[i].map;
    target_view *v = &views[i];
    v->values = map ? map->values : NULL;
    v->dim = map ? map->dim : 1;
    v->lo = args[i].slot < 0 ? 0 : map ? args[i].slot : 0;
    v->hi = args[i].slot < 0 ? v->dim : v->lo + 1;
    v->map = map;
    v->to = map ? map->to : set;
    int j = 0;
    while (j < i && views[j].to != v->to)
      j++;
    if (j < i) {
      v->base = views[j].base;
    } else {
      v->base = total;
      total += (size_t)v->to->size;
    }
  }
  return total;
}

/* The OR of the masks of the targets element e writes. */
static uint32_t or_masks(const uint32_t *mask, const target_view *views,
                         int nv, int e) {
  uint32_t m = 0;
  for (int a = 0; a < nv; a++) {
    const target_view *v = &views[a];
    const uint32_t *base = mask + v->base;
    for (int s = v->lo; s < v->hi; s++)
      m |= base[target_of(v, e, s)];
  }
  return m;
}

/* mask[t] = (mask[t] & keep) | bit for the targets element e writes. */
static void update_masks(uint32_t *mask, const target_view *views, int nv,
                         int e, uint32_t keep, uint32_t bit) {
  for (int a = 0; a < nv; a++) {
    const target_view *v = &views[a];
    uint32_t *base = mask + v->base;
    for (int s = v->lo; s < v->hi; s++) {
      int t = target_of(v, e, s);
      base[t] = (base[t] & keep) | bit;
    }
  }
}

static int lowest_zero_bit(uint32_t m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(~m);
#else
  int c = 0;
  while (m & 1u) {
    m >>= 1;
    c++;
  }
  return c;
#endif
}

/* ---- colouring ---------------------------------------------------------- */

/* Colours the blocks; returns the number of colours, or -1 when out of
 * memory (not reported). */
static int colour_blocks(const loom__plan *pl, int *bcol, uint32_t *mask,
                         size_t ntargets, const target_view *views, int nv) {
  const int *start = pl->block_start;
  int *work = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)pl->nblocks + 1) * sizeof *work);
  if (!work)
    return -1;
  int nwork = pl->nblocks, ncolours = 0;
  for (int b = 0; b < nwork; b++)
    work[b] = b;
  for (int offset = 0; nwork > 0; offset += 32) {
    if (offset > 0)
      memset(mask, 0, ntargets * sizeof *mask);
    int kept = 0;
    for (int k = 0; k < nwork; k++) {
      int b = work[k];
      uint32_t m = 0;
      for (int e = start[b]; e < start[b + 1] && m != UINT32_MAX; e++)
        m |= or_masks(mask, views, nv, e);
      if (m == UINT32_MAX) {
        work[kept++] = b; /* next pass */
        continue;
      }
      int c = lowest_zero_bit(m);
      bcol[b] = offset + c;
      if (offset + c + 1 > ncolours)
        ncolours = offset + c + 1;
      for (int e = start[b]; e < start[b + 1]; e++)
        update_masks(mask, views, nv, e, UINT32_MAX, UINT32_C(1) << c);
    }
    nwork = kept;
  }
  loomrt_free(work);
  return ncolours;
}

/* Colours the elements [first, end) of a block into ecol[e - first]
 * (masks clear on entry and on return); returns the number of colours the
 * block uses. */
static int colour_elements(int first, int end, int *ecol, uint32_t *mask,
                           const target_view *views, int nv) {
  int ncolours = 0, left = end - first;
  for (int e = first; e < end; e++)
    ecol[e - first] = -1;
  for (int offset = 0; left > 0; offset += 32) {
    for (int e = first; e < end; e++) {
      if (ecol[e - first] >= 0)
        continue;
      uint32_t m = or_masks(mask, views, nv, e);
      if (m == UINT32_MAX)
        continue;
      int c = lowest_zero_bit(m);
      ecol[e - first] = offset + c;
      if (offset + c + 1 > ncolours)
        ncolours = offset + c + 1;
      left--;
      update_masks(mask, views, nv, e, UINT32_MAX, UINT32_C(1) << c);
    }
    for (int e = first; e < end; e++) /* clear what this block touched */
      update_masks(mask, views, nv, e, 0, 0);
  }
  return ncolours;
}

/* The element colours of every block, into belem and ecol (masks clear on
 * entry and on return), and max_elem_colours. */
static void colour_all_elements(loom__plan *pl, int *belem, int *ecol,
                                uint32_t *mask, const target_view *views,
                                int nv) {
  const int *bstart = pl->block_start;
  pl->max_elem_colours = 0;
  for (int b = 0; b < pl->nblocks; b++) {
    belem[b] = colour_elements(bstart[b], bstart[b + 1],
                               ecol + (bstart[b] - pl->lo), mask, views, nv);
    if (belem[b] > pl->max_elem_colours)
      pl->max_elem_colours = belem[b];
  }
}

/* No plan argument, or no block: one colour for every block and element
 * (none for an empty range). */
static void colour_trivially(loom__plan *pl, int *bcol, int *belem,
                             int *ecol) {
  for (int b = 0; b < pl->nblocks; b++) {
    bcol[b] = 0;
    belem[b] = 1;
  }
  for (int e = 0; e < pl->nelems; e++)
    ecol[e] = 0;
  pl->ncolours = pl->nblocks > 0 ? 1 : 0;
  pl->max_elem_colours = pl->nblocks > 0 ? 1 : 0;
}

/* Colours the blocks into bcol, then the elements of each into belem and
 * ecol, through `ntargets` masks; LOOM_OK or LOOM_ENOMEM (not
 * reported). */
static int colour_masked(loom__plan *pl, int *bcol, int *belem, int *ecol,
                         size_t ntargets, const target_view *views, int nv) {
  uint32_t *mask =
      loomrt_calloc(LOOM_MEM_PLANS, ntargets ? ntargets : 1, sizeof *mask);
  if (!mask)
    return LOOM_ENOMEM;
  pl->ncolours = colour_blocks(pl, bcol, mask, ntargets, views, nv);
  if (pl->ncolours >= 0) {
    memset(mask, 0, ntargets * sizeof *mask);
    colour_all_elements(pl, belem, ecol, mask, views, nv);
  }
  loomrt_free(mask);
  return pl->ncolours < 0 ? LOOM_ENOMEM : LOOM_OK;
}

/* ---- building ----------------------------------------------------------- */

/* blocks_by_colour and colour_start from block_colour (counting sort). */
static void index_colours(loom__plan *pl, const int *bcol, int *cstart,
                          int *by_colour) {
  memset(cstart, 0, ((size_t)pl->ncolours + 1) * sizeof *cstart);
  for (int b = 0; b < pl->nblocks; b++)
    cstart[bcol[b] + 1]++;
  for (int c = 0; c < pl->ncolours; c++)
    cstart[c + 1] += cstart[c];
  for (int b = 0; b < pl->nblocks; b++) /* ascending b: stable */
    by_colour[cstart[bcol[b]]++] = b;
  for (int c = pl->ncolours; c > 0; c--) /* undo the increments */
    cstart[c] = cstart[c - 1];
  cstart[0] = 0;
}

/* The blocks into own->per_block's block_start, then the colours of the
 * blocks and of the elements; LOOM_OK or LOOM_ENOMEM (not reported). */
static int colour(const plan_key *key, loom__plan *pl, plan_arrays *own,
                  target_view *views) {
  int nb = pl->nblocks;
  int *bstart = own->per_block, *bcol = bstart + nb + 1, *belem = bcol + nb;
  for (int b = 0; b < nb; b++)
    bstart[b] = key->lo + (int)((long long)b * key->block_size);
  bstart[nb] = key->hi;
  pl->block_start = bstart;
  size_t ntargets = loomrt_plan_views(key->set, key->nargs, key->args, views);
  if (key->nargs > 0 && nb > 0)
    return colour_masked(pl, bcol, belem, own->per_elem, ntargets, views,
                         key->nargs);
  colour_trivially(pl, bcol, belem, own->per_elem);
  return LOOM_OK;
}

/* blocks_by_colour and colour_start into own->per_colour, and the plan's
 * pointers to its colours; LOOM_OK or LOOM_ENOMEM (not reported). */
static int index_plan(loom__plan *pl, plan_arrays *own) {
  size_t nbz = (size_t)pl->nblocks;
  own->per_colour = loomrt_alloc(LOOM_MEM_PLANS,
                                 ((size_t)pl->ncolours + 1 + nbz) * sizeof(int));
  if (!own->per_colour)
    return LOOM_ENOMEM;
  int *bcol = own->per_block + nbz + 1;
  int *cstart = own->per_colour, *by_colour = cstart + pl->ncolours + 1;
  index_colours(pl, bcol, cstart, by_colour);
  pl->colour_start = cstart;
  pl->blocks_by_colour = by_colour;
  pl->block_colour = bcol;
  pl->elem_colour = own->per_elem;
  pl->block_elem_colours = bcol + nbz;
  return LOOM_OK;
}

int loomrt_plan_build(const plan_key *key, loom__plan *pl, plan_arrays *own) {
  int n = key->hi - key->lo, bs = key->block_size;
  pl->loop = key->loop;
  pl->lo = key->lo;
  pl->hi = key->hi;
  pl->nelems = n;
  pl->block_size = bs;
  pl->nblocks = (int)(((long long)n + bs - 1) / bs);
  size_t nbz = (size_t)pl->nblocks;
  own->per_block = loomrt_alloc(LOOM_MEM_PLANS, (3 * nbz + 1) * sizeof(int));
  own->per_elem = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)n + 1) * sizeof(int));
  target_view *views = loomrt_alloc(LOOM_MEM_PLANS,
                                    ((size_t)key->nargs + 1) * sizeof *views);
  int status = LOOM_ENOMEM;
  if (own->per_block && own->per_elem && views)
    status = colour(key, pl, own, views);
  loomrt_free(views);
  return status == LOOM_OK ? index_plan(pl, own) : status;
}
