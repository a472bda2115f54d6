/*
 * pragma_parse.h — parse the clauses of each directive.
 *
 * Grammar (dsl-spec/grammar.md is the reference):
 *
 *   directive = "par_loop" "(" IDENT ")" clause { clause } | hint
 *   hint      = ( "pin" | "pin_cse" ) "(" IDENT ")"
 *             | "sync" "(" IDENT { "," IDENT } ")"
 *   clause    = "over" "(" IDENT ")" | "args" "(" arg_list ")"
 *             | "domain" "(" STRING ")"          (an affine loop: no over)
 *   arg_list  = item { "," item }
 *   item      = [ MODE ":" ] arg
 *   MODE      = "read" | "write" | "rw" | "inc" | "min" | "max"
 *   arg       = "idx" | IDENT | IDENT "[" IDENT "[" ( INT | "*" ) "]" "]"
 *   arg       = IDENT "[" affine "]" { "[" affine "]" }   (affine loops)
 */
#ifndef LOOMC_PRAGMA_PARSE_H
#define LOOMC_PRAGMA_PARSE_H

#include "ir/ir.h"

/* Parses one directive; returns its loop, or NULL after a diagnostic. */
loop *pragma_parse_directive(const directive *d, arena *a);

/* Parses every directive of prog into prog->loops (ids in file order) and
 * prog->hints. */
void pragma_parse(program *prog, arena *a);

#endif
