/*
 * out_file.h — writing the samples' output files (meshes, final states):
 * to a temporary file next to the target, renamed into place when complete,
 * so that a reader never sees a partial file.  A target that exists and is
 * not a regular file (/dev/null, a pipe) is written in place: renaming over
 * it would replace the device.
 *
 * Usage: out_check(path) before computing; fp = out_open(path, &tmp); write
 * to fp; out_commit(fp, tmp, path, failed).  Everything here is `static` and plain C11 + POSIX stat.
 */
#ifndef LOOM_SAMPLES_OUT_FILE_H
#define LOOM_SAMPLES_OUT_FILE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Creates a new temporary file next to `path`, PATH.tmp.N with the first
 * free N (exclusive "x" mode); its name goes to *tmp (malloc'ed). */
static FILE *out_open(const char *path, char **tmp) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    /* a device or a pipe: written in place, never renamed over */
    *tmp = NULL;
    FILE *fp = fopen(path, "wb");
    if (!fp)
      fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
    return fp;
  }
  size_t size = strlen(path) + 16;
  *tmp = malloc(size);
  if (!*tmp) {
    fprintf(stderr, "%s: out of memory\n", path);
    return NULL;
  }
  FILE *fp = NULL;
  for (int n = 0; n < 1000 && !fp; n++) {
    snprintf(*tmp, size, "%s.tmp.%d", path, n);
    errno = 0;
    fp = fopen(*tmp, "wbx");
    if (!fp && errno != EEXIST)
      break;
  }
  if (!fp) {
    fprintf(stderr, "%s: cannot create: %s\n", *tmp, strerror(errno));
    free(*tmp);
    *tmp = NULL;
  }
  return fp;
}

/* Whether `path` can be written, checked before a long computation rather
 * than after it: a temporary file beside it is created and removed (a
 * device or a pipe is not opened).  Returns 0, or nonzero after printing
 * why ("PATH.tmp.0: cannot create: No such file or directory"). */
static int out_check(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return 0;
  char *tmp = NULL;
  FILE *fp = out_open(path, &tmp);
  if (!fp)
    return 1;
  fclose(fp);
  if (tmp)
    remove(tmp);
  free(tmp);
  return 0;
}

/* Closes the temporary file and renames it to `path`, or removes it when
 * `failed` or when closing fails.  Returns 0, or nonzero after printing why. */
static int out_commit(FILE *fp, char *tmp, const char *path, int failed) {
  if (!tmp) { /* written in place */
    failed |= ferror(fp) != 0;
    failed |= fclose(fp) != 0;
    if (failed)
      fprintf(stderr, "%s: write failed\n", path);
    return failed;
  }
  int saved = errno;
  failed |= ferror(fp) != 0;
  if (fclose(fp) != 0 && !failed) {
    saved = errno;
    failed = 1;
  }
  if (failed)
    fprintf(stderr, "%s: write failed: %s\n", tmp, strerror(saved));
  else if (rename(tmp, path) != 0) {
    fprintf(stderr, "%s: cannot rename to %s: %s\n", tmp, path,
            strerror(errno));
    failed = 1;
  }
  if (failed)
    remove(tmp);
  free(tmp);
  return failed;
}

#endif
