/*
 * output.h — write the generated file.
 *
 * The text is written to a temporary file beside the output and renamed
 * over it, so a failed run never leaves a partial or stale output.  An
 * output that exists and is not a regular file (/dev/null, a pipe) is
 * written in place instead: renaming over it would replace the device.
 */
#ifndef LOOMC_OUTPUT_H
#define LOOMC_OUTPUT_H

#include "util/strbuf.h"

/* Writes text to path ("-" for stdout). Returns 0, or -1 after a diagnostic. */
int output_write(const char *path, const strbuf *text);

/* Removes path if it exists, so that a failed translation leaves no stale
 * output behind. */
void output_remove_stale(const char *path);

#endif
