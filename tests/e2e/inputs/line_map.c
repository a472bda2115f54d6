/* Input of tests/e2e/line_mapping.sh: C errors in the generated code must
 * point at this file's lines.  Each BREAK_* macro plants one error; the line
 * it must be reported at carries the marker @BREAK_* (for an error in a
 * directive, the marker names the argument's text: see the script).
 *   BREAK_SCALE   in the body of a kernel before any loop function
 *   BREAK_NORM    in the body of a kernel after a group of loop functions
 *   BREAK_AFTER   in user code right after a three-line directive
 *   BREAK_GLOBAL  a read global passed to a non-const kernel parameter
 *                 (loomc warns, the C compiler complains at the argument)
 *   LOOM_TEST_BREAK_*  given to the C compiler only, not to loomc: a type
 *                 loomc compiled for changes under it, as when a header
 *                 differs: a kernel parameter (_PARAM), a global (_GLOBAL) */
#include <loom.h>

#ifdef LOOM_TEST_BREAK_PARAM
typedef float y_elem; /* the kernel's y no longer matches dat y */
#else
typedef double y_elem;
#endif
#ifdef LOOM_TEST_BREAK_GLOBAL
typedef float rms_t; /* the global rms no longer matches the loop function */
#else
typedef double rms_t;
#endif

static void scale(const double *x, y_elem *y, const double *factor,
                  double *sum) {
#ifdef BREAK_SCALE
  int *wrong = y; /* @BREAK_SCALE */
#endif
  y[0] = *factor * x[0];
  *sum += y[0];
}

#ifdef BREAK_GLOBAL
static void shift(const double *x, double *y, double *by) {
#else
static void shift(const double *x, double *y, const double *by) {
#endif
  y[0] = x[0] + *by;
}

static double first(const double *data, double *out) {
  double sum = 0.0, factor = 2.0, by = 0.5;
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat x = loom_decl_dat(cells, 1, double, data, "x");
  loom_dat y = loom_decl_temp(cells, 1, double, "y");
#pragma loom par_loop(scale) over(cells)                                       \
    args(read: x, write: y,                                                    \
         read: factor, inc: sum)
#ifdef BREAK_AFTER
  int *wrong = out; /* @BREAK_AFTER */
#endif
#pragma loom par_loop(shift) over(cells)                                       \
    args(read: x,                                                              \
         write: y,                                                             \
         read: by)
  loom_dat_fetch(y, out, 4 * sizeof *out);
  return sum;
}

static void norm(const double *y, double *rms) {
#ifdef BREAK_NORM
  int *wrong = rms; /* @BREAK_NORM */
#endif
  *rms += y[0] * y[0];
}

int main(int argc, char **argv) {
  double data[4] = {1, 2, 3, 4}, shifted[4];
  rms_t rms = 0.0;
  loom_init(&argc, &argv);
  double sum = first(data, shifted);
  loom_set cells = loom_decl_set(4, "cells");
  loom_dat y = loom_decl_dat(cells, 1, double, shifted, "y");
#pragma loom par_loop(norm) over(cells) args(read: y, inc: rms)
  loom_exit();
  /* 2x: 2 4 6 8, sum 20; x + 0.5: 1.5 2.5 3.5 4.5, squares 41 */
  return sum == 20.0 && rms == 41.0 ? 0 : 1;
}
