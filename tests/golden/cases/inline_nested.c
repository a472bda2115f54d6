/* Calls seen through three deep, with bodies written twice (transform/version.h).  The first round sees through every call of the input; middle's body, its call of inner written out, is then written twice in the round that sees through the calls that round brought into outer and main, decided on the same analysis (no edit of that round lies in it, and its dats are all parameters); outer's, which receives a call in that round, waits for the analysis of its text.  Each body's first copy takes names no other text has (b_1, a_3; b_2, a_4). */
#include <loom.h>
static inline void scale(const double *a, double *b) { b[0] = 0.5 * a[0]; }
static void inner(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
                  loom_dat b LOOM_DAT_FACTS(nodes, 1, double)) {
#pragma loom par_loop(scale) over(nodes) args(read: a, write: b)
}
static void middle(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
                   loom_dat b LOOM_DAT_FACTS(nodes, 1, double)) {
#pragma loom par_loop(scale) over(nodes) args(read: b, write: a)
  inner(nodes, a, b);
}
static void outer(loom_set nodes, loom_dat a LOOM_DAT_FACTS(nodes, 1, double),
                  loom_dat b LOOM_DAT_FACTS(nodes, 1, double)) {
  middle(nodes, a, b);
#pragma loom par_loop(scale) over(nodes) args(read: b, write: a)
}
int main(int argc, char **argv) {
  static double data[6] = {1, 2, 3, 4, 5, 6};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(6, "nodes");
  loom_dat a = loom_decl_dat(nodes, 1, double, data, "a");
  loom_dat b = loom_decl_dat(nodes, 1, double, data, "b");
  for (int iter = 1; iter <= argc * 10; iter++) {
    outer(nodes, a, b);
  }
  loom_exit();
  return 0;
}
