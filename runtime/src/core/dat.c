/*
 * core/dat.c — dats and temporaries: declaration, fetch, queries and the loom__
 * dat functions.
 *
 * Design
 * ------
 * A dat holds `dim` values of one C type per element of its set,
 * element-major, in storage the runtime owns: the user's array is copied in
 * (loom_decl_dat), or the storage is zero-filled when there is no array
 * (loom_decl_temp, or loom_decl_dat with NULL data).  The element type is
 * recorded as a loom_type together with its size; the two must agree, so a
 * hand-written call to loom_decl_dat_ cannot declare a `double` of 4 bytes.
 * After loom_renumber() the storage is in the set's new order: data
 * declared later is scattered into it, and loom_dat_fetch gathers the
 * values back into the declared order.
 * After MPI partitioning (mpi/migrate.c) the storage holds the set's
 * local rows: data declared later is given in declared (global) order and
 * each rank copies its rows (set->gid); loom_dat_fetch gathers all ranks'
 * owned rows (mpi/halo.c).
 * Byte counts are computed once, in size_t with overflow checks, and kept
 * in the dat; loom_dat_fetch insists on exactly that many bytes.
 * Storage of 2 MiB or more is a mapping of its own, aligned to 2 MiB and
 * offered to the kernel for transparent huge pages (madvise; Linux's
 * default is to grant them only where asked): a loop over a mesh of a
 * million elements then walks a few dozen pages per dat instead of
 * thousands of 4 KiB ones.  A fresh mapping reads as zeros, so storage
 * declared without data is never written here: its pages become resident
 * when a loop first writes them, as calloc's do.  (Writing the zeros made
 * every temporary resident at declaration: under MPI, the slices and the
 * migrated copy of each at once, and on every rank the whole mesh's
 * temporaries before the whole-mesh path keeps its part; issue 39.)  The
 * mapping goes back to the system when the dat's storage is freed, so one
 * start-up step's storage never stays in the heap into the next, and its
 * pages past a dat's local rows once a whole mesh is migrated in place
 * (loomrt_dat_trim).
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/core.h"
#include "core/dist.h"

/* ---- element types ----------------------------------------------------- */

struct type_info {
  const char *name;
  size_t size;
};

static const struct type_info type_table[] = {
    [LOOM_TYPE_UNKNOWN] = {"LOOM_TYPE_UNKNOWN", 0},
    [LOOM_DOUBLE] = {"double", sizeof(double)},
    [LOOM_FLOAT] = {"float", sizeof(float)},
    [LOOM_INT] = {"int", sizeof(int)},
    [LOOM_UINT] = {"unsigned int", sizeof(unsigned int)},
    [LOOM_LONG] = {"long", sizeof(long)},
    [LOOM_ULONG] = {"unsigned long", sizeof(unsigned long)},
    [LOOM_LLONG] = {"long long", sizeof(long long)},
    [LOOM_ULLONG] = {"unsigned long long", sizeof(unsigned long long)},
    [LOOM_SHORT] = {"short", sizeof(short)},
    [LOOM_USHORT] = {"unsigned short", sizeof(unsigned short)},
    [LOOM_CHAR] = {"char", sizeof(char)},
    [LOOM_SCHAR] = {"signed char", sizeof(signed char)},
    [LOOM_UCHAR] = {"unsigned char", sizeof(unsigned char)},
};

enum { TYPE_COUNT = sizeof type_table / sizeof type_table[0] };

static int type_is_known(loom_type type) {
  return (int)type > (int)LOOM_TYPE_UNKNOWN && (int)type < TYPE_COUNT;
}

/* The C spelling of a type, for messages; handles out-of-range values. */
static const char *type_name(loom_type type) {
  if ((int)type >= 0 && (int)type < TYPE_COUNT)
    return type_table[type].name;
  return "(invalid loom_type)";
}

/* ---- handles ----------------------------------------------------------- */

const char *loomrt_dat_problem(loom_dat dat) {
  static char buf[LOOMRT_STALE_MAX];
  static const loomrt_handle_kind kind = {
      LOOMRT_MAGIC_DAT, LOOMRT_RETIRED_DAT, "dat",
      "is not a live dat (freed by loom_exit, or not a loom_dat)"};
  return loomrt_handle_problem(buf, &kind, dat, dat ? dat->magic : 0, dat ? dat->name : NULL);
}

void loomrt_dat_retire(loom_dat dat) {
  dat->magic = LOOMRT_RETIRED_DAT;
  loomrt_dat_storage_free(dat);
  dat->values = NULL;
  dat->owner = NULL;
}

void loomrt_dat_free(loom_dat dat) {
  loomrt_dat_retire(dat);
  dat->magic = 0;
  free(dat->name);
  free(dat);
}

int loomrt_dat_usable(loom_dat dat, const char *call) {
  int status = loomrt_require_active(call);
  if (status != LOOM_OK)
    return status;
  const char *problem = loomrt_dat_problem(dat);
  if (problem)
    return loom_error_(LOOM_EINVAL, "%s: dat handle %s", call, problem);
  return LOOM_OK;
}

/* ---- declaration ------------------------------------------------------- */

/* Checks the set, dim and element type of a dat about to be declared. */
static int check_decl_shape(loom_set set, int dim, loom_type type,
                            size_t elem_size, const char *name) {
  const char *problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EINVAL, "dat '%s': set %s", name, problem);
  if (dim < 1)
    return loom_error_(LOOM_EINVAL, "dat '%s': dim is %d, must be >= 1", name,
                       dim);
  if (!type_is_known(type))
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': element type is %s (%d); a dat holds "
                       "values of a C arithmetic type such as double or int",
                       name, type_name(type), (int)type);
  if (elem_size != type_table[type].size)
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': element size is %zu bytes but type %s has "
                       "%zu",
                       name, elem_size, type_table[type].name,
                       type_table[type].size);
  return LOOM_OK;
}

/* Bytes of storage of a dat; reports an overflow. */
static int dat_extent(loom_set set, int dim, size_t elem_size,
                      const char *name, size_t *bytes) {
  size_t count;
  if (!loomrt_mul_size((size_t)set->size, (size_t)dim, &count) ||
      !loomrt_mul_size(count, elem_size, bytes))
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': %d elements x dim %d x %zu bytes overflows "
                       "size_t",
                       name, set->size, dim, elem_size);
  return LOOM_OK;
}

/* Dats are staggered in memory: dat k starts (k * 320) mod 4096 bytes
 * into a page (a multiple of 64, a cache line).  Large allocations all
 * start at the same offset in a page, so the i-th elements of several dats
 * would share their low 12 address bits; a loop storing to one and loading
 * from another (more so a fused loop, with more streams) then stalls on
 * false store-to-load dependences (4K aliasing) and conflicts in the
 * cache's sets.  The offset costs at most 4 KiB per dat. */
enum { STAGGER_STEP = 320, PAGE = 4096, HUGE_PAGE = 2 << 20 };
static unsigned dats_made = 0;

/* n bytes of storage (zeroed when `zero`), *len the length to release
 * with storage_release: below 2 MiB from malloc (calloc), from 2 MiB on a
 * private anonymous mapping of whole 4 KiB pages, 2 MiB aligned, its
 * whole 2 MiB pages advised for huge pages.  The tail beyond the last
 * whole huge page is not: a huge page there would be resident whole for
 * the few rows it holds (up to 2 MiB a dat, and a rank holds each dat
 * twice while it migrates).  NULL when out of memory. */
static char *storage_alloc(size_t n, int zero, size_t *len) {
  *len = n;
  if (n < HUGE_PAGE)
    return zero ? loomrt_calloc(LOOM_MEM_DATS, n, 1) : loomrt_alloc(LOOM_MEM_DATS, n);
  if (n > SIZE_MAX - 2 * (size_t)HUGE_PAGE)
    return NULL;
  size_t rounded = (n + PAGE - 1) / PAGE * PAGE;
  size_t span = rounded + HUGE_PAGE; /* room to align the start */
  char *map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  char *raw = map + (HUGE_PAGE - (uintptr_t)map % HUGE_PAGE) % HUGE_PAGE;
  if (raw > map) /* the unaligned head and the tail go back at once */
    munmap(map, (size_t)(raw - map));
  if (map + span > raw + rounded)
    munmap(raw + rounded, (size_t)(map + span - (raw + rounded)));
#ifdef MADV_HUGEPAGE
  (void)madvise(raw, n / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE); /* refused: no cost */
#endif
  *len = rounded;
  loomrt_mem_add(LOOM_MEM_DATS, rounded);
  return raw; /* a fresh mapping is zero: nothing to write for `zero` */
}

static void storage_release(void *block, size_t len) {
  if (!block)
    return;
  if (len < HUGE_PAGE) {
    loomrt_free(block);
  } else {
    munmap(block, len);
    loomrt_mem_sub(LOOM_MEM_DATS, len);
  }
}

/* Storage for a dat: a copy of `data` (in the set's storage order after
 * loom_renumber), or zeros when `data` is NULL.  *block receives the
 * allocation, which values point into, and *block_bytes its length. */
static void *values_new(loom_set set, size_t row_bytes, const void *data,
                        size_t bytes, void **block, size_t *block_bytes) {
  size_t n = bytes ? bytes : 1;
  size_t off = (size_t)(dats_made++ * STAGGER_STEP) % PAGE;
  char *raw = storage_alloc(n + PAGE + 64, !data, block_bytes);
  *block = raw;
  if (!raw)
    return NULL;
  /* to a cache line, then the dat's offset */
  char *values = raw + (64 - (uintptr_t)raw % 64) % 64 + off;
  if (bytes && data && set->gid) /* after MPI partitioning: local rows */
    loomrt_local_rows(values, data, row_bytes, set);
  else if (bytes && data && set->new_of_old)
    loomrt_scatter_rows(values, data, row_bytes, set->size, set->new_of_old);
  else if (bytes && data)
    memcpy(values, data, bytes);
  return values;
}

static loom_dat dat_new(loom_set set, int dim, loom_type type,
                        size_t elem_size, const void *data, size_t bytes,
                        const char *name) {
  loom_dat dat = malloc(sizeof *dat);
  char *copy = loomrt_strdup(name);
  void *block = NULL;
  size_t block_bytes = 0;
  void *values = values_new(set, (size_t)dim * elem_size, data, bytes, &block, &block_bytes);
  if (!dat || !copy || !values) {
    free(dat);
    free(copy);
    storage_release(block, block_bytes);
    loom_error_(LOOM_ENOMEM, "dat '%s': out of memory allocating %zu bytes",
                name, bytes);
    return NULL;
  }
  dat->magic = LOOMRT_MAGIC_DAT;
  dat->name = copy;
  dat->set = set;
  dat->dim = dim;
  dat->type = type;
  dat->elem_size = elem_size;
  dat->bytes = bytes;
  dat->values = values;
  dat->block = block;
  dat->block_bytes = block_bytes;
  dat->owner = NULL;
  dat->halo_dirty = 0;
  dat->zero = data == NULL;
  dat->xset = NULL;
  dat->xdim = 0;
  return dat;
}

loom_dat loom_decl_dat_(loom_set set, int dim, loom_type type, size_t elem_size,
                        const void *data, const char *name) {
  size_t bytes;
  loom_set xset = NULL;
  int xdim = dim;
  if (loomrt_require_active("loom_decl_dat") != LOOM_OK ||
      loomrt_check_name(name, "dat") != LOOM_OK ||
      check_decl_shape(set, dim, type, elem_size, name) != LOOM_OK ||
      loomrt_extruded_dat(&set, &dim, &xset, name) != LOOM_OK ||
      dat_extent(set, dim, elem_size, name, &bytes) != LOOM_OK)
    return NULL;
  loom_dat dat = dat_new(set, dim, type, elem_size, data, bytes, name);
  if (dat && xset) {
    dat->xset = xset;
    dat->xdim = xdim;
  }
  if (dat && loomrt_register(LOOMRT_KIND_DAT, dat, name) != LOOM_OK) {
    loomrt_dat_free(dat);
    return NULL;
  }
  return dat;
}

/* ---- queries ----------------------------------------------------------- */

const char *loom_dat_name(loom_dat dat) {
  return loomrt_dat_usable(dat, "loom_dat_name") == LOOM_OK ? dat->name : NULL;
}

int loom_dat_dim(loom_dat dat) {
  if (loomrt_dat_usable(dat, "loom_dat_dim") != LOOM_OK)
    return -1;
  return dat->xset ? dat->xdim : dat->dim;
}

static int loom_dat_fetch_body(loom_dat dat, void *buf, size_t bytes);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom_dat_fetch(loom_dat dat, void *buf, size_t bytes) {
  return loomrt_leave(loom_dat_fetch_body(dat, buf, bytes));
}

static int loom_dat_fetch_body(loom_dat dat, void *buf, size_t bytes) {
  int status = loomrt_dat_usable(dat, "loom_dat_fetch");
  if (status != LOOM_OK)
    return status;
  if (dat->set->gid) /* partitioned: gather from every rank */
    return loomrt_distribution.fetch(dat, buf, bytes);
  if (bytes != dat->bytes)
    return loom_error_(LOOM_EINVAL,
                       "dat '%s': loom_dat_fetch buffer is %zu bytes, "
                       "expected %zu (%d elements x %d x %s)",
                       dat->name, bytes, dat->bytes, dat->set->size, dat->dim,
                       type_name(dat->type));
  if (!buf && bytes > 0)
    return loom_error_(LOOM_EINVAL, "dat '%s': loom_dat_fetch buffer is NULL",
                       dat->name);
  if (bytes > 0 && dat->set->new_of_old) /* renumbered: declared order */
    loomrt_gather_rows(buf, dat->values, (size_t)dat->dim * dat->elem_size,
                       dat->set->size, dat->set->new_of_old);
  else if (bytes > 0)
    memcpy(buf, dat->values, bytes);
  return LOOM_OK;
}

/* ---- loom__ interface -------------------------------------------------- */

/* Compares a live dat with what a loop was compiled for. */
static int compare_dat(loom_dat dat, loom_set set, int dim, loom_type type,
                       const char *loop, int arg) {
  loom_set on = dat->xset ? dat->xset : dat->set; /* as declared */
  int declared_dim = dat->xset ? dat->xdim : dat->dim;
  if (on != set)
    return loom_error_(LOOM_EMISMATCH,
                       "dat '%s': declared on set '%s' but loop %s (argument "
                       "%d) was compiled for set '%s'",
                       dat->name, on->name, loop, arg, set->name);
  if (declared_dim != dim)
    return loom_error_(LOOM_EMISMATCH,
                       "dat '%s': declared with dim %d but loop %s (argument "
                       "%d) was compiled for dim %d",
                       dat->name, declared_dim, loop, arg, dim);
  if (dat->type != type)
    return loom_error_(LOOM_EMISMATCH,
                       "dat '%s': declared with type %s but loop %s (argument "
                       "%d) was compiled for type %s",
                       dat->name, type_name(dat->type), loop, arg,
                       type_name(type));
  return LOOM_OK;
}

static int loom__check_dat_body(loom_dat dat, loom_set set, int dim, loom_type type, const char *loop, int arg);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_dat(loom_dat dat, loom_set set, int dim, loom_type type, const char *loop, int arg) {
  return loomrt_leave(loom__check_dat_body(dat, set, dim, type, loop, arg));
}

static int loom__check_dat_body(loom_dat dat, loom_set set, int dim, loom_type type,
                    const char *loop, int arg) {
  int status = loomrt_require_active("loom__check_dat");
  if (status != LOOM_OK)
    return status;
  loop = loomrt_loop_label(loop);
  const char *problem = loomrt_dat_problem(dat);
  if (problem)
    return loom_error_(LOOM_EMISMATCH, "loop %s (argument %d): dat %s", loop,
                       arg, problem);
  problem = loomrt_set_problem(set);
  if (problem)
    return loom_error_(LOOM_EMISMATCH,
                       "loop %s (argument %d): expected set of dat '%s' %s",
                       loop, arg, dat->name, problem);
  return compare_dat(dat, set, dim, type, loop, arg);
}

static int loom__check_distinct_body(loom_dat a, loom_dat b, const char *loop, int arg_a,
                                     int arg_b) {
  if (a != b)
    return LOOM_OK;
  return loom_error_(LOOM_EMISMATCH,
                     "loop %s: arguments %d and %d are one dat, '%s', which the loop "
                     "writes and reaches through a map: the result would depend on the "
                     "order of the elements (pass two dats)",
                     loomrt_loop_label(loop), arg_a, arg_b, a->name);
}

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__check_distinct(loom_dat a, loom_dat b, const char *loop, int arg_a, int arg_b) {
  return loomrt_leave(loom__check_distinct_body(a, b, loop, arg_a, arg_b));
}

int loom__dats_distinct(int n, ...) {
  loom_dat seen[64];
  int distinct = n <= 64; /* more: not tested, the copy as written runs */
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && distinct; i++) {
    seen[i] = va_arg(ap, loom_dat);
    for (int k = 0; k < i; k++)
      distinct &= seen[k] != seen[i];
  }
  va_end(ap);
  return distinct;
}

int loom__dat_share(loom_dat t, loom_dat owner) {
  int rc = loomrt_dat_usable(t, "loom__dat_share");
  if (rc == LOOM_OK)
    rc = loomrt_dat_usable(owner, "loom__dat_share");
  if (rc != LOOM_OK || t->values == owner->values)
    return rc;
  if (t->bytes != owner->bytes || owner->owner)
    return loom_error_(LOOM_EMISMATCH,
                       "temporaries '%s' and '%s' cannot share storage: %s", t->name,
                       owner->name, owner->owner ? "the second already uses another's"
                                                 : "their sizes differ");
  loomrt_dat_storage_free(t);
  t->values = owner->values;
  t->owner = owner;
  return LOOM_OK;
}

int loom__dat_narrow(loom_dat t, int dim) {
  int rc = loomrt_dat_usable(t, "loom__dat_narrow");
  if (rc != LOOM_OK || t->dim == dim)
    return rc;
  if (!t->zero || t->owner || dim < 1 || dim > t->dim)
    return loom_error_(LOOM_EMISMATCH, "temporary '%s' cannot keep %d of its %d values per "
                       "element (%s)", t->name, dim, t->dim,
                       !t->zero ? "it was declared with data"
                       : t->owner ? "it uses another's storage" : "not a narrower dim");
  size_t rows = t->bytes / ((size_t)t->dim * t->elem_size);
  size_t row = (size_t)dim * t->elem_size;
  void *block = NULL;
  size_t block_bytes = 0;
  void *values = values_new(t->set, row, NULL, rows * row, &block, &block_bytes);
  if (!values)
    return loom_error_(LOOM_ENOMEM, "dat '%s': out of memory allocating %zu bytes", t->name,
                       rows * row);
  loomrt_dat_set_storage(t, block, block_bytes, values);
  t->dim = dim;
  t->bytes = rows * row;
  return LOOM_OK;
}

/* Under MPI the mesh is partitioned first if no loop did yet: a
 * distributed mesh's migration gives every dat new storage, and generated
 * code takes its pointers before it calls loom__mpi_ready (a failure there
 * is that call's to report: the loop then stops before using them). */
void *loom__dat_values(loom_dat dat) {
  if (loomrt_dat_usable(dat, "loom__dat_values") != LOOM_OK)
    return NULL;
  if (!loomrt_partitioned() && loomrt_distribution.ready() != LOOM_OK)
    return NULL;
  return dat->values;
}

/* ---- for distributed migration (mpi/dist_migrate.c) ------------------ */

void *loomrt_dat_storage(loom_dat dat, size_t bytes, void **block, size_t *block_bytes) {
  return values_new(dat->set, (size_t)dat->dim * dat->elem_size, NULL, bytes,
                    block, block_bytes);
}

void loomrt_dat_storage_free(loom_dat dat) {
  storage_release(dat->block, dat->block_bytes);
  dat->block = NULL;
  dat->block_bytes = 0;
}

void loomrt_dat_trim(loom_dat dat) {
  if (dat->owner || !dat->block || dat->block_bytes < HUGE_PAGE)
    return;
  char *raw = dat->block;
  size_t keep = (size_t)((char *)dat->values - raw) + dat->bytes + PAGE + 64;
  keep = (keep + PAGE - 1) / PAGE * PAGE;
  if (keep < HUGE_PAGE) /* still a mapping to storage_release */
    keep = HUGE_PAGE;
  if (keep >= dat->block_bytes)
    return;
  munmap(raw + keep, dat->block_bytes - keep);
  loomrt_mem_sub(LOOM_MEM_DATS, dat->block_bytes - keep);
  dat->block_bytes = keep;
}

void loomrt_dat_set_storage(loom_dat dat, void *block, size_t block_bytes, void *values) {
  loomrt_dat_storage_free(dat);
  dat->block = block;
  dat->block_bytes = block_bytes;
  dat->values = values;
}
