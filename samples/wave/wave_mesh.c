/*
 * wave_mesh.c — writes the unit-square triangle mesh of the wave example.
 *
 * Usage: wave_mesh -n N OUT
 *   N x N squares, each split along its diagonal into 2 counter-clockwise
 *   triangles: (N+1)^2 nodes and 2 N^2 cells, 1 <= N <= 10000.  The file
 *   format and the numbering of nodes and cells are described at the top of
 *   wave_host.h; in short, whitespace-separated, 0-based:
 *     nnode ncell
 *     x y          per node (node j*(N+1)+i at (i/N, j/N), "%.17g": exact)
 *     n1 n2 n3     per cell (counter-clockwise)
 *   OUT is written through a temporary file renamed into place, so it is
 *   never left partial.
 *
 * Exit status: 0 success, 1 the file could not be written, 2 usage errors.
 */
#include <stdio.h>
#include <string.h>

#include "wave_host.h"

static void usage(FILE *to, const char *prog) {
  fprintf(to,
          "usage: %s -n N OUT\n"
          "  N    squares per side of the unit square, an integer in [1, %d];\n"
          "       each square is split into 2 triangles\n"
          "  OUT  the mesh file to write (format: see wave_host.h)\n",
          prog, WAVE_MAX_N);
}

int main(int argc, char **argv) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "wave_mesh";
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage(stdout, prog);
    return 0;
  }
  if (argc != 4 || strcmp(argv[1], "-n") != 0) {
    fprintf(stderr, "%s: expected -n N OUT\n", prog);
    usage(stderr, prog);
    return 2;
  }
  int n;
  if (wave_parse_count(argv[2], 1, WAVE_MAX_N, &n)) {
    fprintf(stderr, "%s: N must be an integer in [1, %d], got '%s'\n", prog,
            WAVE_MAX_N, argv[2]);
    usage(stderr, prog);
    return 2;
  }
  if (argv[3][0] == '\0') {
    fprintf(stderr, "%s: OUT is empty\n", prog);
    usage(stderr, prog);
    return 2;
  }
  struct wave_mesh m;
  if (wave_generate_mesh(n, &m))
    return 1;
  int status = wave_write_mesh(argv[3], &m);
  wave_free_mesh(&m);
  return status;
}
