/*
 * limiter_mesh.h — the limiter's mesh (samples/common/tri_mesh.h) and its
 * command line.
 */
#ifndef LIMITER_MESH_H
#define LIMITER_MESH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/tri_mesh.h"

/* N from the command line: limiter [N] (default 64). */
static int limiter_size(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && (argv[1][0] == '-'))) {
    fprintf(stderr, "usage: %s [N]   (the N x N mesh, 1 <= N <= 4000; default 64)\n", argv[0]);
    exit(argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) ? 0 : 2);
  }
  if (argc < 2)
    return 64;
  char *end;
  long n = strtol(argv[1], &end, 10);
  if (*end || end == argv[1] || n < 1 || n > 4000) {
    fprintf(stderr, "limiter: N must be an integer from 1 to 4000, not '%s'\n", argv[1]);
    exit(2);
  }
  return (int)n;
}

#endif
