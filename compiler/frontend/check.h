/*
 * check.h — check each loop's kernel against the loop.
 *
 * The kernel is a C function defined in this translation unit and declared
 * at file scope before the function the loop stands in.  Its parameters
 * match the loop's arguments in number and in type: a pointer to the dat's
 * or global's element type (a pointer to such pointers for `dat[map[*]]`,
 * a pointer to int for `idx`), const exactly when the argument is read.  A
 * kernel must not assign to a file-scope variable.  Each loop records what
 * later stages read of its kernel: its operations (flops.h), how it names
 * its parameters (loop_arg.updated_once, read_mask) and its text for a
 * lane copy (lanes.h).
 */
#ifndef LOOMC_CHECK_H
#define LOOMC_CHECK_H

#include "frontend/symtab.h"

/* Checks every loop; loops with errors are removed from prog->loops. */
void check_kernels(const frontend *fe, const symtab *st, program *prog, arena *a);

#endif
