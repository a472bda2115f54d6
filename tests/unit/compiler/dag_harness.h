/*
 * dag_harness.h — runs loomc's stages on an in-memory program up to the
 * DAG of a region, for the unit tests of regions, the DAG and the
 * schedule.  Include harness.h first.
 */
#ifndef LOOM_TEST_DAG_HARNESS_H
#define LOOM_TEST_DAG_HARNESS_H

#include "analysis/dag.h"
#include "analysis/region.h"
#include "transform/schedule.h"

#define DAG_KERNELS                                                            \
  "static void k_copy(const double *a, double *b) { *b = *a; }\n"              \
  "static void k_sum(const double *a, double *s) { *s += *a; }\n"              \
  "static void k_edge(const double *a, const double *b, double *w) {\n"        \
  "  *w = a[0] - b[1];\n}\n"                                                   \
  "static void k_scatter(const double *w, double *a, double *b) {\n"           \
  "  a[0] += *w; b[0] -= *w;\n}\n"                                             \
  "static void k_mat(const double *w, double *A) {\n"                          \
  "  A[0] += *w; A[3] += *w;\n}\n"                                             \
  "extern void unseen_setup(void);\n"

/* The DAG of the innermost region of `body`, for `target`. */
static inline const dag *dag_of(run *r, const char *body, const char *target) {
  static char src[8192];
  snprintf(src, sizeof src, PROGRAM(DAG_KERNELS, "%s"), body);
  run_source(r, src, TO_CHECK);
  cr_assert_eq(r->errors, 0, "%s", r->diags);
  region_list regions = regions_build(&r->fe, &r->st, &r->prog, r->arena);
  cr_assert(regions.len > 0);
  dag_list dags = dag_build(&regions, target_named(target), NULL, r->arena);
  schedule(&dags, r->arena);
  return dags.items[dags.len - 1];
}

/* The computation labelled `label` ("host(" matches any host statement
 * but PROGRAM's prelude, which changes the mesh). */
static inline const comp *comp_named(const dag *d, const char *label) {
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (strcmp(c->label, label) == 0 ||
        (strcmp(label, "host(") == 0 && strncmp(c->label, label, 5) == 0 && !c->mesh))
      return c;
  }
  cr_assert_fail("no computation '%s'", label);
  return NULL;
}

static inline int is_pred(const comp *c, const comp *p) {
  for (int i = 0; i < c->preds.len; i++)
    if (c->preds.items[i] == p)
      return 1;
  return 0;
}

/* Whether `from` reaches `to` through the DAG's edges. */
static inline int reaches(const comp *from, const comp *to) {
  for (int i = 0; i < to->preds.len; i++)
    if (to->preds.items[i] == from || reaches(from, to->preds.items[i]))
      return 1;
  return 0;
}

static inline int noted(const dag *d, const char *text) {
  for (int i = 0; i < d->notes.len; i++)
    if (strstr(((const note *)d->notes.items[i])->text, text))
      return 1;
  return 0;
}

#endif
