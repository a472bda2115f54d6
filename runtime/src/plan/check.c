/*
 * plan/check.c — checking plans: the arguments and the range a plan is
 * asked for (loomrt_plan_check_args, loomrt_check_range), and the
 * exhaustive checker of a colouring plan (loom__plan_check).  The
 * owner-computes checker (ocplan.c) starts the same way, checks its
 * iteration set and its range with the same helpers
 * (loomrt_plan_check_start, loomrt_check_iteration_set,
 * loomrt_range_within), and judges its parts itself.
 *
 * Design
 * ------
 * Independent of the builder's colouring (they share only
 * loomrt_plan_views, the layout of the target elements; the unit tests
 * check plans against a brute force as well): first the range (lo <= hi
 * within the set, nelems == hi - lo) and the structure (blocks
 * contiguous, non-empty, at most block_size long and covering the plan's
 * own [lo, hi) exactly, so every element of the range is in exactly one
 * block once and no block reaches outside it: only rows in range are read
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
#include <string.h>

#include "core/core.h"
#include "plan/plan_internal.h"

/* ---- arguments and ranges ----------------------------------------------- */

int loomrt_check_iteration_set(const char *call, const char *loop,
                               loom_set set) {
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: iteration set %s", call,
                       loop, problem);
  return LOOM_OK;
}

/* Plan argument i of `call`: a map from `set` and a slot of it. */
static int check_arg(const char *call, const char *loop, loom_set set, int i,
                     const loom__plan_arg *arg) {
  loom_map map = arg->map;
  if (!map && arg->slot == 0)
    return LOOM_OK; /* the loop's own element */
  const char *problem = loomrt_map_problem(map);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: plan argument %d: map %s",
                       call, loop, i, problem);
  if (map->from != set)
    return loom_error_(LOOM_EMISMATCH,
                       "%s: loop %s: plan argument %d: map '%s' maps from "
                       "set '%s', not from the iteration set '%s'",
                       call, loop, i, map->name, map->from->name, set->name);
  if (arg->slot < -1 || arg->slot >= map->dim)
    return loom_error_(LOOM_EINVAL,
                       "%s: loop %s: plan argument %d: slot %d of map '%s' "
                       "is outside [-1, %d)",
                       call, loop, i, arg->slot, map->name, map->dim);
  return LOOM_OK;
}

int loomrt_plan_check_args(const char *call, const char *loop, loom_set set,
                           int nargs, const loom__plan_arg *args) {
  int status = loomrt_check_iteration_set(call, loop, set);
  if (status != LOOM_OK)
    return status;
  if (nargs < 0)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: nargs is %d, must be >= 0",
                       call, loop, nargs);
  if (nargs > 0 && !args)
    return loom_error_(LOOM_EINVAL, "%s: loop %s: args is NULL but nargs is %d",
                       call, loop, nargs);
  for (int i = 0; i < nargs && status == LOOM_OK; i++)
    status = check_arg(call, loop, set, i, &args[i]);
  return status;
}

int loomrt_range_within(loom_set set, long long lo, long long hi) {
  return lo >= 0 && lo <= hi && hi <= set->size;
}

int loomrt_check_range(const char *call, const char *loop, loom_set set,
                       int lo, int hi) {
  if (!loomrt_range_within(set, lo, hi))
    return loom_error_(LOOM_EINVAL,
                       "%s: loop %s: range [%d, %d) is not within the %d "
                       "elements of set '%s' (need 0 <= lo <= hi <= %d)",
                       call, loop, lo, hi, set->size, set->name, set->size);
  return LOOM_OK;
}

int loomrt_plan_check_start(const char *call, const void *plan) {
  int status = loomrt_require_active(call);
  if (status == LOOM_OK && !plan)
    status = loom_error_(LOOM_EINVAL, "%s: plan is NULL", call);
  return status;
}

/* ---- a plan's range and structure --------------------------------------- */

#define VIOLATION(...) loom_error_(LOOM_EMISMATCH, __VA_ARGS__)

/* The range of a plan: within the set, nelems consistent with it. */
static int check_plan_range(const loom__plan *pl, loom_set set,
                            const char *loop) {
  const char *s = set->name;
  if (!loomrt_range_within(set, pl->lo, pl->hi))
    return VIOLATION("loop %s: plan for set '%s': covers [%d, %d), not a "
                     "range of the set's %d elements",
                     loop, s, pl->lo, pl->hi, set->size);
  if (pl->nelems != pl->hi - pl->lo)
    return VIOLATION("loop %s: plan for set '%s': has %d elements, its range "
                     "[%d, %d) has %d",
                     loop, s, pl->nelems, pl->lo, pl->hi, pl->hi - pl->lo);
  return LOOM_OK;
}

/* The plan's counts are sane and its arrays are there. */
static int check_sizes(const loom__plan *pl, const char *loop, const char *s) {
  if (pl->block_size < 1 || pl->nblocks < 0 || pl->ncolours < 0)
    return VIOLATION("loop %s: plan for set '%s': block size %d, %d blocks, "
                     "%d colours",
                     loop, s, pl->block_size, pl->nblocks, pl->ncolours);
  if (!pl->block_start || !pl->colour_start ||
      (pl->nblocks > 0 && (!pl->blocks_by_colour || !pl->block_colour ||
                           !pl->block_elem_colours)) ||
      (pl->nelems > 0 && !pl->elem_colour))
    return VIOLATION("loop %s: plan for set '%s': an array is NULL", loop, s);
  return LOOM_OK;
}

/* The blocks: contiguous, non-empty, at most block_size long, covering
 * [lo, hi) exactly. */
static int check_blocks(const loom__plan *pl, const char *loop,
                        const char *s) {
  const int *start = pl->block_start;
  int nb = pl->nblocks;
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
  return LOOM_OK;
}

/* Colour c's entries of blocks_by_colour: blocks of colour c, ascending. */
static int check_colour_list(const loom__plan *pl, int c, const char *loop,
                             const char *s) {
  const int *cs = pl->colour_start;
  int nb = pl->nblocks;
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
  return LOOM_OK;
}

/* The block colours in range; colour_start and blocks_by_colour
 * consistent with them. */
static int check_block_colours(const loom__plan *pl, const char *loop,
                               const char *s) {
  int nb = pl->nblocks, nc = pl->ncolours, status = LOOM_OK;
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
  for (int c = 0; c < nc && status == LOOM_OK; c++)
    status = check_colour_list(pl, c, loop, s);
  return status;
}

/* The element colours of each block within its count, and
 * max_elem_colours the largest count. */
static int check_elem_colours(const loom__plan *pl, const char *loop,
                              const char *s) {
  const int *start = pl->block_start;
  int max = 0;
  for (int b = 0; b < pl->nblocks; b++) {
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

/* The structure of a plan (its range already checked): blocks, colour
 * ranges, colour counts. */
static int check_structure(const loom__plan *pl, loom_set set,
                           const char *loop) {
  const char *s = set->name;
  int status = check_sizes(pl, loop, s);
  if (status == LOOM_OK)
    status = check_blocks(pl, loop, s);
  if (status == LOOM_OK)
    status = check_block_colours(pl, loop, s);
  if (status == LOOM_OK)
    status = check_elem_colours(pl, loop, s);
  return status;
}

/* ---- the colour property ------------------------------------------------ */

/* Per target element: the stamp of its last write (a colour, or a
 * (block, colour) group), and which block and element wrote it. */
typedef struct stamps {
  int *stamp, *block, *elem;
} stamps;

/* What a colour check walks: the plan's target views, the stamps, and
 * room for the elements of the longest block sorted by colour. */
typedef struct walk {
  stamps st;
  target_view *views;
  int nv;
  int *sorted, *count;
  const char *loop;
  loom_set set;
} walk;

/* Records that element e of block b, in group `g`, writes its targets;
 * reports a target already written in group g by another block (blocks
 * == 1) or another element.  `colour` is the group's colour, for the
 * message. */
static int stamp_element(walk *w, int g, int b, int e, int blocks,
                         int colour) {
  stamps *st = &w->st;
  for (int a = 0; a < w->nv; a++) {
    const target_view *v = &w->views[a];
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
            w->loop, w->set->name, st->block[t], b, colour, target,
            v->to->name, st->elem[t], st->block[t], e, b, how);
      if (clash)
        return VIOLATION(
            "loop %s: plan for set '%s': elements %d and %d of block %d both "
            "have colour %d and write element %d of set '%s' (element %d "
            "%s)",
            w->loop, w->set->name, st->elem[t], e, b, colour, target,
            v->to->name, e, how);
      st->stamp[t] = g;
      st->block[t] = b;
      st->elem[t] = e;
    }
  }
  return LOOM_OK;
}

/* Blocks, colour by colour: the stamp is the colour (stamps clear on
 * entry). */
static int stamp_blocks(walk *w, const loom__plan *pl) {
  const int *start = pl->block_start;
  int status = LOOM_OK;
  for (int c = 0; c < pl->ncolours && status == LOOM_OK; c++)
    for (int k = pl->colour_start[c];
         k < pl->colour_start[c + 1] && status == LOOM_OK; k++) {
      int b = pl->blocks_by_colour[k];
      for (int e = start[b]; e < start[b + 1] && status == LOOM_OK; e++)
        status = stamp_element(w, c, b, e, 1, c);
    }
  return status;
}

/* Elements, block by block and colour by colour within a block (a
 * counting sort into w->sorted): the stamp is a (block, colour) group
 * number (stamps clear on entry). */
static int stamp_elements(walk *w, const loom__plan *pl) {
  const int *start = pl->block_start;
  const int *ecol = pl->elem_colour; /* ecol[e - lo], e in [lo, hi) */
  int lo = pl->lo, group = 0, status = LOOM_OK;
  int *sorted = w->sorted, *count = w->count;
  for (int b = 0; b < pl->nblocks && status == LOOM_OK; b++) {
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
      status = stamp_element(w, group + ecol[e - lo], b, e, 0, ecol[e - lo]);
    }
    group += k;
  }
  return status;
}

/* The longest block of the plan. */
static int longest_block(const loom__plan *pl) {
  const int *start = pl->block_start;
  int maxlen = 0;
  for (int b = 0; b < pl->nblocks; b++)
    if (start[b + 1] - start[b] > maxlen)
      maxlen = start[b + 1] - start[b];
  return maxlen;
}

static void clear_stamps(int *stamp, size_t nt) {
  for (size_t t = 0; t < nt; t++)
    stamp[t] = -1;
}

/* Allocates w's arrays for the plan and its arguments, and fills its
 * views; returns the number of stamps (>= 1), or 0 when out of memory
 * (not reported; walk_free frees what was allocated). */
static size_t walk_alloc(walk *w, const loom__plan *pl,
                         const loom__plan_arg *args) {
  size_t nv = (size_t)w->nv;
  w->views = loomrt_alloc(LOOM_MEM_PLANS, (nv + 1) * sizeof *w->views);
  size_t nt =
      w->views ? loomrt_plan_views(w->set, w->nv, args, w->views) + 1 : 1;
  size_t maxlen = (size_t)longest_block(pl);
  w->st = (stamps){loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int)),
                   loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int)),
                   loomrt_alloc(LOOM_MEM_PLANS, nt * sizeof(int))};
  w->sorted = loomrt_alloc(LOOM_MEM_PLANS, (maxlen + 1) * sizeof *w->sorted);
  w->count = loomrt_alloc(LOOM_MEM_PLANS, (maxlen + 2) * sizeof *w->count);
  int ok = w->views && w->st.stamp && w->st.block && w->st.elem && w->sorted &&
           w->count;
  return ok ? nt : 0;
}

static void walk_free(walk *w) {
  loomrt_free(w->views);
  loomrt_free(w->st.stamp);
  loomrt_free(w->st.block);
  loomrt_free(w->st.elem);
  loomrt_free(w->sorted);
  loomrt_free(w->count);
}

/* The colour property: no two blocks of one colour, and no two elements
 * of one colour within a block, write the same target element. */
static int check_colours(const loom__plan *pl, loom_set set, int nargs,
                         const loom__plan_arg *args, const char *loop) {
  walk w = {.nv = nargs, .loop = loop, .set = set};
  size_t nt = walk_alloc(&w, pl, args);
  int status = LOOM_OK;
  if (nt == 0)
    status = loom_error_(LOOM_ENOMEM,
                         "loom__plan_check: loop %s: out of memory checking "
                         "the plan of set '%s'",
                         loop, set->name);
  if (status == LOOM_OK) {
    clear_stamps(w.st.stamp, nt);
    status = stamp_blocks(&w, pl);
  }
  if (status == LOOM_OK) {
    clear_stamps(w.st.stamp, nt);
    status = stamp_elements(&w, pl);
  }
  walk_free(&w);
  return status;
}

int loom__plan_check(const loom__plan *plan, loom_set set, int nargs,
                     const loom__plan_arg *args) {
  int status = loomrt_plan_check_start("loom__plan_check", plan);
  const char *loop = status == LOOM_OK ? loomrt_loop_label(plan->loop) : NULL;
  if (status == LOOM_OK)
    status = loomrt_plan_check_args("loom__plan_check", loop, set, nargs, args);
  if (status == LOOM_OK)
    status = check_plan_range(plan, set, loop);
  if (status == LOOM_OK)
    status = check_structure(plan, set, loop);
  if (status == LOOM_OK)
    status = check_colours(plan, set, nargs, args, loop);
  return status;
}
