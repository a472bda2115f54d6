/*
 * cg_internal.h — what the files of the shared walk share (codegen.c,
 * cg_write.c, cg_lanes.c, cg_roofline.c, cpu_avx512.c): the walk's state
 * and the functions one of them defines and another calls.  The backends
 * (target_*.c) see codegen.h only.
 *
 * It does not include emit/codegen.h (codegen.c includes this header: the
 * two would include each other in a circle); each file includes codegen.h
 * first, for the backend's hooks.
 */
#ifndef LOOMC_CG_INTERNAL_H
#define LOOMC_CG_INTERNAL_H

#include "analysis/temps.h"
#include "emit/isl_loops.h"
#include "ir/ir.h"
#include "transform/transformed.h"
#include "util/strbuf.h"

typedef struct cg cg;
struct backend;

struct cg {
  const program *prog;
  const fusion *fu;     /* tr->fu */
  const transformed *tr;
  const char *elem; /* the element the kernel call being written is for */
  const group *group; /* the group whose function is being written */
  vec stmt_order;     /* its loops' indices, in the order isl scheduled them */
  const obj *into_obj; /* a pinned temporary being evaluated ... */
  const char *into;    /* ... into this local */
  vec loop_tails; /* isl_loop_text*: open loops, innermost last */
  const isl_loop_text *strips; /* the open loop over strips, if any: the
                                  group runs strip by strip (vectorize.h) */
  int plain; /* writing a staged loop's element-by-element alternative */
  vec lanes_written; /* lane_written*: the lane copies written so far */
  const struct backend *be;
  const char *out_name;
  strbuf *out;
  arena *arena;
  int indent;
  int out_lines; /* newlines written so far */
  /* Bodies shared (below, "shared bodies"): */
  vec shares;    /* share*: each body several groups run, in output order */
  vec strip_shares; /* strip_share*: turns in strips several groups run */
  vec renum;     /* loop*, then the number its locals are named by, ...:
                    a body written under another group's names */
  int state_params; /* writing a body whose per-loop state (labels, tuner,
                       reduction handles) comes as parameters */
  int self_pending;   /* a `#line` back to the output is due (line_self) */
  const struct loop *layer; /* the loop over an extruded set whose layer
                               loop (loom_k) is open, or NULL */
  const char *layer_at;     /* its layer when not loom_k (a layer isl wrote
                               outside the loop), or NULL */
};

/* The column lines of comments and calls wrap before. */
enum { WRAP = 80 };

/* How a group's own function begins: the function the program's call
 * reaches, kept out of its caller (LOOM_LOOP_FN, loom_gen.h). */
#define CG_ENTRY_LEAD "static LOOM_LOOP_FN void"

/* The kernel call, its arguments laid out on the lines of the directive
 * they come from, the output lines mapped by #line to those directive
 * lines: a compiler error in an argument points at it. */
typedef struct call_writer {
  cg *g;
  strbuf line;
  unsigned line_of;  /* the directive line of the text in `line` */
  unsigned next;     /* the line number the next output line will have */
  size_t align;      /* continuation indent, relative to g->indent */
} call_writer;

/* ---- codegen.c: the walk --------------------------------------------------- */

/* A dat's fate as a temporary (temps.h); TEMP_STORED for any other object. */
temp_fate cg_fate(const cg *g, const obj *o);
/* The values per element o's storage holds (fewer when narrowed). */
int cg_stored_dim(const cg *g, const obj *o);
/* The producer a consumer's argument evaluates (a pinned temporary), or NULL. */
const loop *cg_pinned_producer(const cg *g, const loop_arg *a);
/* The loops whose kernels the group calls: its own, and the pinned producers
 * they evaluate (loop*). */
vec cg_called_loops(cg *g, const group *gr);
/* Rows times columns of a matrix argument's element matrix. */
int cg_mat_block(const loop_arg *a);
/* The local pointer to a dat's values. */
const char *cg_data_ptr(cg *g, const obj *dat);
/* Slot `slot` of argument a's map at the current element. */
const char *cg_map_entry(cg *g, const loop_arg *a, int slot);
/* The local a contracted temporary lives in. */
const char *cg_temp_local(cg *g, const obj *t);
/* The element's row in a strip's local array. */
const char *cg_strip_row(cg *g, const char *local);
/* The row lp's staged increment a (through a map) adds to at the
 * current element: its target's, or, where the backend redirects it
 * (write_target), a local declared here that holds where. */
const char *cg_scatter_row(cg *g, const loop *lp, const loop_arg *a);
/* That local, declared here, when the backend redirects a; else NULL. */
const char *cg_scatter_local(cg *g, const loop *lp, const loop_arg *a);
/* The strip local argument a of lp is gathered into. */
const char *cg_gather_local(cg *g, const loop *lp, const loop_arg *a);
/* What lp's kernel call passes for its argument a. */
const char *cg_kernel_arg(cg *g, const loop *lp, const loop_arg *a);
/* lp's kernel call at the current element, with the locals it needs. */
void cg_emit_kernel_call(cg *g, const loop *lp);
/* Writes the call's line, ending in `tail`, and starts the next. */
void cg_call_flush(call_writer *w, const char *tail);
/* Adds an argument from directive line `line` (a new line when it changes). */
void cg_call_add(call_writer *w, const char *arg, unsigned line, int first);
/* `text` as a comment, its words on lines of at most WRAP columns. */
void cg_emit_wrapped_comment(cg *g, const char *text);
/* Whether lp's turn in gr's strips may be a function of its own (its
 * arguments dats' storage, maps, read globals). */
int cg_strip_shareable(cg *g, const group *gr, const loop *lp);
/* Whether the group's function runs strips, and so has a tuner. */
int cg_has_tuner(cg *g, const group *gr);
/* The per-loop state of a group's function: parameters, names, arguments. */
void cg_state_of(cg *g, const group *gr, const vec *objs, vec *decls, vec *names,
                 vec *args);
/* `LEAD NAME(params)`: the parameters `state`, then objs'. */
void cg_emit_signature(cg *g, const group *gr, const vec *state, const vec *objs,
                       const char *lead, const char *name);
/* `HEAD(parts, ...)`, wrapped after col columns (col < 0: not at all). */
const char *cg_join(cg *g, const char *head, vec *parts, int col);
/* `NAME(state, objects)`: a call passing the names `state` and objs'. */
const char *cg_forward(cg *g, const char *name, const vec *state, const vec *objs,
                       int col);

/* ---- cg_write.c: writing --------------------------------------------------- */

/* The `#line` back to the output, when one is due (cg_line_self). */
void cg_flush_self(cg *g);
/* path as a C string literal. */
const char *cg_quoted(cg *g, const char *path);
/* Opens the loop over one strip's elements, [loom_s, loom_e) (cg_loop_end). */
void cg_strip_elements_begin(cg *g);

/* ---- cg_lanes.c: a staged loop's turn in a strip ----------------------------- */

/* The lane copies of gr's loops that run as lanes, each the first time. */
void cg_emit_lane_copies(cg *g, const group *gr);
/* A staged loop's turn in a strip: staged or element by element (loom_vec). */
void cg_emit_turns(cg *g, const loop *lp);
/* lp over the strip's elements one by one (plain: a staged loop's other way). */
void cg_emit_elements_turn(cg *g, const loop *lp, int plain);

/* ---- cg_roofline.c: LOOM_DIAG's roofline -------------------------------------- */

/* After the loop: the bytes it moved and the operations it did (LOOM_DIAG). */
void cg_emit_traffic(cg *g, const group *gr);

/* ---- cpu_avx512.c: the AVX-512 twins ---------------------------------------- */

struct cg_cpu {
  /* The attribute of the functions a twin's body inlines (its strips). */
  const char *inline_attr;
  /* The twin FN_<cpu> and FN itself, which runs one or the other, after
   * FN_body. */
  void (*emit_twins)(cg *g, const group *gr, const vec *objs, const char *fn);
  /* The twin of a strip function FN_body (backend twin_strips), whose
   * parameters are `params` (declarations) and `names`. */
  void (*emit_strip_twins)(cg *g, vec *params, vec *names, const char *fn);
  /* The macro a call of such a function goes through: `MACRO(FN, (args))`
   * runs FN_body or its twin. */
  const char *dispatch;
};

/* Whether the group's function gets a twin (the backend's CPU's). */
int cg_has_twin(cg *g, const group *gr);
/* Whether gr's staged turns in strips have the twins instead (backend
 * twin_strips): each written as a function, with its twin. */
int cg_twins_strips(cg *g, const group *gr);
/* Whether lp's lanes' loop is written under LOOM_IVDEP. */
int cg_asserts_lanes(cg *g, const loop *lp);
/* Whether a loop over the layers of a column of gr runs under LOOM_IVDEP
 * (codegen.c). */
int cg_asserts_layers(cg *g, const group *gr);

#endif
