/* Error: a matrix passed as a parameter without its facts: loomc does
 * not see its declaration (LOOM_MAT_FACTS gives them). */
#include <loom.h>

static void k(double *A) { A[0] += 1.0; }

void assemble(loom_set cells, loom_map c2n LOOM_MAP_FACTS(cells, cells, 1), loom_mat A) {
#pragma loom par_loop(k) over(cells) args(inc: A[c2n, c2n])
}
