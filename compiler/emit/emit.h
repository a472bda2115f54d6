/*
 * emit.h — the output C.
 *
 * Takes the program, its fusion groups and temporaries (transform/fuse.h)
 * and the statements the schedules place (transform/place.h); gives the
 * text of the output file.  The output is the user's file, byte for byte,
 * except that:
 *  - before each function that holds loops, the loops' functions are
 *    defined: one static function per group of fused loops,
 *    `loom_loop_<id>_<kernel>` for a loop on its own,
 *    `loom_loop_<id>_<kernel>__<id>_<kernel>...` for a fused group
 *    (codegen.h: the shared walk and the target's backend write them);
 *    groups whose functions would be the same (copies of one directive)
 *    run one body, `loom_shared_...`, written at the first of them, which
 *    each group's own function calls with its per-loop state (codegen.c,
 *    "shared bodies");
 *  - the directive of a group's last loop is replaced by a call to the
 *    group's function, on the directive's line; the directives of the
 *    other loops of the group, and of pinned producers, by a comment
 *    saying where their loop went; an affine loop's directive by its loop
 *    nests (affine_emit.h); a hint by a comment;
 *  - with --target=mpi, the statements the region's schedule places
 *    (halo sends, reduction folds: place.h) are inserted before the
 *    statement or call they must precede, on its line;
 *  - `#line` directives map the user's text back to the user's file, the
 *    loop functions to the output file itself, and each kernel call (and
 *    each loop call) to the directive's line, so compiler errors and
 *    debuggers point where the code came from.
 */
#ifndef LOOMC_EMIT_H
#define LOOMC_EMIT_H

#include "emit/codegen.h"
#include "transform/place.h"

/* The backend of a target. */
const backend *backend_for(const target *t);

/* Writes the whole output for prog, as the transformations made it (tr,
 * with the statements the regions' schedules place into the user's text:
 * place.h), into out.  out_name is the name the output file will have
 * (for #line directives that point into it). */
void emit(const program *prog, const transformed *tr, const backend *be, const char *out_name,
          strbuf *out, arena *a);

#endif
