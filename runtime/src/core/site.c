/*
 * core/site.c — the source location of the API call in progress, for the
 * messages of collective calls that not every rank makes (mpi/agree.c).
 *
 * Design
 * ------
 * The collective calls of loom.h are also function-like macros that call
 * loom__call_site(__FILE__, __LINE__) before the function and
 * loom__call_done() on its result (loom.h, "call sites"): the location
 * holds exactly while the call runs, and is cleared when it returns, so a
 * later agreement that no wrapped call started (a call through a function
 * pointer) has none rather than an older call's.  Code that loomc generates keeps the user's text under
 * #line directives, so the location is the user's file and line.
 *
 * One location, a plain static: the API is called from the host thread
 * only (under MPI the runtime asks for MPI_THREAD_FUNNELED; loops' threads
 * make no API call).  The file name is __FILE__, a string literal: only
 * its pointer is kept.  A wrapped call made while another is in progress
 * (one in the other's arguments, or from an error handler) clears the
 * location when it returns: the outer call is then reported without one,
 * never with a wrong one.  Only an error handler that leaves a call with
 * longjmp skips loom__call_done: the location then stays until the next
 * wrapped call.
 *
 * Loops: generated code names each loop "KERNEL at FILE:LINE" (the
 * directive's line) in its first check, loom__check_set, which records it
 * here until loom__loop_done (or until the loop leaves on an error:
 * loomrt_leave); an agreement a loop starts (under MPI the first loop
 * partitions the mesh when the program did not) is reported at the
 * directive's line.  A wrapped call in progress takes precedence.
 *
 * Errors: loom_error_ prefixes its message with the same location — the
 * wrapped call's "FILE:LINE: ", or the running loop's "KERNEL at
 * FILE:LINE: " — unless the message already starts with it (an
 * agreement's) or names the loop (a loop's checks): loomrt_error_context.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const char *site_file; /* NULL: no wrapped call in progress */
static int site_line;
static const char *site_loop; /* the loop running, its label; NULL: none */

void loomrt_loop_site(const char *label) { site_loop = label; }

/* "FILE:LINE" of a loop label "KERNEL at FILE:LINE", or "". */
static const char *loop_where(const char *label) {
  const char *at = NULL;
  for (const char *p = label ? strstr(label, " at ") : NULL; p; p = strstr(p + 1, " at "))
    at = p;
  return at ? at + 4 : "";
}

void loom__call_site(const char *file, int line) {
  site_file = file;
  site_line = line;
}

int loom__call_done(int status) {
  site_file = NULL;
  return status;
}

void *loom__call_done_ptr(void *handle) {
  site_file = NULL;
  return handle;
}

double loom__call_done_dbl(double value) {
  site_file = NULL;
  return value;
}

const char *loomrt_error_context(char *buf, size_t size, const char *message) {
  char at[300];
  loomrt_call_site(at, sizeof at); /* the wrapped call's, or the loop's */
  buf[0] = '\0';
  if (!at[0] || strncmp(message, at, strlen(at)) == 0)
    return buf;
  if (site_file && *site_file)
    snprintf(buf, size, "%s: ", at);
  else if (!strstr(message, site_loop))
    snprintf(buf, size, "%s: ", site_loop);
  return buf;
}

const char *loomrt_call_site(char *buf, size_t size) {
  if (!size)
    return "";
  buf[0] = '\0';
  const char *w = loop_where(site_loop);
  if ((!site_file || !*site_file) && *w && size > 8) {
    size_t len = strlen(w);
    snprintf(buf, size, "%s%s", len < size ? "" : "...", len < size ? w : w + len - (size - 4));
    return buf;
  }
  if (!site_file || !*site_file)
    return buf;
  size_t len = strlen(site_file), room = size > 16 ? size - 16 : 0;
  if (len <= room) /* room for ":LINE" besides */
    snprintf(buf, size, "%s:%d", site_file, site_line);
  else /* a long path: its end, which names the file */
    snprintf(buf, size, "...%s:%d", site_file + len - (room > 3 ? room - 3 : 0), site_line);
  return buf;
}
