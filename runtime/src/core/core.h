/*
 * core/core.h — libloom's core, private: the object structs (set, map,
 * dat), errors, the lifetime and the registry, and the helpers of core/'s
 * files that the rest of the runtime uses.
 *
 * Included by every source file of runtime/src that touches an object or
 * reports an error: all of core/ (but timer.c), plan/, mpi/ and io/.  What
 * core calls in the layers above it is declared in core/hooks.h; plan/'s,
 * mpi/'s and io/'s own internals are in plan/plan.h, mpi/mpi.h,
 * mpi/partition.h and io/hdf5.h (runtime/README.md).
 *
 * Design
 * ------
 * Every object (set, map, dat) is a heap struct whose first member is a
 * magic number identifying its kind while it is alive.  Each object is
 * recorded in the registry of core.c when it is created, and loom_exit()
 * retires the registry in reverse order of creation: each object's storage
 * is freed and its magic becomes a RETIRED one, but its header and name
 * stay until the process exits (core.c's graveyard), so a handle kept past
 * loom_exit() is reported by name — never read after free, never aliasing
 * an object of a later session.  Objects never own other objects: a map or a
 * dat points at its sets but does not free them.
 *
 * Errors go through loom_error_(), which formats the message into the
 * last-error buffer and calls the installed handler.  Every function that
 * can fail reports exactly one error and then returns its failure value
 * (NULL, -1 or a LOOM_E* status): callers write
 * `return loom_error_(LOOM_EINVAL, "...")` or report and `return NULL`.
 *
 * Names: loom_* and loom__* are the public API (loom.h); loomrt_* are
 * internal helpers shared between the runtime's files; everything else is
 * static.  The runtime is not thread-safe: declarations, queries and the
 * loom__ checks are called from one thread (the generated code's host side).
 */
#ifndef LOOM_CORE_CORE_H
#define LOOM_CORE_CORE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "loom_gen.h"

/* libloom's own calls record no call site (loom.h, "call sites"): its
 * sources, and the unit tests that include them, are compiled with
 * -DLOOM_NO_CALL_SITES (Makefile CFLAGS_RT). */
#ifndef LOOM_NO_CALL_SITES
#error "libloom is compiled with -DLOOM_NO_CALL_SITES (Makefile CFLAGS_RT)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define LOOMRT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define LOOMRT_PRINTF(fmt, args)
#endif

/* Magic numbers: the first member of every live object, and of every
 * object loom_exit retired (its storage freed, its header and name kept
 * until the process exits, so that a stale handle is reported by name). */
#define LOOMRT_MAGIC_SET UINT32_C(0x4c4d5331) /* "LMS1" */
#define LOOMRT_MAGIC_MAP UINT32_C(0x4c4d4d31) /* "LMM1" */
#define LOOMRT_MAGIC_DAT UINT32_C(0x4c4d4431) /* "LMD1" */
#define LOOMRT_RETIRED_SET UINT32_C(0x4c4d5358) /* "LMSX" */
#define LOOMRT_RETIRED_MAP UINT32_C(0x4c4d4d58) /* "LMMX" */
#define LOOMRT_RETIRED_DAT UINT32_C(0x4c4d4458) /* "LMDX" */

/* Kinds of registered objects.  Sparsities and matrices belong to mat/,
 * which installs their retire and free functions (core/hooks.h,
 * loomrt_kind_ops); every loop over the registry that expects sets, maps
 * and dats skips them. */
typedef enum loomrt_kind {
  LOOMRT_KIND_SET = 1,
  LOOMRT_KIND_MAP,
  LOOMRT_KIND_DAT,
  LOOMRT_KIND_SPARSITY,
  LOOMRT_KIND_MAT,
  LOOMRT_KIND_XSET, /* extruded sets and maps (core/extruded.c): loops */
  LOOMRT_KIND_XMAP  /* over sets and maps skip them */
} loomrt_kind;

struct loom_set_s {
  uint32_t magic; /* LOOMRT_MAGIC_SET while alive */
  char *name;     /* owned copy */
  int size;       /* number of elements, >= 0 */
  int *new_of_old; /* NULL, or after loom_renumber (plan/renumber.c): the
                      storage index of each element in declared order
                      (owned, `size` entries) */
  /* After MPI partitioning (mpi/migrate.c; never set without MPI): `size`
   * is the number of local elements (the `total` of loom.h), `gsize` the
   * declared size, core <= owned <= exec <= size the section ends, and
   * `gid` (owned, `size` entries) the declared index of each local
   * element.  gid == NULL: not partitioned (gsize == size and the
   * sections are the whole set). */
  int gsize, core, owned, exec;
  int *gid;
  int *declared; /* renumbered, not partitioned: the declared index of each
                    storage element (the inverse of new_of_old, owned),
                    built on demand by loom__set_global; NULL otherwise */
  /* A distributed declaration (loom_decl_set_slice, loom_decl_set_hdf5,
   * under MPI with several ranks), until partitioning: this rank holds the
   * `size` elements [slice_off, slice_off + size) of `gsize`, and maps
   * from the set and dats on it hold those rows only.  -1: not sliced. */
  int slice_off;
  /* An extruded set (core/extruded.c): columns of `layers` elements over
   * each element of `base`; it holds nothing else (its dats and maps live
   * on the base).  NULL, 0: an ordinary set.  Declared by columns
   * (loom_decl_extruded_set_columns): `layers` is the most of any column,
   * the storage of each, and `columns` a dat on the base (int, one per
   * element) of each column's own layers, registered like any dat so that
   * partitioning, halos and renumbering carry it; NULL otherwise. */
  loom_set base;
  int layers;
  loom_dat columns;
};

struct loom_map_s {
  uint32_t magic; /* LOOMRT_MAGIC_MAP while alive */
  char *name;     /* owned copy */
  loom_set from;  /* iteration-side set (borrowed) */
  loom_set to;    /* target set (borrowed) */
  int dim;        /* entries per element of `from`, >= 1 */
  int *values;    /* size(from) * dim entries, element-major; never NULL */
  /* loom__map_reach's count, for these values and this many elements */
  int reach;
  const int *reach_values;
  int reach_n;
  /* An extruded map (core/extruded.c): from and to are extruded sets,
   * `base` the map of their bases it reads (NULL: the identity), `shift`
   * (owned, dim entries) the layer each slot reaches relative to the
   * element's own; `values` is then NULL.  NULL, NULL: an ordinary map.
   * `checked`: the regions (bit 1 << LOOM__REGION_*) whose every column
   * loom__check_layers found in range, when a set of the map has columns
   * of their own heights (their layers never change: checked once). */
  loom_map base;
  int *shift;
  unsigned checked;
};

struct loom_dat_s {
  uint32_t magic;   /* LOOMRT_MAGIC_DAT while alive */
  char *name;       /* owned copy */
  loom_set set;     /* borrowed */
  int dim;          /* values per element, >= 1 */
  loom_type type;   /* never LOOM_TYPE_UNKNOWN */
  size_t elem_size; /* sizeof one value, matches `type` */
  size_t bytes;     /* size(set) * dim * elem_size */
  void *values;     /* `bytes` bytes, element-major; never NULL */
  void *block;      /* the allocation values point into (see values_new),
                       NULL when the storage is another dat's */
  size_t block_bytes; /* its length, to release it (dat.c) */
  loom_dat owner;   /* when values are another temporary's (storage reuse
                       decided by loomc): that temporary; NULL otherwise */
  int halo_dirty;   /* MPI: the halo is stale (loom__dat_dirty) */
  int zero;         /* declared without data (a temporary): all zero until
                       a loop writes it, so partitioning moves no rows */
  /* A dat on an extruded set: `set` is its base and `dim` its values per
   * column (xdim times the layers), so that partitioning, halos and files
   * move whole columns; xset, xdim what it was declared on and with.
   * NULL, 0 otherwise. */
  loom_set xset;
  int xdim;
};

/* ---- errors (core.c) --------------------------------------------------- */

/* Formats the message into the last-error buffer, calls the error handler
 * and, if the handler returns, returns `status`. */
int loom_error_(int status, const char *fmt, ...) LOOMRT_PRINTF(2, 3);

/* ---- extruded sets (extruded.c) ----------------------------------------- */

/* A dat about to be declared on *set with *dim values per element: when
 * *set is extruded, it becomes a dat on the base set with a column's
 * values per element (*set, *dim replaced, *xset the extruded set);
 * LOOM_OK, or a status after the error was reported (too many values). */
int loomrt_extruded_dat(loom_set *set, int *dim, loom_set *xset, const char *name);

/* A new set of `size` elements, unregistered (set.c); NULL after an
 * out-of-memory error. */
loom_set loomrt_set_new(int size, const char *name);

/* ---- lifetime and registry (core.c) ------------------------------------ */

/* LOOM_OK while the runtime is initialised; otherwise reports a LOOM_ESTATE
 * error naming `call` ("loom_decl_set called before loom_init") and
 * returns LOOM_ESTATE. */
int loomrt_require_active(const char *call);

/* Records a new object so loom_exit() frees it.  LOOM_OK or LOOM_ENOMEM
 * (reported, naming the object). */
int loomrt_register(loomrt_kind kind, void *object, const char *name);

/* The retire and free functions of a kind of object registered above core
 * (LOOMRT_KIND_SPARSITY, LOOMRT_KIND_MAT), installed by mat/ before it
 * registers the first one: core never names mat/'s functions, so that a
 * program without matrices links without PETSc (core/hooks.h).  loom_exit
 * retires those objects (newest first, like every object), the process's
 * exit frees them. */
void loomrt_kind_ops(loomrt_kind kind, void (*retire)(void *object),
                     void (*release)(void *object));

/* Objects in the registry, oldest first: loomrt_registry_object(i, &kind)
 * for i < loomrt_registry_count(). */
size_t loomrt_registry_count(void);
void *loomrt_registry_object(size_t i, loomrt_kind *kind);

/* The argc and argv pointers loom_init received (either may be NULL), for
 * the libraries the runtime starts later on the program's behalf (PETSc,
 * mat/); NULL outside a session. */
void loomrt_args(int **argc, char ***argv[]);

/* Nonzero when $LOOM_DIAG asked for diagnostics (read by loom_init). */
int loomrt_diag(void);
/* $LOOM_VECTOR as loom_init read it: 0, 1, or -1 when unset (core/tune.c). */
int loomrt_vector_mode(void);
/* $LOOM_AVX512 as loom_init read it: 0, or 1 (the default). */
int loomrt_avx512_allowed(void);
/* Nonzero when $LOOM_CHECK_PLANS=1: plans are verified when built. */
int loomrt_check_plans(void);

/* Nonzero once the mesh was partitioned over MPI ranks (core.c; set by
 * mpi/session.c, reset by loom_init): declaring sets and maps, and
 * loom_renumber, are then refused. */
int loomrt_partitioned(void);
void loomrt_set_partitioned(void);

/* ---- the session (core.c) --------------------------------------------- */

/* The session running (a count of loom_init calls), or 0 outside one: a
 * layer above core that keeps state per session (plan/) starts its own
 * at its first call in a new one, and installs its end with
 * loomrt_at_session_exit (core/hooks.h). */
unsigned loomrt_session(void);
/* loom_init's $LOOM_BLOCK_SIZE (or the default) and $LOOM_RENUMBER. */
int loomrt_session_block_size(void);
int loomrt_session_renumber(void);

/* ---- the ledger (mem.c) ------------------------------------------------ */

/* The runtime's allocations, counted by kind (loom_memory): malloc,
 * calloc and realloc with a kind, and their one free.  A pointer from
 * these goes back through loomrt_free, never free().  loomrt_realloc keeps
 * the block's kind (`kind` is for a NULL p). */
void *loomrt_alloc(loom_mem_kind kind, size_t bytes);
void *loomrt_calloc(loom_mem_kind kind, size_t count, size_t size);
void *loomrt_realloc(loom_mem_kind kind, void *p, size_t bytes);
void loomrt_free(void *p);
/* A block that changes hands (start-up's array kept by a set) counted as
 * `kind` from now on. */
void loomrt_mem_kind(void *p, loom_mem_kind kind);
/* Storage allocated otherwise (dat.c's mappings), counted by hand. */
void loomrt_mem_add(loom_mem_kind kind, size_t bytes);
void loomrt_mem_sub(loom_mem_kind kind, size_t bytes);
/* loom_init: the peak starts again; partitioning's end: the kinds as the
 * start-up left them. */
void loomrt_mem_begin(void);
void loomrt_mem_started(void);
/* $LOOM_DIAG's table (peak, after start-up, now), and the words when
 * anything is still counted after loom_exit freed everything. */
void loomrt_mem_write(FILE *f, int rank);
void loomrt_mem_check_freed(FILE *f, int rank);

/* ---- sessions of core's other files (called by loom_exit) -------------- */

void loomrt_scratch_free_all(void);     /* scratch.c */
void loomrt_profile_free(void);         /* profile.c: per-loop times */
void loomrt_timing_write(FILE *f);      /* profile.c: their table */

/* Declared constants (const.c): their number; constant i compared across
 * ranks under MPI (LOOM_OK without MPI); all freed by loom_exit. */
int loomrt_const_count(void);
int loomrt_const_check(int i);
void loomrt_consts_free(void);

/* `status`, returned by a call generated code stops at when it fails (the
 * loop checks, mpi_ready, halo and reduction calls, fetch, partition):
 * under MPI a failure there means this rank leaves the program's
 * communication, so the other ranks are told instead of waiting for it
 * (mpi/fail.c).  Without MPI: `status`.  A failing loop returns at once:
 * it is no longer the loop running (site.c). */
int loomrt_leave(int status);

/* ---- the call in progress (site.c) ------------------------------------- */

/* "FILE:LINE" of the wrapped API call in progress (loom.h, "call sites"),
 * written into buf (of `size` bytes; a long path keeps its end), or ""
 * when none is (a call through a pointer, generated code's own calls). */
/* The prefix of an error message: "FILE:LINE: " of the wrapped call in
 * progress, else "KERNEL at FILE:LINE: " of the loop running, unless
 * `message` already starts with that location or names that loop; "" when
 * there is none (site.c). */
const char *loomrt_error_context(char *buf, size_t size, const char *message);
const char *loomrt_call_site(char *buf, size_t size);

/* The loop running (its label, "KERNEL at FILE:LINE", a string that
 * outlives it), whose line loomrt_call_site gives when no wrapped call is
 * in progress; NULL when the loop is done. */
void loomrt_loop_site(const char *label);

/* ---- helpers (core.c) -------------------------------------------------- */

/* Checks a user-supplied object name (non-NULL, non-empty); reports an
 * error naming `what` ("set", "map", "dat") otherwise. */
int loomrt_check_name(const char *name, const char *what);

/* A malloc'ed copy of `s`, or NULL when out of memory (not reported). */
char *loomrt_strdup(const char *s);

/* *out = a * b; returns 0 on overflow of size_t, 1 otherwise. */
int loomrt_mul_size(size_t a, size_t b, size_t *out);

/* The loop label for messages: `loop`, or "(unnamed loop)" when NULL. */
const char *loomrt_loop_label(const char *loop);

/* ---- object handles (set.c, map.c, dat.c) ------------------------------ */

/* The problem of a handle of a kind (its magics live and retired, its
 * word "set", the problem of a header of neither magic), or NULL: it is
 * live.  `handle` is the handle, `magic` and `name` what its header holds
 * (read only when it is not NULL).  A retired one's, written into buf (of
 * LOOMRT_STALE_MAX bytes, the caller's: each kind keeps its own), is "is
 * stale: KIND 'NAME' belongs to a session that loom_exit ended". */
enum { LOOMRT_STALE_MAX = 320 };
typedef struct loomrt_handle_kind {
  uint32_t live, retired;
  const char *word, *not_live;
} loomrt_handle_kind;
const char *loomrt_handle_problem(char *buf, const loomrt_handle_kind *k, const void *handle,
                                  uint32_t magic, const char *name);

/* NULL when the handle is a live object of that kind; otherwise what is
 * wrong with it, for a message: "is NULL", "is stale: set 'cells' ..." or
 * "is not a live set (...)".  Never report. */
const char *loomrt_set_problem(loom_set set);

/* Partitioning methods (loom_partition; used with MPI only). */
typedef enum {
  LOOMRT_PART_METIS,
  LOOMRT_PART_SCOTCH,   /* sequential Scotch on rank 0 */
  LOOMRT_PART_PTSCOTCH, /* PT-Scotch, distributed over all ranks */
  LOOMRT_PART_BLOCK,
  LOOMRT_PART_GEOM      /* a space-filling curve, distributed (mpi/geom.c) */
} loomrt_part_method;

/* The method loom_partition uses: $LOOM_PARTITIONER when set, else `method`
 * (NULL: metis).  LOOM_EINVAL, reported, for a name that is none of the
 * four, in every build (core.c). */
int loomrt_partition_method(const char *method, loomrt_part_method *out);
/* LOOM_OK when the runtime is active and `dat` is live; otherwise reports
 * an error naming `call` (dat.c). */
int loomrt_dat_usable(loom_dat dat, const char *call);
const char *loomrt_map_problem(loom_map map);
const char *loomrt_dat_problem(loom_dat dat);

/* Free one object whole (a retired one too). */
void loomrt_set_free(loom_set set);
void loomrt_map_free(loom_map map);
void loomrt_dat_free(loom_dat dat);
/* Retire one object (called by loom_exit for each registered object): its
 * storage is freed, its header and name kept, its magic a RETIRED one. */
void loomrt_set_retire(loom_set set);
void loomrt_map_retire(loom_map map);
void loomrt_dat_retire(loom_dat dat);

/* New zeroed storage of `bytes` bytes for dat's rows, aligned and
 * staggered as at declaration (dat.c); *block receives the allocation and
 * *block_bytes its length, for loomrt_dat_set_storage.  NULL when out of
 * memory. */
void *loomrt_dat_storage(loom_dat dat, size_t bytes, void **block, size_t *block_bytes);
/* Frees dat's own storage (block NULL afterwards; values are left to the
 * caller), and frees it then installs new storage from loomrt_dat_storage. */
void loomrt_dat_storage_free(loom_dat dat);
void loomrt_dat_set_storage(loom_dat dat, void *block, size_t block_bytes, void *values);
/* After dat->bytes shrank (a whole mesh migrated in place: its local rows
 * are the first): the pages of its own mapped storage past what a new
 * dat of that size would take go back to the system; values stay where
 * they are.  Storage below 2 MiB (malloc's) and shared storage stay. */
void loomrt_dat_trim(loom_dat dat);

/* Nonzero when some live set holds a slice (a distributed declaration
 * not yet partitioned; set.c). */
int loomrt_any_sliced(void);

/* Copies the rows of a set's local elements out of an array in declared
 * (global) order: dst row i = src row gid[i] (set.c; partitioned sets). */
void loomrt_local_rows(void *dst, const void *src, size_t row_bytes,
                       loom_set set);

/* rows.c: copies n rows of `row_bytes` bytes from `src` (declared order)
 * to `dst` (storage order): row i goes to row new_of_old[i]; and the
 * inverse, row new_of_old[i] of `src` to row i of `dst`. */
void loomrt_scatter_rows(void *dst, const void *src, size_t row_bytes, int n,
                         const int *new_of_old);
void loomrt_gather_rows(void *dst, const void *src, size_t row_bytes, int n,
                        const int *new_of_old);

/* reduce_fold.c: the size of a loom_type (0 for an unknown one), and a
 * combined reduction result folded into the user's variable. */
size_t loomrt_type_size(loom_type type);
void loomrt_reduce_fold(void *var, const void *values, int count, loom_type type,
                        int op);

#endif /* LOOM_CORE_CORE_H */
