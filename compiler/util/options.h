/*
 * options.h — loomc's command line.
 */
#ifndef LOOMC_OPTIONS_H
#define LOOMC_OPTIONS_H

#include "util/arena.h"
#include "util/target.h"

typedef struct options {
  const char *input;  /* INPUT.c */
  const char *output; /* -o FILE ("-" for stdout) */
  const target *target; /* --target (seq) */
  str_list clang_args; /* -I, -D, -U and everything after -- */
  int deps;           /* -MD (1) or -MMD (2, without system headers) */
  const char *dep_file;   /* -MF FILE */
  const char *dep_target; /* -MT TARGET */
  const char *emit_dag;   /* --emit-dag=FILE ("-": stdout) */
  int report;             /* --report: the regions' DAGs on stdout */
  int no_fuse;            /* --no-fuse: every loop runs on its own */
  int no_vectorize;       /* --no-vectorize: no strips, no gathers */
  int no_narrow;          /* --no-narrow: temporaries stored whole */
  int no_rotate;          /* --no-rotate: loops are not rotated */
  int no_unroll;          /* --no-unroll: loops are not unrolled */
  int no_prescan;         /* --no-prescan: the loops to unroll are decided
                             on the analysis only (transform/prescan.h) */
  int no_inline;          /* --no-inline: calls are not seen through */
  int no_version;         /* --no-version: no body written twice (version.h) */
  int no_hoist;           /* --no-hoist: exchanges stay in loops */
  /* For tools that translate a buffer instead of a file (fuzzing, tests):
   * when set, the main file's contents are taken from here. */
  const char *input_text;
  unsigned long input_len;
  /* With input_text an expansion of the input (transform/expand.h): the
   * input's line of each of its lines, as its #line directives say. */
  const unsigned *input_lines;
  int ninput_lines;
} options;

enum { OPT_RUN = 0, OPT_EXIT_OK = 1, OPT_USAGE = 2 };

/* Parses argv into *o.  Returns OPT_RUN, OPT_EXIT_OK (after --help or
 * --version were printed) or OPT_USAGE (after a message). */
int options_parse(int argc, char **argv, options *o, arena *a);

/* Whether the input's text (o->input_text, or the file's) passes test;
 * a file that cannot be read: `unread` (the parse says why). */
int options_input_test(const options *o, int (*test)(const char *s, size_t n), int unread);

#endif
