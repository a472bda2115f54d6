/*
 * text.h — facts of C source text that several stages read off it.
 */
#ifndef LOOMC_TEXT_H
#define LOOMC_TEXT_H

/* Whether c may stand in a C identifier (a letter, a digit or `_`): what
 * ends a word when the stages search the text for one. */
static inline int text_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

#endif
