/*
 * plan/loopstart.c — what generated code asks at a loop's start besides
 * its plan: the iteration set checked and a pending renumbering applied
 * (loom__check_set), and the writes through maps that meet: that writes
 * in mode write or rw reach each target from one element only
 * (loom__check_unique), or which element's write to each target is kept
 * (loom__write_winners).
 *
 * Design
 * ------
 * loom__check_set is plan/'s, not core's, because it applies a pending
 * $LOOM_RENUMBER=1 (renumber.c) at the first loop.
 *
 * The writes are walked through the target views of the plans
 * (loomrt_plan_views, colour.c): one array over the distinct target sets
 * laid end to end, holding per target the element that wrote it (the
 * first two that meet are reported) or the winner, the element with the
 * highest declared number (plain C's last writer).  Every executed
 * element is walked: without MPI the set, with it the rank's [0, exec).
 *
 * Each answer is remembered per (loop, set, plan arguments), at most 8
 * arguments: a check passed once is not made again, and the winners are
 * built once.  They are dropped with the plans (loomrt_plan_drop_all):
 * renumbering and partitioning change the numbering.
 */
#include <string.h>

#include "core/core.h"
#include "plan/plan.h"
#include "plan/plan_internal.h"

/* ---- a loop's start ------------------------------------------------------ */

static int loom__check_set_body(loom_set set, const char *loop);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_extruded(loom_set set, const char *loop) {
  loomrt_loop_site(loop); /* a loop's first check: its agreements' line */
  if (loomrt_require_active("loom__check_extruded") != LOOM_OK || loomrt_set_problem(set))
    return loom__check_set(set, loop); /* which says what is wrong */
  if (!set->base)
    return loomrt_leave(loom_error_(LOOM_EMISMATCH, "loop %s: iteration set '%s' is not "
                                    "extruded, but loomc compiled the loop for an extruded "
                                    "set", loomrt_loop_label(loop), set->name));
  if (set->columns)
    return loomrt_leave(loom_error_(LOOM_EMISMATCH, "loop %s: extruded set '%s' has columns "
                                    "of their own heights, but loomc compiled the loop for one "
                                    "number of layers (declare the handle's facts with "
                                    "LOOM_EXTRUDED_COLUMNS_FACTS)", loomrt_loop_label(loop),
                                    set->name));
  return loom__check_set(set->base, loop);
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_columns(loom_set set, const char *loop) {
  loomrt_loop_site(loop); /* a loop's first check: its agreements' line */
  if (loomrt_require_active("loom__check_columns") != LOOM_OK || loomrt_set_problem(set))
    return loom__check_set(set, loop); /* which says what is wrong */
  if (!set->base || !set->columns)
    return loomrt_leave(loom_error_(LOOM_EMISMATCH, "loop %s: set '%s' %s, but loomc "
                                    "compiled the loop for an extruded set declared by "
                                    "columns (loom_decl_extruded_set_columns)",
                                    loomrt_loop_label(loop), set->name, !set->base
                                    ? "is not extruded" : "has one number of layers"));
  return loom__check_set(set->base, loop);
}

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
  if (set->base)
    return loom_error_(LOOM_EMISMATCH, "loop %s: iteration set '%s' is extruded, but loomc "
                       "compiled the loop for a set of single elements (it did not see the "
                       "set's loom_decl_extruded_set: declare it where loomc sees it)",
                       loomrt_loop_label(loop), set->name);
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

void loomrt_uniques_drop_all(void) {
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

/* Fills u for the key and puts it first in the list. */
static void remember(unique_entry *u, const char *loop, loom_set set, int nargs,
                     const loom__plan_arg *args, int *winner) {
  *u = (unique_entry){uniques, loop, set, nargs, {{0}}, winner};
  memcpy(u->args, args, (size_t)nargs * sizeof *args);
  uniques = u;
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
      loomrt_plan_check_args("loom__check_unique", label, set, nargs, args) != LOOM_OK)
    return LOOM_EINVAL;
  if (nargs > 8)
    return loom_error_(LOOM_EINVAL, "loom__check_unique: loop %s: %d plan arguments, "
                       "at most 8", label, nargs);
  if (unique_known(loop, set, nargs, args))
    return LOOM_OK;
  target_view views[8];
  size_t nt = loomrt_plan_views(set, nargs, args, views);
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
  remember(u, loop, set, nargs, args, NULL);
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
      loomrt_plan_check_args("loom__write_winners", label, set, nargs, args) != LOOM_OK)
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
  size_t nt = loomrt_plan_views(set, nargs, args, views);
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
  remember(u, loop, set, nargs, args, winner);
  return winner;
}
