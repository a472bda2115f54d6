/* Other pragmas first (loomc reads on), then a loom directive whose
 * name a line splice cuts in two: still a loom directive. */
#pragma once
#define SIMD _Pragma("omp simd")
#pragma lo\
om par_loop(total) over(cells) args(read: v, inc: sum)
