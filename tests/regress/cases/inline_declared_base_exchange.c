/* A call seen through whose argument is no variable of the caller
 * (`step(&mesh)`): its parameter is declared anew, `struct mesh *m_1 =
 * (&mesh);`.  The halo exchange its loop needs of m_1->x may start early,
 * after the last statement that wrote a dat of x's class (the store of x
 * into mesh), but not above that declaration: it did, and the program
 * did not compile ("'M_1' undeclared", difftest seed 5216). */
#include <loom.h>
#include <stdio.h>

struct mesh {
  loom_set s;
  loom_map next LOOM_MAP_FACTS(s, s, 1);
  loom_dat x LOOM_DAT_FACTS(s, 1, double);
  loom_dat n LOOM_DAT_FACTS(s, 1, int);
};

static void pull(const double *x, int *n) { n[0] = (int)x[0] + 1; }

static void step(struct mesh *m) {
#pragma loom par_loop(pull) over(m->s) args(read: m->x[m->next[0]], write: m->n)
}

static void clear(int *n) { n[0] = 0; }

int main(int argc, char **argv) {
  double xs[6] = {1, 2, 3, 4, 5, 6};
  int next[6] = {1, 2, 3, 4, 5, 0}, ns[6] = {0}, out[6];
  loom_init(&argc, &argv);
  loom_set s = loom_decl_set(6, "s");
  loom_map nx = loom_decl_map(s, s, 1, next, "next");
  loom_dat x = loom_decl_dat(s, 1, double, xs, "x");
  loom_dat n = loom_decl_dat(s, 1, int, ns, "n");
  struct mesh mesh;
  mesh.s = s;
  mesh.next = nx;
  mesh.x = x;
  mesh.n = n;
  (void)mesh;
  step(&mesh);
  loom_dat_fetch(n, out, sizeof out);
  if (loom_rank() == 0)
    printf("%d %d %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4], out[5]);
#pragma loom par_loop(clear) over(s) args(write: n)
  loom_exit();
  return 0;
}
