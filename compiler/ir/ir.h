/*
 * ir.h — the intermediate representation shared by every stage of loomc.
 *
 * A `program` is one translation unit: its main file's text and the
 * parallel loops found in it.  Stages fill it in, in data-flow order:
 *
 *   pragma_lex    directives and their tokens          (program.directives)
 *   pragma_parse  loops with unresolved names          (program.loops)
 *   resolve       names bound to declared objects      (loop.set, arg.obj ...)
 *   check         kernel signatures checked            (arg.param_*)
 *   codegen       the output text
 *
 * Every node carries the source location it came from.  All memory is
 * owned by the arena of the run.
 */
#ifndef LOOMC_IR_H
#define LOOMC_IR_H

#include "util/arena.h"
#include "util/diag.h"

/* ---- element types --------------------------------------------------- */

/* An arithmetic C type that dats and globals may hold. */
typedef struct elem_type {
  const char *c_name;    /* "double" */
  const char *loom_name; /* "LOOM_DOUBLE": the runtime's loom_type */
  int size;              /* bytes (the generated code is compiled for this machine) */
} elem_type;

/* ---- declared objects -------------------------------------------------- */

typedef enum obj_kind {
  OBJ_SET,
  OBJ_MAP,
  OBJ_DAT,
  OBJ_GLOBAL,
  OBJ_ARRAY, /* a C array (or pointer) an affine loop subscripts */
  OBJ_VAR,   /* a file-scope variable a kernel reads (a constant to kernels),
                or the state loomc cannot see (effects.h) */
  OBJ_MAT    /* a matrix declared with loom_decl_mat (its sparsity's facts) */
} obj_kind;

typedef struct obj obj;
typedef struct loop loop;
typedef LIST(obj *) obj_list;
typedef LIST(loop *) loop_list;

/* A set, map or dat declared with loom_decl_*, or a C variable used as a
 * global argument. */
struct obj {
  obj_kind kind;
  const char *name;
  srcloc loc;            /* of the declaration */
  struct obj *from, *to; /* map: iteration and target sets; mat: the sets
                            of its rows and of its columns */
  struct obj *set;       /* dat: the set it lives on */
  int dim;               /* map arity; dat dim; global: array length or 1;
                            mat: components per row node (rdim) */
  int dim2;              /* mat: components per column node (cdim) */
  obj_list pairs;        /* mat: its sparsity's pairs of maps, as obj*
                            (row map, column map, ...) when loomc reads its
                            loom_decl_sparsity; empty: not known */
  const char *sparsity;  /* mat: its sparsity's variable, when known */
  srcloc sparsity_loc;
  const elem_type *type; /* dat, global */
  int is_array;          /* global declared as an array */
  int is_const;          /* global declared const */
  int is_temp;           /* dat declared with loom_decl_temp */
  const void *var;       /* global, array, variable: the C variable (its
                            symbol): objects of one variable are one for
                            dependences; a dat that may be another
                            (resolve_alias_classes): its class's token */
  const char *expr;      /* handle: what a call site passes, the name or a
                            member chain (`m->p_q`, name then `m_p_q`) */
  int opaque;            /* handle not declared with a loom_decl_* loomc
                            sees (a parameter, a member, an extern): its
                            facts come from LOOM_*_FACTS, and it may be
                            any handle of its kind */
  int escapes;           /* dat whose handle host code copies or passes
                            on (anything but a loom_* call's argument), or
                            an opaque one: calls that run loops may reach it */
  int distinct;          /* opaque dat of a body loomc wrote for handles a
                            run-time test found distinct (LOOM__DISTINCT,
                            transform/version.h): in no alias class */
  /* An extruded set (loom_decl_extruded_set): `base` its base set,
   * `layers` its layers when constant (0: known at run time only).  An
   * extruded map (loom_decl_extruded_map): `shift` the layer offset of
   * each of its dim slots, `base` the map of the bases it reads (NULL:
   * the identity).  A dat on an extruded set is extruded through its set.
   * `columns`: an extruded set declared by columns
   * (loom_decl_extruded_set_columns, LOOM_EXTRUDED_COLUMNS_FACTS), each
   * column its own layers at run time (`layers` 0). */
  struct obj *base;
  int layers;
  int columns;
  const int *shift;
};

/* Whether o is an extruded set, or a dat on one, or an extruded map. */
int obj_extruded(const obj *o);

const char *obj_kind_name(obj_kind k); /* "set", "map", ... */
/* How reports and diagnostics name an object: as the user wrote it
 * (`m->p_q`), not as generated code does (m_p_q). */
const char *obj_label(const obj *o);

/* ---- loops --------------------------------------------------------------- */

typedef enum access_mode {
  MODE_NONE,
  MODE_READ,
  MODE_WRITE,
  MODE_RW,
  MODE_INC,
  MODE_MIN,
  MODE_MAX
} access_mode;

const char *mode_name(access_mode m); /* "read", ... */
/* What an argument of mode m does, for messages: "reads", "writes",
 * "updates", "increments", "lowers" (min), "raises" (max). */
const char *mode_verb(access_mode m);
/* Whether m is inc, min or max: contributions of different elements to one
 * value combine in any order (a sum, a minimum, a maximum). */
int mode_commutes(access_mode m);
/* Whether two accesses of one value in one loop commute with each other:
 * both inc, both min or both max. */
int modes_commute(access_mode m, access_mode n);

typedef enum arg_kind {
  ARG_NAME,       /* `x`: a dat (direct) or a global; resolve decides */
  ARG_DAT,        /* direct dat */
  ARG_GLOBAL,     /* C variable */
  ARG_MAPPED,     /* `dat[map[i]]` */
  ARG_MAPPED_ALL, /* `dat[map[*]]` */
  ARG_IDX,        /* `idx`: the iteration index; `idx[map[i]]` (map set):
                     the index of the element reached through slot i */
  ARG_AFFINE,     /* `A[i][j+1]`: an array element (affine loops) */
  ARG_MAT         /* `A[rmap, cmap]`: the element matrix of matrix A on
                     the rows the element reaches through rmap and the
                     columns it reaches through cmap */
} arg_kind;

typedef struct loop_arg {
  int pos; /* 1-based position in the args list */
  access_mode mode;
  arg_kind kind;
  const char *name; /* dat or global name */
  srcloc loc;       /* of the name */
  unsigned len;     /* length of the whole argument text */
  const char *map_name;
  srcloc map_loc;
  int slot; /* map slot; -1 for `*` */
  const char *map2_name; /* ARG_MAT: the column map */
  srcloc map2_loc;
  srcloc slot_loc;
  obj *obj; /* the dat or global (affine: the array) */
  obj *map;
  obj *map2; /* ARG_MAT: the column map (map: the row map) */
  /* ARG_AFFINE: the subscript expressions as written ("j + 1"). */
  const char **subs;
  srcloc *sub_locs;
  int nsubs;
  /* Filled in by check: the kernel parameter this argument binds to. */
  const char *param_name;
  const char *param_pointee; /* spelling of the pointee type */
  /* Filled in by check for an argument the kernel updates: 1 when each of
   * its components is named by one statement only, outside any loop of
   * the kernel, and the parameter is named nowhere else (so adding the
   * kernel's contribution from a zeroed local rounds as updating in place
   * does); 0 otherwise. */
  int updated_once;
  /* Filled in by check: the components the kernel names through the
   * parameter (bit i: `p[i]`, `*p` is 0), or every bit when it names one
   * with a subscript that is not constant, takes an address, or uses the
   * pointer itself. */
  unsigned long long read_mask;
} loop_arg;

typedef LIST(const loop_arg *) loop_arg_list;

/* The layers a loop over an extruded set runs in each column (region(...)):
 * every layer, the first, the last, or every layer but the last (the
 * interior horizontal facets: the one above each of those layers). */
typedef enum layer_region {
  REGION_ALL,
  REGION_BOTTOM,
  REGION_TOP,
  REGION_INTERIOR
} layer_region;

const char *region_name(layer_region r); /* "all", ... */
/* Whether region `outer` runs every layer `inner` runs (all, or the same):
 * a producer's over its consumers', for a temporary of the columns kept in
 * a local or pinned. */
int region_covers(layer_region outer, layer_region inner);

/* A use of a kernel's pointer parameter in the kernel's text, `p[e]` or
 * `*p`: its byte range in kernel_text.text, the parameter (0-based) and
 * the subscript's text ("0" for `*p`). */
typedef struct kernel_use {
  unsigned start, end;
  int param;
  const char *subscript;
} kernel_use;

/* A kernel's definition as text, from just after its name to its closing
 * brace, with every use of its parameters located: what a lane copy
 * (transform/vectorize.h) rewrites. */
typedef struct kernel_text {
  const char *text;
  unsigned len;
  const char *file; /* where the name is, for #line */
  unsigned line;
  unsigned params_end; /* offset in text of the parameter list's ')' */
  kernel_use *uses;    /* in text order, none inside another */
  int nuses;
} kernel_text;

struct loop {
  int id;                 /* 1-based, in file order */
  srcloc loc;             /* of the '#' of the directive */
  unsigned start, end;    /* byte range of the whole directive */
  const char *kernel;
  srcloc kernel_loc;
  const char *set_name;
  srcloc set_loc;
  loop_arg *args;
  int nargs;
  obj *set;               /* resolved iteration set */
  layer_region region;    /* region(...): over an extruded set */
  srcloc region_loc;      /* of its name; line 0: no region clause */
  /* The function definition the loop stands in. */
  const char *func_name;
  unsigned func_start;    /* offset where generated code goes before it */
  srcloc func_loc;
  /* An affine loop (`domain("<isl set>")` instead of `over(SET)`): the
   * domain text and its location; NULL for a mesh loop. */
  const char *domain;
  srcloc domain_loc;
  struct affine_loop *aff; /* affine.c's view of it */
  /* Filled in by check: its floating-point operations per call, counted
   * from its text (frontend/flops.h), for LOOM_DIAG's roofline. */
  long kernel_flops;
  /* Filled in by check, from the kernel's summary (summary.h): the
   * file-scope variables it reads (obj*: OBJ_VAR, or the OBJ_GLOBAL of a
   * variable that is also a global argument), also through the functions
   * it calls; and a function it calls whose body loomc does not see. */
  obj_list kernel_vars;
  /* Filled in by check (frontend/lanes.h): the kernel's text for a lane
   * copy, or NULL and why not. */
  const kernel_text *lanes;
  const char *lanes_why;
  const char *kernel_unseen;
  srcloc kernel_unseen_loc;
  /* Filled in by resolve for an affine loop: the C variables its domain
   * reads, its parameters (obj*: OBJ_VAR, or the object the variable
   * already is). */
  obj_list domain_vars;
};

/* A global argument reduced by the loop (inc, min or max). */
int arg_is_reduction(const loop_arg *a);
/* An argument written through a map: its loop needs colouring to run in
 * parallel. */
int arg_writes_indirectly(const loop_arg *a);
/* The first argument of lp that reads o (any mode but write), or that
 * writes it (any mode but read); NULL when there is none. */
const loop_arg *loop_arg_reading(const loop *lp, const obj *o);
const loop_arg *loop_arg_writing(const loop *lp, const obj *o);
/* An object lp names (its set, the objects and maps of its arguments)
 * declared in the file `file` between offsets from and to (exclusive), or
 * NULL: lp's code could not stand before `to` where the name is not yet
 * declared, nor leave the block that declares it. */
const obj *loop_names_declared_in(const loop *lp, const char *file, unsigned from,
                                  unsigned to);
/* With MPI: whether lp runs its executed halo too (it writes through a
 * map: the halo elements' contributions to owned elements are this
 * rank's to compute). */
int loop_executes_halo(const loop *lp);

/* ---- hints: pin, pin_cse, sync ------------------------------------------ */

typedef enum hint_kind { HINT_PIN, HINT_PIN_CSE, HINT_SYNC } hint_kind;

const char *hint_name(hint_kind k); /* "pin", "pin_cse", "sync" */

/* `#pragma loom pin(t)`, `pin_cse(t)` or `sync(a, b, ...)`: the names it
 * lists, with their locations; objs[i] is filled in by resolve (NULL when
 * the name is not a loom object, e.g. an affine loop's C array). */
typedef struct hint {
  hint_kind kind;
  srcloc loc;          /* of '#' */
  unsigned start, end; /* byte range of the whole directive */
  const char **names;
  srcloc *name_locs;
  int nnames;
  struct obj **objs;
} hint;

/* ---- directives (output of pragma_lex) --------------------------------- */

typedef enum ptok_kind { PT_IDENT, PT_NUMBER, PT_PUNCT, PT_STRING } ptok_kind;

typedef struct ptok {
  ptok_kind kind;
  const char *text;
  srcloc loc;
} ptok;

/* One `#pragma loom ...` directive: tokens after `loom`, and its extent. */
typedef struct directive {
  srcloc loc;          /* of '#' */
  unsigned start, end; /* '#' to the end of the logical line (exclusive) */
  ptok *toks;
  int ntoks;
  srcloc end_loc;      /* where the directive ends, for "expected" errors */
} directive;

typedef LIST(directive *) directive_list;
typedef LIST(hint *) hint_list;
typedef LIST(struct alias_class *) alias_class_list;

/* ---- the translation unit ------------------------------------------------ */

typedef struct program {
  const char *file; /* the main file, as named on the command line */
  const char *text; /* its contents */
  size_t len;
  directive_list directives;
  loop_list loops;
  hint_list hints;          /* in file order */
  str_list consts;          /* variables declared with loom_decl_const */
  obj_list escaping;        /* dats calls that run loops may reach (alias.h) */
  alias_class_list alias_classes; /* dats that may be one (alias.h) */
  const unsigned *newlines; /* offsets of the '\n's of text (program_index_lines) */
  int nnewlines;
  const unsigned *line_of; /* text expanded by loomc (transform/expand.h): the
                              user's line of each of its lines (from 1),
                              as its #line directives say; NULL: none */
  int nline_of;
} program;

/* Indexes the newlines of prog->text, for program_line. */
void program_index_lines(program *prog, arena *a);

/* The 1-based line of offset `off` of the main file (O(log lines)); of
 * the user's file when the text is an expansion (line_of). */
unsigned program_line(const program *prog, unsigned off);

/* The number of par_loops whose directives stand in [start, end) of the
 * main file: what an expansion of that text would write again (the
 * budgets of transform/expand.h). */
int program_loops_in(const program *prog, unsigned start, unsigned end);

#endif
