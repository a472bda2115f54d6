/*
 * kernels.h — the Airfoil kernels for the modular sample: those of
 * samples/airfoil/airfoil_kernels.h (the same arithmetic in OP2's order,
 * so the rms table is OP2's digit for digit), with the constants they read
 * declared extern: mesh.c defines them once, sets them with
 * airfoil_set_constants() and declares them with loom_decl_const; every
 * file that runs loops includes this header and reads those variables.
 */
#ifndef AIRFOIL_MODULAR_KERNELS_H
#define AIRFOIL_MODULAR_KERNELS_H

#define AIRFOIL_CONSTANTS_EXTERN
#include "airfoil_kernels.h"

#endif
