/*
 * tests/unit/runtime/test_rows.c — LOOM__ADD_ROW (loom.h), with which
 * generated code adds a strip's increments through maps to their rows.
 * and loom__rows8_double_N with LOOM__ADD_ROWV, with which it adds eight
 * elements' rows at a time.  Built three times by `make unit`: as the C
 * compiler gives it (GNU vector types, rows by shuffles: test_rows), with
 * -DLOOM_NO_ROW_SHUFFLES (vector types, rows one by one:
 * test_rows_noshuffle) and with -DLOOM_NO_VECTOR_ROWS (the plain loop:
 * test_rows_plain).  Each way each component's sum must be the bits of
 * the same addition done on its own, for every (type, size) loomc adds
 * as rows, on rows at every offset a dat's row can have (aligned to the
 * type only), and rows added in turn to one place must see each other.
 *
 * Build and run (or `make unit`):
 *   cc -std=c11 -g -Wall -Wextra -Iruntime/include tests/unit/runtime/test_rows.c \
 *      $(pkg-config --cflags --libs criterion) -o build/tests/test_rows && build/tests/test_rows
 */
#include <criterion/criterion.h>
#include "loom_gen.h"
#include <string.h>

#if defined(LOOM__ROWS_BY_SHUFFLES)
#define BY_SHUFFLES 1
#else
#define BY_SHUFFLES 0
#endif

/* Values whose sums round: v(k, s) for component k of addend s. */
static double dv(int k, int s) { return 0.1 * (k + 1) + 1e-17 * s + 1.0 / (3 + k + s); }
static float fv(int k, int s) { return (float)dv(k, s) * 1.7f; }
static int iv(int k, int s) { return 1000003 * (k + 1) - 7 * s; }

/* For each row offset 0..n, two rows added in turn at `at` (the second
 * reads the first's sums), against the same additions component by
 * component; the elements around the row must not change. */
#define CHECK_ROWS(T, n, val)                                                 \
  do {                                                                        \
    for (int at = 0; at <= (n); at++) {                                       \
      T got[4 * (n)], want[4 * (n)];                                          \
      for (int k = 0; k < 4 * (n); k++)                                       \
        got[k] = want[k] = val(k, 99);                                        \
      for (int s = 0; s < 2; s++) {                                           \
        T a[n];                                                               \
        for (int k = 0; k < (n); k++)                                         \
          a[k] = val(k, s);                                                   \
        LOOM__ADD_ROW_##n(T, got + at, a);                                    \
        for (int k = 0; k < (n); k++)                                         \
          want[at + k] += a[k];                                               \
      }                                                                       \
      cr_assert(memcmp(got, want, sizeof got) == 0,                           \
                #T " x " #n " at offset %d: not the component-wise sums", at); \
    }                                                                         \
  } while (0)

/* The macro as generated code writes it: the values listed. */
#define LOOM__ADD_ROW_2(T, p, a) LOOM__ADD_ROW(T, 2, p, a[0], a[1])
#define LOOM__ADD_ROW_4(T, p, a) LOOM__ADD_ROW(T, 4, p, a[0], a[1], a[2], a[3])
#define LOOM__ADD_ROW_8(T, p, a)                                              \
  LOOM__ADD_ROW(T, 8, p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
#define LOOM__ADD_ROW_16(T, p, a)                                             \
  LOOM__ADD_ROW(T, 16, p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],     \
                a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15])

Test(rows, doubles_add_as_their_components) {
  CHECK_ROWS(double, 2, dv);
  CHECK_ROWS(double, 4, dv);
  CHECK_ROWS(double, 8, dv);
}

Test(rows, floats_add_as_their_components) {
  CHECK_ROWS(float, 4, fv);
  CHECK_ROWS(float, 8, fv);
  CHECK_ROWS(float, 16, fv);
}

Test(rows, ints_add_as_their_components) {
  CHECK_ROWS(int, 4, iv);
  CHECK_ROWS(int, 8, iv);
  CHECK_ROWS(int, 16, iv);
}

/* Eight rows of n doubles taken from a strip laid out component by
 * component ([n][16], from element j), each added in turn at its target
 * (element k at row k % 3 of a small dat: rows meet, as a mesh's do),
 * against the component-wise sums in the same order. */
#define CHECK_ROWS8(n)                                                        \
  do {                                                                        \
    for (int j = 0; j <= 8; j += 8) {                                         \
      double strip[n][16], got[3 * (n) + 1], want[3 * (n) + 1];               \
      for (int v = 0; v < (n); v++)                                           \
        for (int e = 0; e < 16; e++)                                          \
          strip[v][e] = dv(v, e);                                             \
      for (int k = 0; k < 3 * (n) + 1; k++)                                   \
        got[k] = want[k] = dv(k, 99);                                         \
      loom__row_double_##n rows[8];                                           \
      loom__rows8_double_##n(rows, &strip[0][j], 16);                         \
      for (int k = 0; k < 8; k++) {                                           \
        LOOM__ADD_ROWV(double, n, got + 1 + (n) * (k % 3), rows[k]);          \
        for (int v = 0; v < (n); v++)                                         \
          want[1 + (n) * (k % 3) + v] += strip[v][j + k];                     \
      }                                                                       \
      cr_assert(memcmp(got, want, sizeof got) == 0,                           \
                "rows8 of double x " #n " from element %d: not the sums", j); \
    }                                                                         \
  } while (0)

Test(rows, eight_rows_at_a_time_add_as_their_components) {
  CHECK_ROWS8(2);
  CHECK_ROWS8(4);
}

/* The build says which definition it tests (a wrong flag would test the
 * same one twice). */
Test(rows, the_build_tests_the_definition_it_names) {
#if defined(LOOM_NO_VECTOR_ROWS)
  loom__row_double_4 v = {{1, 2, 3, 4}};
  cr_assert_eq(v.v[3], 4.0, "the plain loop over a struct's row");
#else
  loom__row_double_4 v = {1, 2, 3, 4};
  cr_assert_eq(v[3], 4.0, "GNU vector types");
#if defined(LOOM_NO_ROW_SHUFFLES) || !defined(__has_builtin)
  cr_assert(!BY_SHUFFLES, "rows one by one");
#else
  cr_assert(BY_SHUFFLES, "rows by shuffles");
#endif
#endif
}
