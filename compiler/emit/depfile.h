/*
 * depfile.h — with -MD: the files the translation read, as a make rule,
 * so that editing a kernel header re-translates.
 */
#ifndef LOOMC_DEPFILE_H
#define LOOMC_DEPFILE_H

#include "frontend/frontend.h"

/* Writes `TARGET: INPUT HEADERS...` and a phony rule per header (like gcc's
 * -MD -MP) to o->dep_file, atomically.  Returns 0, or -1 after a
 * diagnostic. */
int depfile_write(const frontend *fe, const options *o);

#endif
