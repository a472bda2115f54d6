/*
 * output.c — atomic write of the generated file (see output.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"

static int fail(const char *what, const char *path, const char *tmp) {
  diag(DIAG_ERROR, (srcloc){0}, 0, "cannot %s '%s': %s", what, path,
       strerror(errno));
  if (tmp)
    unlink(tmp);
  return -1;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Whether path exists and is not a regular file (a device, a pipe):
 * renaming over it would replace it, so it is written in place. */
static int is_special(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int write_in_place(const char *path, const strbuf *text) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return fail("open", path, NULL);
  int ok = fwrite(text->data, 1, text->len, f) == text->len;
  ok &= fclose(f) == 0;
  return ok ? 0 : fail("write", path, NULL);
}

int output_write(const char *path, const strbuf *text) {
  if (strcmp(path, "-") == 0)
    return fwrite(text->data, 1, text->len, stdout) == text->len ? 0 : -1;
  if (is_special(path))
    return write_in_place(path, text);
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (!tmp)
    return fail("allocate a name for", path, NULL);
  snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  int rc = 0;
  if (fd < 0)
    rc = fail("create a temporary file for", path, NULL);
  else if (write_all(fd, text->data, text->len) != 0 || fchmod(fd, 0644) != 0) {
    close(fd);
    rc = fail("write", tmp, tmp);
  } else if (close(fd) != 0)
    rc = fail("write", tmp, tmp);
  else if (rename(tmp, path) != 0)
    rc = fail("rename the output to", path, tmp);
  free(tmp);
  return rc;
}

void output_remove_stale(const char *path) {
  if (path && strcmp(path, "-") != 0 && !is_special(path))
    unlink(path);
}
