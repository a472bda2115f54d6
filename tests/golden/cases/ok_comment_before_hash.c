/* A comment before the # of a directive, on its line or on a line the
 * directive continues (a backslash), is white space: both lines are loom
 * directives (grammar.md, "Which lines are directives"), as they are
 * preprocessing directives to C. */
#include <loom.h>
static void one(double *t) { t[0] = 1.0; }
int main(int argc, char **argv) {
  loom_init(&argc, &argv);
  loom_set s = loom_decl_set(2, "s");
  loom_dat t = loom_decl_temp(s, 1, double, "t");
  /* c */ #pragma loom par_loop(one) over(s) args(write: t)
  /* c */ \
  #pragma loom par_loop(one) over(s) args(write: t)
  loom_exit();
  return 0;
}
