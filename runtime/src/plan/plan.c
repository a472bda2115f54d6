/*
 * plan/plan.c — execution plans: blocks, two-level colouring, the plan cache
 * and the exhaustive plan checker (loom__plan_get, loom__plan_get_range,
 * loom__plan_check), and the block size (loom_set_block_size,
 * loom_block_size).
 *
 * Design
 * ------
 * A plan covers a range [lo, hi) of the iteration set: the whole set
 * (loom__plan_get is loom__plan_get_range(.., 0, size, ..)), or with MPI
 * one section of the local numbering (core | owned | executed halo |
 * non-executed halo), e.g. [0, core) then [core, exec).  The map rows of
 * the elements outside the range are never read (those of non-executed
 * halo elements hold -1).  Blocks and block_start use absolute element
 * indices; elem_colour is indexed by e - lo.  Target sets are not cut:
 * the masks below cover every target element.
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
 *
 * Cache.  A linked list of plans keyed by (loop string address, set,
 * range lo and hi, block size, the argument list compared entry by
 * entry): two ranges of one loop are two plans, and loom__plan_get hits
 * the plan of loom__plan_get_range(.., 0, size, ..).  Lookups move the
 * hit to the front.  loom_set_block_size() with a new size, a
 * renumbering (renumber.c) and loom_exit() drop every plan; a pointer to a
 * dropped plan must not be used any more (generated code asks for the
 * plan at every loop).
 *
 * Checker.  Independent of the builder's colouring (they share only
 * make_views, the layout of the target elements; the unit tests check
 * plans against a brute force as well): first the range (lo <= hi within
 * the set, nelems == hi - lo) and the structure (blocks contiguous,
 * non-empty, at most block_size long and covering the plan's own
 * [lo, hi) exactly, so every element of the range is in exactly one block
 * once and no block reaches outside it: only rows in range are read
 * next; colours in range; blocks_by_colour/colour_start consistent with
 * block_colour; element colour counts consistent), then the colour
 * property with "stamp" arrays over the target elements: blocks are
 * visited colour by colour and each target element remembers the colour
 * and block that last wrote it, so a second block of the same colour
 * writing it is a violation; elements are visited block by block and,
 * within a block, colour by colour (a counting sort), with a stamp per
 * (block, colour).  Cost: linear in the entries plus the target sets'
 * sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hooks.h"
#include "plan/plan.h"

/* ---- block size -------------------------------------------------------- */

static int block_size = LOOM_DEFAULT_BLOCK_SIZE;
static unsigned plans_session; /* the session the plans are of */

void loomrt_plan_session(void) {
  unsigned s = loomrt_session();
  if (!s || s == plans_session)
    return;
  plans_session = s;
  loomrt_plan_drop_all(); /* none: the last session's end dropped them */
  block_size = loomrt_session_block_size();
  loomrt_at_session_exit(loomrt_plan_drop_all);
}

int loom_block_size(void) {
  loomrt_plan_session();
  return block_size;
}

int loom_set_block_size(int size) {
  loomrt_plan_session();
  int status = loomrt_require_active("loom_set_block_size");
  if (status != LOOM_OK)
    return status;
  if (size < 1)
    return loom_error_(LOOM_EINVAL,
                       "loom_set_block_size: size is %d, must be >= 1", size);
  if (size != block_size) {
    loomrt_plan_drop_all();
    block_size = size;
  }
  return LOOM_OK;
}

/* ---- the cache --------------------------------------------------------- */

typedef struct plan_entry {
  struct plan_entry *next;
  /* key */
  const char *loop;
  loom_set set;
  int lo, hi; /* the range of elements */
  int block_size;
  int nargs;
  loom__plan_arg *args; /* owned copy, NULL when nargs == 0 */
  /* value */
  loom__plan plan;
  int *per_block;  /* block_start, block_colour, block_elem_colours */
  int *per_elem;   /* elem_colour */
  int *per_colour; /* colour_start, blocks_by_colour */
} plan_entry;

static plan_entry *plans = NULL;

static void entry_free(plan_entry *p) {
  loomrt_free(p->args);
  loomrt_free(p->per_block);
  loomrt_free(p->per_elem);
  loomrt_free(p->per_colour);
  loomrt_free(p);
}

static void uniques_drop_all(void);

void loomrt_plan_drop_all(void) {
  loomrt_ocplan_drop_all();
  uniques_drop_all();
  while (plans) {
    plan_entry *next = plans->next;
    entry_free(plans);
    plans = next;
  }
}

static int key_matches(const plan_entry *p, const char *loop, loom_set set,
                       int lo, int hi, int nargs, const loom__plan_arg *args) {
  if (p->loop != loop || p->set != set || p->lo != lo || p->hi != hi ||
      p->block_size != block_size || p->nargs != nargs)
    return 0;
  for (int i = 0; i < nargs; i++)
    if (p->args[i].map != args[i].map || p->args[i].slot != args[i].slot)
      return 0;
  return 1;
}

/* ---- arguments and targets --------------------------------------------- */

/* Checks the iteration set and the plan arguments of `call`. */
static int check_args(const char *call, const char *loop, loom_set set,
                      int nargs, const loom__plan_arg *args) {
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: iteration set %s", call,
                       loop, problem);
  if (nargs < 0)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: nargs is %d, must be >= 0",
                       call, loop, nargs);
  if (nargs > 0 && !args)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: args is NULL but nargs is %d",
                       call, loop, nargs);
  for (int i = 0; i < nargs; i++) {
    loom_map map = args[i].map;
    if (!map && args[i].slot == 0)
      continue; /* the loop's own element */
    problem = loomrt_map_problem(map);
    if (problem)
      return loom_error_(LOOM_EINVAL, "%s: loop %s: plan argument %d: map %s",
                         call, loop, i, problem);
    if (map->from != set)
      return loom_error_(LOOM_EMISMATCH,
                         "%s: loop %s: plan argument %d: map '%s' maps from "
                         "set '%s', not from the iteration set '%s'",
                         call, loop, i, map->name, map->from->name, set->name);
    if (args[i].slot < -1 || args[i].slot >= map->dim)
      return loom_error_(LOOM_EINVAL,
                         "%s: loop %s: plan argument %d: slot %d of map '%s' "
                         "is outside [-1, %d)",
                         call, loop, i, args[i].slot, map->name, map->dim);
  }
  return LOOM_OK;
}

/* ---- ranges ------------------------------------------------------------ */

int loomrt_check_range(const char *call, const char *loop, loom_set set,
                       int lo, int hi) {
  if (lo < 0 || lo > hi || hi > set->size)
    return loom_error_(LOOM_EINVAL,
                       "%s: loop %s: range [%d, %d) is not within the %d "
                       "elements of set '%s' (need 0 <= lo <= hi <= %d)",
                       call, loop, lo, hi, set->size, set->name, set->size);
  return LOOM_OK;
}

const char *loomrt_range_note(char *buf, size_t size, loom_set set, int lo,
                              int hi) {
  if (lo == 0 && hi == set->size)
    buf[0] = '\0';
  else
    snprintf(buf, size, " [%d, %d) of %d", lo, hi, set->size);
  return buf;
}

/* One argument, ready for the inner loops. */
typedef struct target_view {
  const int *values; /* the map's entries; NULL: the element itself */
  int dim;
  int lo, hi;  /* the slots written: [lo, hi) */
  size_t base; /* where the target set's elements start in the masks */
  loom_map map; /* NULL for the element itself */
  loom_set to;  /* the target set */
} target_view;

/* The target element e writes through slot s of view v. */
static inline int target_of(const target_view *v, int e, int s) {
  return v->values ? v->values[(size_t)e * (size_t)v->dim + (size_t)s] : e;
}

/* Fills views[0..nargs) and returns the number of target elements (the
 * sizes of the distinct target sets, added).  A plan argument without a
 * map is the loop's own element, of the iteration set `set`. */
static size_t make_views(loom_set set, int nargs, const loom__plan_arg *args,
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

/* ---- building ---------------------------------------------------------- */

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

/* Builds the plan's arrays into `p` (key already set); LOOM_OK or
 * LOOM_ENOMEM (not reported). */
static int build(plan_entry *p) {
  loom__plan *pl = &p->plan;
  int lo = p->lo, n = p->hi - p->lo, bs = p->block_size;
  pl->loop = p->loop;
  pl->lo = lo;
  pl->hi = p->hi;
  pl->nelems = n;
  pl->block_size = bs;
  pl->nblocks = (int)(((long long)n + bs - 1) / bs);
  int nb = pl->nblocks;
  size_t nbz = (size_t)nb;
  p->per_block = loomrt_alloc(LOOM_MEM_PLANS, (3 * nbz + 1) * sizeof(int));
  p->per_elem = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)n + 1) * sizeof(int));
  target_view *views = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)p->nargs + 1) * sizeof *views);
  if (!p->per_block || !p->per_elem || !views) {
    loomrt_free(views);
    return LOOM_ENOMEM;
  }
  int *bstart = p->per_block, *bcol = bstart + nbz + 1,
      *belem = bcol + nbz, *ecol = p->per_elem;
  for (int b = 0; b < nb; b++)
    bstart[b] = lo + (int)((long long)b * bs);
  bstart[nb] = p->hi;
  pl->block_start = bstart;

  size_t ntargets = make_views(p->set, p->nargs, p->args, views);
  uint32_t *mask = NULL;
  if (p->nargs > 0 && nb > 0) {
    mask = loomrt_calloc(LOOM_MEM_PLANS, ntargets ? ntargets : 1, sizeof *mask);
    if (!mask) {
      loomrt_free(views);
      return LOOM_ENOMEM;
    }
    pl->ncolours = colour_blocks(pl, bcol, mask, ntargets, views, p->nargs);
    if (pl->ncolours < 0) {
      loomrt_free(mask);
      loomrt_free(views);
      return LOOM_ENOMEM;
    }
    memset(mask, 0, ntargets * sizeof *mask);
    pl->max_elem_colours = 0;
    for (int b = 0; b < nb; b++) {
      belem[b] = colour_elements(bstart[b], bstart[b + 1],
                                 ecol + (bstart[b] - lo), mask, views,
                                 p->nargs);
      if (belem[b] > pl->max_elem_colours)
        pl->max_elem_colours = belem[b];
    }
    loomrt_free(mask);
  } else {
    for (int b = 0; b < nb; b++) {
      bcol[b] = 0;
      belem[b] = 1;
    }
    for (int e = 0; e < n; e++)
      ecol[e] = 0;
    pl->ncolours = nb > 0 ? 1 : 0;
    pl->max_elem_colours = nb > 0 ? 1 : 0;
  }
  loomrt_free(views);

  p->per_colour = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)pl->ncolours + 1 + nbz) * sizeof(int));
  if (!p->per_colour)
    return LOOM_ENOMEM;
  int *cstart = p->per_colour, *by_colour = cstart + pl->ncolours + 1;
  index_colours(pl, bcol, cstart, by_colour);

  pl->colour_start = cstart;
  pl->blocks_by_colour = by_colour;
  pl->block_colour = bcol;
  pl->elem_colour = ecol;
  pl->block_elem_colours = belem;
  return LOOM_OK;
}

/* A new plan for the key, in the cache; NULL after reporting. */
static plan_entry *plan_new(const char *loop, loom_set set, int lo, int hi,
                            int nargs, const loom__plan_arg *args) {
  double t0, t1;
  loom_timers(NULL, &t0);
  plan_entry *p = loomrt_calloc(LOOM_MEM_PLANS, 1, sizeof *p);
  if (p && nargs > 0) {
    p->args = loomrt_alloc(LOOM_MEM_PLANS, (size_t)nargs * sizeof *p->args);
    if (p->args)
      memcpy(p->args, args, (size_t)nargs * sizeof *p->args);
  }
  if (!p || (nargs > 0 && !p->args)) {
    if (p)
      entry_free(p);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory for the plan of set '%s'",
                loomrt_loop_label(loop), set->name);
    return NULL;
  }
  p->loop = loop;
  p->set = set;
  p->lo = lo;
  p->hi = hi;
  p->block_size = block_size;
  p->nargs = nargs;
  if (build(p) != LOOM_OK) {
    entry_free(p);
    loom_error_(LOOM_ENOMEM,
                "loop %s: out of memory building the plan of set '%s' (%d "
                "elements)",
                loomrt_loop_label(loop), set->name, hi - lo);
    return NULL;
  }
  p->next = plans;
  plans = p;
  loom_timers(NULL, &t1);
  if (loomrt_diag()) {
    const loom__plan *pl = &p->plan;
    char range[64];
    fprintf(stderr,
            "loom: plan %s: set '%s' %d elements%s, %d blocks of %d, %d block "
            "colours, up to %d element colours, built in %.3f ms\n",
            loomrt_loop_label(loop), set->name, pl->nelems,
            loomrt_range_note(range, sizeof range, set, lo, hi), pl->nblocks,
            pl->block_size, pl->ncolours, pl->max_elem_colours,
            (t1 - t0) * 1e3);
    fflush(stderr);
  }
  return p;
}

/* The plan for [lo, hi) of `set` (the whole set when `whole`, after the
 * set was checked), from the cache or built; `call` names the entry point
 * for messages.  NULL after reporting. */
static const loom__plan *plan_lookup(const char *call, const char *loop,
                                     loom_set set, int whole, int lo, int hi,
                                     int nargs, const loom__plan_arg *args) {
  loomrt_plan_session();
  const char *label = loomrt_loop_label(loop);
  if (loomrt_require_active(call) != LOOM_OK ||
      check_args(call, label, set, nargs, args) != LOOM_OK)
    return NULL;
  if (whole) {
    lo = 0;
    hi = set->size;
  }
  if (loomrt_check_range(call, label, set, lo, hi) != LOOM_OK ||
      loomrt_renumber_lazy() != LOOM_OK)
    return NULL;
  for (plan_entry **link = &plans; *link; link = &(*link)->next) {
    plan_entry *p = *link;
    if (key_matches(p, loop, set, lo, hi, nargs, args)) {
      *link = p->next; /* move to the front */
      p->next = plans;
      plans = p;
      return &p->plan;
    }
  }
  plan_entry *p = plan_new(loop, set, lo, hi, nargs, args);
  if (p && loomrt_check_plans() &&
      loom__plan_check(&p->plan, set, nargs, args) != LOOM_OK)
    return NULL;
  return p ? &p->plan : NULL;
}

const loom__plan *loom__plan_get(const char *loop, loom_set set, int nargs,
                                 const loom__plan_arg *args) {
  return plan_lookup("loom__plan_get", loop, set, 1, 0, 0, nargs, args);
}

const loom__plan *loom__plan_get_range(const char *loop, loom_set set, int lo,
                                       int hi, int nargs,
                                       const loom__plan_arg *args) {
  return plan_lookup("loom__plan_get_range", loop, set, 0, lo, hi, nargs,
                     args);
}

/* ---- a loop's start ------------------------------------------------------ */

static int loom__check_set_body(loom_set set, const char *loop);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_set(loom_set set, const char *loop) {
  return loomrt_leave(loom__check_set_body(set, loop));
}

static int loom__check_set_body(loom_set set, const char *loop) {
  loomrt_loop_site(loop); /* a loop's first check: its agreements' line */
  int status = loomrt_require_active("loom__check_set");
  if (status != LOOM_OK)
    return status;
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EMISMATCH, "loop %s: iteration set %s",
                       loomrt_loop_label(loop), problem);
  return loomrt_renumber_lazy(); /* $LOOM_RENUMBER=1: at the first loop (renumber.c) */
}

/* ---- writes through maps that meet ------------------------------------------ */

/* Per (loop, set, plan arguments): for loom__check_unique, that the writes
 * reach each target once; for loom__write_winners, the winner of each
 * target.  Dropped with the plans (renumbering and partitioning change the
 * numbering). */
typedef struct unique_entry {
  struct unique_entry *next;
  const char *loop;
  loom_set set;
  int nargs;
  loom__plan_arg args[8];
  int *winner; /* loom__write_winners: per target element, or NULL */
} unique_entry;

static unique_entry *uniques = NULL;

static void uniques_drop_all(void) {
  while (uniques) {
    unique_entry *next = uniques->next;
    loomrt_free(uniques->winner);
    loomrt_free(uniques);
    uniques = next;
  }
}

static unique_entry *unique_find(const char *loop, loom_set set, int nargs,
                                 const loom__plan_arg *args, int winners) {
  for (unique_entry *u = uniques; u; u = u->next)
    if (u->loop == loop && u->set == set && u->nargs == nargs &&
        !u->winner == !winners &&
        memcmp(u->args, args, (size_t)nargs * sizeof *args) == 0)
      return u;
  return NULL;
}

static int unique_known(const char *loop, loom_set set, int nargs,
                        const loom__plan_arg *args) {
  return unique_find(loop, set, nargs, args, 0) != NULL;
}

/* The declared number of local element e of `set`, for messages. */
static int declared(loom_set set, int e) {
  const int *g = loom__set_global(set);
  return g ? g[e] : e;
}

/* The first target reached by two elements, reported; LOOM_OK if none. */
static int find_meeting(const char *loop, loom_set set, int n,
                        const target_view *views, int nv, int *owner) {
  for (int e = 0; e < n; e++)
    for (int a = 0; a < nv; a++) {
      const target_view *v = &views[a];
      for (int s = v->lo; s < v->hi; s++) {
        int t = target_of(v, e, s);
        int *o = &owner[v->base + (size_t)t];
        if (*o >= 0 && *o != e)
          return loom_error_(
              LOOM_EINVAL,
              "loop %s writes element %d of set '%s' (mode write or rw, through "
              "map '%s') from elements %d and %d of set '%s': the result would "
              "depend on the order of the elements; use 'inc', or a map that "
              "reaches each element from one element only",
              loop, declared(v->to, t), v->to->name, v->map ? v->map->name : "?",
              declared(set, *o), declared(set, e), set->name);
        *o = e;
      }
    }
  return LOOM_OK;
}

static int loom__check_unique_body(const char *loop, loom_set set, int nargs, const loom__plan_arg *args);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_unique(const char *loop, loom_set set, int nargs, const loom__plan_arg *args) {
  loomrt_plan_session();
  return loomrt_leave(loom__check_unique_body(loop, set, nargs, args));
}

static int loom__check_unique_body(const char *loop, loom_set set, int nargs,
                       const loom__plan_arg *args) {
  const char *label = loomrt_loop_label(loop);
  if (loomrt_require_active("loom__check_unique") != LOOM_OK ||
      check_args("loom__check_unique", label, set, nargs, args) != LOOM_OK)
    return LOOM_EINVAL;
  if (nargs > 8)
    return loom_error_(LOOM_EINVAL, "loom__check_unique: loop %s: %d plan arguments, "
                       "at most 8", label, nargs);
  if (unique_known(loop, set, nargs, args))
    return LOOM_OK;
  target_view views[8];
  size_t nt = make_views(set, nargs, args, views);
  int *owner = loomrt_alloc(LOOM_MEM_PLANS, (nt + 1) * sizeof *owner);
  unique_entry *u = loomrt_alloc(LOOM_MEM_PLANS, sizeof *u);
  if (!owner || !u) {
    loomrt_free(owner);
    loomrt_free(u);
    return loom_error_(LOOM_ENOMEM, "loop %s: out of memory checking its writes "
                       "through maps", label);
  }
  for (size_t t = 0; t < nt; t++)
    owner[t] = -1;
  /* every executed element: without MPI the set, with it [0, exec) */
  int status = find_meeting(label, set, loom__set_exec(set), views, nargs, owner);
  loomrt_free(owner);
  if (status != LOOM_OK) {
    loomrt_free(u);
    return status;
  }
  *u = (unique_entry){uniques, loop, set, nargs, {{0}}, NULL};
  memcpy(u->args, args, (size_t)nargs * sizeof *args);
  uniques = u;
  return LOOM_OK;
}

/* winner[base + t]: the element with the highest declared number among
 * those writing target t through the views (-1: none). */
static void find_winners(loom_set set, int n, const target_view *views, int nv,
                         int *winner) {
  const int *declared_of = loom__set_global(set);
  for (int e = 0; e < n; e++)
    for (int a = 0; a < nv; a++) {
      const target_view *v = &views[a];
      for (int s = v->lo; s < v->hi; s++) {
        int *w = &winner[v->base + (size_t)target_of(v, e, s)];
        if (*w < 0 || (declared_of ? declared_of[e] > declared_of[*w] : e > *w))
          *w = e;
      }
    }
}

const int *loom__write_winners(const char *loop, loom_set set, int nargs,
                               const loom__plan_arg *args) {
  loomrt_plan_session();
  const char *label = loomrt_loop_label(loop);
  if (loomrt_require_active("loom__write_winners") != LOOM_OK ||
      check_args("loom__write_winners", label, set, nargs, args) != LOOM_OK)
    return NULL;
  if (nargs < 1 || nargs > 8) {
    loom_error_(LOOM_EINVAL, "loom__write_winners: loop %s: %d plan arguments, "
                "1 to 8", label, nargs);
    return NULL;
  }
  const unique_entry *known = unique_find(loop, set, nargs, args, 1);
  if (known)
    return known->winner;
  target_view views[8];
  size_t nt = make_views(set, nargs, args, views);
  unique_entry *u = loomrt_alloc(LOOM_MEM_PLANS, sizeof *u);
  int *winner = loomrt_alloc(LOOM_MEM_PLANS, (nt + 1) * sizeof *winner);
  if (!u || !winner) {
    loomrt_free(u);
    loomrt_free(winner);
    loom_error_(LOOM_ENOMEM, "loop %s: out of memory for the winners of its writes "
                "through maps", label);
    return NULL;
  }
  for (size_t t = 0; t < nt; t++)
    winner[t] = -1;
  /* every executed element: without MPI the set, with it [0, exec) */
  find_winners(set, loom__set_exec(set), views, nargs, winner);
  *u = (unique_entry){uniques, loop, set, nargs, {{0}}, winner};
  memcpy(u->args, args, (size_t)nargs * sizeof *args);
  uniques = u;
  return winner;
}

/* ---- checking ---------------------------------------------------------- */

#define VIOLATION(...) loom_error_(LOOM_EMISMATCH, __VA_ARGS__)

/* The range of a plan: within the set, nelems consistent with it. */
static int check_plan_range(const loom__plan *pl, loom_set set,
                            const char *loop) {
  const char *s = set->name;
  if (pl->lo < 0 || pl->lo > pl->hi || pl->hi > set->size)
    return VIOLATION("loop %s: plan for set '%s': covers [%d, %d), not a "
                     "range of the set's %d elements",
                     loop, s, pl->lo, pl->hi, set->size);
  if (pl->nelems != pl->hi - pl->lo)
    return VIOLATION("loop %s: plan for set '%s': has %d elements, its range "
                     "[%d, %d) has %d",
                     loop, s, pl->nelems, pl->lo, pl->hi, pl->hi - pl->lo);
  return LOOM_OK;
}

/* The structure of a plan (its range already checked): blocks, colour
 * ranges, colour counts. */
static int check_structure(const loom__plan *pl, loom_set set,
                           const char *loop) {
  const char *s = set->name;
  if (pl->block_size < 1 || pl->nblocks < 0 || pl->ncolours < 0)
    return VIOLATION("loop %s: plan for set '%s': block size %d, %d blocks, "
                     "%d colours",
                     loop, s, pl->block_size, pl->nblocks, pl->ncolours);
  int nb = pl->nblocks, nc = pl->ncolours;
  if (!pl->block_start || !pl->colour_start ||
      (nb > 0 && (!pl->blocks_by_colour || !pl->block_colour ||
                  !pl->block_elem_colours)) ||
      (pl->nelems > 0 && !pl->elem_colour))
    return VIOLATION("loop %s: plan for set '%s': an array is NULL", loop, s);
  const int *start = pl->block_start;
  if (start[0] != pl->lo)
    return VIOLATION("loop %s: plan for set '%s': block 0 starts at element "
                     "%d, not at the range's start %d",
                     loop, s, start[0], pl->lo);
  for (int b = 0; b < nb; b++) {
    long long len = (long long)start[b + 1] - start[b];
    if (len == 0)
      return VIOLATION("loop %s: plan for set '%s': block %d is [%d, %d): "
                       "empty",
                       loop, s, b, start[b], start[b + 1]);
    if (len < 0)
      return VIOLATION("loop %s: plan for set '%s': block %d is [%d, %d): "
                       "block %d starts before it ends, so elements are in "
                       "two blocks",
                       loop, s, b, start[b], start[b + 1], b + 1);
    if (len > pl->block_size)
      return VIOLATION("loop %s: plan for set '%s': block %d is [%d, %d), "
                       "more than the block size %d",
                       loop, s, b, start[b], start[b + 1], pl->block_size);
  }
  if (start[nb] != pl->hi)
    return VIOLATION("loop %s: plan for set '%s': the blocks end at element "
                     "%d, not at the range's end %d",
                     loop, s, start[nb], pl->hi);
  if (nb > 0 && nc < 1)
    return VIOLATION("loop %s: plan for set '%s': %d blocks but no colour",
                     loop, s, nb);
  for (int b = 0; b < nb; b++)
    if (pl->block_colour[b] < 0 || pl->block_colour[b] >= nc)
      return VIOLATION("loop %s: plan for set '%s': block %d has colour %d, "
                       "outside [0, %d)",
                       loop, s, b, pl->block_colour[b], nc);
  const int *cs = pl->colour_start;
  if (cs[0] != 0 || cs[nc] != nb)
    return VIOLATION("loop %s: plan for set '%s': colour_start runs from %d "
                     "to %d, not from 0 to %d blocks",
                     loop, s, cs[0], cs[nc], nb);
  for (int c = 0; c < nc; c++) {
    if (cs[c + 1] < cs[c] || cs[c + 1] > nb)
      return VIOLATION("loop %s: plan for set '%s': colour %d's range [%d, "
                       "%d) of blocks_by_colour is reversed or too long",
                       loop, s, c, cs[c], cs[c + 1]);
    for (int k = cs[c]; k < cs[c + 1]; k++) {
      int b = pl->blocks_by_colour[k];
      if (b < 0 || b >= nb || pl->block_colour[b] != c)
        return VIOLATION("loop %s: plan for set '%s': blocks_by_colour[%d] "
                         "is block %d, listed under colour %d but %s",
                         loop, s, k, b, c,
                         b < 0 || b >= nb ? "no such block"
                                          : "block_colour says otherwise");
      if (k > cs[c] && b <= pl->blocks_by_colour[k - 1])
        return VIOLATION("loop %s: plan for set '%s': blocks_by_colour[%d] "
                         "is block %d, not after block %d of the same colour "
                         "%d",
                         loop, s, k, b, pl->blocks_by_colour[k - 1], c);
    }
  }
  int max = 0;
  for (int b = 0; b < nb; b++) {
    int k = pl->block_elem_colours[b], len = start[b + 1] - start[b];
    if (k < 1 || k > len)
      return VIOLATION("loop %s: plan for set '%s': block %d uses %d element "
                       "colours, outside [1, %d]",
                       loop, s, b, k, len);
    if (k > max)
      max = k;
    for (int e = start[b]; e < start[b + 1]; e++) {
      int c = pl->elem_colour[e - pl->lo];
      if (c < 0 || c >= k)
        return VIOLATION("loop %s: plan for set '%s': element %d of block %d "
                         "has colour %d, outside the block's [0, %d)",
                         loop, s, e, b, c, k);
    }
  }
  if (pl->max_elem_colours != max)
    return VIOLATION("loop %s: plan for set '%s': max_elem_colours is %d, "
                     "the blocks use up to %d",
                     loop, s, pl->max_elem_colours, max);
  return LOOM_OK;
}

/* Per target element: the stamp of its last write (a colour, or a
 * (block, colour) group), and which block and element wrote it. */
typedef struct stamps {
  int *stamp, *block, *elem;
} stamps;

/* Records that element e of block b, in group `g`, writes its targets;
 * reports a target already written in group g by another block (blocks
 * == 1) or another element.  `what` describes the group in the message. */
static int stamp_element(stamps *st, const target_view *views, int nv, int g,
                         int b, int e, int blocks, int colour,
                         const char *loop, loom_set set) {
  for (int a = 0; a < nv; a++) {
    const target_view *v = &views[a];
    for (int s = v->lo; s < v->hi; s++) {
      int target = target_of(v, e, s);
      size_t t = v->base + (size_t)target;
      int clash = st->stamp[t] == g &&
                  (blocks ? st->block[t] != b : st->elem[t] != e);
      char how[128];
      if (v->map)
        snprintf(how, sizeof how, "through map '%s' slot %d", v->map->name, s);
      else
        snprintf(how, sizeof how, "directly");
      if (clash && blocks)
        return VIOLATION(
            "loop %s: plan for set '%s': blocks %d and %d both have colour "
            "%d and write element %d of set '%s' (element %d of block %d, "
            "and element %d of block %d %s)",
            loop, set->name, st->block[t], b, colour, target, v->to->name,
            st->elem[t], st->block[t], e, b, how);
      if (clash)
        return VIOLATION(
            "loop %s: plan for set '%s': elements %d and %d of block %d both "
            "have colour %d and write element %d of set '%s' (element %d "
            "%s)",
            loop, set->name, st->elem[t], e, b, colour, target, v->to->name, e,
            how);
      st->stamp[t] = g;
      st->block[t] = b;
      st->elem[t] = e;
    }
  }
  return LOOM_OK;
}

static int check_colours(const loom__plan *pl, loom_set set, int nargs,
                         const loom__plan_arg *args, const char *loop) {
  int nb = pl->nblocks, status = LOOM_OK;
  const int *start = pl->block_start;
  const int *ecol = pl->elem_colour; /* ecol[e - lo], e in [lo, hi) */
  int lo = pl->lo;
  target_view *views = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)nargs + 1) * sizeof *views);
  size_t nt = views ? make_views(set, nargs, args, views) + 1 : 1;
  int maxlen = 0;
  for (int b = 0; b < nb; b++)
    if (start[b + 1] - start[b] > maxlen)
      maxlen = start[b + 1] - start[b];
  stamps st = {loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int)),
               loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int)),
               loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int))};
  int *sorted = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)maxlen + 1) * sizeof *sorted);
  int *count = loomrt_alloc(LOOM_MEM_PLANS, ((size_t)maxlen + 2) * sizeof *count);
  if (!views || !st.stamp || !st.block || !st.elem || !sorted || !count) {
    status = loom_error_(LOOM_ENOMEM,
                         "loom__plan_check: loop %s: out of memory checking "
                         "the plan of set '%s'",
                         loop, set->name);
    goto done;
  }
  /* Blocks, colour by colour: the stamp is the colour. */
  for (size_t t = 0; t < nt; t++)
    st.stamp[t] = -1;
  for (int c = 0; c < pl->ncolours && status == LOOM_OK; c++)
    for (int k = pl->colour_start[c];
         k < pl->colour_start[c + 1] && status == LOOM_OK; k++) {
      int b = pl->blocks_by_colour[k];
      for (int e = start[b]; e < start[b + 1] && status == LOOM_OK; e++)
        status = stamp_element(&st, views, nargs, c, b, e, 1, c, loop, set);
    }
  /* Elements, block by block and colour by colour within a block: the
   * stamp is a (block, colour) group number. */
  for (size_t t = 0; t < nt; t++)
    st.stamp[t] = -1;
  int group = 0;
  for (int b = 0; b < nb && status == LOOM_OK; b++) {
    int k = pl->block_elem_colours[b];
    memset(count, 0, ((size_t)k + 1) * sizeof *count);
    for (int e = start[b]; e < start[b + 1]; e++)
      count[ecol[e - lo] + 1]++;
    for (int c = 0; c < k; c++)
      count[c + 1] += count[c];
    for (int e = start[b]; e < start[b + 1]; e++)
      sorted[count[ecol[e - lo]]++] = e;
    for (int i = 0; i < start[b + 1] - start[b] && status == LOOM_OK; i++) {
      int e = sorted[i];
      int g = group + ecol[e - lo];
      status = stamp_element(&st, views, nargs, g, b, e, 0, ecol[e - lo], loop,
                             set);
    }
    group += k;
  }
done:
  loomrt_free(views);
  loomrt_free(st.stamp);
  loomrt_free(st.block);
  loomrt_free(st.elem);
  loomrt_free(sorted);
  loomrt_free(count);
  return status;
}

int loom__plan_check(const loom__plan *plan, loom_set set, int nargs,
                     const loom__plan_arg *args) {
  int status = loomrt_require_active("loom__plan_check");
  if (status != LOOM_OK)
    return status;
  if (!plan)
    return loom_error_(LOOM_EINVAL, "loom__plan_check: plan is NULL");
  const char *loop = loomrt_loop_label(plan->loop);
  status = check_args("loom__plan_check", loop, set, nargs, args);
  if (status == LOOM_OK)
    status = check_plan_range(plan, set, loop);
  if (status == LOOM_OK)
    status = check_structure(plan, set, loop);
  if (status == LOOM_OK)
    status = check_colours(plan, set, nargs, args, loop);
  return status;
}
