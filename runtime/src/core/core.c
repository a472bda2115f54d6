/*
 * core/core.c — libloom's lifetime, object registry and error reporting.
 *
 * Design
 * ------
 * The runtime has three states: not yet initialised, active (between
 * loom_init and loom_exit) and exited.  Every call that takes or creates an
 * object requires the active state and reports LOOM_ESTATE otherwise, so a
 * handle used after loom_exit() is rejected before it is dereferenced.
 * loom_init() may be called again after loom_exit() (a new session with no
 * objects); handles from an earlier session stay invalid.
 *
 * The registry is a growable array of (kind, object) records.  Objects are
 * never removed individually; loom_exit() frees them all, newest first, and
 * then the array itself.
 *
 * Settings: loom_init() reads the environment once per session:
 *   LOOM_BLOCK_SIZE  elements per plan block (an integer >= 1; default
 *                    LOOM_DEFAULT_BLOCK_SIZE)
 *   LOOM_CHECK_PLANS 1: every plan built is verified by loom__plan_check
 *   LOOM_DIAG        1: one line on stderr per plan built (plan/cache.c)
 *                    and per renumbering (plan/renumber.c), and at
 *                    loom_exit each rank's memory by kind (core/mem.c);
 *                    0 (the default): silent
 *   LOOM_RENUMBER    1: loom_renumber() at the first loop; 0: never
 *   LOOM_VECTOR      1: staged loops always run staged, 0: element by
 *                    element; unset: each loop times both (core/tune.c)
 *   LOOM_AVX512      0: loops never run their AVX-512 twins; 1 (the
 *                    default): where the CPU has AVX-512 (core/tune.c)
 *   LOOM_PARTITIONER (libloom_mpi) metis | scotch | block, read when the
 *                    mesh is partitioned (mpi/partition.c)
 * An unset or empty variable means its default; any other value that is
 * not a valid integer in range makes loom_init fail with LOOM_EINVAL,
 * naming the variable and the value, and leaves the runtime inactive.
 *
 * Errors: loom_error_() formats into a static buffer (the last error, which
 * persists until the next error) and calls the handler.  The default
 * handler prints "loom: error: MESSAGE" on stderr and exits with status 1;
 * the error handler and the last error survive loom_exit() so that calls
 * after it are reported like any other.
 *
 * The distribution (core/dist.h): loom_init starts it first (MPI, in
 * libloom_mpi) and loom_exit ends it last; the default handler lets it
 * print the rank and call MPI_Abort before exit.  Core calls it through
 * the library's table only, and is compiled once for both libraries.
 * The calls into plan/ (the plans' and renumbering's sessions) are
 * declared in core/hooks.h.
 *
 * Matrices (mat/, PETSc): loom_init keeps its argc and argv for PETSc,
 * which mat/ starts at the first sparsity.  Core never names mat/'s
 * functions (a program without matrices links without PETSc): mat/
 * installs the retire and free functions of its two kinds of objects
 * (loomrt_kind_ops) and a hook that loom_exit runs after retiring every
 * object (loomrt_at_session_exit: PETSc's end).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"
#include "core/hooks.h"

/* ---- errors ------------------------------------------------------------ */

enum { LOOMRT_ERROR_MAX = 4096 };

static char last_error[LOOMRT_ERROR_MAX];

static void default_handler(int status, const char *message, void *ctx) {
  (void)status;
  (void)ctx;
  loomrt_distribution.abort(message); /* under MPI: "loom: rank R: error: ...", MPI_Abort */
  fprintf(stderr, "loom: error: %s\n", message);
  fflush(stderr);
  exit(1);
}

static loom_error_handler error_handler = default_handler;
static void *error_ctx = NULL;

/* The message, after where the error happened: the call or the loop
 * running (loomrt_error_context). */
int loom_error_(int status, const char *fmt, ...) {
  static char message[LOOMRT_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  if (n < 0)
    snprintf(message, sizeof message, "(unformattable error message)");
  char where[400];
  snprintf(last_error, sizeof last_error, "%s%s",
           loomrt_error_context(where, sizeof where, message), message);
  error_handler(status, last_error, error_ctx);
  return status;
}

int loomrt_leave(int status) {
  if (status == LOOM_OK)
    return status;
  loomrt_loop_site(NULL); /* the loop returns without loom__loop_done */
  loomrt_distribution.error_raised(last_error);
  return status;
}

loom_error_handler loom_set_error_handler(loom_error_handler handler,
                                          void *ctx) {
  loom_error_handler previous = error_handler;
  error_handler = handler ? handler : default_handler;
  error_ctx = handler ? ctx : NULL;
  return previous;
}

const char *loom_last_error(void) { return last_error; }

/* ---- state ------------------------------------------------------------- */

typedef enum { STATE_UNINIT, STATE_ACTIVE, STATE_EXITED } loomrt_state;

static loomrt_state state = STATE_UNINIT;

int loomrt_require_active(const char *call) {
  if (state == STATE_ACTIVE)
    return LOOM_OK;
  return loom_error_(LOOM_ESTATE, "%s called %s", call,
                     state == STATE_UNINIT ? "before loom_init"
                                           : "after loom_exit");
}

/* ---- registry ---------------------------------------------------------- */

struct registry_entry {
  loomrt_kind kind;
  void *object;
};

static struct registry_entry *registry = NULL;
static size_t registry_count = 0;
static size_t registry_cap = 0;

static int registry_grow(void) {
  size_t cap = registry_cap ? registry_cap * 2 : 64;
  size_t bytes;
  if (cap < registry_cap || !loomrt_mul_size(cap, sizeof *registry, &bytes))
    return 0;
  struct registry_entry *grown = realloc(registry, bytes);
  if (!grown)
    return 0;
  registry = grown;
  registry_cap = cap;
  return 1;
}

int loomrt_register(loomrt_kind kind, void *object, const char *name) {
  static const char *const kind_names[] = {"object", "set", "map", "dat",
                                           "sparsity", "matrix"};
  if (registry_count == registry_cap && !registry_grow())
    return loom_error_(LOOM_ENOMEM, "%s '%s': out of memory registering it",
                       kind_names[kind], name);
  registry[registry_count].kind = kind;
  registry[registry_count].object = object;
  registry_count++;
  return LOOM_OK;
}

size_t loomrt_registry_count(void) { return registry_count; }

void *loomrt_registry_object(size_t i, loomrt_kind *kind) {
  *kind = registry[i].kind;
  return registry[i].object;
}

/* The retire and free functions of the kinds registered above core
 * (mat/'s sparsities and matrices), installed by their layer. */
static struct {
  void (*retire)(void *object);
  void (*release)(void *object);
} kind_ops[LOOMRT_KIND_XMAP + 1];

void loomrt_kind_ops(loomrt_kind kind, void (*retire)(void *object),
                     void (*release)(void *object)) {
  kind_ops[kind].retire = retire;
  kind_ops[kind].release = release;
}

static void free_entry(const struct registry_entry *entry) {
  switch (entry->kind) {
  case LOOMRT_KIND_SET:
  case LOOMRT_KIND_XSET:
    loomrt_set_free(entry->object);
    break;
  case LOOMRT_KIND_MAP:
  case LOOMRT_KIND_XMAP:
    loomrt_map_free(entry->object);
    break;
  case LOOMRT_KIND_DAT:
    loomrt_dat_free(entry->object);
    break;
  default:
    kind_ops[entry->kind].release(entry->object);
    break;
  }
}

/* ---- retired objects ---------------------------------------------------- */

/* loom_exit retires every object: its storage is freed, its header and
 * name are kept here until the process exits, so that a handle kept past
 * loom_exit is reported by name — never read after free, and never, the
 * memory reused, naming an object of a later session.  A few dozen bytes
 * per object declared. */
static struct registry_entry *graveyard = NULL;
static size_t graveyard_count = 0, graveyard_cap = 0;

static void graveyard_free(void) {
  while (graveyard_count > 0)
    free_entry(&graveyard[--graveyard_count]);
  free(graveyard);
  graveyard = NULL;
  graveyard_cap = 0;
}

/* Retires an entry into the graveyard; frees it whole when the graveyard
 * cannot grow (its handles are then caught only as "not a live" object). */
static void retire_entry(const struct registry_entry *entry) {
  if (graveyard_count == graveyard_cap) {
    size_t cap = graveyard_cap ? graveyard_cap * 2 : 64, bytes;
    struct registry_entry *grown = NULL;
    if (loomrt_mul_size(cap, sizeof *graveyard, &bytes))
      grown = realloc(graveyard, bytes);
    if (!grown) {
      free_entry(entry);
      return;
    }
    graveyard = grown;
    graveyard_cap = cap;
  }
  switch (entry->kind) {
  case LOOMRT_KIND_SET:
  case LOOMRT_KIND_XSET:
    loomrt_set_retire(entry->object);
    break;
  case LOOMRT_KIND_MAP:
  case LOOMRT_KIND_XMAP:
    loomrt_map_retire(entry->object);
    break;
  case LOOMRT_KIND_DAT:
    loomrt_dat_retire(entry->object);
    break;
  default:
    kind_ops[entry->kind].retire(entry->object);
    break;
  }
  graveyard[graveyard_count++] = *entry;
}

const char *loomrt_handle_problem(char *buf, const loomrt_handle_kind *k, const void *handle,
                                  uint32_t magic, const char *name) {
  if (!handle)
    return "is NULL";
  if (magic == k->retired) {
    snprintf(buf, LOOMRT_STALE_MAX,
             "is stale: %s '%s' belongs to a session that loom_exit ended", k->word, name);
    return buf;
  }
  return magic == k->live ? NULL : k->not_live;
}

static void registry_free_all(void) {
  static int at_exit = 0;
  if (!at_exit)
    at_exit = atexit(graveyard_free) == 0;
  while (registry_count > 0)
    retire_entry(&registry[--registry_count]);
  free(registry);
  registry = NULL;
  registry_cap = 0;
}

/* ---- hooks run at the end of a session (installed by mat/) -------------- */

enum { SESSION_HOOKS_MAX = 4 };
static void (*session_hooks[SESSION_HOOKS_MAX])(void);
static int session_hook_count = 0;

int loomrt_at_session_exit(void (*hook)(void)) {
  for (int i = 0; i < session_hook_count; i++)
    if (session_hooks[i] == hook)
      return LOOM_OK;
  if (session_hook_count == SESSION_HOOKS_MAX)
    return loom_error_(LOOM_ENOMEM, "more than %d hooks at loom_exit",
                       SESSION_HOOKS_MAX);
  session_hooks[session_hook_count++] = hook;
  return LOOM_OK;
}

/* Runs the hooks, first installed first, and forgets them. */
static void session_hooks_run(void) {
  for (int i = 0; i < session_hook_count; i++)
    session_hooks[i]();
  session_hook_count = 0;
}

/* ---- lifetime ---------------------------------------------------------- */

static int diag = 0;
static unsigned session = 0; /* loom_init's count: the session running */
static int session_block_size = LOOM_DEFAULT_BLOCK_SIZE, session_renumber = 0;
static int *session_argc = NULL;
static char ***session_argv = NULL;

unsigned loomrt_session(void) { return state == STATE_ACTIVE ? session : 0; }
int loomrt_session_block_size(void) { return session_block_size; }
int loomrt_session_renumber(void) { return session_renumber; }

void loomrt_args(int **argc, char ***argv[]) {
  *argc = session_argc;
  *argv = session_argv;
}

int loomrt_diag(void) { return diag; }

static int plan_checks = 0;
static int partitioned = 0;

int loomrt_partitioned(void) { return partitioned; }
void loomrt_set_partitioned(void) { partitioned = 1; }

int loomrt_check_plans(void) { return plan_checks; }

static int vector_mode = -1;
int loomrt_vector_mode(void) { return vector_mode; }

static int avx512_allowed = 1;
int loomrt_avx512_allowed(void) { return avx512_allowed; }

/* Reads the integer environment variable `var` into *out when it is set
 * and not empty; reports a value that is not an integer in [lo, hi]. */
static int env_int(const char *var, long lo, long hi, int *out) {
  const char *value = getenv(var);
  if (!value || value[0] == '\0')
    return LOOM_OK;
  char *end;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (end == value || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    if (hi == INT_MAX)
      return loom_error_(LOOM_EINVAL,
                         "environment variable %s is '%s', expected an "
                         "integer >= %ld",
                         var, value, lo);
    return loom_error_(LOOM_EINVAL,
                       "environment variable %s is '%s', expected an integer "
                       "in [%ld, %ld]",
                       var, value, lo, hi);
  }
  *out = (int)v;
  return LOOM_OK;
}

int loom_init(int *argc, char ***argv) {
  if (state == STATE_ACTIVE)
    return loom_error_(LOOM_ESTATE, "loom_init called twice without "
                                    "loom_exit in between");
  if (loomrt_distribution.start(argc, argv) != LOOM_OK)
    return LOOM_ESTATE; /* reported */
  int block_size = LOOM_DEFAULT_BLOCK_SIZE, want_diag = 0, renumber = 0;
  int check_plans = 0, vector = -1, avx512 = 1;
  int status = env_int("LOOM_BLOCK_SIZE", 1, INT_MAX, &block_size);
  if (status == LOOM_OK)
    status = env_int("LOOM_DIAG", 0, 1, &want_diag);
  if (status == LOOM_OK)
    status = env_int("LOOM_RENUMBER", 0, 1, &renumber);
  if (status == LOOM_OK)
    status = env_int("LOOM_CHECK_PLANS", 0, 1, &check_plans);
  if (status == LOOM_OK)
    status = env_int("LOOM_VECTOR", 0, 1, &vector);
  if (status == LOOM_OK)
    status = env_int("LOOM_AVX512", 0, 1, &avx512);
  if (status != LOOM_OK)
    return status;
  diag = want_diag;
  plan_checks = check_plans;
  vector_mode = vector;
  avx512_allowed = avx512;
  session_argc = argc; /* for PETSc, started at the first matrix (mat/) */
  session_argv = argv;
  partitioned = 0;
  loomrt_mem_begin();
  session_block_size = block_size; /* plan/ takes them at its first call */
  session_renumber = renumber;
  session++;
  state = STATE_ACTIVE;
  return LOOM_OK;
}

int loom_exit(void) {
  int status = loomrt_require_active("loom_exit");
  if (status != LOOM_OK)
    return status;
  loomrt_distribution.agree_exit(); /* a failure fails the session: the end is then local */
  int rank = loomrt_distribution.rank();
  if (diag && rank == 0) /* with MPI, rank 0's table stands for all */
    loomrt_timing_write(stderr); /* diagnostics never mix with the output */
  if (diag) /* every rank's memory is its own */
    loomrt_mem_write(stderr, rank);
  loomrt_profile_free();
  loomrt_scratch_free_all();
  loomrt_consts_free();
  registry_free_all();
  session_hooks_run(); /* plan/: the plans; mat/: PETSc's end, after its objects' */
  session_argc = NULL;
  session_argv = NULL;
  state = STATE_EXITED;
  loomrt_distribution.finish(); /* under MPI: halo and partition state, then MPI_Finalize */
  if (diag)
    loomrt_mem_check_freed(stderr, rank);
  return LOOM_OK;
}

/* ---- helpers ----------------------------------------------------------- */

int loomrt_check_name(const char *name, const char *what) {
  if (!name)
    return loom_error_(LOOM_EINVAL, "%s declared with a NULL name", what);
  if (name[0] == '\0')
    return loom_error_(LOOM_EINVAL, "%s declared with an empty name", what);
  return LOOM_OK;
}

char *loomrt_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy)
    memcpy(copy, s, n);
  return copy;
}

int loomrt_mul_size(size_t a, size_t b, size_t *out) {
  if (a != 0 && b > SIZE_MAX / a)
    return 0;
  *out = a * b;
  return 1;
}

const char *loomrt_loop_label(const char *loop) {
  return loop ? loop : "(unnamed loop)";
}

/* ---- partitioning methods (checked in every build) ---------------------- */

int loomrt_partition_method(const char *method, loomrt_part_method *out) {
  const char *env = getenv("LOOM_PARTITIONER");
  const char *chosen = env && env[0] ? env : method;
  if (!chosen) /* a distributed mesh is not gathered on rank 0 */
    *out = loomrt_any_sliced() ? LOOMRT_PART_PTSCOTCH : LOOMRT_PART_METIS;
  else if (strcmp(chosen, "metis") == 0)
    *out = LOOMRT_PART_METIS;
  else if (strcmp(chosen, "scotch") == 0)
    *out = LOOMRT_PART_SCOTCH;
  else if (strcmp(chosen, "ptscotch") == 0)
    *out = LOOMRT_PART_PTSCOTCH;
  else if (strcmp(chosen, "block") == 0)
    *out = LOOMRT_PART_BLOCK;
  else if (strcmp(chosen, "geom") == 0)
    *out = LOOMRT_PART_GEOM;
  else if (chosen == env)
    return loom_error_(LOOM_EINVAL,
                       "environment variable LOOM_PARTITIONER is '%s', "
                       "expected metis, scotch, ptscotch, block or geom",
                       env);
  else
    return loom_error_(LOOM_EINVAL,
                       "loom_partition: method '%s' is not metis, scotch, "
                       "ptscotch, block or geom",
                       method);
  return LOOM_OK;
}
