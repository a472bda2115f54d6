/*
 * codegen.h — stage 6: generate the output C.
 *
 * The output is the user's file, byte for byte, except that:
 *  - before each function that holds loops, the loops' functions are
 *    defined (one static function per loop, `loom_loop_<id>_<kernel>`);
 *  - each `#pragma loom par_loop` directive is replaced by a call to its
 *    loop function, on the directive's line;
 *  - `#line` directives map the user's text back to the user's file, the
 *    loop functions to the output file itself, and each kernel call (and
 *    each loop call) to the directive's line, so compiler errors and
 *    debuggers point where the code came from.
 *
 * One shared walk over the IR writes what every target shares (signature,
 * run-time checks of the objects, data pointers, the kernel call); a
 * backend — a table of hooks, one per target — writes what differs.
 */
#ifndef LOOMC_CODEGEN_H
#define LOOMC_CODEGEN_H

#include "ir.h"
#include "strbuf.h"

typedef struct cg cg;

typedef struct backend {
  const char *name;
  /* Before and after the element loop: set-up and completion of global
   * reductions, execution plans, ... */
  void (*loop_begin)(cg *g, const loop *lp);
  void (*loop_end)(cg *g, const loop *lp);
  /* The loop over the iteration set: opens the element loop, in which the
   * current element is the C expression cg_elem() returns. */
  void (*iterate_begin)(cg *g, const loop *lp);
  void (*iterate_end)(cg *g, const loop *lp);
} backend;

extern const backend backend_seq;
extern const backend backend_openmp;

/* The backend of a target name, or NULL. */
const backend *backend_for(const char *target);

/* Writes the whole output for prog into out.  out_name is the name the
 * output file will have (for #line directives that point into it). */
void codegen(const program *prog, const backend *be, const char *out_name,
             strbuf *out, arena *a);

/* ---- for backends ----------------------------------------------------------- */

/* Writes one line at the current indentation (a newline is added). */
void cg_line(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cg_indent(cg *g, int delta);
/* The name of the element index inside the element loop. */
const char *cg_elem(const cg *g);
/* The number of elements, and its declaration (`const int NAME = ...;`)
 * for backends that loop over the whole set. */
const char *cg_count(const cg *g);
void cg_declare_count(cg *g, const loop *lp);
arena *cg_arena(cg *g);
/* The local a reduced global accumulates in: the kernel gets its address;
 * the backend declares it (before the element loop) and stores it back. */
const char *cg_reduction_local(cg *g, const loop_arg *a);
/* Declares that local, of the global's type and dim, set to `init` (a C
 * expression giving one element; "%s" in it stands for the element). */
void cg_declare_reduction_local(cg *g, const loop_arg *a, const char *init);

#endif
