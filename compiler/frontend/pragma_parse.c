/*
 * pragma_parse.c — recursive descent over a directive's tokens
 * (grammar in pragma_parse.h).
 *
 * The parser stops at the first error of a directive, so each malformed
 * directive gives exactly one diagnostic, located at the offending token
 * (or at the end of the directive when something is missing).
 */
#include "frontend/pragma_parse.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const directive *d;
  arena *arena;
  int pos;
  int failed;
  loop *lp;
  vec args; /* loop_arg* */
  int affine; /* the directive has a domain(...) clause */
} parser;

static const ptok *peek_at(const parser *p, int k) {
  int i = p->pos + k;
  return i < p->d->ntoks ? &p->d->toks[i] : NULL;
}
static const ptok *peek(const parser *p) { return peek_at(p, 0); }

static int is(const ptok *t, const char *s) { return t && strcmp(t->text, s) == 0; }

/* Reports `msg` at the current token, or at the end of the directive. */
static void fail(parser *p, const char *msg, const char *what) {
  if (p->failed)
    return;
  p->failed = 1;
  const ptok *t = peek(p);
  if (t)
    diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text), "%s%s, found '%s'",
         msg, what, t->text);
  else
    diag(DIAG_ERROR, p->d->end_loc, 0, "%s%s at the end of the directive",
         msg, what);
}

static const ptok *expect_punct(parser *p, const char *s) {
  const ptok *t = peek(p);
  if (p->failed || !is(t, s) || t->kind != PT_PUNCT) {
    fail(p, "expected ", arena_printf(p->arena, "'%s'", s));
    return NULL;
  }
  p->pos++;
  return t;
}

static const ptok *expect_ident(parser *p, const char *what) {
  const ptok *t = peek(p);
  if (p->failed || !t || t->kind != PT_IDENT) {
    fail(p, "expected ", what);
    return NULL;
  }
  p->pos++;
  return t;
}

/* A handle: a name, or a member chain through a struct or a pointer to
 * one (`m->cells`, `s.mesh.p_q`); its text is the chain as C spells it. */
static const ptok *expect_handle(parser *p, const char *what) {
  const ptok *first = expect_ident(p, what);
  if (!first || !(is(peek(p), "->") || is(peek(p), ".")))
    return first;
  strbuf sb;
  sb_init(&sb);
  sb_puts(&sb, first->text);
  while (!p->failed && (is(peek(p), "->") || is(peek(p), ".")) &&
         peek(p)->kind == PT_PUNCT) {
    sb_puts(&sb, peek(p)->text);
    p->pos++;
    const ptok *m = expect_ident(p, "a member name");
    if (m)
      sb_puts(&sb, m->text);
  }
  ptok *t = arena_alloc(p->arena, sizeof *t);
  *t = *first;
  t->text = arena_strdup(p->arena, sb.data);
  sb_free(&sb);
  return p->failed ? NULL : t;
}

static access_mode mode_of(const char *s) {
  static const char *const names[] = {"read", "write", "rw", "inc", "min", "max"};
  for (int i = 0; i < 6; i++)
    if (strcmp(s, names[i]) == 0)
      return (access_mode)(MODE_READ + i);
  return MODE_NONE;
}

/* `, cmap ]` after `A[rmap`: a matrix's element matrix. */
static void parse_mat_subscript(parser *p, loop_arg *arg) {
  expect_punct(p, ",");
  const ptok *map = expect_handle(p, "a column map name after ','");
  if (!map)
    return;
  arg->kind = ARG_MAT;
  arg->slot = -1;
  arg->map2_name = map->text;
  arg->map2_loc = map->loc;
  expect_punct(p, "]");
}

/* `[ map [ slot ] ]` after a dat name, or `[ rmap, cmap ]` after a
 * matrix's. */
static void parse_subscript(parser *p, loop_arg *arg) {
  expect_punct(p, "[");
  const ptok *map = expect_handle(p, "a map name inside '[...]'");
  if (!map)
    return;
  arg->map_name = map->text;
  arg->map_loc = map->loc;
  if (is(peek(p), ",")) {
    parse_mat_subscript(p, arg);
    return;
  }
  expect_punct(p, "[");
  const ptok *slot = peek(p);
  if (!p->failed && is(slot, "*") && slot->kind == PT_PUNCT) {
    arg->kind = ARG_MAPPED_ALL;
    arg->slot = -1;
  } else if (!p->failed && slot && slot->kind == PT_NUMBER &&
             strspn(slot->text, "0123456789") == strlen(slot->text)) {
    if (strlen(slot->text + strspn(slot->text, "0")) > 6) {
      p->failed = 1;
      diag(DIAG_ERROR, slot->loc, (unsigned)strlen(slot->text),
           "map slot %s is too large: a map has at most 1000000 slots",
           slot->text);
      return;
    }
    arg->kind = ARG_MAPPED;
    arg->slot = (int)strtol(slot->text, NULL, 10);
  } else {
    fail(p, "expected ", "a map slot (a decimal integer or '*')");
    return;
  }
  arg->slot_loc = slot->loc;
  p->pos++;
  expect_punct(p, "]");
  expect_punct(p, "]");
}

/* `idx[map[i]]`: the number of the element reached through slot i (OP2's
 * op_arg_idx(i, map)); one slot, an int each. */
static void parse_idx_subscript(parser *p, loop_arg *arg) {
  parse_subscript(p, arg);
  if (!p->failed && arg->kind == ARG_MAPPED_ALL) {
    p->failed = 1;
    diag(DIAG_ERROR, arg->slot_loc, 1,
         "'idx[%s[*]]' is not supported: pass the slots one by one "
         "('idx[%s[0]]', 'idx[%s[1]]', ...), each an int", arg->map_name,
         arg->map_name, arg->map_name);
  }
  arg->kind = ARG_IDX;
}

/* Affine loops: `[ expr ] { [ expr ] }` after an array name; each expr is
 * kept as text (its tokens joined by spaces) for isl, which checks that it
 * is affine when resolve reads it. */
static int is_affine_token(const ptok *t) {
  if (t->kind == PT_IDENT)
    return 1;
  if (t->kind == PT_NUMBER)
    return strspn(t->text, "0123456789") == strlen(t->text);
  return t->kind == PT_PUNCT && strlen(t->text) == 1 && strchr("+-*()", t->text[0]);
}

static void parse_affine_subscripts(parser *p, loop_arg *arg) {
  vec subs = {0}, locs = {0};
  while (!p->failed && is(peek(p), "[")) {
    p->pos++;
    strbuf sb;
    sb_init(&sb);
    srcloc *at = arena_alloc(p->arena, sizeof *at);
    int depth = 0;
    for (const ptok *t; !p->failed && (t = peek(p)) && !(depth == 0 && is(t, "]"));) {
      if (!is_affine_token(t) || (depth == 0 && is(t, ")"))) {
        fail(p, "expected ", "an affine subscript (iteration variables, parameters, "
                             "integers, '+', '-', '*' and parentheses)");
        break;
      }
      depth += is(t, "(") - is(t, ")");
      if (!sb.len)
        *at = t->loc;
      sb_printf(&sb, "%s%s", sb.len ? " " : "", t->text);
      p->pos++;
    }
    if (!p->failed && !sb.len)
      fail(p, "expected ", "an affine subscript (iteration variables, parameters, "
                           "integers, '+', '-', '*' and parentheses)");
    if (!p->failed) {
      vec_push(p->arena, &subs, arena_strdup(p->arena, sb.data));
      vec_push(p->arena, &locs, at);
    }
    sb_free(&sb);
    expect_punct(p, "]");
  }
  arg->kind = ARG_AFFINE;
  arg->nsubs = subs.len;
  arg->subs = arena_alloc(p->arena, sizeof *arg->subs * (size_t)(subs.len + 1));
  arg->sub_locs = arena_alloc(p->arena, sizeof *arg->sub_locs * (size_t)(subs.len + 1));
  for (int i = 0; i < subs.len; i++) {
    arg->subs[i] = subs.items[i];
    arg->sub_locs[i] = *(srcloc *)locs.items[i];
  }
}

static unsigned arg_length(const parser *p, const ptok *first) {
  const ptok *last = &p->d->toks[p->pos - 1];
  if (last->loc.line != first->loc.line)
    return (unsigned)strlen(first->text);
  return last->loc.offset + (unsigned)strlen(last->text) - first->loc.offset;
}

static void parse_arg(parser *p, access_mode mode) {
  const ptok *name = p->affine ? expect_ident(p, "an argument (an array element such as 'x[i]')")
                                : expect_handle(p, "an argument (a dat, a global or 'idx')");
  if (!name)
    return;
  loop_arg *arg = arena_alloc(p->arena, sizeof *arg);
  arg->pos = p->args.len + 1;
  arg->name = name->text;
  arg->loc = name->loc;
  arg->mode = mode;
  arg->kind = is(name, "idx") && !p->affine ? ARG_IDX : ARG_NAME;
  if (p->affine && !is(peek(p), "["))
    fail(p, "expected ", arena_printf(p->arena, "'[' after '%s': an affine loop's "
                                      "argument is an array element such as '%s[i]'",
                                      name->text, name->text));
  else if (p->affine)
    parse_affine_subscripts(p, arg);
  else if (arg->kind == ARG_NAME && is(peek(p), "["))
    parse_subscript(p, arg);
  else if (arg->kind == ARG_IDX && is(peek(p), "["))
    parse_idx_subscript(p, arg);
  if (p->failed)
    return;
  arg->len = arg_length(p, name);
  if (arg->kind == ARG_IDX && mode != MODE_NONE && mode != MODE_READ) {
    p->failed = 1;
    diag(DIAG_ERROR, name->loc, 3,
         "'idx' is read-only: it cannot follow '%s:' (put it before the first "
         "mode label or after 'read:')", mode_name(mode));
    return;
  }
  if (arg->kind != ARG_IDX && mode == MODE_NONE) {
    p->failed = 1;
    diag(DIAG_ERROR, name->loc, arg->len,
         "argument '%s' has no access mode: write a mode label such as "
         "'read:' before it", name->text);
    return;
  }
  vec_push(p->arena, &p->args, arg);
}

static int is_label_at(const parser *p, int k) {
  const ptok *t = peek_at(p, k);
  return t && t->kind == PT_IDENT && is(peek_at(p, k + 1), ":");
}

/* An optional `MODE:` label; updates *mode. */
static void parse_mode_label(parser *p, access_mode *mode) {
  const ptok *t = peek(p);
  if (!is_label_at(p, 0))
    return;
  if (is_label_at(p, 2)) {
    p->failed = 1;
    diag(DIAG_ERROR, peek_at(p, 2)->loc, (unsigned)strlen(peek_at(p, 2)->text),
         "mode label '%s:' follows '%s:' with no argument between them",
         peek_at(p, 2)->text, t->text);
    return;
  }
  access_mode m = mode_of(t->text);
  if (m == MODE_NONE) {
    p->failed = 1;
    diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text),
         "unknown access mode '%s': expected read, write, rw, inc, min or max",
         t->text);
    return;
  }
  *mode = m;
  p->pos += 2;
}

static void parse_args_clause(parser *p) {
  access_mode mode = MODE_NONE;
  const ptok *open = expect_punct(p, "(");
  if (!p->failed && is(peek(p), ")")) {
    p->failed = 1;
    diag(DIAG_ERROR, open->loc, 1, "'args()' is empty: a par_loop passes at "
                                   "least one argument to its kernel");
    return;
  }
  while (!p->failed) {
    parse_mode_label(p, &mode);
    parse_arg(p, mode);
    if (p->failed || !is(peek(p), ","))
      break;
    p->pos++;
  }
  expect_punct(p, ")");
}

/* `NAME ( IDENT )`, for par_loop(...) and over(...). */
static const ptok *parse_paren_ident(parser *p, const char *what) {
  expect_punct(p, "(");
  const ptok *t = expect_ident(p, what);
  expect_punct(p, ")");
  return p->failed ? NULL : t;
}

static void duplicate_clause(parser *p, const ptok *t) {
  p->failed = 1;
  diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text),
       "duplicate '%s' clause in par_loop", t->text);
}

/* `domain ( "isl set" )`: the domain text without its quotes. */
static void parse_domain_clause(parser *p) {
  expect_punct(p, "(");
  const ptok *t = peek(p);
  size_t n = t ? strlen(t->text) : 0;
  if (!p->failed && (!t || t->kind != PT_STRING || t->text[0] != '"' || n < 2 ||
                     t->text[n - 1] != '"')) {
    fail(p, "expected ", "an isl set in double quotes");
    return;
  }
  if (p->failed)
    return;
  p->pos++;
  p->lp->domain = arena_strndup(p->arena, t->text + 1, n - 2);
  p->lp->domain_loc = t->loc;
  expect_punct(p, ")");
}

/* `region ( all | bottom | top | interior )`: the layers a loop over an
 * extruded set runs (resolve checks that its set is one). */
static void parse_region_clause(parser *p) {
  const ptok *t = parse_paren_ident(p, "a region (all, bottom, top or interior)");
  if (!t)
    return;
  for (int r = REGION_ALL; r <= REGION_INTERIOR; r++)
    if (strcmp(t->text, region_name((layer_region)r)) == 0) {
      p->lp->region = (layer_region)r;
      p->lp->region_loc = t->loc;
      return;
    }
  p->failed = 1;
  diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text),
       "unknown region '%s': a loop over an extruded set runs all its layers (all), the "
       "first (bottom), the last (top), or the facets between layers (interior)", t->text);
}

static void parse_clauses(parser *p) {
  int seen_over = 0, seen_args = 0, seen_region = 0;
  const ptok *first_kind = NULL; /* over or domain */
  while (!p->failed && peek(p)) {
    const ptok *t = peek(p);
    if ((is(t, "over") || is(t, "domain")) && first_kind && !is(t, first_kind->text)) {
      p->failed = 1;
      diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text),
           "par_loop has both 'over(SET)' and 'domain(\"...\")': a loop runs over a "
           "mesh set or over an isl domain, not both");
      return;
    }
    if (is(t, "domain")) {
      if (seen_over++)
        return duplicate_clause(p, t);
      first_kind = t;
      p->pos++;
      parse_domain_clause(p);
    } else if (is(t, "over")) {
      first_kind = t;
      if (seen_over++)
        return duplicate_clause(p, t);
      p->pos++;
      expect_punct(p, "(");
      const ptok *set = expect_handle(p, "a set name");
      expect_punct(p, ")");
      if (set) {
        p->lp->set_name = set->text;
        p->lp->set_loc = set->loc;
      }
    } else if (is(t, "args")) {
      if (seen_args++)
        return duplicate_clause(p, t);
      p->pos++;
      parse_args_clause(p);
    } else if (is(t, "region")) {
      if (seen_region++)
        return duplicate_clause(p, t);
      p->pos++;
      parse_region_clause(p);
    } else {
      fail(p, "expected ", "a par_loop clause ('over', 'args' or 'region')");
    }
  }
  if (!p->failed && (!seen_over || !seen_args)) {
    p->failed = 1;
    diag(DIAG_ERROR, p->d->toks[0].loc, 8, "par_loop has no '%s' clause",
         seen_over ? "args(...)" : "over(SET)");
  }
}

static void unknown_directive(parser *p) {
  const ptok *t = peek(p);
  p->failed = 1;
  if (!t) {
    diag(DIAG_ERROR, p->d->loc, 1,
         "expected a loom directive after '#pragma loom' (par_loop, pin, "
         "pin_cse or sync)");
    return;
  }
  diag(DIAG_ERROR, t->loc, (unsigned)strlen(t->text),
       "unknown loom directive '%s': expected 'par_loop', 'pin', 'pin_cse' "
       "or 'sync'", t->text);
}

static int hint_kind_of(const ptok *t, hint_kind *k) {
  static const char *const names[] = {"pin", "pin_cse", "sync"};
  for (int i = 0; i < 3; i++)
    if (is(t, names[i]) && t->kind == PT_IDENT) {
      *k = (hint_kind)i;
      return 1;
    }
  return 0;
}

/* `pin ( IDENT )`, `pin_cse ( IDENT )` or `sync ( IDENT { , IDENT } )`. */
static hint *parse_hint(parser *p, hint_kind kind) {
  const ptok *word = peek(p);
  p->pos++;
  vec names = {0};
  expect_punct(p, "(");
  while (!p->failed) {
    const ptok *t = expect_ident(p, kind == HINT_SYNC ? "a dat or a global name"
                                                      : "a temporary's name");
    if (t)
      vec_push(p->arena, &names, (void *)t);
    if (p->failed || kind != HINT_SYNC || !is(peek(p), ","))
      break;
    p->pos++;
  }
  expect_punct(p, ")");
  if (!p->failed && peek(p))
    fail(p, "expected ", arena_printf(p->arena, "the end of the %s directive",
                                      word->text));
  if (p->failed)
    return NULL;
  hint *h = arena_alloc(p->arena, sizeof *h);
  *h = (hint){kind, p->d->loc, p->d->start, p->d->end, NULL, NULL, names.len, NULL};
  h->names = arena_alloc(p->arena, sizeof *h->names * (size_t)names.len);
  h->name_locs = arena_alloc(p->arena, sizeof *h->name_locs * (size_t)names.len);
  h->objs = arena_alloc(p->arena, sizeof *h->objs * (size_t)names.len);
  for (int i = 0; i < names.len; i++) {
    const ptok *t = names.items[i];
    h->names[i] = t->text;
    h->name_locs[i] = t->loc;
    h->objs[i] = NULL;
  }
  return h;
}

loop *pragma_parse_directive(const directive *d, arena *a) {
  parser p = {d, a, 0, 0, NULL, {0}, 0};
  for (int i = 0; i + 1 < d->ntoks; i++)
    p.affine |= strcmp(d->toks[i].text, "domain") == 0 && d->toks[i].kind == PT_IDENT &&
                strcmp(d->toks[i + 1].text, "(") == 0;
  if (!is(peek(&p), "par_loop")) {
    unknown_directive(&p);
    return NULL;
  }
  p.pos++;
  p.lp = arena_alloc(a, sizeof *p.lp);
  p.lp->loc = d->loc;
  p.lp->start = d->start;
  p.lp->end = d->end;
  const ptok *k = parse_paren_ident(&p, "a kernel name");
  if (k) {
    p.lp->kernel = k->text;
    p.lp->kernel_loc = k->loc;
  }
  parse_clauses(&p);
  if (p.failed)
    return NULL;
  p.lp->nargs = p.args.len;
  p.lp->args = arena_alloc(a, sizeof *p.lp->args * (size_t)p.args.len);
  for (int i = 0; i < p.args.len; i++)
    p.lp->args[i] = *(loop_arg *)p.args.items[i];
  return p.lp;
}

void pragma_parse(program *prog, arena *a) {
  for (int i = 0; i < prog->directives.len; i++) {
    const directive *d = prog->directives.items[i];
    parser p = {d, a, 0, 0, NULL, {0}, 0};
    hint_kind kind;
    if (hint_kind_of(peek(&p), &kind)) {
      hint *h = parse_hint(&p, kind);
      if (h)
        vec_push(a, &prog->hints, h);
      continue;
    }
    loop *lp = pragma_parse_directive(d, a);
    if (!lp)
      continue;
    lp->id = prog->loops.len + 1;
    vec_push(a, &prog->loops, lp);
  }
}
