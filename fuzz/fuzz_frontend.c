/*
 * fuzz_frontend.c — libFuzzer target over loomc's whole pipeline, in
 * memory: the input is the main file (an unsaved file "fuzz.c" given to
 * libclang through options.input_text), translated by loomc's own
 * pipeline (loomc_pipeline, compiler/main.c) into a strbuf instead of a
 * file.
 *
 * An input that does not mention loom.h gets `#include <loom.h>` in front,
 * so that mutations are spent on loops and declarations rather than on
 * rediscovering the header.  Inputs that could make clang itself misbehave
 * are skipped — they test clang, not loomc: its `#pragma clang __debug`
 * crash pragmas, reading devices through #include, and `_Pragma` in a
 * directive line (clang 14 crashes on `#include <_Pragma(`, `#line 1
 * _Pragma(`, also through a macro; libclang recovers, so loomc reports
 * "libclang could not parse", but the aborted parse leaks inside libclang).
 *
 * Oracles besides the sanitizers: when loomc translated at least one
 * loop without an error, its output must itself parse without an error
 * (libclang again, in memory) — loomc promises C that compiles; such a
 * failure is reported with the input's output and aborts.
 *
 * Each run libclang parses the file (milliseconds): run this target for
 * a time (-max_total_time), not a count.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

static FILE *devnull;

static int contains(const uint8_t *data, size_t size, const char *s) {
  return memmem(data, size, s, strlen(s)) != NULL;
}

/* Whether a preprocessor directive of the text (a logical line whose first
 * non-blank is '#') holds `_Pragma`. */
static int pragma_operator_in_directive(const uint8_t *d, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t start = i, end = i;
    while (end < n && !(d[end] == '\n' && !(end > start && d[end - 1] == '\\') &&
                        !(end > start + 1 && d[end - 1] == '\r' && d[end - 2] == '\\')))
      end++;
    while (i < end && (d[i] == ' ' || d[i] == '\t'))
      i++;
    if (i < end && d[i] == '#' && memmem(d + i, end - i, "_Pragma", 7))
      return 1;
    i = end + 1;
  }
  return 0;
}

/* The output of a successful translation must parse cleanly. */
static void reparse(const options *in, const strbuf *out, arena *a) {
  options o = *in;
  o.input = in->output;
  o.input_text = out->data;
  o.input_len = out->len;
  frontend fe;
  program prog = {0};
  diag_set_stream(stderr);
  int rc = frontend_parse(&o, &fe, &prog, a);
  diag_set_stream(devnull);
  frontend_dispose(&fe);
  if (rc != 0) {
    fprintf(stderr, "fuzz_frontend: loomc's output does not parse:\n%.*s\n",
            (int)out->len, out->data);
    abort();
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  /* libclang's crash recovery stays on, as in loomc: a crash of clang's
   * own parser (clang 14 has some, e.g. `#include <_Pragma(`) is then the
   * error "libclang could not parse", which is loomc's behaviour and not a
   * finding.  Set LIBCLANG_DISABLE_CRASH_RECOVERY=1 to see such crashes. */
  devnull = fopen("/dev/null", "w");
  if (!devnull)
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char header[] = "#include <loom.h>\n";
  if (size > (1 << 16) || contains(data, size, "__debug") ||
      contains(data, size, "/dev/") || contains(data, size, "/proc/") ||
      pragma_operator_in_directive(data, size))
    return 0;
  size_t pre = contains(data, size, "loom.h") ? 0 : sizeof header - 1;
  char *text = malloc(pre + size + 1);
  memcpy(text, header, pre);
  if (size)
    memcpy(text + pre, data, size);
  text[pre + size] = '\0';

  arena *a = arena_new();
  options opt = {0};
  opt.input = "fuzz.c";
  /* every target, chosen by the input (its length) */
  opt.target = target_of((target_kind)(size % TARGET_COUNT));
  opt.output = "fuzz.out.c";
  opt.input_text = text;
  opt.input_len = pre + size;

  diag_reset();
  diag_set_stream(devnull);

  /* compiler/main.c's pipeline, minus the files */
  frontend fe;
  program prog = {0};
  strbuf out;
  sb_init(&out);
  loomc_pipeline(&opt, &fe, &prog, &out, a);
  if (diag_error_count() == 0 && prog.loops.len > 0)
    reparse(&opt, &out, a);
  sb_free(&out);
  frontend_dispose(&fe);

  diag_reset();
  arena_free(a);
  free(text);
  return 0;
}
