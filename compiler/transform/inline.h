/*
 * inline.h — calls seen through: the call of a function of the main file
 * that runs loops, written out as the function's body in the caller's
 * block (transform/expand.h translates the new text again), so that its
 * loops stand in the caller's DAG — where they fuse with the caller's
 * loops, their exchanges merge with the caller's, and a time loop around
 * the call rotates them.
 *
 * Seen through: a statement of a block that is a call `f(ARGS);` or a
 * declaration `T v = f(ARGS);`, of a function f defined in the main file
 * (not the caller itself) whose body holds par_loops, takes a fixed number
 * of parameters, has no label and no static variable, and returns only
 * at its end.  The call becomes
 *
 *     /+ loomc: the call of f seen through +/
 *     #line L "file.c"                  (the line of f's '{')
 *     T p_1 = (ARG); ...                 a parameter the body may change
 *     BODY                               f's body without its braces
 *     #line M "file.c"                  (the line of f's return)
 *     T v = (EXPR_1);                    (or `(void)(EXPR_1);`)
 *     #line N "file.c"                  (back to the call's line)
 *
 * A parameter whose argument is a variable of the caller that the body
 * does not change (no assignment, ++/--, or &, and the caller never takes
 * its address) is that variable: `solver_stage(m)` leaves the body's
 * `m->p_q` as it is, so its loops name the caller's handles.  Every other
 * parameter, and every local of the body, gets a name of its own
 * (`rms_2`), so that two calls in one block do not clash.  The body must
 * not name anything the caller declares, or that is declared after the
 * call, and no macro it uses may name the body's locals.
 *
 * Calls of functions that do not run loops, or that loomc cannot see
 * (defined in another file), are left as they are, without a note.
 */
#ifndef LOOMC_INLINE_H
#define LOOMC_INLINE_H

#include "frontend/frontend.h"
#include "transform/writer.h"

/* The budget of a call seen through (transformations.md §7): a function
 * running more par_loops than INLINE_LOOPS is not (a note names it). */
enum { INLINE_LOOPS = 32 };

typedef struct call_site call_site;
typedef LIST(call_site *) call_site_list;

/* The calls of prog of functions of the main file that run loops
 * (call_site*, caller by caller), those that may be seen through and those
 * that may not (call_site_why). */
call_site_list inline_calls(const frontend *fe, const program *prog, arena *a);

/* Why c is not seen through, or NULL: it may be. */
const char *call_site_why(const call_site *c);
/* The statement's text [*start, *end), its (the user's) line, the callee. */
void call_site_range(const call_site *c, unsigned *start, unsigned *end);
unsigned call_site_line(const call_site *c);
const char *call_site_callee(const call_site *c);
/* Where the callee's definition starts, if it is static (its calls seen
 * through, the C compiler would say it is unused), else 0. */
unsigned call_site_static_def(const call_site *c);

/* Writes the call seen through in place of its statement. */
void inline_write(writer *w, const call_site *c);

#endif
