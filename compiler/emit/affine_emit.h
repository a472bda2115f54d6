/*
 * affine_emit.h — the code of an affine loop (frontend/affine.h): its loop
 * nests, from an isl schedule through isl's AST generator, with the
 * temporaries it evaluates as the plan decided (transform/affine_plan.h).
 */
#ifndef LOOMC_AFFINE_EMIT_H
#define LOOMC_AFFINE_EMIT_H

#include "emit/codegen.h"

/* Writes the code that replaces an affine loop's directive. */
void affine_emit(cg *g, const loop *lp);

#endif
