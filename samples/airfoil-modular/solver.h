/*
 * solver.h — the modular Airfoil's time march (solver.c): the par_loops,
 * in functions that receive the mesh's handles as `airfoil_mesh *m`.
 */
#ifndef AIRFOIL_MODULAR_SOLVER_H
#define AIRFOIL_MODULAR_SOLVER_H

#include "mesh.h"

/* save_soln: qold = q, over the cells. */
void solver_save(airfoil_mesh *m);

/* One stage of the predictor/corrector march: adt_calc, res_calc,
 * bres_calc, update (q = qold - res / adt, res reset to zero).  Returns
 * the sum over the cells of the squared changes. */
double solver_stage(airfoil_mesh *m);

/* One time step, as OP2's Airfoil: save the state, predictor and
 * corrector stages; *rms is sqrt(corrector's sum / number of cells). */
void solver_iteration(airfoil_mesh *m, double *rms);

#endif /* AIRFOIL_MODULAR_SOLVER_H */
