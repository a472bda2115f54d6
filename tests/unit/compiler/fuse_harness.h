/*
 * fuse_harness.h — runs loomc's stages on an in-memory source up to the
 * fusion stage (regions, the hints, the DAGs, fuse: compiler/main.c's
 * transform() for --target=seq), for the unit tests of fusion and of what
 * follows it.  Include harness.h first.
 */
#ifndef LOOM_TEST_FUSE_HARNESS_H
#define LOOM_TEST_FUSE_HARNESS_H

#include "analysis/dag.h"
#include "analysis/loops.h"
#include "analysis/region.h"
#include "transform/fuse.h"
#include "transform/hoist.h"
#include "transform/pin.h"
#include "transform/rotate.h"
#include "transform/schedule.h"
#include "transform/vectorize.h"

typedef struct fused {
  run r;
  options opt;   /* the target, --no-fuse */
  translation t; /* the analysis, as the transformations read it */
  rotation_list rotations;
  fusion *fu;
  const staging *staged; /* with `rotations` (vectorize_body: always) */
} fused;

/* Runs the stages on src, then regions, DAGs and fusion (for target), and
 * with `rotations` the vectorization and the rotations; the hints'
 * diagnostics (hints that cannot be honoured) in f->r.diags and
 * f->r.errors.  Returns the errors of the stages before fusion (then
 * nothing after them ran). */
static inline int run_transforms(fused *f, const char *src, const char *target_name,
                                 int no_fuse, int rotations) {
  const target *target = target_named(target_name);
  run_source(&f->r, src, TO_CHECK);
  if (f->r.errors)
    return f->r.errors;
  f->opt = (options){.target = target, .no_fuse = no_fuse};
  translation *t = &f->t;
  *t = (translation){.opt = &f->opt, .prog = f->r.prog};
  t->regions = regions_build(&f->r.fe, &f->r.st, &t->prog, f->r.arena);
  free(f->r.diags);
  FILE *mem = open_memstream(&f->r.diags, &f->r.diags_len);
  diag_set_stream(mem);
  arena *a = f->r.arena;
  t->pins = pin(&t->prog, &t->regions, target, a);
  t->dags = dag_build(&t->regions, target, &t->pins, a);
  t->loops = loops_analyse(&f->r.fe, &f->r.st, &t->prog, &t->regions, &t->dags, target,
                           &t->pins, a);
  t->hoists = hoist_exchanges(&t->loops, a);
  schedule(&t->dags, a);
  f->fu = fuse(t, a);
  if (rotations) {
    f->staged = vectorize(t, f->fu, NULL, a);
    f->rotations = rotate(t, f->fu, a)->list;
  }
  f->r.errors = diag_error_count();
  diag_set_stream(NULL);
  fclose(mem);
  return 0;
}

/* The stages up to fusion, for seq. */
static inline int run_to_fusion(fused *f, const char *src, int no_fuse) {
  return run_transforms(f, src, "seq", no_fuse, 0);
}

/* Kernels for the mesh programs of fuse_body. */
#define FUSE_KERNELS                                                           \
  "static void k_copy(const double *a, double *b) { b[0] = a[0]; b[1] = a[1]; }\n" \
  "static void k_one(const double *a, double *w) { *w = a[0]; }\n"             \
  "static void k_w(const double *w, double *v) { *v = 2.0 * *w; }\n"           \
  "static void k_sum(const double *a, double *s) { *s += *a; }\n"              \
  "static void k_edge(const double *a, const double *b, double *w) {\n"        \
  "  *w = a[0] - b[1];\n}\n"                                                   \
  "static void k_scatter(const double *w, double *a, double *b) {\n"           \
  "  a[0] += *w; b[0] -= *w;\n}\n"

/* Runs everything up to fusion on `body` (inside main). */
static inline void fuse_body(fused *f, const char *body, int no_fuse) {
  static char src[8192];
  snprintf(src, sizeof src,
           PROGRAM(FUSE_KERNELS, "  loom_dat y = loom_decl_dat(nodes, 2, double, xs, \"y\");\n"
                                 "  loom_dat t = loom_decl_temp(edges, 1, double, \"t\");\n"
                                 "  loom_dat u = loom_decl_temp(edges, 1, double, \"u\");\n"
                                 "%s"),
           body);
  cr_assert_eq(run_to_fusion(f, src, no_fuse), 0, "%s", f->r.diags);
}

static inline const loop *loop_n(const fused *f, int id) { return f->r.prog.loops.items[id - 1]; }

static inline const obj *temp_named(const fused *f, const char *name) {
  for (int i = 0; i < f->fu->temps.len; i++) {
    const temp_info *ti = f->fu->temps.items[i];
    if (strcmp(ti->t->name, name) == 0)
      return ti->t;
  }
  cr_assert_fail("no temporary '%s' decided", name);
  return NULL;
}

#endif
