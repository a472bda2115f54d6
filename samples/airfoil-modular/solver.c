/*
 * solver.c — the modular Airfoil's loops: OP2's predictor/corrector time
 * march, spread over functions that receive the mesh as `airfoil_mesh *m`
 * and name its handles through the pointer in their directives
 * (`over(m->cells)`, `m->p_x[m->pcell[0]]`); loomc takes each handle's
 * facts from mesh.h (LOOM_MAP_FACTS / LOOM_DAT_FACTS).  The only file of
 * the program that loomc translates.
 *
 * A global argument stays a plain local variable (the reduction into rms
 * in solver_stage); constants come from kernels.h (defined in mesh.c).
 * loomc sees through solver_iteration's calls (their loops then stand in
 * its body) and, since m->p_q, m->p_qold and m->p_res may be one dat to
 * it, writes that body twice: the first copy, run when a test finds them
 * distinct, fuses the pairs the single-file samples/airfoil/airfoil.c
 * fuses (save_soln with the predictor's adt_calc, update with the
 * corrector's adt_calc) and exchanges p_q once per stage under MPI.
 * Fusion never changes the results: the rms table is the same.
 */
#include <loom.h>
#include <math.h>

#include "kernels.h"
#include "mesh.h"
#include "solver.h"

void solver_save(airfoil_mesh *m) {
  /* save the old flow solution */
#pragma loom par_loop(save_soln) over(m->cells) args(read: m->p_q, write: m->p_qold)
}

double solver_stage(airfoil_mesh *m) {
  /* area / time step, flux residual over interior and boundary edges */
#pragma loom par_loop(adt_calc) over(m->cells)                               \
    args(read: m->p_x[m->pcell[0]], m->p_x[m->pcell[1]],                     \
               m->p_x[m->pcell[2]], m->p_x[m->pcell[3]],                     \
               m->p_q, write: m->p_adt)
#pragma loom par_loop(res_calc) over(m->edges)                               \
    args(read: m->p_x[m->pedge[0]], m->p_x[m->pedge[1]],                     \
               m->p_q[m->pecell[0]], m->p_q[m->pecell[1]],                   \
               m->p_adt[m->pecell[0]], m->p_adt[m->pecell[1]],               \
         inc:  m->p_res[m->pecell[0]], m->p_res[m->pecell[1]])
#pragma loom par_loop(bres_calc) over(m->bedges)                             \
    args(read: m->p_x[m->pbedge[0]], m->p_x[m->pbedge[1]],                   \
               m->p_q[m->pbecell[0]], m->p_adt[m->pbecell[0]],               \
         inc:  m->p_res[m->pbecell[0]],                                      \
         read: m->p_bound)

  /* update the state; rms sums the squared changes (a reduction) */
  double rms = 0.0;
#pragma loom par_loop(update) over(m->cells)                                 \
    args(read: m->p_qold, write: m->p_q, rw: m->p_res, read: m->p_adt,       \
         inc: rms)
  return rms;
}

void solver_iteration(airfoil_mesh *m, double *rms) {
  solver_save(m);
  solver_stage(m);             /* predictor: from q */
  double sum = solver_stage(m); /* corrector: from the predicted q */
  *rms = sqrt(sum / (double)loom_set_size(m->cells));
}
