/*
 * frontend.c — parse the input with libclang (see frontend.h).
 *
 * libclang is asked for the detailed preprocessing record, so that later
 * stages can drop directives in skipped preprocessor ranges (#if 0).
 * libclang reports success even after fatal errors such as a missing
 * header, so every diagnostic of severity error or fatal is reported and
 * counted here.  The parse defines LOOM_NO_CALL_SITES: the API's calls
 * reach the later stages as calls of the functions they name, whatever
 * loom.h makes of them in the compiled program (its call-site macros).
 */
#define _POSIX_C_SOURCE 200809L
#include "frontend/frontend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LOOM_DEFAULT_INCLUDE_DIR
#define LOOM_DEFAULT_INCLUDE_DIR "/usr/local/include"
#endif

static char *take_string(arena *a, CXString s) {
  const char *c = clang_getCString(s);
  char *copy = arena_strdup(a, c ? c : "");
  clang_disposeString(s);
  return copy;
}

static int file_exists(const char *path) { return access(path, R_OK) == 0; }

/* Where loom.h is: $LOOM_INCLUDE_DIR, then ../include beside the loomc
 * executable (an installed tree), then the directory fixed at build time. */
static const char *loom_include_dir(arena *a) {
  const char *env = getenv("LOOM_INCLUDE_DIR");
  if (env && *env)
    return env;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      char *dir = arena_printf(a, "%s/../include", exe);
      if (file_exists(arena_printf(a, "%s/loom.h", dir)))
        return dir;
    }
  }
  return LOOM_DEFAULT_INCLUDE_DIR;
}

/* clang's arguments: C, the user's -I/-D/-U, loom.h's directory, and
 * LOOM_NO_CALL_SITES last (after any -U of the user's): the API's calls
 * as themselves, not as loom.h's call-site macros, which would hide them
 * in comma expressions (loom.h, "call sites").  The output keeps the
 * user's text, so the program compiled from it has the macros.
 * LOOM__GENERATED (gen): loom.h brings in loom_gen.h, as in the output,
 * for a text that names what it declares (uses_gen). */
const char **frontend_clang_argv(const options *o, int gen, arena *a, int *argc) {
  const char **argv = arena_alloc(a, sizeof *argv * (size_t)(o->clang_args.len + 6));
  int n = 0;
  argv[n++] = "-xc";
  for (int i = 0; i < o->clang_args.len; i++)
    argv[n++] = o->clang_args.items[i];
  argv[n++] = arena_printf(a, "-I%s", loom_include_dir(a));
  argv[n++] = "-Wno-unknown-pragmas";
  argv[n++] = "-DLOOM_NO_CALL_SITES";
  if (gen)
    argv[n++] = "-DLOOM__GENERATED"; /* loom_gen.h too: an expansion calls it */
  *argc = n;
  return argv;
}

srcloc frontend_loc(const frontend *fe, CXSourceLocation l) {
  CXFile f;
  unsigned line, col, off;
  clang_getFileLocation(l, &f, &line, &col, &off);
  srcloc s = {NULL, line, col, off};
  if (!f)
    return s;
  if (clang_File_isEqual(f, fe->file) && fe->expanded)
    clang_getPresumedLocation(l, NULL, &s.line, NULL);
  if (clang_File_isEqual(f, fe->file))
    s.file = fe->path;
  else
    s.file = take_string(fe->arena, clang_getFileName(f));
  while (s.file[0] == '.' && s.file[1] == '/')
    s.file += 2; /* "./x.h", as clang names a file found beside the input */
  return s;
}

srcloc frontend_cursor_loc(const frontend *fe, CXCursor c) {
  return frontend_loc(fe, clang_getCursorLocation(c));
}

unsigned frontend_offset(CXSourceLocation l) {
  unsigned off;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return off;
}

int frontend_in_main_file(const frontend *fe, CXSourceLocation l) {
  CXFile f;
  clang_getFileLocation(l, &f, NULL, NULL, NULL);
  return f && clang_File_isEqual(f, fe->file);
}

typedef struct frontend_tops {
  int read;         /* the list below is this parse's */
  vec cursors;      /* CXCursor*, in the order of the text */
  vec in_main;      /* one per cursor: (void *)1 when in the main file */
} frontend_tops;

static enum CXChildVisitResult take_top(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  const frontend *fe = data;
  CXCursor *k = arena_alloc(fe->arena, sizeof *k);
  *k = c;
  vec_push(fe->arena, &fe->tops->cursors, k);
  vec_push(fe->arena, &fe->tops->in_main,
           (void *)(long)frontend_in_main_file(fe, clang_getCursorLocation(c)));
  return CXChildVisit_Continue;
}

void frontend_visit_top(const frontend *fe, int which, CXCursorVisitor visit, void *data) {
  CXCursor unit = clang_getTranslationUnitCursor(fe->tu);
  if (!fe->tops) { /* a unit made without frontend_parse: no list */
    clang_visitChildren(unit, visit, data);
    return;
  }
  if (!fe->tops->read) {
    clang_visitChildren(unit, take_top, (void *)fe);
    fe->tops->read = 1;
  }
  for (int i = 0; i < fe->tops->cursors.len; i++) {
    if (which == FE_MAIN && !fe->tops->in_main.items[i])
      continue;
    CXCursor c = *(CXCursor *)fe->tops->cursors.items[i];
    enum CXChildVisitResult r = visit(c, unit, data);
    if (r == CXChildVisit_Break)
      return;
    if (r == CXChildVisit_Recurse && clang_visitChildren(c, visit, data))
      return;
  }
}

char *frontend_spelling(const frontend *fe, CXCursor c) {
  return take_string(fe->arena, clang_getCursorSpelling(c));
}

char *frontend_type_spelling(const frontend *fe, CXType t) {
  return take_string(fe->arena, clang_getTypeSpelling(t));
}

/* Reports clang's errors; returns how many there were. */
static int report_clang_errors(const frontend *fe) {
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(fe->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      srcloc loc = frontend_loc(fe, clang_getDiagnosticLocation(d));
      char *msg = take_string(fe->arena, clang_getDiagnosticSpelling(d));
      diag(DIAG_ERROR, loc, 0, "%s", msg);
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  return errors;
}

/* Whether the text [s, s + n) may name what loom_gen.h declares (the
 * runtime's loom__ functions and LOOM__ macros, the generated code's
 * LOOM_ macros): a body written twice calls them.  Parsing loom_gen.h
 * costs every other text ~2% of its translation. */
static int text_uses_gen(const char *s, size_t n) {
  static const char *const words[] = {"loom__", "LOOM__", "LOOM_TWIN", "LOOM_IVDEP",
                                      "LOOM_LOOP_FN", "LOOM_OMP_BLOCKS", "LOOM_GEN_H"};
  for (size_t k = 0; k < n; k++) {
    if (s[k] != 'l' && s[k] != 'L')
      continue;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
      size_t w = strlen(words[i]);
      if (w <= n - k && memcmp(s + k, words[i], w) == 0)
        return 1;
    }
  }
  return 0;
}

/* uses_gen of o's input (one that cannot be read: yes, the parse says
 * why). */
static int uses_gen(const options *o) { return options_input_test(o, text_uses_gen, 1); }

static enum CXErrorCode parse(const options *o, frontend *fe, arena *a) {
  int argc;
  fe->gen = uses_gen(o);
  const char **argv = frontend_clang_argv(o, fe->gen, a, &argc);
  struct CXUnsavedFile unsaved = {o->input, o->input_text, o->input_len};
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord |
                   CXTranslationUnit_KeepGoing;
  return clang_parseTranslationUnit2(fe->index, o->input, argv, argc,
                                     &unsaved, o->input_text ? 1 : 0, flags,
                                     &fe->tu);
}

/* Whether the main file holds a null character (said): clang reads it as
 * a blank, but loomc copies the file's text into its output, where C
 * strings would end at it and leave a broken file. */
static int null_character(const program *prog) {
  const char *z = memchr(prog->text, '\0', prog->len);
  if (!z)
    return 0;
  unsigned off = (unsigned)(z - prog->text), line = program_line(prog, off), col = 1;
  for (const char *p = z; p > prog->text && p[-1] != '\n'; p--)
    col++;
  diag(DIAG_ERROR, (srcloc){prog->file, line, col, off}, 1,
       "a null character in the file: loomc copies the file's text into its output, "
       "which cannot hold one; remove it");
  return 1;
}

/* The main file's text, parsed, as prog's; the number of clang's errors
 * (reported), or -1 when the text cannot be read. */
static int take_text(const options *o, frontend *fe, program *prog, arena *a) {
  fe->file = clang_getFile(fe->tu, o->input);
  size_t len = 0;
  const char *text = fe->file ? clang_getFileContents(fe->tu, fe->file, &len) : NULL;
  if (!text) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot read '%s'", o->input);
    return -1;
  }
  if (!fe->token_files) /* the earlier parse's tokens are no longer valid */
    fe->token_files = arena_alloc(a, sizeof *fe->token_files);
  fe->token_files->len = 0;
  if (!fe->tops)
    fe->tops = arena_alloc(a, sizeof *fe->tops);
  *fe->tops = (frontend_tops){0};
  prog->file = o->input;
  prog->text = text;
  prog->len = len;
  program_index_lines(prog, a);
  prog->line_of = o->input_lines;
  prog->nline_of = o->ninput_lines;
  fe->expanded = o->input_lines != NULL;
  if (!fe->expanded) /* the diagnostics' copy outlives a parse of another text */
    diag_add_source(o->input, arena_strndup(a, text, len), len);
  if (null_character(prog))
    return -1;
  return report_clang_errors(fe);
}

int frontend_parse(const options *o, frontend *fe, program *prog, arena *a) {
  memset(fe, 0, sizeof *fe);
  fe->arena = a;
  fe->path = o->input;
  if (!o->input_text && !file_exists(o->input)) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "cannot read '%s': %s", o->input,
         strerror(errno));
    return -1;
  }
  fe->index = clang_createIndex(0, 0);
  if (parse(o, fe, a) != CXError_Success || !fe->tu) {
    diag(DIAG_ERROR, (srcloc){0}, 0, "libclang could not parse '%s'",
         o->input);
    return -1;
  }
  return take_text(o, fe, prog, a) ? -1 : 0;
}

/* clang_reparseTranslationUnit keeps the files clang has read (the
 * headers) and re-parses the whole unit, which is faster than a unit
 * made anew; a unit it fails on can only be disposed of, so a new one is
 * parsed then. */
int frontend_reparse(const options *o, frontend *fe, program *prog, arena *a) {
  struct CXUnsavedFile unsaved = {o->input, o->input_text, o->input_len};
  /* a unit parsed without loom_gen.h keeps its arguments: a text that
   * needs it is parsed anew */
  if (!fe->tu || (!fe->gen && uses_gen(o)) ||
      clang_reparseTranslationUnit(fe->tu, o->input_text ? 1 : 0, &unsaved,
                                   clang_defaultReparseOptions(fe->tu)) != 0) {
    if (fe->tu)
      clang_disposeTranslationUnit(fe->tu);
    fe->tu = NULL;
    if (parse(o, fe, a) != CXError_Success || !fe->tu) {
      diag(DIAG_ERROR, (srcloc){0}, 0, "libclang could not parse '%s'", o->input);
      return -1;
    }
  }
  return take_text(o, fe, prog, a) ? -1 : 0;
}

void frontend_dispose(frontend *fe) {
  if (fe->tu)
    clang_disposeTranslationUnit(fe->tu);
  if (fe->index)
    clang_disposeIndex(fe->index);
  fe->tu = NULL;
  fe->index = NULL;
}
