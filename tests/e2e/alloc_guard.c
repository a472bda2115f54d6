/*
 * alloc_guard.c — linked into a test program with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: a single allocation of
 * $LOOM_ALLOC_LIMIT bytes or more, by the program or the static
 * libloom_mpi.a linked with it, aborts naming its size.  tests/e2e/hdf5.sh
 * sets the limit to the size of a global int array over the mesh's cells:
 * a distributed run must stay under it on every rank, a whole-mesh run
 * must not (which shows the guard works).  Allocations inside shared
 * libraries (MPI, HDF5, PT-Scotch) are not seen.
 */
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static void check(size_t n) {
  static size_t limit = 0;
  if (!limit) {
    const char *e = getenv("LOOM_ALLOC_LIMIT");
    limit = e ? (size_t)strtoull(e, NULL, 10) : (size_t)-1;
  }
  if (n >= limit) {
    fprintf(stderr, "alloc-guard: an allocation of %zu bytes (limit %zu)\n",
            n, limit);
    abort();
  }
}

void *__wrap_malloc(size_t n) {
  check(n);
  return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size) {
  check(n * size);
  return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n) {
  check(n);
  return __real_realloc(p, n);
}
