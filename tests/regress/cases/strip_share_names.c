/* Found by the differential tester (seed 20670, reduced): k3's and k4's
 * turns are staged and shared as strip functions (loom_strip_<id>_<kernel>),
 * and under OpenMP the rotated time loop runs one of them in two groups
 * with different texts (one owner-computes, with its range).  The two
 * functions had the same name: the generated C did not compile
 * ("conflicting types for 'loom_strip_5_k5_body'").  Now the second is
 * numbered on. */
#include <loom.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline unsigned dt_h(unsigned k) {
  k ^= k >> 16; k *= 0x7feb352dU; k ^= k >> 15; k *= 0x846ca68bU; k ^= k >> 16;
  return k;
}
/* exact: v is an integer, |v| < 2^53 */
static inline double dt_wd(double v) { return v - 1024.0 * floor(v / 1024.0); }
static inline double dt_w64(double v) { return v - 64.0 * floor(v / 64.0); }
static inline void dt_print_d(const char *name, const double *v, int n) {
  if (n <= 48) {
    printf("%s", name);
    for (int k = 0; k < n; k++) printf(" %.17g", v[k]);
    printf("\n");
  } else {
    unsigned long long hs = 1469598103934665603ULL, b;
    for (int k = 0; k < n; k++) { memcpy(&b, &v[k], sizeof b); hs = (hs ^ b) * 1099511628211ULL; }
    printf("%s n=%d first=%.17g last=%.17g hash=%llu\n", name, n, v[0], v[n - 1], hs);
  }
}
static inline void dt_print_i(const char *name, const int *v, int n) {
  if (n <= 48) {
    printf("%s", name);
    for (int k = 0; k < n; k++) printf(" %d", v[k]);
    printf("\n");
  } else {
    unsigned long long hs = 1469598103934665603ULL;
    for (int k = 0; k < n; k++) hs = (hs ^ (unsigned)v[k]) * 1099511628211ULL;
    printf("%s n=%d first=%d last=%d hash=%llu\n", name, n, v[0], v[n - 1], hs);
  }
}

static inline void dt_show_d(const char *name, const double *v, int n) {
  printf("%s", name);
  for (int k = 0; k < n; k++) printf(" %.17g", v[k]);
  printf("\n");
}
static inline void dt_bump_d(double *v, int n, int by) {
  for (int k = 0; k < n; k++) v[k] += by;
}
static inline void dt_store_d(double *v, double x) { *v = x; }
static inline void dt_show_i(const char *name, const int *v, int n) {
  printf("%s", name);
  for (int k = 0; k < n; k++) printf(" %d", v[k]);
  printf("\n");
}
static inline void dt_bump_i(int *v, int n, int by) {
  for (int k = 0; k < n; k++) v[k] += by;
}
static inline void dt_store_i(int *v, int x) { *v = x; }
static void k1(double *p0) {
  const double mix = dt_wd(6.0);
  const double v0 = dt_wd(mix * 2.0 + 0.0);
  p0[0] = (double)v0;
}
static void k2(double *p0) {
  const double mix = dt_wd(6.0);
  const double v0 = dt_wd(mix * 2.0 + 0.0);
  p0[0] = (double)v0;
}
static void k3(const double *p0, double *p1) {
  const double x0 = dt_wd((double)p0[0]);
  const double mix = dt_wd(6.0 + 2.0 * x0);
  const double v0 = dt_wd(mix * 3.0 + 7.0 + x0 * 2.0);
  p1[0] += (double)dt_w64(v0);
}
static void k4(double *p0, const double *p1) {
  const double x0 = dt_wd((double)p1[0]);
  const double mix = dt_wd(6.0 + 2.0 * x0);
  const double v0 = dt_wd(mix * 3.0 + 7.0 + x0 * 2.0);
  p0[0] += (double)dt_w64(v0);
}

int main(int argc, char **argv) {
  int *m0_data = calloc(2, sizeof(int));
  for (int k = 0; k < 1; k++) m0_data[k] = (int)(((unsigned)k / 1u + (unsigned)k % 1u + 1u) % 1u);
  int *m1_data = calloc(2, sizeof(int));
  for (int k = 0; k < 1; k++) m1_data[k] = (int)(((unsigned)k / 1u + (unsigned)k % 1u + 3u) % 1u);
  double g0 = 6;
  loom_init(&argc, &argv);
  loom_set s0 = loom_decl_set(1, "s0");
  loom_set s1 = loom_decl_set(1, "s1");
  loom_map m0 = loom_decl_map(s0, s1, 1, m0_data, "m0");
  loom_map m1 = loom_decl_map(s1, s0, 1, m1_data, "m1");
  loom_dat t0 = loom_decl_temp(s1, 1, double, "t0");
  loom_dat t1 = loom_decl_temp(s0, 1, double, "t1");
  loom_dat t2 = loom_decl_temp(s0, 1, double, "t2");
  for (int it0 = 0; it0 < 1; it0++) {
    #pragma loom par_loop(k1) over(s1) args(write: t0)
    #pragma loom par_loop(k2) over(s0) args(write: t1)
    #pragma loom par_loop(k3) over(s0) args(read: t0[m0[0]], inc: g0)
    #pragma loom par_loop(k4) over(s1) args(inc: t2[m1[0]], read: t1[m1[0]])
  }
  if (loom_rank() == 0)
    printf("g0 %.17g\n", g0);
  loom_exit();
  free(m0_data);
  free(m1_data);
  return 0;
}
