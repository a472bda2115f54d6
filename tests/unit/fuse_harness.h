/*
 * fuse_harness.h — runs loomc's stages on an in-memory source up to the
 * fusion stage (regions, their seq DAGs, fuse), for the unit tests of
 * fusion and of what follows it.  Include compiler_harness.h first.
 */
#ifndef LOOM_TEST_FUSE_HARNESS_H
#define LOOM_TEST_FUSE_HARNESS_H

#include "dag.h"
#include "fuse.h"
#include "region.h"

typedef struct fused {
  run r;
  vec regions, dags;
  fusion *fu;
} fused;

/* Runs the stages on src, then regions, DAGs and fusion; fuse's
 * diagnostics (hints that cannot be honoured) in f->r.diags and
 * f->r.errors.  Returns the errors of the stages before fusion (then
 * nothing after them ran). */
static int run_to_fusion(fused *f, const char *src, int no_fuse) {
  run_source(&f->r, src, TO_CHECK);
  if (f->r.errors)
    return f->r.errors;
  f->regions = regions_build(&f->r.fe, &f->r.st, &f->r.prog, f->r.arena);
  free(f->r.diags);
  FILE *mem = open_memstream(&f->r.diags, &f->r.diags_len);
  diag_set_stream(mem);
  f->fu = fuse(&f->r.prog, &f->regions, "seq", no_fuse, &f->dags, f->r.arena);
  f->r.errors = diag_error_count();
  diag_set_stream(NULL);
  fclose(mem);
  return 0;
}

#endif
