/*
 * syntax.c — the main file parsed alone (see syntax.h).
 *
 * The parse takes the full parse's arguments (the same macros) and skips
 * the headers; its diagnostics in the main file are kept as offsets, in
 * the order of the text, for syntax_trusted's bisection.
 */
#include "frontend/syntax.h"

#include <string.h>

#include "frontend/frontend.h"

/* Inserts off into the ascending doubts. */
static void add_doubt(syntax *sx, unsigned off, arena *a) {
  int at = sx->doubts.len;
  vec_push(a, &sx->doubts, off);
  for (; at > 0 && sx->doubts.items[at - 1] > off; at--)
    sx->doubts.items[at] = sx->doubts.items[at - 1];
  sx->doubts.items[at] = off;
}

static void take_doubts(syntax *sx, CXFile main, arena *a) {
  unsigned n = clang_getNumDiagnostics(sx->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(sx->tu, i);
    CXFile f;
    unsigned off;
    clang_getFileLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Warning)
      add_doubt(sx, f && clang_File_isEqual(f, main) ? off : 0, a);
    clang_disposeDiagnostic(d);
  }
}

int syntax_parse(const options *o, syntax *sx, arena *a) {
  memset(sx, 0, sizeof *sx);
  int n;
  const char **args = frontend_clang_argv(o, 0, a, &n);
  const char **argv = arena_alloc(a, sizeof *argv * (size_t)(n + 1));
  memcpy(argv, args, sizeof *argv * (size_t)n);
  argv[n] = "-ferror-limit=0"; /* every statement parsed, however many errors */
  int argc = n + 1;
  struct CXUnsavedFile unsaved = {o->input, o->input_text, o->input_len};
  sx->index = clang_createIndex(0, 0);
  if (clang_parseTranslationUnit2(sx->index, o->input, argv, argc, &unsaved,
                                  o->input_text ? 1 : 0,
                                  CXTranslationUnit_SingleFileParse |
                                      CXTranslationUnit_KeepGoing,
                                  &sx->tu) != CXError_Success) {
    syntax_dispose(sx);
    return -1;
  }
  CXFile main = sx->file = clang_getFile(sx->tu, o->input);
  sx->text = main ? clang_getFileContents(sx->tu, main, &sx->len) : NULL;
  if (!sx->text) {
    syntax_dispose(sx);
    return -1;
  }
  take_doubts(sx, main, a);
  return 0;
}

int syntax_trusted(const syntax *sx, unsigned start, unsigned end) {
  int lo = 0, hi = sx->doubts.len; /* the first doubt at or after start */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (sx->doubts.items[mid] < start)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo == sx->doubts.len || sx->doubts.items[lo] >= end;
}

void syntax_dispose(syntax *sx) {
  if (sx->tu)
    clang_disposeTranslationUnit(sx->tu);
  if (sx->index)
    clang_disposeIndex(sx->index);
  memset(sx, 0, sizeof *sx);
}
