/* tests/e2e/extruded.sh: a dat on an extruded set read back from the file
 * extruded_mpi wrote (one row per element, the base's columns one after
 * the other: dsl-spec/extruded.md), on any number of ranks, by
 * loom_decl_dat_hdf5 and by loom_dat_read_hdf5; prints its values in
 * declared order, one per line, as loom_dat_fetch gives them.
 *
 *   xread FILE.h5 NODES LAYERS      (mpirun -np P)
 */
#include <loom.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  const char *h5 = argv[1];
  int nodes = atoi(argv[2]), layers = atoi(argv[3]);
  loom_init(&argc, &argv);
  loom_set base = loom_decl_set(nodes, "nodes");
  loom_set lines = loom_decl_extruded_set(base, layers, "lines");
  loom_dat u = loom_decl_dat_hdf5(lines, 1, double, h5, "p_u");
  loom_dat v = loom_decl_temp(lines, 1, double, "v");
  if (!u || !v || loom_dat_read_hdf5(v, h5, "p_u") != LOOM_OK)
    return 1;
  size_t n = (size_t)nodes * layers;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  if (!a || !b || loom_dat_fetch(u, a, n * sizeof *a) != LOOM_OK ||
      loom_dat_fetch(v, b, n * sizeof *b) != LOOM_OK)
    return 1;
  for (size_t i = 0; loom_rank() == 0 && i < n; i++)
    printf("%.17g %.17g\n", a[i], b[i]);
  free(a);
  free(b);
  loom_exit();
  return 0;
}
