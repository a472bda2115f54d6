/*
 * tests/unit/runtime/test_core.c — unit tests of libloom's core
 * (runtime/src/core/): the public API and loom__ interface of sets, maps,
 * dats, errors, the lifetime, timers and the MPI API without MPI.
 *
 * Every test installs a capturing error handler, so a failing call returns
 * its failure value instead of exiting; the tests then check the returned
 * value, the status the handler saw and the words of the message (object
 * names, indices, sizes).  Where one input varies, the cases are a table.
 * The default handler (print and exit 1) is tested in a child process.
 *
 * Build and run (or `make unit`, which names the binary test_runtime):
 *   cc -std=c11 -g -Wall -Wextra -Iruntime/include tests/unit/runtime/test_core.c \
 *      -Lbuild/lib -lloom $(pkg-config --cflags --libs criterion) \
 *      -o build/tests/test_runtime && build/tests/test_runtime
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loom_gen.h"

/* ---- capturing error handler ------------------------------------------- */

static struct {
  int calls;
  int status;
  char message[4096];
  void *ctx;
} captured;

static int handler_ctx_token;

static void capture_handler(int status, const char *message, void *ctx) {
  captured.calls++;
  captured.status = status;
  captured.ctx = ctx;
  snprintf(captured.message, sizeof captured.message, "%s", message);
}

static void reset_capture(void) { memset(&captured, 0, sizeof captured); }

static void install_capture(void) {
  reset_capture();
  loom_set_error_handler(capture_handler, &handler_ctx_token);
}

/* Asserts that no error was reported since the last reset. */
static void expect_no_error(void) {
  cr_assert_eq(captured.calls, 0, "unexpected error: %s", captured.message);
}

/* Asserts that exactly one error with `status` was reported, whose message
 * contains each of the NULL-terminated `needles`; then resets the capture. */
static void expect_error_v(int status, const char *const *needles) {
  cr_assert_eq(captured.calls, 1, "expected one error, got %d (last: '%s')",
               captured.calls, captured.message);
  cr_assert_eq(captured.status, status, "status %d, expected %d: '%s'",
               captured.status, status, captured.message);
  cr_assert_eq(captured.ctx, &handler_ctx_token, "handler ctx not passed");
  cr_assert_str_eq(loom_last_error(), captured.message,
                   "loom_last_error differs from the handler's message");
  for (const char *const *n = needles; *n; n++)
    cr_assert(strstr(captured.message, *n), "message '%s' lacks '%s'",
              captured.message, *n);
  reset_capture();
}

#define expect_error(status, ...)                                              \
  expect_error_v((status), (const char *const[]){__VA_ARGS__, NULL})

/* Asserts one error whose message is exactly `text`. */
static void expect_error_text(int status, const char *text) {
  cr_assert_eq(captured.calls, 1, "expected one error, got %d",
               captured.calls);
  cr_assert_eq(captured.status, status);
  cr_assert_str_eq(captured.message, text);
  reset_capture();
}

/* ---- fixtures ---------------------------------------------------------- */

static void setup_active(void) {
  install_capture();
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
}

static void teardown_active(void) {
  reset_capture();
  loom_exit(); /* reports LOOM_ESTATE, captured, if the test already exited */
}

TestSuite(lifecycle, .init = install_capture);
TestSuite(set, .init = setup_active, .fini = teardown_active);
TestSuite(map, .init = setup_active, .fini = teardown_active);
TestSuite(dat, .init = setup_active, .fini = teardown_active);
TestSuite(check, .init = setup_active, .fini = teardown_active);
TestSuite(extruded, .init = setup_active, .fini = teardown_active);
TestSuite(timers);
TestSuite(memory, .init = install_capture);

/* The storage the ledger counts for a dat of `bytes` (loom.h, "memory"). */
static size_t dat_storage(size_t bytes) {
  size_t n = bytes + 4096 + 64, huge = (size_t)2 << 20;
  return n < huge ? n : (n + 4095) / 4096 * 4096;
}

static void expect_kinds_sum(loom_mem_when when) {
  size_t sum = 0;
  for (int k = 0; k < LOOM_MEM_TOTAL; k++)
    sum += loom_memory((loom_mem_kind)k, when);
  cr_assert_eq(sum, loom_memory(LOOM_MEM_TOTAL, when), "kinds sum to %zu, total %zu (when %d)",
               sum, loom_memory(LOOM_MEM_TOTAL, when), (int)when);
}

Test(memory, ledger_counts_dats_and_maps_and_returns_to_zero) {
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  size_t before = loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW);
  enum { N = 100000, E = 2 * N }; /* q: 3.2 MB, mapped; the others allocated */
  loom_set nodes = loom_decl_set(N, "nodes"), edges = loom_decl_set(E, "edges");
  int *e2n = malloc(2 * (size_t)E * sizeof *e2n);
  double *x = calloc(2 * (size_t)N, sizeof *x);
  for (int e = 0; e < E; e++)
    e2n[2 * e] = e % N, e2n[2 * e + 1] = (e + 1) % N;
  loom_map pedge = loom_decl_map(edges, nodes, 2, e2n, "pedge");
  loom_dat p_x = loom_decl_dat(nodes, 2, double, x, "p_x");
  loom_dat p_q = loom_decl_temp(nodes, 4, double, "p_q");
  loom_dat p_w = loom_decl_temp(edges, 1, float, "p_w");
  free(e2n);
  free(x);
  cr_assert(pedge && p_x && p_q && p_w);
  size_t dats = dat_storage(2 * (size_t)N * sizeof(double)) +
                dat_storage(4 * (size_t)N * sizeof(double)) +
                dat_storage((size_t)E * sizeof(float));
  cr_assert_eq(loom_memory(LOOM_MEM_DATS, LOOM_MEM_NOW), dats, "dats %zu, declared %zu",
               loom_memory(LOOM_MEM_DATS, LOOM_MEM_NOW), dats);
  cr_assert_eq(loom_memory(LOOM_MEM_MAPS, LOOM_MEM_NOW), 2 * (size_t)E * sizeof(int));
  cr_assert_eq(loom_memory(LOOM_MEM_STARTUP, LOOM_MEM_NOW), 0);
  cr_assert_eq(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_STARTED), 0, "no MPI: no start-up");
  expect_kinds_sum(LOOM_MEM_NOW);
  expect_kinds_sum(LOOM_MEM_PEAK);
  cr_assert_geq(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_PEAK),
                loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW));
  void *scratch = loom__scratch(0, 1000);
  cr_assert_not_null(scratch);
  cr_assert_geq(loom_memory(LOOM_MEM_SCRATCH, LOOM_MEM_NOW), 1000);
  expect_kinds_sum(LOOM_MEM_PEAK);
  cr_assert_eq(loom_exit(), LOOM_OK);
  cr_assert_eq(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW), before,
               "%zu bytes still counted after loom_exit",
               loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW) - before);
  cr_assert_eq(before, 0);
  expect_no_error();
}

Test(memory, peak_keeps_the_kinds_of_its_moment) {
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set s = loom_decl_set(1000, "s");
  loom_dat t = loom_decl_temp(s, 1, double, "t");
  cr_assert_not_null(t);
  size_t peak = loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_PEAK);
  cr_assert_eq(peak, loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_NOW));
  cr_assert_eq(loom_exit(), LOOM_OK); /* frees t: the peak stays */
  cr_assert_eq(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_PEAK), peak);
  cr_assert_eq(loom_memory(LOOM_MEM_DATS, LOOM_MEM_PEAK), dat_storage(1000 * sizeof(double)));
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK); /* a new session, a new peak */
  cr_assert_eq(loom_memory(LOOM_MEM_TOTAL, LOOM_MEM_PEAK), 0);
  cr_assert_eq(loom_exit(), LOOM_OK);
  expect_no_error();
}



/* ---- lifecycle and errors ---------------------------------------------- */

Test(lifecycle, last_error_is_empty_before_any_error) {
  cr_assert_str_eq(loom_last_error(), "");
}

Test(lifecycle, calls_before_init_are_rejected) {
  cr_assert_null(loom_decl_set(3, "cells"));
  expect_error(LOOM_ESTATE, "loom_decl_set", "before loom_init");
  cr_assert_null(loom_decl_map(NULL, NULL, 1, NULL, "m"));
  expect_error(LOOM_ESTATE, "loom_decl_map", "before loom_init");
  cr_assert_null(loom_decl_temp(NULL, 1, double, "t"));
  expect_error(LOOM_ESTATE, "loom_decl_dat", "before loom_init");
  cr_assert_eq(loom_set_size(NULL), -1);
  expect_error(LOOM_ESTATE, "loom_set_size", "before loom_init");
  cr_assert_eq(loom__check_set(NULL, "l"), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom__check_set", "before loom_init");
  cr_assert_eq(loom_exit(), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_exit", "before loom_init");
}

Test(lifecycle, init_twice_is_rejected) {
  int argc = 1;
  char *args[] = {"prog", NULL};
  char **argv = args;
  cr_assert_eq(loom_init(&argc, &argv), LOOM_OK);
  cr_assert_eq(argc, 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_init", "twice");
  cr_assert_eq(loom_exit(), LOOM_OK);
  expect_no_error();
}

Test(lifecycle, handles_are_rejected_after_exit) {
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat q = loom_decl_temp(cells, 4, double, "q");
  cr_assert_not_null(q);
  cr_assert_eq(loom_exit(), LOOM_OK);
  expect_no_error();

  cr_assert_eq(loom_set_size(cells), -1);
  expect_error(LOOM_ESTATE, "loom_set_size", "after loom_exit");
  double buf[16];
  cr_assert_eq(loom_dat_fetch(q, buf, sizeof buf), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_dat_fetch", "after loom_exit");
  cr_assert_null(loom__dat_values(q));
  expect_error(LOOM_ESTATE, "loom__dat_values", "after loom_exit");
  cr_assert_eq(loom_exit(), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom_exit", "after loom_exit");
}

/* A handle kept from an earlier session, used in a later one: named, never
 * read after free, never aliasing the new session's objects (which reuse
 * no retired header's memory). */
Test(lifecycle, stale_handles_are_named_in_a_later_session) {
  double d[8] = {0};
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set cells = loom_decl_set(4, "cells");
  loom_map self = loom_decl_map(cells, cells, 1, (int[]){1, 2, 3, 0}, "self");
  loom_dat x = loom_decl_dat(cells, 2, double, d, "x");
  cr_assert_eq(loom_exit(), LOOM_OK);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  for (int i = 0; i < 50; i++) { /* many new objects: none reuses a header */
    loom_set c2 = loom_decl_set(4, "cells2");
    loom_dat y = loom_decl_dat(c2, 2, double, d, "y");
    cr_assert(c2 != cells && (void *)c2 != (void *)x && (void *)y != (void *)x &&
              (void *)y != (void *)cells && (void *)c2 != (void *)self);
  }
  expect_no_error();
  cr_assert_null(loom_dat_name(x));
  expect_error(LOOM_EINVAL, "loom_dat_name", "is stale: dat 'x' belongs to a session "
                                             "that loom_exit ended");
  cr_assert_eq(loom_set_size(cells), -1);
  expect_error(LOOM_EINVAL, "set 'cells'", "stale");
  cr_assert_null(loom_map_name(self));
  expect_error(LOOM_EINVAL, "map 'self'", "stale");
  cr_assert_eq(loom__check_dat(x, cells, 2, LOOM_DOUBLE, "k at t.c:3", 1), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "loop k at t.c:3 (argument 1): dat is stale: dat 'x'");
  cr_assert_eq(loom_exit(), LOOM_OK);
}

Test(lifecycle, reinit_after_exit_starts_a_new_session) {
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  cr_assert_not_null(loom_decl_set(1, "a"));
  cr_assert_eq(loom_exit(), LOOM_OK);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom_set b = loom_decl_set(2, "b");
  cr_assert_eq(loom_set_size(b), 2);
  cr_assert_eq(loom_exit(), LOOM_OK);
  expect_no_error();
}

Test(lifecycle, exit_frees_many_objects) {
  /* Enough objects to grow the registry several times; run under ASan or
   * valgrind to see that nothing leaks. */
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  for (int i = 0; i < 500; i++) {
    char name[32];
    snprintf(name, sizeof name, "s%d", i);
    loom_set s = loom_decl_set(i % 7, name);
    int *idx = calloc((size_t)(i % 7) + 1, sizeof *idx);
    cr_assert_not_null(loom_decl_map(s, s, 1, idx, name));
    cr_assert_not_null(loom_decl_temp(s, 3, float, name));
    free(idx);
  }
  cr_assert_eq(loom_exit(), LOOM_OK);
  expect_no_error();
}

Test(lifecycle, set_error_handler_returns_previous_and_null_restores) {
  loom_error_handler prev = loom_set_error_handler(NULL, NULL);
  cr_assert_eq(prev, capture_handler);
  prev = loom_set_error_handler(capture_handler, &handler_ctx_token);
  cr_assert_neq(prev, capture_handler, "NULL should restore the default");
  cr_assert_not_null(prev);
}

/* Runs `fn` in a child with stderr on a pipe; returns the exit status and
 * the captured stderr. */
static int run_child(void (*fn)(void), char *err, size_t errsize) {
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    fn();
    _exit(99); /* fn should not return */
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t n;
  while (used + 1 < errsize &&
         (n = read(fds[0], err + used, errsize - 1 - used)) > 0)
    used += (size_t)n;
  err[used] = '\0';
  close(fds[0]);
  int wstatus;
  cr_assert_eq(waitpid(pid, &wstatus, 0), pid);
  cr_assert(WIFEXITED(wstatus));
  return WEXITSTATUS(wstatus);
}

static void child_default_handler(void) {
  loom_set_error_handler(NULL, NULL);
  loom_init(NULL, NULL);
  loom_decl_set(-5, "cells");
}

Test(lifecycle, default_handler_prints_and_exits_1) {
  char err[1024];
  int code = run_child(child_default_handler, err, sizeof err);
  static const char expected[] =
      "loom: error: set 'cells': size is -5, must be >= 0\n";
  cr_assert_eq(code, 1);
  /* Only the first line: sanitizers may append their own output. */
  cr_assert_eq(strncmp(err, expected, sizeof expected - 1), 0,
               "stderr was '%s'", err);
}

/* Two calls of a loop on three threads: each thread's wait for the last
 * of the call, summed; a thread the region did not start (slot left at 0)
 * waits nothing.  LOOM_DIAG's table at loom_exit says the most and each. */
static void child_thread_waits(void) {
  setenv("LOOM_DIAG", "1", 1);
  loom_init(NULL, NULL);
  static const char loop[] = "flux at w.c:3";
  double t0 = loom__wall();
  double *ends = loom__thread_ends(3);
  ends[0] = 10.0, ends[1] = 10.5, ends[2] = 0.0; /* thread 2 never ran */
  loom__threads_done(loop, ends, 3);
  ends = loom__thread_ends(2);
  ends[0] = 20.25, ends[1] = 20.0;
  loom__threads_done(loop, ends, 2);
  loom__loop_done(loop, t0);
  loom_exit();
  _exit(0);
}

Test(lifecycle, threads_waiting_are_summed_per_thread) {
  char err[8192];
  cr_assert_eq(run_child(child_thread_waits, err, sizeof err), 0);
  const char *at = strstr(err, "threads waiting for the last of a loop");
  cr_assert_not_null(at, "stderr: '%s'", err);
  at = strstr(at, "flux at w.c:3");
  cr_assert_not_null(at, "stderr: '%s'", err);
  cr_assert_not_null(strstr(at, "at most: 0.5000 0.2500 0.0000\n"), "stderr: '%s'", err);
}

/* ---- sets -------------------------------------------------------------- */

Test(set, declare_and_query) {
  loom_set nodes = loom_decl_set(721801, "nodes");
  loom_set empty = loom_decl_set(0, "empty");
  cr_assert_eq(loom_set_size(nodes), 721801);
  cr_assert_eq(loom__set_size(nodes), 721801);
  cr_assert_str_eq(loom_set_name(nodes), "nodes");
  cr_assert_eq(loom_set_size(empty), 0);
  cr_assert_eq(loom__check_set(nodes, "save_soln at a.c:1"), LOOM_OK);
  expect_no_error();
}

Test(set, name_is_copied) {
  char name[] = "cells";
  loom_set cells = loom_decl_set(1, name);
  name[0] = 'X';
  cr_assert_str_eq(loom_set_name(cells), "cells");
}

Test(set, bad_declarations) {
  static const struct {
    int size;
    const char *name;
    const char *needle;
  } cases[] = {
      {-1, "cells", "set 'cells': size is -1, must be >= 0"},
      {INT_MIN, "edges", "size is -2147483648"},
      {3, NULL, "set declared with a NULL name"},
      {3, "", "set declared with an empty name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_null(loom_decl_set(cases[i].size, cases[i].name), "case %zu",
                   i);
    expect_error(LOOM_EINVAL, cases[i].needle);
  }
}

Test(set, queries_on_null_handles) {
  cr_assert_eq(loom_set_size(NULL), -1);
  expect_error(LOOM_EINVAL, "loom_set_size", "set handle is NULL");
  cr_assert_null(loom_set_name(NULL));
  expect_error(LOOM_EINVAL, "loom_set_name", "is NULL");
  cr_assert_eq(loom__set_size(NULL), -1);
  expect_error(LOOM_EINVAL, "loom__set_size", "is NULL");
  cr_assert_eq(loom__check_set(NULL, "res_calc at airfoil.c:211"),
               LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "res_calc at airfoil.c:211",
               "iteration set is NULL");
  cr_assert_eq(loom__check_set(NULL, NULL), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "(unnamed loop)");
}

/* ---- maps -------------------------------------------------------------- */

Test(map, declare_copies_data) {
  loom_set edges = loom_decl_set(3, "edges");
  loom_set nodes = loom_decl_set(4, "nodes");
  int data[6] = {0, 1, 1, 2, 2, 3};
  loom_map pedge = loom_decl_map(edges, nodes, 2, data, "pedge");
  cr_assert_not_null(pedge);
  data[0] = 77; /* the runtime keeps its own copy */
  const int *values = loom__map_values(pedge);
  cr_assert_not_null(values);
  cr_assert_arr_eq(values, ((int[]){0, 1, 1, 2, 2, 3}), 6 * sizeof(int));
  cr_assert_str_eq(loom_map_name(pedge), "pedge");
  expect_no_error();
}

Test(map, empty_from_set_accepts_null_data) {
  loom_set none = loom_decl_set(0, "none");
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_map m = loom_decl_map(none, nodes, 3, NULL, "m");
  cr_assert_not_null(m);
  cr_assert_not_null(loom__map_values(m));
  expect_no_error();
}

Test(map, out_of_range_entry_message_is_exact) {
  loom_set edges = loom_decl_set(9, "edges");
  loom_set nodes = loom_decl_set(721801, "nodes");
  int data[18];
  for (int i = 0; i < 18; i++)
    data[i] = i;
  data[17] = 999999;
  cr_assert_null(loom_decl_map(edges, nodes, 2, data, "pedge"));
  expect_error_text(LOOM_EINVAL, "map 'pedge': entry 17 (element 8, slot 1) "
                                 "is 999999, outside [0, 721801) of set "
                                 "'nodes'");
}

Test(map, out_of_range_entries) {
  static const struct {
    int entry;           /* which of the 12 entries is bad */
    int value;           /* its value */
    const char *where;   /* expected "entry E (element e, slot s)" */
    const char *is;      /* expected "is V" */
  } cases[] = {
      {0, -1, "entry 0 (element 0, slot 0)", "is -1,"},
      {5, 10, "entry 5 (element 1, slot 1)", "is 10,"},  /* == size(to) */
      {11, INT_MAX, "entry 11 (element 2, slot 3)", "is 2147483647,"},
      {6, INT_MIN, "entry 6 (element 1, slot 2)", "is -2147483648,"},
  };
  loom_set cells = loom_decl_set(3, "cells");
  loom_set nodes = loom_decl_set(10, "nodes");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1};
    data[cases[i].entry] = cases[i].value;
    cr_assert_null(loom_decl_map(cells, nodes, 4, data, "pcell"), "case %zu",
                   i);
    expect_error(LOOM_EINVAL, "map 'pcell'", cases[i].where, cases[i].is,
                 "outside [0, 10) of set 'nodes'");
  }
}

Test(map, several_bad_entries_report_the_first) {
  loom_set cells = loom_decl_set(2, "cells");
  loom_set nodes = loom_decl_set(3, "nodes");
  int data[4] = {0, 7, 8, 1};
  cr_assert_null(loom_decl_map(cells, nodes, 2, data, "pcell"));
  expect_error(LOOM_EINVAL, "entry 1 (element 0, slot 1) is 7",
               "and more entries out of range");
}

Test(map, bad_declarations) {
  loom_set edges = loom_decl_set(2, "edges");
  loom_set nodes = loom_decl_set(3, "nodes");
  int data[4] = {0, 1, 1, 2};
  static const char *const names[] = {"pedge", NULL, ""};
  const struct {
    loom_set from, to;
    int dim;
    const int *data;
    int name;            /* index into names */
    const char *needle1, *needle2;
  } cases[] = {
      {NULL, nodes, 2, data, 0, "map 'pedge'", "'from' set is NULL"},
      {edges, NULL, 2, data, 0, "map 'pedge'", "'to' set is NULL"},
      {edges, nodes, 0, data, 0, "map 'pedge'", "arity is 0, must be >= 1"},
      {edges, nodes, -3, data, 0, "map 'pedge'", "arity is -3"},
      {edges, nodes, 2, NULL, 0, "map 'pedge': data is NULL",
       "set 'edges' has 2 elements x arity 2"},
      {edges, nodes, 2, data, 1, "map declared with a NULL name", "map"},
      {edges, nodes, 2, data, 2, "map declared with an empty name", "map"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_null(loom_decl_map(cases[i].from, cases[i].to, cases[i].dim,
                                 cases[i].data, names[cases[i].name]),
                   "case %zu", i);
    expect_error(LOOM_EINVAL, cases[i].needle1, cases[i].needle2);
  }
}

Test(map, queries_on_null_handles) {
  cr_assert_null(loom_map_name(NULL));
  expect_error(LOOM_EINVAL, "loom_map_name", "map handle is NULL");
  cr_assert_null(loom__map_values(NULL));
  expect_error(LOOM_EINVAL, "loom__map_values", "map handle is NULL");
}

/* ---- dats -------------------------------------------------------------- */

Test(dat, fetch_round_trip) {
  loom_set nodes = loom_decl_set(5, "nodes");
  double x[10];
  for (int i = 0; i < 10; i++)
    x[i] = 0.5 * i - 1.25;
  loom_dat p_x = loom_decl_dat(nodes, 2, double, x, "p_x");
  cr_assert_not_null(p_x);
  double copy[10];
  memcpy(copy, x, sizeof x);
  x[3] = 1e300; /* the runtime keeps its own copy */
  double out[10] = {0};
  cr_assert_eq(loom_dat_fetch(p_x, out, sizeof out), LOOM_OK);
  cr_assert_arr_eq(out, copy, sizeof out);
  cr_assert_eq(loom_dat_dim(p_x), 2);
  cr_assert_str_eq(loom_dat_name(p_x), "p_x");
  cr_assert_eq(memcmp(loom__dat_values(p_x), copy, sizeof copy), 0);
  expect_no_error();
}

Test(dat, fetch_round_trip_per_type) {
  loom_set s = loom_decl_set(3, "s");
  int ints[6] = {1, -2, 3, -4, 5, -6};
  float floats[3] = {1.5f, -2.5f, 3.25f};
  unsigned char bytes[3] = {0, 128, 255};
  long long lls[3] = {LLONG_MIN, 0, LLONG_MAX};
  int iout[6];
  float fout[3];
  unsigned char bout[3];
  long long lout[3];
  loom_dat di = loom_decl_dat(s, 2, int, ints, "di");
  loom_dat df = loom_decl_dat(s, 1, float, floats, "df");
  loom_dat db = loom_decl_dat(s, 1, unsigned char, bytes, "db");
  loom_dat dl = loom_decl_dat(s, 1, long long, lls, "dl");
  cr_assert_eq(loom_dat_fetch(di, iout, sizeof iout), LOOM_OK);
  cr_assert_eq(loom_dat_fetch(df, fout, sizeof fout), LOOM_OK);
  cr_assert_eq(loom_dat_fetch(db, bout, sizeof bout), LOOM_OK);
  cr_assert_eq(loom_dat_fetch(dl, lout, sizeof lout), LOOM_OK);
  cr_assert_arr_eq(iout, ints, sizeof ints);
  cr_assert_arr_eq(fout, floats, sizeof floats);
  cr_assert_arr_eq(bout, bytes, sizeof bytes);
  cr_assert_arr_eq(lout, lls, sizeof lls);
  expect_no_error();
}

Test(dat, temporaries_are_zero) {
  loom_set cells = loom_decl_set(1000, "cells");
  loom_dat t = loom_decl_temp(cells, 4, double, "t");
  loom_dat u = loom_decl_dat(cells, 3, int, NULL, "u");
  double *tv = loom__dat_values(t);
  int *uv = loom__dat_values(u);
  cr_assert_not_null(tv);
  cr_assert_not_null(uv);
  for (int i = 0; i < 4000; i++)
    cr_assert_eq(tv[i], 0.0, "t[%d] = %g", i, tv[i]);
  for (int i = 0; i < 3000; i++)
    cr_assert_eq(uv[i], 0, "u[%d] = %d", i, uv[i]);
  expect_no_error();
}

Test(dat, narrowed_temporaries_keep_fewer_values) {
  loom_set cells = loom_decl_set(1000, "cells");
  loom_dat t = loom_decl_temp(cells, 16, double, "t");
  cr_assert_eq(loom__dat_narrow(t, 10), LOOM_OK);
  cr_assert_eq(loom_dat_dim(t), 10);
  double *tv = loom__dat_values(t);
  for (int i = 0; i < 10000; i++)
    cr_assert_eq(tv[i], 0.0, "t[%d] = %g", i, tv[i]);
  tv[9999] = 1.0; /* the new storage's last value */
  cr_assert_eq(loom__check_dat(t, cells, 10, LOOM_DOUBLE, "spMV", 5), LOOM_OK);
  cr_assert_eq(loom__dat_narrow(t, 10), LOOM_OK); /* done: nothing changes */
  cr_assert_eq(((double *)loom__dat_values(t))[9999], 1.0);
  double out[10000];
  cr_assert_eq(loom_dat_fetch(t, out, sizeof out), LOOM_OK);
  expect_no_error();
}

Test(dat, narrowing_is_refused_where_it_would_lose_values) {
  loom_set cells = loom_decl_set(10, "cells");
  double x[20] = {0};
  loom_dat d = loom_decl_dat(cells, 2, double, x, "d");
  loom_dat t = loom_decl_temp(cells, 4, double, "t");
  cr_assert_eq(loom__dat_narrow(d, 1), LOOM_EMISMATCH);
  expect_error_text(LOOM_EMISMATCH, "temporary 'd' cannot keep 1 of its 2 values per element "
                                    "(it was declared with data)");
  cr_assert_eq(loom__dat_narrow(t, 5), LOOM_EMISMATCH);
  expect_error_text(LOOM_EMISMATCH, "temporary 't' cannot keep 5 of its 4 values per element "
                                    "(not a narrower dim)");
  cr_assert_eq(loom_dat_dim(t), 4);
}

Test(dat, fetch_wrong_size_message_is_exact) {
  loom_set cells = loom_decl_set(720000, "cells");
  loom_dat p_q = loom_decl_temp(cells, 4, double, "p_q");
  char buf[100];
  cr_assert_eq(loom_dat_fetch(p_q, buf, sizeof buf), LOOM_EINVAL);
  expect_error_text(LOOM_EINVAL, "dat 'p_q': loom_dat_fetch buffer is 100 "
                                 "bytes, expected 23040000 (720000 elements "
                                 "x 4 x double)");
}

Test(dat, fetch_errors) {
  loom_set cells = loom_decl_set(2, "cells");
  loom_dat q = loom_decl_temp(cells, 2, float, "q");
  float buf[4];
  const struct {
    void *buf;
    size_t bytes;
    const char *needle;
  } cases[] = {
      {buf, sizeof buf + 1, "buffer is 17 bytes, expected 16 (2 elements x 2 "
                            "x float)"},
      {buf, 0, "buffer is 0 bytes, expected 16"},
      {NULL, sizeof buf, "dat 'q': loom_dat_fetch buffer is NULL"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_eq(loom_dat_fetch(q, cases[i].buf, cases[i].bytes),
                 LOOM_EINVAL, "case %zu", i);
    expect_error(LOOM_EINVAL, "dat 'q'", cases[i].needle);
  }
  cr_assert_eq(loom_dat_fetch(NULL, buf, sizeof buf), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom_dat_fetch", "dat handle is NULL");
}

Test(dat, empty_set_fetch) {
  loom_set none = loom_decl_set(0, "none");
  loom_dat d = loom_decl_dat(none, 4, double, NULL, "d");
  cr_assert_not_null(d);
  cr_assert_eq(loom_dat_fetch(d, NULL, 0), LOOM_OK);
  expect_no_error();
}

Test(dat, bad_declarations) {
  loom_set cells = loom_decl_set(4, "cells");
  loom_set huge = loom_decl_set(INT_MAX, "huge");
  static const char *const names[] = {"p_q", NULL, ""};
  const struct {
    loom_set set;
    int dim;
    loom_type type;
    size_t elem_size;
    int name; /* index into names */
    const char *needle1, *needle2;
  } cases[] = {
      {NULL, 4, LOOM_DOUBLE, 8, 0, "dat 'p_q'", "set is NULL"},
      {cells, 0, LOOM_DOUBLE, 8, 0, "dat 'p_q'", "dim is 0, must be >= 1"},
      {cells, -4, LOOM_DOUBLE, 8, 0, "dat 'p_q'", "dim is -4"},
      {cells, 4, LOOM_TYPE_UNKNOWN, 8, 0, "dat 'p_q'", "LOOM_TYPE_UNKNOWN"},
      {cells, 4, (loom_type)99, 8, 0, "dat 'p_q'", "(invalid loom_type)"},
      {cells, 4, LOOM_DOUBLE, 4, 0, "dat 'p_q'",
       "element size is 4 bytes but type double has 8"},
      {huge, INT_MAX, LOOM_DOUBLE, 8, 0, "dat 'p_q'", "overflows size_t"},
      {cells, 4, LOOM_DOUBLE, 8, 1, "dat declared with a NULL name", "dat"},
      {cells, 4, LOOM_DOUBLE, 8, 2, "dat declared with an empty name", "dat"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_null(loom_decl_dat_(cases[i].set, cases[i].dim, cases[i].type,
                                  cases[i].elem_size, NULL,
                                  names[cases[i].name]),
                   "case %zu", i);
    expect_error(LOOM_EINVAL, cases[i].needle1, cases[i].needle2);
  }
}

Test(dat, pointer_element_type_is_unknown) {
  loom_set cells = loom_decl_set(1, "cells");
  int *ptrs[1] = {NULL};
  cr_assert_null(loom_decl_dat(cells, 1, int *, ptrs, "ptrs"));
  expect_error(LOOM_EINVAL, "dat 'ptrs'", "LOOM_TYPE_UNKNOWN");
}

Test(dat, queries_on_null_handles) {
  cr_assert_null(loom_dat_name(NULL));
  expect_error(LOOM_EINVAL, "loom_dat_name", "dat handle is NULL");
  cr_assert_eq(loom_dat_dim(NULL), -1);
  expect_error(LOOM_EINVAL, "loom_dat_dim", "dat handle is NULL");
  cr_assert_null(loom__dat_values(NULL));
  expect_error(LOOM_EINVAL, "loom__dat_values", "dat handle is NULL");
}

/* ---- loom__check_* ----------------------------------------------------- */

/* A small Airfoil-like mesh shared by the check tests. */
struct mesh {
  loom_set nodes, edges, cells;
  loom_map pedge, pecell;
  loom_dat p_x, p_q, p_qf;
};

static struct mesh make_mesh(void) {
  struct mesh m;
  int edge[4] = {0, 1, 1, 2};
  int ecell[4] = {0, 1, 1, 0};
  m.nodes = loom_decl_set(3, "nodes");
  m.edges = loom_decl_set(2, "edges");
  m.cells = loom_decl_set(2, "cells");
  m.pedge = loom_decl_map(m.edges, m.nodes, 2, edge, "pedge");
  m.pecell = loom_decl_map(m.edges, m.cells, 2, ecell, "pecell");
  m.p_x = loom_decl_temp(m.nodes, 2, double, "p_x");
  m.p_q = loom_decl_temp(m.cells, 4, double, "p_q");
  m.p_qf = loom_decl_temp(m.cells, 4, float, "p_qf");
  cr_assert_not_null(m.p_qf);
  return m;
}

#define LOOP "res_calc at airfoil.c:211"

Test(check, accepts_matching_objects) {
  struct mesh m = make_mesh();
  cr_assert_eq(loom__check_set(m.edges, LOOP), LOOM_OK);
  cr_assert_eq(loom__check_map(m.pedge, m.edges, m.nodes, 2, LOOP, 1),
               LOOM_OK);
  cr_assert_eq(loom__check_map(m.pecell, m.edges, m.cells, 2, LOOP, 3),
               LOOM_OK);
  cr_assert_eq(loom__check_dat(m.p_x, m.nodes, 2, LOOM_DOUBLE, LOOP, 1),
               LOOM_OK);
  cr_assert_eq(loom__check_dat(m.p_q, m.cells, 4, LOOM_DOUBLE, LOOP, 3),
               LOOM_OK);
  cr_assert_eq(loom__check_dat(m.p_qf, m.cells, 4, LOOM_FLOAT, LOOP, 3),
               LOOM_OK);
  expect_no_error();
}

/* Generated code checks an indirect dat against the map's target set, and
 * passes no target set to the map check itself. */
Test(check, map_target_set_for_indirect_dats) {
  struct mesh m = make_mesh();
  cr_assert_eq(loom__map_to(m.pedge), m.nodes);
  cr_assert_eq(loom__map_to(m.pecell), m.cells);
  cr_assert_eq(loom__check_map(m.pedge, m.edges, NULL, 2, LOOP, 1), LOOM_OK);
  cr_assert_eq(loom__check_dat(m.p_x, loom__map_to(m.pedge), 2, LOOM_DOUBLE,
                               LOOP, 1), LOOM_OK);
  cr_assert_neq(loom__check_dat(m.p_q, loom__map_to(m.pedge), 4, LOOM_DOUBLE,
                                LOOP, 3), LOOM_OK);
  cr_assert_null(loom__map_to(NULL));
}

Test(check, dat_dim_message_is_exact) {
  struct mesh m = make_mesh();
  cr_assert_eq(loom__check_dat(m.p_x, m.nodes, 3, LOOM_DOUBLE, LOOP, 1),
               LOOM_EMISMATCH);
  expect_error_text(LOOM_EMISMATCH,
                    "dat 'p_x': declared with dim 2 but loop res_calc at "
                    "airfoil.c:211 (argument 1) was compiled for dim 3");
}

Test(check, rejects_mismatched_maps) {
  struct mesh m = make_mesh();
  const struct {
    loom_map map;
    loom_set from, to;
    int dim;
    const char *needle1, *needle2;
  } cases[] = {
      {m.pedge, m.cells, m.nodes, 2, "map 'pedge': maps from set 'edges'",
       "compiled for a map from set 'cells'"},
      {m.pedge, m.edges, m.cells, 2, "map 'pedge': maps to set 'nodes'",
       "compiled for a map to set 'cells'"},
      {m.pecell, m.edges, m.cells, 1, "map 'pecell': declared with arity 2",
       "compiled for arity 1"},
      {NULL, m.edges, m.nodes, 2, LOOP " (argument 4)", "map is NULL"},
      {m.pedge, NULL, m.nodes, 2, LOOP " (argument 4)",
       "expected 'from' set is NULL"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_eq(loom__check_map(cases[i].map, cases[i].from, cases[i].to,
                                 cases[i].dim, LOOP, 4),
                 LOOM_EMISMATCH, "case %zu", i);
    expect_error(LOOM_EMISMATCH, cases[i].needle1, cases[i].needle2,
                 "loop " LOOP " (argument 4)");
  }
}

Test(check, rejects_mismatched_dats) {
  struct mesh m = make_mesh();
  const struct {
    loom_dat dat;
    loom_set set;
    int dim;
    loom_type type;
    const char *needle1, *needle2;
  } cases[] = {
      {m.p_q, m.nodes, 4, LOOM_DOUBLE, "dat 'p_q': declared on set 'cells'",
       "compiled for set 'nodes'"},
      {m.p_q, m.cells, 2, LOOM_DOUBLE, "dat 'p_q': declared with dim 4",
       "compiled for dim 2"},
      {m.p_q, m.cells, 4, LOOM_FLOAT, "dat 'p_q': declared with type double",
       "compiled for type float"},
      {m.p_qf, m.cells, 4, LOOM_DOUBLE, "declared with type float",
       "compiled for type double"},
      {m.p_q, m.cells, 4, LOOM_ULLONG, "type double",
       "type unsigned long long"},
      {NULL, m.cells, 4, LOOM_DOUBLE, LOOP " (argument 7)", "dat is NULL"},
      {m.p_q, NULL, 4, LOOM_DOUBLE, "expected set of dat 'p_q'", "is NULL"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_eq(loom__check_dat(cases[i].dat, cases[i].set, cases[i].dim,
                                 cases[i].type, LOOP, 7),
                 LOOM_EMISMATCH, "case %zu", i);
    expect_error(LOOM_EMISMATCH, cases[i].needle1, cases[i].needle2,
                 "loop " LOOP " (argument 7)");
  }
}

Test(check, unnamed_loop_is_labelled) {
  struct mesh m = make_mesh();
  cr_assert_eq(loom__check_dat(m.p_q, m.cells, 1, LOOM_DOUBLE, NULL, 2),
               LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "loop (unnamed loop) (argument 2)");
}

/* ---- timers ------------------------------------------------------------ */

Test(timers, are_monotone) {
  double cpu0, wall0;
  loom_timers(&cpu0, &wall0);
  double cpu_prev = cpu0, wall_prev = wall0;
  volatile double sink = 0.0;
  for (int i = 0; i < 2000; i++) {
    for (int k = 0; k < 1000; k++)
      sink += k * 1e-9;
    double cpu, wall;
    loom_timers(&cpu, &wall);
    cr_assert_geq(cpu, cpu_prev, "cpu went back at %d", i);
    cr_assert_geq(wall, wall_prev, "wall went back at %d", i);
    cpu_prev = cpu;
    wall_prev = wall;
  }
  cr_assert_gt(cpu_prev, cpu0, "busy loop used no CPU time");
  cr_assert_gt(wall_prev, wall0, "no wall time passed");
  cr_assert_lt(wall_prev - wall0, 60.0);
  (void)sink;
}

Test(timers, measure_a_sleep_and_accept_null) {
  double wall0, wall1, cpu0, cpu1;
  loom_timers(&cpu0, &wall0);
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  loom_timers(&cpu1, &wall1);
  cr_assert_geq(wall1 - wall0, 0.019);
  cr_assert_lt(cpu1 - cpu0, 0.019, "sleeping should not use CPU time");
  loom_timers(NULL, NULL);
  loom_timers(&cpu0, NULL);
  loom_timers(NULL, &wall0);
}

/* ---- the MPI API without MPI (core/nompi.c) ---------------------------- */

TestSuite(nompi, .init = setup_active, .fini = teardown_active);

Test(nompi, one_rank_owns_every_element) {
  struct mesh m = make_mesh();
  cr_assert_eq(loom_rank(), 0);
  cr_assert_eq(loom_nranks(), 1);
  cr_assert_eq(loom_partition(NULL, "metis"), LOOM_OK);
  cr_assert_eq(loom__set_core(m.edges), 2);
  cr_assert_eq(loom__set_owned(m.edges), 2);
  cr_assert_eq(loom__set_exec(m.edges), 2);
  cr_assert_eq(loom__set_total(m.edges), 2);
  cr_assert_eq(loom__set_size(m.edges), 2);
  cr_assert_eq(loom_set_size(m.edges), 2);
  cr_assert_null(loom__set_global(m.edges));
  /* sets and maps can still be declared: nothing was partitioned */
  cr_assert_not_null(loom_decl_set(3, "later"));
  expect_no_error();
  cr_assert_eq(loom_partition((loom_set)(void *)m.p_x, NULL), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom_partition: primary set", "not a live set");
  /* an unknown method fails as it would with MPI */
  cr_assert_eq(loom_partition(NULL, "parmetis"), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "method 'parmetis' is not metis, scotch", "ptscotch, block or geom");
  setenv("LOOM_PARTITIONER", "zoltan", 1);
  cr_assert_eq(loom_partition(NULL, NULL), LOOM_EINVAL);
  unsetenv("LOOM_PARTITIONER");
  expect_error(LOOM_EINVAL, "LOOM_PARTITIONER is 'zoltan'", "expected metis");
}

Test(nompi, halo_and_reductions_are_no_ops) {
  struct mesh m = make_mesh();
  loom__dat_dirty(m.p_q);
  cr_assert_eq(loom__dat_is_dirty(m.p_q), 0);
  cr_assert_eq(loom__halo_begin(m.p_q), LOOM_OK);
  cr_assert_eq(loom__halo_end(m.p_q), LOOM_OK);
  cr_assert_eq(loom__halo_messages(), 0);
  double v[2] = {1.5, -2};
  loom__reduction r;
  cr_assert_eq(loom__reduce_begin(&r, v, 2, LOOM_DOUBLE, LOOM_REDUCE_INC),
               LOOM_OK);
  cr_assert_eq(loom__reduce_end(&r), LOOM_OK);
  cr_assert(v[0] == 1.5 && v[1] == -2);
  expect_no_error();
  cr_assert_eq(loom__reduce_end(&r), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom__reduce_end without loom__reduce_begin");
  cr_assert_eq(loom__halo_begin(NULL), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom__halo_begin: dat handle is NULL");
}

/* Without MPI, start/fold fold the rank's own partial result: added for
 * inc (each loom_type), stored for min and max; the partial is copied at
 * start; fold without start does nothing. */
Test(nompi, reduce_start_and_fold) {
  struct mesh m = make_mesh();
  (void)m;
  static loom__reduction rd, ri, rc, rmax;
  double pd[2] = {1.5, -2}, vd[2] = {10, 20};
  int pi = 7, vi = 1;
  unsigned char pc = 200, vc = 50;
  float pmax = 3.5f, vmax = -1.0f;
  cr_assert_eq(loom__reduce_start(&rd, pd, 2, LOOM_DOUBLE, LOOM_REDUCE_INC), LOOM_OK);
  cr_assert_eq(loom__reduce_start(&ri, &pi, 1, LOOM_INT, LOOM_REDUCE_INC), LOOM_OK);
  cr_assert_eq(loom__reduce_start(&rc, &pc, 1, LOOM_UCHAR, LOOM_REDUCE_INC), LOOM_OK);
  cr_assert_eq(loom__reduce_start(&rmax, &pmax, 1, LOOM_FLOAT, LOOM_REDUCE_MAX), LOOM_OK);
  pd[0] = pd[1] = 1e9; /* start copied the partial results */
  pi = 0;
  cr_assert_eq(loom__reduce_start(&rd, pd, 2, LOOM_DOUBLE, LOOM_REDUCE_INC), LOOM_ESTATE);
  expect_error(LOOM_ESTATE, "loom__reduce_start: the reduction was started again before "
                            "its result was folded (loom__reduce_fold)");
  cr_assert_eq(loom__reduce_fold(&rd, vd), LOOM_OK);
  cr_assert_eq(loom__reduce_fold(&ri, &vi), LOOM_OK);
  cr_assert_eq(loom__reduce_fold(&rc, &vc), LOOM_OK);
  cr_assert_eq(loom__reduce_fold(&rmax, &vmax), LOOM_OK);
  cr_assert(vd[0] == 11.5 && vd[1] == 18, "double inc: %g %g", vd[0], vd[1]);
  cr_assert_eq(vi, 8);
  cr_assert_eq(vc, (unsigned char)250);
  cr_assert(vmax == 3.5f, "max: %g", (double)vmax);
  cr_assert_eq(loom__reduce_fold(&rd, vd), LOOM_OK); /* not started: nothing */
  cr_assert(vd[0] == 11.5);
  expect_no_error();
}

Test(nompi, a_slice_is_the_whole_set_and_hdf5_needs_mpi) {
  loom_set s = loom_decl_set_slice(5, 0, 5, "whole");
  cr_assert_not_null(s);
  expect_no_error();
  cr_assert_eq(loom_set_size(s), 5);
  cr_assert_eq(loom__set_size(s), 5);
  double v[5] = {1, 2, 3, 4, 5};
  cr_assert_not_null(loom_decl_dat(s, 1, double, v, "v"));
  cr_assert_null(loom_decl_set_slice(5, 1, 3, "part"));
  expect_error(LOOM_EINVAL, "set 'part': slice [1, 4) of 5 elements",
               "its slice must be the whole set [0, 5)");
  cr_assert_null(loom_decl_set_slice(5, 4, 3, "outside"));
  expect_error(LOOM_EINVAL, "set 'outside': slice [4, 4 + 3) is not inside [0, 5)");
  cr_assert_null(loom_decl_set_hdf5("mesh.h5", "cells"));
  expect_error(LOOM_EINVAL, "loom_decl_set_hdf5(\"mesh.h5\", \"cells\")",
               "this libloom has no HDF5", "link libloom_mpi");
  cr_assert_eq(loom_checkpoint("c.h5", 3), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "loom_checkpoint(\"c.h5\"", "no HDF5");
}

/* ---- the tuner (core/tune.c) ---------------------------------------------- */

/* One call of a tuned loop: picks, "runs" for `staged_s` or `elem_s`
 * seconds (its start moved back by that much), reports; the pick. */
static int tuned_call(loom__tuner *t, double staged_s, double elem_s) {
  int pick = loom__tune_pick(t);
  loom__tune_done(t, pick, loom__wall() - (pick ? staged_s : elem_s), "tuned at t.c:1");
  return pick;
}

Test(lifecycle, tuner_alternates_then_keeps_the_faster) {
  install_capture();
  unsetenv("LOOM_VECTOR");
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom__tuner fast_staged = {0}, slow_staged = {0};
  int picks[8];
  for (int i = 0; i < 8; i++)
    picks[i] = tuned_call(&fast_staged, 0.010, 0.020);
  int want[8] = {1, 0, 1, 0, 1, 0, 1, 1}; /* staged first, 3 each, then staged */
  for (int i = 0; i < 8; i++)
    cr_assert_eq(picks[i], want[i], "call %d", i);
  for (int i = 0; i < 8; i++)
    picks[i] = tuned_call(&slow_staged, 0.030, 0.020);
  cr_assert_eq(picks[6], 0, "element by element, faster, stays");
  cr_assert_eq(picks[7], 0);
  cr_assert(slow_staged.best[1] >= 0.030 && slow_staged.best[0] >= 0.020);
  cr_assert_eq(loom_exit(), LOOM_OK);
}

/* A new thread count times both ways again: one way may win at 1 thread
 * and the other at 2. */
Test(lifecycle, tuner_times_again_for_another_thread_count) {
  install_capture();
  unsetenv("LOOM_VECTOR");
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  loom__tuner t = {0};
  int picks[8];
  loom__tune_threads(&t, 1);
  for (int i = 0; i < 8; i++)
    picks[i] = tuned_call(&t, 0.010, 0.020);
  cr_assert_eq(picks[7], 1, "staged at 1 thread");
  loom__tune_threads(&t, 1);
  cr_assert_eq(tuned_call(&t, 0.030, 0.020), 1, "the same count keeps the choice");
  loom__tune_threads(&t, 2);
  cr_assert_eq(t.threads, 2);
  for (int i = 0; i < 8; i++) {
    loom__tune_threads(&t, 2);
    picks[i] = tuned_call(&t, 0.030, 0.020);
  }
  int want[8] = {1, 0, 1, 0, 1, 0, 0, 0}; /* timed again, then element by element */
  for (int i = 0; i < 8; i++)
    cr_assert_eq(picks[i], want[i], "call %d at 2 threads", i);
  cr_assert_eq(loom_exit(), LOOM_OK);
}

Test(lifecycle, tuner_obeys_loom_vector) {
  install_capture();
  for (int forced = 0; forced <= 1; forced++) {
    setenv("LOOM_VECTOR", forced ? "1" : "0", 1);
    cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
    loom__tuner t = {0};
    for (int i = 0; i < 8; i++)
      cr_assert_eq(tuned_call(&t, forced ? 0.030 : 0.010, 0.020), forced, "call %d", i);
    cr_assert_eq(t.calls, 0, "nothing timed when forced");
    cr_assert_eq(loom_exit(), LOOM_OK);
  }
  setenv("LOOM_VECTOR", "2", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_EINVAL);
  unsetenv("LOOM_VECTOR");
  expect_error(LOOM_EINVAL, "LOOM_VECTOR is '2'", "[0, 1]");
}

/* AVX-512 twins run where the CPU has what they are compiled for, unless
 * LOOM_AVX512=0. */
Test(lifecycle, twins_follow_the_cpu_and_loom_avx512) {
  install_capture();
  int cpu = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd");
#endif
  unsetenv("LOOM_AVX512");
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  cr_assert_eq(loom__twin_avx512() != 0, cpu, "by default: as the CPU has AVX-512");
  cr_assert_eq(loom_exit(), LOOM_OK);
  setenv("LOOM_AVX512", "0", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_OK);
  cr_assert_eq(loom__twin_avx512(), 0, "LOOM_AVX512=0: never");
  cr_assert_eq(loom_exit(), LOOM_OK);
  setenv("LOOM_AVX512", "2", 1);
  cr_assert_eq(loom_init(NULL, NULL), LOOM_EINVAL);
  unsetenv("LOOM_AVX512");
  expect_error(LOOM_EINVAL, "LOOM_AVX512 is '2'", "[0, 1]");
}

/* ---- extruded sets and maps (core/extruded.c) --------------------------- */

/* Two cells over three nodes, prisms of 3 layers over the cells and lines
 * of 4 over the nodes; pv reaches the bottom and top nodes of a prism. */
typedef struct columns {
  loom_set cells, nodes, prisms, lines;
  loom_map cn, pv, up;
} columns;

static columns make_columns(void) {
  static const int c2n[8] = {0, 1, 0, 1, 1, 2, 1, 2};
  columns c;
  c.cells = loom_decl_set(2, "cells");
  c.nodes = loom_decl_set(3, "nodes");
  c.cn = loom_decl_map(c.cells, c.nodes, 4, c2n, "cn");
  c.prisms = loom_decl_extruded_set(c.cells, 3, "prisms");
  c.lines = loom_decl_extruded_set(c.nodes, 4, "lines");
  c.pv = loom_decl_extruded_map(c.prisms, c.lines, 4, c.cn, (const int[]){0, 0, 1, 1}, "pv");
  c.up = loom_decl_extruded_map(c.prisms, c.prisms, 2, NULL, (const int[]){0, 1}, "up");
  expect_no_error();
  return c;
}

Test(extruded, sets_count_layers_and_elements) {
  columns c = make_columns();
  cr_assert_eq(loom_set_layers(c.prisms), 3);
  cr_assert_eq(loom_set_layers(c.lines), 4);
  cr_assert_eq(loom_set_layers(c.cells), 1);
  cr_assert_eq(loom_set_size(c.prisms), 6);
  cr_assert_eq(loom_set_size(c.lines), 12);
  cr_assert_eq(loom__set_base(c.prisms), c.cells);
  cr_assert_eq(loom__set_base(c.cells), c.cells);
  cr_assert_eq(loom__map_base(c.pv), c.cn);
  cr_assert_null(loom__map_base(c.up));
  cr_assert_eq(loom__map_base(c.cn), c.cn);
  expect_no_error();
}

Test(extruded, dats_hold_columns_in_order) {
  columns c = make_columns();
  double v[12];
  for (int i = 0; i < 12; i++)
    v[i] = i;
  loom_dat x = loom_decl_dat(c.lines, 1, double, v, "x");
  loom_dat q = loom_decl_dat(c.prisms, 2, double, v, "q");
  cr_assert_eq(loom_dat_dim(x), 1);
  cr_assert_eq(loom_dat_dim(q), 2);
  double back[12] = {0};
  cr_assert_eq(loom_dat_fetch(q, back, sizeof back), LOOM_OK);
  for (int i = 0; i < 12; i++)
    cr_assert_eq(back[i], i, "value %d of q", i);
  /* the loop checks: declared on prisms with dim 2 */
  cr_assert_eq(loom__check_dat(q, c.prisms, 2, LOOM_DOUBLE, "k at t.c:1", 1), LOOM_OK);
  cr_assert_eq(loom__check_dat(q, c.cells, 2, LOOM_DOUBLE, "k at t.c:1", 1), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'q'", "set 'prisms'", "set 'cells'");
  cr_assert_eq(loom__check_dat(x, c.lines, 4, LOOM_DOUBLE, "k at t.c:1", 1), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'x'", "dim 1", "dim 4");
}

Test(extruded, bad_declarations_are_refused) {
  columns c = make_columns();
  cr_assert_null(loom_decl_extruded_set(c.cells, 0, "flat"));
  expect_error(LOOM_EINVAL, "'flat'", "layers is 0");
  cr_assert_null(loom_decl_extruded_set(c.prisms, 2, "stack"));
  expect_error(LOOM_EINVAL, "'stack'", "'prisms' is itself extruded");
  cr_assert_null(loom_decl_map(c.prisms, c.nodes, 1, (const int[]){0, 0}, "bad"));
  expect_error(LOOM_EINVAL, "'bad'", "'prisms' is extruded", "loom_decl_extruded_map");
  cr_assert_null(loom_decl_extruded_map(c.prisms, c.nodes, 4, c.cn, (const int[]){0, 0, 1, 1},
                                        "m1"));
  expect_error(LOOM_EINVAL, "'m1'", "'nodes' is not an extruded set");
  cr_assert_null(loom_decl_extruded_map(c.prisms, c.lines, 2, c.cn, (const int[]){0, 1}, "m2"));
  expect_error(LOOM_EINVAL, "'m2'", "base map 'cn'", "arity 2");
  cr_assert_null(loom_decl_extruded_map(c.prisms, c.lines, 2, NULL, (const int[]){0, 1}, "m3"));
  expect_error(LOOM_EINVAL, "'m3'", "different base sets");
  cr_assert_null(loom_decl_extruded_map(c.prisms, c.prisms, 2, NULL, NULL, "m4"));
  expect_error(LOOM_EINVAL, "'m4'", "shifts are NULL");
}

Test(extruded, loops_check_sets_shifts_and_columns) {
  columns c = make_columns();
  const char *k = "k at t.c:7";
  cr_assert_eq(loom__check_extruded(c.prisms, k), LOOM_OK);
  cr_assert_eq(loom__check_set(c.prisms, k), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'prisms' is extruded", "single elements");
  cr_assert_eq(loom__check_extruded(c.cells, k), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'cells' is not extruded");
  /* every layer of prisms (0..2) reaches layers 0..3 of lines: in */
  cr_assert_eq(loom__check_layers(c.pv, 4, (const int[]){0, 0, 1, 1}, LOOM__REGION_ALL, k, 1),
               LOOM_OK);
  /* up's shift 1 from the top layer: out; from the interior (0..1): in */
  cr_assert_eq(loom__check_layers(c.up, 2, (const int[]){0, 1}, LOOM__REGION_ALL, k, 3),
               LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "map 'up' slot 1", "layer 3 of 'prisms'", "layers 0 to 2");
  cr_assert_eq(loom__check_layers(c.up, 2, (const int[]){0, 1}, LOOM__REGION_INTERIOR, k, 3),
               LOOM_OK);
  /* an empty region (the interior of one layer) reaches nothing */
  loom_set flat = loom_decl_extruded_set(c.cells, 1, "flat");
  loom_map fup = loom_decl_extruded_map(flat, flat, 2, NULL, (const int[]){0, 1}, "fup");
  cr_assert_eq(loom__check_layers(fup, 2, (const int[]){0, 1}, LOOM__REGION_INTERIOR, k, 3),
               LOOM_OK);
  cr_assert_eq(loom__check_layers(fup, 2, (const int[]){0, 1}, LOOM__REGION_BOTTOM, k, 3),
               LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "map 'fup' slot 1", "layer 1 of 'flat'", "layers 0 to 0");
  /* shifts other than the compiled ones, or a map that is not extruded */
  cr_assert_eq(loom__check_layers(c.pv, 4, (const int[]){0, 0, 1, 0}, LOOM__REGION_ALL, k, 1),
               LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "map 'pv': slot 3 shifts 1", "compiled for 0");
  cr_assert_eq(loom__check_layers(c.cn, 4, (const int[]){0, 0, 1, 1}, LOOM__REGION_ALL, k, 1),
               LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "map 'cn'", "extruded map of arity 4");
  expect_no_error();
}

/* Columns of their own heights: prisms of 3 and 1 layers over the two
 * cells, lines of 4, 4 and 2 over the three nodes. */
Test(extruded, columns_have_layers_of_their_own) {
  columns c = make_columns();
  const char *k = "k at t.c:9";
  loom_set ps = loom_decl_extruded_set_columns(c.cells, (const int[]){3, 1}, "ps");
  loom_set ls = loom_decl_extruded_set_columns(c.nodes, (const int[]){4, 4, 2}, "ls");
  loom_map pl = loom_decl_extruded_map(ps, ls, 4, c.cn, (const int[]){0, 0, 1, 1}, "pl");
  expect_no_error();
  cr_assert_eq(loom_set_layers(ps), 3); /* the highest column: each one's storage */
  const int *cols = loom__set_columns(ps);
  cr_assert(cols && cols[0] == 3 && cols[1] == 1);
  cr_assert_null(loom__set_columns(c.prisms));
  double v[6] = {0, 1, 2, 3, 4, 5}, back[6];
  loom_dat q = loom_decl_dat(ps, 1, double, v, "q");
  cr_assert_eq(loom_dat_fetch(q, back, sizeof back), LOOM_OK);
  cr_assert_eq(back[4], 4); /* column 1's padding is stored too */
  cr_assert_eq(loom__check_columns(ps, k), LOOM_OK);
  cr_assert_eq(loom__check_extruded(ps, k), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'ps' has columns of their own heights",
               "LOOM_EXTRUDED_COLUMNS_FACTS");
  cr_assert_eq(loom__check_columns(c.prisms, k), LOOM_EMISMATCH);
  expect_error(LOOM_EMISMATCH, "'prisms' has one number of layers");
  /* column 1 (one layer) reaches layer 1 of node 2's two: in */
  cr_assert_eq(loom__check_layers(pl, 4, (const int[]){0, 0, 1, 1}, LOOM__REGION_ALL, k, 1),
               LOOM_OK);
  /* a column of one layer under lines of one: out, in that column */
  loom_set l1 = loom_decl_extruded_set_columns(c.nodes, (const int[]){4, 4, 1}, "l1");
  loom_map p1 = loom_decl_extruded_map(ps, l1, 4, c.cn, (const int[]){0, 0, 1, 1}, "p1");
  cr_assert_eq(loom__check_layers(p1, 4, (const int[]){0, 0, 1, 1}, LOOM__REGION_ALL, k, 1),
               LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "from column 1", "map 'p1' slot 3",
               "layer 1 of a column of 'l1' that has layers 0 to 0");
  /* the bottom layer too reaches layer 1 there: out */
  cr_assert_eq(loom__check_layers(p1, 4, (const int[]){0, 0, 1, 1}, LOOM__REGION_BOTTOM, k,
                                  1), LOOM_EINVAL);
  expect_error(LOOM_EINVAL, "from column 1, which it runs at layers 0 to 0", "map 'p1'");
  cr_assert_null(loom_decl_extruded_set_columns(c.cells, (const int[]){2, 0}, "bad"));
  expect_error(LOOM_EINVAL, "'bad'", "column 1 has 0 layers");
  cr_assert_null(loom_decl_extruded_set_columns(c.cells, NULL, "none"));
  expect_error(LOOM_EINVAL, "'none'", "its layers are NULL");
  cr_assert_null(loom_decl_extruded_set_columns(ps, (const int[]){1, 1}, "stack"));
  expect_error(LOOM_EINVAL, "'stack'", "itself extruded");
}
