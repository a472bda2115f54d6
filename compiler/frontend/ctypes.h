/*
 * ctypes.h — the arithmetic C types that dats and globals may hold, as
 * loomc reads them from libclang's types or from the text of a
 * LOOM_DAT_FACTS annotation, and as libloom names them (loom_type).
 */
#ifndef LOOMC_CTYPES_H
#define LOOMC_CTYPES_H

#include <clang-c/Index.h>

#include "ir/ir.h"

/* The element type of a C type (canonical, unqualified), or NULL when it is
 * not an arithmetic type loom supports. */
const elem_type *elem_type_of(CXType t);

/* The element type spelled `s` ("double", "unsigned int"), or NULL. */
const elem_type *elem_type_named(const char *s);

#endif
