/*
 * consts.h — the loom_decl_const declarations of the main file.
 *
 * Each call loom_decl_const(dim, type, data, name) must name a file-scope
 * variable (by name or address) whose element type is `type`, whose
 * length (1 for a scalar) is `dim`, an integer constant expression, and
 * whose name is `name` when that is a string literal; each problem is a
 * located error.  The names of the declared constants go to prog->consts
 * (--report lists them).
 */
#ifndef LOOMC_CONSTS_H
#define LOOMC_CONSTS_H

#include <stdio.h>

#include "frontend/frontend.h"

void consts_check(const frontend *fe, program *prog, arena *a);

/* --report: the declared constants, in the order of their declarations. */
void consts_write_report(FILE *f, const program *prog);

#endif
