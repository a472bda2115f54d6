/* Narrowed temporaries (transform/narrow.h): stiffness writes the 2x2
 * matrices k of the cells whole, and apply, their only reader, names the
 * upper triangle k[0], k[1], k[3]: k keeps those 3 of its 4 components,
 * written from a full local after stiffness's kernel and copied into one
 * before apply's (in a loop of its own: k is stored, not contracted).
 * w is read whole (no narrowing, no note); h, read by
 * apply through k's subscripts too, is also fetched by the host (not
 * narrowed, with the reason). */
#include <loom.h>

static inline void stiffness(const double *x0, const double *x1, double *k, double *h) {
  double d = x1[0] - x0[0];
  for (int j = 0; j < 4; j++)
    k[j] = (j + 1) * d;
  h[0] = d;
  h[1] = -d;
}
static inline void apply(const double *k, const double *h, const double *u0, const double *u1,
                         double *v0, double *v1) {
  v0[0] += k[0] * u0[0] + k[1] * u1[0] + h[0];
  v1[0] += k[1] * u0[0] + k[3] * u1[0];
}
static inline void weigh(const double *w, double *s) { *s += w[0] * w[1]; }

int main(int argc, char **argv) {
  static double xv[4] = {0, 1, 3, 6};
  static const int e2n[6] = {0, 1, 1, 2, 2, 3};
  loom_init(&argc, &argv);
  loom_set nodes = loom_decl_set(4, "nodes");
  loom_set edges = loom_decl_set(3, "edges");
  loom_map en = loom_decl_map(edges, nodes, 2, e2n, "en");
  loom_dat x = loom_decl_dat(nodes, 1, double, xv, "x");
  loom_dat k = loom_decl_temp(edges, 4, double, "k");
  loom_dat h = loom_decl_temp(edges, 2, double, "h");
  loom_dat v = loom_decl_temp(nodes, 1, double, "v");
  loom_dat w = loom_decl_temp(edges, 2, double, "w");
#pragma loom par_loop(stiffness) over(edges) args(read: x[en[0]], x[en[1]], write: k, h)
  for (int it = 0; it < 2; it++) {
#pragma loom par_loop(apply) over(edges) \
    args(read: k, h, x[en[0]], x[en[1]], inc: v[en[0]], v[en[1]])
  }
  double s = 0.0;
#pragma loom par_loop(stiffness) over(edges) args(read: x[en[0]], x[en[1]], write: w, h)
#pragma loom par_loop(weigh) over(edges) args(read: w, inc: s)
  double out[4], hh[6];
  loom_dat_fetch(v, out, sizeof out);
  loom_dat_fetch(h, hh, sizeof hh);
  loom_exit();
  return out[0] + hh[0] + s > 0.0 ? 0 : 1;
}
