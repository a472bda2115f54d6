/*
 * tokenizer_check.c — checks fuzz_pragma's stand-in tokenizer against the
 * real thing: for each input file (a fuzz_pragma input: the text after
 * `#pragma loom `), the directive built by fuzz_pragma.c is compared with
 * the one pragma_lex() records from libclang's tokens for the same text
 * — extent, and each token's kind, spelling and location.
 *
 *   build/fuzz/tokenizer_check FILE|DIR...      (make fuzz-check)
 *
 * Prints each difference; exits 1 if there was any.  Inputs that make
 * libclang fail outright, or that hold no directive at offset 0 for it,
 * are counted as skipped.
 */
#define _GNU_SOURCE /* memmem */
#define FUZZ_PRAGMA_NO_TARGET
#include "fuzz_pragma.c"

#include <dirent.h>

#include "frontend/frontend.h"

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16;
  char *buf = malloc(cap + PREFIX_LEN);
  memcpy(buf, PREFIX, PREFIX_LEN);
  size_t n = fread(buf + PREFIX_LEN, 1, cap, f);
  fclose(f);
  *len = PREFIX_LEN + n;
  return buf;
}

static const char *kind_name(ptok_kind k) {
  static const char *const names[] = {"ident", "number", "punct", "string"};
  return names[k];
}

/* Compares one input; returns 0 same, 1 different, 2 skipped. */
static int compare(const char *path) {
  size_t len;
  char *text = read_all(path, &len);
  if (!text)
    return 2;
  if (memmem(text, len, "__debug", 7) || memmem(text, len, "/dev/", 5)) {
    free(text);
    return 2;
  }
  arena *a = arena_new();
  diag_reset();
  diag_set_stream(devnull);
  options o = {0};
  o.input = "fuzz.c";
  o.output = "-";
  o.target = target_of(TARGET_SEQ);
  o.input_text = text;
  o.input_len = len;
  frontend fe;
  program prog = {0};
  int rc = 2;
  frontend_parse(&o, &fe, &prog, a);
  if (fe.tu && prog.text) {
    pragma_lex(&fe, &prog, a);
    const directive *real =
        prog.directives.len ? prog.directives.items[0] : NULL;
    if (getenv("TOKENIZER_CHECK_VERBOSE") && !(real && real->start == 0))
      printf("%s: skipped: %s\n", path, real ? "first directive not at 0" : "no directive");
    if (real && real->start == 0) {
      const directive *mine = make_directive(prog.text, (unsigned)prog.len, a);
      rc = 0;
#define DIFF(...) (rc = 1, printf("%s: ", path), printf(__VA_ARGS__), putchar('\n'))
      if (mine->end != real->end)
        DIFF("end %u, libclang %u", mine->end, real->end);
      if (mine->end_loc.line != real->end_loc.line || mine->end_loc.col != real->end_loc.col)
        DIFF("end at %u:%u, libclang %u:%u", mine->end_loc.line, mine->end_loc.col,
             real->end_loc.line, real->end_loc.col);
      int n = mine->ntoks < real->ntoks ? mine->ntoks : real->ntoks;
      for (int i = 0; i < n && rc == 0; i++) {
        const ptok *m = &mine->toks[i], *r = &real->toks[i];
        if (m->kind != r->kind || strcmp(m->text, r->text) != 0 ||
            m->loc.line != r->loc.line || m->loc.col != r->loc.col ||
            m->loc.offset != r->loc.offset)
          DIFF("token %d: %s '%s' at %u:%u, libclang %s '%s' at %u:%u", i,
               kind_name(m->kind), m->text, m->loc.line, m->loc.col,
               kind_name(r->kind), r->text, r->loc.line, r->loc.col);
      }
      if (rc == 0 && mine->ntoks != real->ntoks)
        DIFF("%d tokens, libclang %d", mine->ntoks, real->ntoks);
    }
  }
  frontend_dispose(&fe);
  diag_reset();
  arena_free(a);
  free(text);
  return rc;
}

static int same, differ, skipped;

static void count(const char *path) {
  int rc = compare(path);
  same += rc == 0, differ += rc == 1, skipped += rc == 2;
}

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    DIR *dir = opendir(argv[i]);
    if (!dir) {
      count(argv[i]);
      continue;
    }
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
      if (e->d_name[0] == '.')
        continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      count(path);
    }
    closedir(dir);
  }
  printf("tokenizer check: %d same, %d differ, %d skipped\n", same, differ, skipped);
  return differ != 0;
}
