/*
 * qdiff.c — compares two raw files of doubles (Airfoil's q output):
 *   qdiff A B [TOL]
 * prints the largest difference relative to the size of the values,
 * max|a-b| / max(|a|) (norm-wise: a component near zero is not compared
 * with itself), and exits 0 when it is at most TOL (default 0: equal
 * values), 1 otherwise, 2 on bad input (unreadable, different sizes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double *read_doubles(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  double *v = malloc(bytes > 0 ? (size_t)bytes : 1);
  *n = bytes / (long)sizeof(double);
  if (!v || fread(v, sizeof(double), (size_t)*n, f) != (size_t)*n) {
    fprintf(stderr, "qdiff: cannot read %s\n", path);
    free(v);
    v = NULL;
  }
  fclose(f);
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: qdiff A B [TOL]\n");
    return 2;
  }
  double tol = argc == 4 ? strtod(argv[3], NULL) : 0.0;
  long na, nb;
  double *a = read_doubles(argv[1], &na), *b = read_doubles(argv[2], &nb);
  int rc = 2;
  if (a && b && na == nb && na > 0) {
    double worst = 0.0, scale = 1e-300;
    long at = 0;
    for (long i = 0; i < na; i++)
      scale = fmax(scale, fabs(a[i]));
    for (long i = 0; i < na; i++) {
      double d = a[i] == b[i] ? 0.0 : fabs(a[i] - b[i]) / scale;
      if (d > worst || d != d) {
        worst = d;
        at = i;
      }
    }
    printf("qdiff: %ld values, max relative difference %.3e (value %ld)\n", na, worst, at);
    rc = worst <= tol ? 0 : 1;
  } else if (a && b) {
    fprintf(stderr, "qdiff: %s has %ld values, %s has %ld\n", argv[1], na, argv[2], nb);
  }
  free(a);
  free(b);
  return rc;
}
