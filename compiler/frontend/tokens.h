/*
 * tokens.h — the main file's text as libclang's tokens (directives
 * included), for the stages that rewrite it (transform/inline.c,
 * transform/version.c): what a word is, whether a use changes what it
 * names, whether a name is taken anywhere in the text.
 */
#ifndef LOOMC_TOKENS_H
#define LOOMC_TOKENS_H

#include "frontend/frontend.h"

typedef struct tok {
  CXTokenKind kind;
  const char *text;
  unsigned start, end;  /* offsets in the main file */
  CXSourceLocation loc;
} tok;

typedef LIST(tok *) tok_list;

/* The spelling of token t without its line splices, into buf (cut to
 * size): libclang spells a punctuator or a literal that a splice cuts as
 * its text (`+\<newline>=`), which is `+=` to C. */
void tok_spelling(CXTranslationUnit tu, CXToken t, char *buf, size_t size);
/* The same, in the arena. */
char *tok_spelling_dup(CXTranslationUnit tu, CXToken t, arena *a);

/* The tokens of range (in the arena). */
tok_list tokens_of(const frontend *fe, CXSourceRange range, arena *a);
/* The tokens of the main file's text [from, to). */
tok_list tokens_between(const frontend *fe, unsigned from, unsigned to, arena *a);
/* For a long range r (a long expression, whose subexpressions ask again
 * and again): the tokens of its whole file, tokenized once per parse and
 * kept (fe->token_files), to be searched by offset (tok_first_at).  NULL
 * when r is short (its own tokens cost less) or in no file. */
const tok_list *tokens_of_long_range(const frontend *fe, CXSourceRange r);
/* The one token in [from, to) of the file of range r, read off its text
 * where that is plainly blanks around one operator (`+`, `<<=`, `,`
 * ...): 1, the operator into buf and its offset into *at; 0 when the
 * text is blanks only (no token); -1 when the text is not so plain (a
 * comment, a name, a line splice, two tokens: tokenize it then). */
int tok_plain_between(const frontend *fe, CXSourceRange r, unsigned from, unsigned to,
                      char *buf, size_t size, unsigned *at);
/* The index in v of the first token starting at or after offset off
 * (v->len when none does). */
int tok_first_at(const tok_list *v, unsigned off);
/* The i-th token, or NULL out of range; whether t is the text s. */
const tok *tok_at(const tok_list *v, int i);
int tok_is(const tok *t, const char *s);
/* Whether the token between `before` and `after` is changed there: an
 * assignment, ++ or -- after it, or &, ++ or -- before it. */
int tok_changed(const tok *before, const tok *after);
/* Whether w is a word (an identifier) anywhere in text. */
int text_names(const char *text, const char *w);

#endif
