/*
 * codegen.h — the shared walk over a group of fused loops, and the
 * backends that complete it.
 *
 * A group's function (emit.h says where it goes) is written by one walk
 * over the IR that writes what every target shares — the signature, the
 * run-time checks of the objects, the data pointers, the kernel calls with
 * their gathers, pinned producers and contracted temporaries — and calls a
 * backend, a table of hooks, one per target, for what differs: how the
 * elements are iterated (in order, on threads with an execution plan, core
 * then owned elements around the halo exchanges), how reductions combine,
 * where an increment through a map goes.  The cg_* functions below are
 * what the hooks (target_*.c) and the affine loops' code (affine_emit.c)
 * use to write.
 */
#ifndef LOOMC_CODEGEN_H
#define LOOMC_CODEGEN_H

#include "analysis/effects.h"
#include "transform/transformed.h"
#include "ir/ir.h"
#include "util/strbuf.h"
#include "util/target.h"

typedef struct cg cg;

/* A backend sees a group: its loops run fused, element by element, over
 * one set.  A loop on its own is a group of one. */
/* A CPU's vector code beside the portable code: the twin of a group
 * function, compiled for that CPU's instructions and run where the
 * machine has them (cpu_avx512.c; a new CPU's twins go beside it). */
typedef struct cg_cpu cg_cpu;
extern const cg_cpu cg_cpu_avx512;

typedef struct backend {
  target_kind kind;
  /* Optional: file-scope declarations before the group's function. */
  void (*prelude)(cg *g, const group *gr);
  /* Before and after the element loop: set-up and completion of global
   * reductions, execution plans, ... */
  void (*loop_begin)(cg *g, const group *gr);
  void (*loop_end)(cg *g, const group *gr);
  /* How many element loops the group runs as (NULL: one); each part is
   * written as iterate_begin, the kernel calls, iterate_end. */
  int (*parts)(cg *g, const group *gr);
  /* The loop over (part `part` of) the iteration set: opens the element
   * loop, in which the current element is the C expression cg_elem()
   * returns. */
  void (*iterate_begin)(cg *g, const group *gr, int part);
  void (*iterate_end)(cg *g, const group *gr, int part);
  /* Optional: the pointer a kernel gets for an argument writing through a
   * map at target element `index`, instead of `ptr` (the target's data). */
  const char *(*write_target)(cg *g, const loop_arg *a, const char *index,
                              const char *ptr);
  /* Optional: whether the group runs on an owner-computes plan: each part
   * applies only the increments into its range of targets [loom_lo,
   * loom_hi), the others going to scratch locals (write_target), which a
   * turn in its strips written as a function of its own takes too. */
  int (*owner_computes)(cg *g, const group *gr);
  /* Optional: the line before the loop that runs a staged kernel over a
   * strip's gathered values (vectorize.h), e.g. "#pragma omp simd". */
  const char *simd;
  /* Optional: the number of threads a loop runs on, as a C expression
   * (its tuner times both ways again when it changes). */
  const char *threads;
  /* The CPU whose twin a group function that times its turns (runtime
   * core/tune.c) gets (cg_group_function), or NULL: none. */
  const cg_cpu *twins;
  /* Whether the twins are of the staged turns in strips instead, each
   * written as a function of its own: the group's loops run in a
   * parallel region, which the C compiler outlines into a function of
   * its own, compiled as the group function's body is (not as its twin),
   * so a twin of the group function would run no loop of its own. */
  int twin_strips;
  /* Whether a loop's reductions start on file-scope handles (the caller
   * folds them in: place.h), which are per-loop state
   * (cg_reduction_handle). */
  int reduction_handles;
} backend;

extern const backend backend_seq;
extern const backend backend_openmp;
extern const backend backend_mpi;
extern const backend backend_mpi_openmp;

/* ---- for the output's assembly (emit.c) ------------------------------------------- */

/* A walk writing into out for a backend; out_name is the name the output
 * file will have (for #line directives that point into it).  cg_done
 * frees what the walk keeps between groups (isl's context). */
cg *cg_new(const program *prog, const transformed *tr, const backend *be, const char *out_name,
           strbuf *out, arena *a);
void cg_done(cg *g);
/* Before the user's first line: what the groups' AVX-512 twins need, when
 * one has a twin, and LOOM_IVDEP, when a loop runs as lanes (nothing
 * otherwise). */
void cg_prologue(cg *g);
/* After the user's last line: the end of what cg_prologue began. */
void cg_epilogue(cg *g);
/* Before the first group's function: every group whose function the
 * output will hold (group*), in the order cg_group_function will write
 * them; groups whose functions would be the same share one body (codegen.c,
 * "shared bodies"). */
void cg_plan(cg *g, const group_list *groups);
/* The static function of a group (or, when it shares a body, the body if
 * it is the first to run it, and the group's own function that calls
 * it), then an empty line. */
void cg_group_function(cg *g, const group *gr);
/* The text that replaces a mesh loop's directive: the group's call at its
 * anchor, a comment at the group's other loops and at pinned producers. */
const char *cg_directive(cg *g, const loop *lp);
/* n bytes of text; a newline then `#line LINE "user file"`, whose line the
 * user's own newline that follows ends; s with no comment end in it. */
void cg_putn(cg *g, const char *text, size_t n);
void cg_line_user_next(cg *g, unsigned line);
const char *cg_comment_safe(cg *g, const char *s);

/* ---- for backends ----------------------------------------------------------- */

/* Writes one line at the current indentation (a newline is added). */
void cg_line(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cg_indent(cg *g, int delta);
/* The name of the element index inside the element loop. */
const char *cg_elem(const cg *g);
/* The loop over elements lo <= cg_elem() < hi (lo, hi: identifiers or
 * "0"), generated by isl's AST generator; cg_loop_end closes it.  The body
 * written between them is the loop's statement.  When the group runs in
 * strips (cg_runs_strips), the loop is over the strips' first elements
 * instead (vectorize.h), and cg_elem() is defined in the kernels' own
 * loops over a strip: per-element code must not follow cg_loop_begin. */
void cg_loop_begin(cg *g, const char *lo, const char *hi);
void cg_loop_end(cg *g);
/* Whether the group's element loops run strip by strip. */
int cg_runs_strips(const cg *g, const group *gr);
/* At the top of the body cg_loop_begin opened: a C condition true once
 * every n elements (n a power of two), whether per element or per strip. */
const char *cg_every(cg *g, int n);
/* The same with another iterator than cg_elem() (the backend then defines
 * cg_elem() from it at the top of the body); never in strips. */
void cg_loop_begin_iter(cg *g, const char *lo, const char *hi, const char *iter);
/* The group whose function is being written. */
const group *cg_group(const cg *g);
/* The number a loop's locals are named by (loom_x<N>_<arg>, ...): its own
 * id, or, in a body that several groups share, the id of the loop in its
 * place in the group whose names the body takes. */
int cg_loop_num(const cg *g, const loop *lp);
/* The handle (a loom__reduction *) a loop's reduction of a's global starts
 * on: the file-scope one place.h names, or the loop's own passed to a
 * shared body. */
const char *cg_reduction_handle(cg *g, const loop *lp, const loop_arg *a);

/* The number of elements, and its declaration (`const int NAME = ...;`)
 * for backends that loop over the whole set. */
const char *cg_count(const cg *g);
void cg_declare_count(cg *g, const group *gr);
/* The set the group's loops run over. */
const obj *cg_set(const group *gr);
/* What the runtime's sections, plans and storage are of: an extruded
 * set's or map's base (`loom__set_base(prisms)`; an extruded map over the
 * identity: NULL), any other's handle itself. */
const char *cg_set_handle(cg *g, const obj *set);
const char *cg_map_handle(cg *g, const obj *map);
/* Whether the group runs over an extruded set: an element is a column,
 * each loop's kernel called over its region's layers in turn. */
int cg_extruded(const group *gr);
/* Every argument of the group's loops, in order. */
loop_arg_list cg_args(cg *g, const group *gr);
/* The effects of the group's loops (effects.h), in order, the pinned
 * temporaries' producers' included. */
effect_list cg_effects(cg *g, const group *gr);
/* With MPI: the dats whose halos the group needs before its owned part
 * (each once; effects.h, pinned temporaries' producers included). */
obj_list cg_halo_dats(cg *g, const group *gr);
arena *cg_arena(cg *g);
/* Raw text at the current position; `#line` to a line of the user's file
 * or back to the output itself (each on a line of its own); the target's
 * name; the program (for affine_emit.c, which writes whole blocks). */
void cg_put(cg *g, const char *text);
void cg_line_user(cg *g, unsigned line);
void cg_line_self(cg *g);
const target *cg_target(const cg *g);
const program *cg_program(const cg *g);
/* The local a reduced global accumulates in: the kernel gets its address;
 * the backend declares it (before the element loop) and stores it back. */
const char *cg_reduction_local(cg *g, const loop_arg *a);
/* Declares that local, of the global's type and dim, set to `init` (a C
 * expression giving one element; "%s" in it stands for the element). */
void cg_declare_reduction_local(cg *g, const loop_arg *a, const char *init);
/* The same declaration under another name. */
void cg_declare_local(cg *g, const loop_arg *a, const char *name, const char *init);
/* The `init` a partial result starts from, for backends that combine
 * partials: 0 for inc, the global's value for min and max. */
const char *cg_reduction_identity(cg *g, const loop_arg *a);

#endif
