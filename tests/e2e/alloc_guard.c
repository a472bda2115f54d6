/*
 * alloc_guard.c — linked into a test program with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=mmap: a single
 * allocation of $LOOM_ALLOC_LIMIT bytes or more, by the program or the
 * static libloom_mpi.a linked with it, aborts naming its size (a mapping
 * counts: libloom maps the storage of dats of 2 MiB and more).  tests/e2e/hdf5.sh
 * sets the limit to the size of a global int array over the mesh's cells:
 * a distributed run must stay under it on every rank, a whole-mesh run
 * must not (which shows the guard works).  Allocations inside shared
 * libraries (MPI, HDF5, PT-Scotch) are not seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_mmap(void *addr, size_t n, int prot, int flags, int fd, off_t offset);

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

void *__wrap_mmap(void *addr, size_t n, int prot, int flags, int fd, off_t offset) {
  check(n);
  return __real_mmap(addr, n, prot, flags, fd, offset);
}
