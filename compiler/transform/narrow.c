/*
 * narrow.c — which stored temporaries keep only the components their
 * readers name (see narrow.h).
 *
 * For each temporary with a fate of TEMP_STORED: the first reason it may
 * not be narrowed, or none; then the union of its readers' component
 * masks.  A narrowing is noted in the DAG of the first region whose loops
 * name the temporary.
 */
#include "transform/narrow.h"

#include <string.h>

#include "analysis/region.h"

/* Whether another temporary's storage is t's, or t's another's. */
static int shared(const fusion *fu, const temp_info *ti) {
  for (int i = 0; i < fu->temps.len; i++) {
    const temp_info *x = fu->temps.items[i];
    if (x->shares == ti->t)
      return 1;
  }
  return ti->shares != NULL;
}

/* lp's one argument naming t, or NULL when it names t more than once. */
static const loop_arg *only_arg(const loop *lp, const obj *t) {
  const loop_arg *found = NULL;
  for (int i = 0; i < lp->nargs; i++) {
    if (lp->args[i].obj != t)
      continue;
    if (found)
      return NULL;
    found = &lp->args[i];
  }
  return found;
}

/* Why loop lp, which names t, keeps t whole (NULL: it does not). */
static const char *loop_problem(const fusion *fu, const loop *lp, const obj *t, arena *a) {
  const loop_arg *x = only_arg(lp, t);
  if (lp->domain || temps_pinned_away(&fu->temps, lp))
    return arena_printf(a, "%s (line %u) is %s", lp->kernel, lp->loc.line,
                        lp->domain ? "an affine loop" : "pinned into its consumers");
  if (!x)
    return arena_printf(a, "%s (line %u) names it twice", lp->kernel, lp->loc.line);
  if (x->kind != ARG_DAT || (x->mode != MODE_READ && x->mode != MODE_WRITE))
    return arena_printf(a, "%s (line %u) %s it%s", lp->kernel, lp->loc.line,
                        mode_verb(x->mode), x->kind != ARG_DAT ? " through a map" : "");
  if (!x->param_pointee || strchr(x->param_pointee, '['))
    return arena_printf(a, "%s (line %u) takes it as an array of rows", lp->kernel,
                        lp->loc.line);
  return NULL;
}

static int count_bits(unsigned long long m) {
  int n = 0;
  for (; m; m &= m - 1)
    n++;
  return n;
}

/* The components t's readers name (every bit: unknown). */
static unsigned long long read_components(const program *prog, const obj *t) {
  unsigned long long mask = 0;
  for (int i = 0; i < prog->loops.len; i++) {
    const loop *lp = prog->loops.items[i];
    for (int k = 0; k < lp->nargs; k++)
      if (lp->args[k].obj == t && lp->args[k].mode != MODE_WRITE)
        mask |= lp->args[k].kind == ARG_DAT && lp->args[k].mode == MODE_READ
                    ? lp->args[k].read_mask : ~0ULL;
  }
  return mask;
}

/* Why ti's temporary is kept whole although its readers leave components
 * out ("": they do not), or NULL; *mask: the components they name. */
static const char *problem(const fusion *fu, const program *prog, const region_list *regions,
                           const temp_info *ti, unsigned long long *mask, arena *a) {
  const obj *t = ti->t;
  if (ti->fate != TEMP_STORED || t->dim < 2 || t->dim > 64)
    return "";
  unsigned long long all = t->dim == 64 ? ~0ULL : (1ULL << t->dim) - 1;
  *mask = read_components(prog, t);
  if ((*mask & ~all) || *mask == all || *mask == 0)
    return ""; /* every component read, or none (nothing to keep) */
  if (shared(fu, ti))
    return "it shares storage with another temporary";
  if (obj_extruded(t))
    return arena_printf(a, "it lives on extruded set %s, whose storage holds whole columns",
                        obj_label(t->set));
  if (region_host_names(regions, t))
    return "code outside par_loops uses it";
  for (int i = 0; i < prog->loops.len; i++) {
    const loop *lp = prog->loops.items[i];
    const char *why = loop_arg_reading(lp, t) || loop_arg_writing(lp, t)
                          ? loop_problem(fu, lp, t, a) : NULL;
    if (why)
      return why;
  }
  return NULL;
}

/* "0-3, 5-7, 10, 11, 15" */
static const char *components(unsigned long long m, int dim, arena *a) {
  const char *s = "";
  for (int i = 0; i < dim; i++) {
    if (!(m >> i & 1))
      continue;
    int j = i;
    while (j + 1 < dim && (m >> (j + 1) & 1))
      j++;
    s = arena_printf(a, "%s%s%d%s", s, *s ? ", " : "", i,
                     j > i + 1 ? arena_printf(a, "-%d", j)
                               : j == i + 1 ? arena_printf(a, ", %d", j) : "");
    i = j;
  }
  return s;
}

/* The DAG of the first region whose loops name t, and where. */
static dag *note_at(const region_list *regions, const dag_list *dags, const obj *t, srcloc *loc) {
  for (int r = 0; r < regions->len; r++) {
    const region *reg = regions->items[r];
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      if (it->kind == ITEM_LOOP && (loop_arg_reading(it->lp, t) || loop_arg_writing(it->lp, t))) {
        *loc = it->lp->loc;
        return dags->items[r];
      }
    }
  }
  return NULL;
}

/* ti's narrowing, or NULL (noted in dags either way). */
static narrowing *decide(const fusion *fu, const program *prog, const region_list *regions,
                         const dag_list *dags,
                         const temp_info *ti, arena *a) {
  unsigned long long mask = 0;
  const char *why = problem(fu, prog, regions, ti, &mask, a);
  srcloc loc;
  dag *d = note_at(regions, dags, ti->t, &loc);
  if (why && *why && d)
    dag_note(d, a, loc, "%s not narrowed: %s (its readers name %d of its %d components)",
             ti->t->name, why, count_bits(mask), ti->t->dim);
  if (why)
    return NULL;
  narrowing *n = arena_alloc(a, sizeof *n);
  *n = (narrowing){ti->t, mask, count_bits(mask)};
  long size = ti->t->type->size;
  if (d)
    dag_note(d, a, loc, "%s narrowed to the %d of its %d components its readers name (%s): "
             "%ld of %ld bytes per element stored", ti->t->name, n->nkept, ti->t->dim,
             components(mask, ti->t->dim, a), n->nkept * size, ti->t->dim * size);
  return n;
}

narrowing_list narrow(const translation *t, const fusion *fu, arena *a) {
  narrowing_list out = {0};
  for (int i = 0; !t->opt->no_narrow && i < fu->temps.len; i++) {
    narrowing *n = decide(fu, &t->prog, &t->regions, &t->dags, fu->temps.items[i], a);
    if (n)
      vec_push(a, &out, n);
  }
  return out;
}

const narrowing *narrow_find(const narrowing_list *narrowed, const obj *t) {
  for (int i = 0; narrowed && i < narrowed->len; i++) {
    const narrowing *n = narrowed->items[i];
    if (n->t == t)
      return n;
  }
  return NULL;
}

int narrow_kept(const narrowing_list *narrowed, const obj *t) {
  const narrowing *n = narrow_find(narrowed, t);
  return n ? n->nkept : 0;
}
