/*
 * options.c — parsing loomc's command line.
 *
 * Usage errors print one line and the hint to run --help, and make loomc
 * exit with status 2, as compilers do.
 */
#include "util/options.h"

#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

#ifndef LOOM_VERSION
#define LOOM_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: loomc [options] INPUT.c -o OUTPUT.c\n"
    "\n"
    "Translates a C file annotated with '#pragma loom' directives into plain C\n"
    "that calls libloom.\n"
    "\n"
    "options:\n"
    "  -o FILE           write the generated C to FILE ('-' for stdout)\n"
    "  --target=TARGET   code to generate (also '--target TARGET'):\n"
    "                      seq         sequential C (default)\n"
    "                      openmp      OpenMP threads (build with -fopenmp)\n"
    "                      mpi         MPI ranks (link libloom_mpi.a)\n"
    "                      mpi+openmp  MPI ranks of OpenMP threads (both)\n"
    "  -I DIR            add DIR to the include search path\n"
    "  -D NAME[=VALUE]   define a macro\n"
    "  -U NAME           undefine a macro\n"
    "  --emit-dag=FILE   write the dependency DAG of every region in\n"
    "                    Graphviz ('-' for stdout)\n"
    "  --report          print each region's computations, their sections\n"
    "                    and dependences, the schedule and the\n"
    "                    transformations applied, on stdout\n"
    "  --no-fuse         do not fuse loops (each loop runs on its own;\n"
    "                    pin and pin_cse hints still apply)\n"
    "  --no-vectorize    do not gather reads through maps into strips for\n"
    "                    the C compiler to vectorize (each element's kernel\n"
    "                    reads the mesh directly)\n"
    "  --no-narrow       store every component of a temporary (not only\n"
    "                    those its readers name)\n"
    "  --no-rotate       do not rotate loops (the next iteration's first\n"
    "                    loops fused into this one's last)\n"
    "  --no-unroll       do not unroll loops of a constant trip count\n"
    "  --no-prescan      decide which loops to unroll on the analysis of the\n"
    "                    input alone, not first on its syntax (the same\n"
    "                    output, translated more slowly)\n"
    "  --no-inline       do not see through calls of functions that run loops\n"
    "  --no-version      do not write a body twice for handles that may be one dat\n"
    "  --no-hoist        with MPI, do not hoist halo exchanges a loop needs\n"
    "                    only once out of it\n"
    "  -MD               also write the files the input depends on, as a\n"
    "                    make rule (default file: OUTPUT with suffix .d)\n"
    "  -MMD              like -MD, without system headers\n"
    "  -MF FILE          write that rule to FILE\n"
    "  -MT TARGET        the rule's target (default: OUTPUT)\n"
    "  -std=, -f..., -m..., -include FILE, -isystem DIR, -iquote DIR\n"
    "                    passed to clang (they change how the input parses)\n"
    "  -O..., -g..., -W..., -w, -pedantic, -c\n"
    "                    accepted and ignored: they are for the C compiler\n"
    "                    that builds the generated file\n"
    "  --                pass the remaining arguments to clang\n"
    "  --version         print the version and exit\n"
    "  --help            print this help and exit\n"
    "\n"
    "exit status: 0 success, 1 errors in the input, 2 usage error\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("loomc: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nloomc: run 'loomc --help' for usage\n", stderr);
  return OPT_USAGE;
}

/* Resolves --target's name into o->target. */
static int take_target(options *o, const char *name) {
  o->target = target_named(name);
  if (o->target)
    return OPT_RUN;
  fprintf(stderr, "loomc: error: unknown target '%s'; expected %s\n", name, target_names());
  fputs("loomc: run 'loomc --help' for usage\n", stderr);
  return OPT_USAGE;
}

/* -I/-D/-U, joined ("-Idir") or separate ("-I dir"). */
static int take_preprocessor_opt(int argc, char **argv, int *i, options *o,
                                 arena *a) {
  const char *arg = argv[*i];
  if (arg[2] != '\0') {
    vec_push(a, &o->clang_args, (void *)arg);
    return OPT_RUN;
  }
  if (*i + 1 >= argc)
    return usage_error("option '%s' needs an argument", arg);
  (*i)++;
  vec_push(a, &o->clang_args, arena_printf(a, "%.2s%s", arg, argv[*i]));
  return OPT_RUN;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Flags of the C compiler that only matter to the build of the generated
 * file: a build that passes its CFLAGS to loomc as well gets them ignored. */
static int ignored_cc_flag(const char *arg) {
  return starts(arg, "-O") || starts(arg, "-g") || starts(arg, "-W") ||
         strcmp(arg, "-w") == 0 || starts(arg, "-pedantic") || strcmp(arg, "-c") == 0 ||
         strcmp(arg, "-pipe") == 0;
}

/* Flags that change how the input parses: clang gets them. */
static int take_clang_flag(int argc, char **argv, int *i, options *o, arena *a) {
  const char *arg = argv[*i];
  static const char *const with_value[] = {"-include", "-isystem", "-iquote", "-idirafter",
                                           "-imacros", NULL};
  for (const char *const *w = with_value; *w; w++) {
    if (strcmp(arg, *w) != 0)
      continue;
    if (*i + 1 >= argc)
      return usage_error("option '%s' needs an argument", arg);
    vec_push(a, &o->clang_args, (void *)arg);
    vec_push(a, &o->clang_args, argv[++*i]);
    return OPT_RUN;
  }
  if (starts(arg, "-std=") || starts(arg, "-f") || starts(arg, "-m") ||
      starts(arg, "-isystem") || starts(arg, "-iquote") || strcmp(arg, "-pthread") == 0 ||
      starts(arg, "--sysroot=")) {
    vec_push(a, &o->clang_args, (void *)arg);
    return OPT_RUN;
  }
  return usage_error("unknown option '%s' (options after '--' go to clang unchanged)", arg);
}

static int take_option(int argc, char **argv, int *i, options *o, arena *a) {
  const char *arg = argv[*i];
  if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
    fputs(usage_text, stdout);
    return OPT_EXIT_OK;
  }
  if (strcmp(arg, "--version") == 0) {
    printf("loomc %s\n", LOOM_VERSION);
    return OPT_EXIT_OK;
  }
  if (strcmp(arg, "-o") == 0) {
    if (*i + 1 >= argc)
      return usage_error("option '%s' needs a file name", arg);
    o->output = argv[++*i];
    return OPT_RUN;
  }
  if (strcmp(arg, "-MD") == 0 || strcmp(arg, "-MMD") == 0) {
    o->deps = arg[2] == 'M' ? 2 : 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "-MF") == 0 || strcmp(arg, "-MT") == 0) {
    if (*i + 1 >= argc)
      return usage_error("option '%s' needs an argument", arg);
    *(arg[2] == 'F' ? &o->dep_file : &o->dep_target) = argv[++*i];
    return OPT_RUN;
  }
  if (strncmp(arg, "--emit-dag=", 11) == 0 && arg[11]) {
    o->emit_dag = arg + 11;
    return OPT_RUN;
  }
  if (strcmp(arg, "--report") == 0) {
    o->report = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-fuse") == 0) {
    o->no_fuse = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-vectorize") == 0) {
    o->no_vectorize = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-narrow") == 0) {
    o->no_narrow = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-rotate") == 0) {
    o->no_rotate = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-unroll") == 0) {
    o->no_unroll = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-prescan") == 0) {
    o->no_prescan = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-inline") == 0) {
    o->no_inline = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-version") == 0) {
    o->no_version = 1;
    return OPT_RUN;
  }
  if (strcmp(arg, "--no-hoist") == 0) {
    o->no_hoist = 1;
    return OPT_RUN;
  }
  if (strncmp(arg, "--target=", 9) == 0)
    return take_target(o, arg + 9);
  if (strcmp(arg, "--target") == 0) {
    if (*i + 1 >= argc)
      return usage_error("option '%s' needs a target", arg);
    return take_target(o, argv[++*i]);
  }
  if (strcmp(arg, "-x") == 0 || starts(arg, "-x")) {
    const char *lang = arg[2] ? arg + 2 : *i + 1 < argc ? argv[++*i] : "";
    if (strcmp(lang, "c") != 0)
      return usage_error("loomc translates C; '-x %s' is not supported", lang);
    return OPT_RUN;
  }
  if (ignored_cc_flag(arg))
    return OPT_RUN;
  if (strncmp(arg, "-I", 2) == 0 || strncmp(arg, "-D", 2) == 0 ||
      strncmp(arg, "-U", 2) == 0)
    return take_preprocessor_opt(argc, argv, i, o, a);
  return take_clang_flag(argc, argv, i, o, a);
}

/* A C++ source by its suffix, as compiler drivers decide. */
static int is_cxx_file(const char *path) {
  static const char *const suffixes[] = {".cpp", ".cc", ".cxx", ".c++", ".C", ".cp",
                                         ".CPP", ".hpp", ".hh", ".hxx", NULL};
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/'))
    return 0;
  for (const char *const *s = suffixes; *s; s++)
    if (strcmp(dot, *s) == 0)
      return 1;
  return 0;
}

/* OUTPUT with its suffix replaced by .d, as gcc names -MD's file. */
static const char *default_dep_file(const char *out, arena *a) {
  const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - out) : strlen(out);
  return arena_printf(a, "%.*s.d", (int)n, out);
}

int options_parse(int argc, char **argv, options *o, arena *a) {
  memset(o, 0, sizeof *o);
  o->target = target_of(TARGET_SEQ);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--") == 0) {
      while (++i < argc)
        vec_push(a, &o->clang_args, argv[i]);
      break;
    }
    if (arg[0] == '-' && arg[1] != '\0') {
      int rc = take_option(argc, argv, &i, o, a);
      if (rc != OPT_RUN)
        return rc;
    } else if (o->input) {
      return usage_error("more than one input file ('%s')", arg);
    } else {
      o->input = arg;
    }
  }
  if (!o->input)
    return usage_error("%s", "no input file");
  if (is_cxx_file(o->input))
    return usage_error("'%s' is C++: loomc translates C (name a C file, '.c')", o->input);
  int analysis = o->emit_dag || o->report;
  if (!o->output && !analysis)
    return usage_error("%s", "no output file: use -o OUTPUT.c");
  if (o->deps && !o->output)
    return usage_error("%s", "-MD needs an output file (-o)");
  if (o->deps && !o->dep_file && strcmp(o->output, "-") == 0)
    return usage_error("%s", "-MD with '-o -' needs -MF FILE");
  if (o->deps && !o->dep_file)
    o->dep_file = default_dep_file(o->output, a);
  if (!o->dep_target && o->output)
    o->dep_target = o->output;
  return OPT_RUN;
}

int options_input_test(const options *o, int (*test)(const char *s, size_t n), int unread) {
  if (o->input_text)
    return test(o->input_text, o->input_len);
  FILE *f = fopen(o->input, "rb");
  if (!f)
    return unread;
  strbuf sb;
  sb_init(&sb);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    sb_putn(&sb, buf, n);
  int passes = ferror(f) ? unread : test(sb.data ? sb.data : "", sb.len);
  fclose(f);
  sb_free(&sb);
  return passes;
}
