/*
 * loom.h — the public API of libloom, Loom's runtime.
 *
 * User programs declare their mesh through this API (sets, maps, dats,
 * temporaries), and loomc reads those declarations to type-check parallel
 * loops at compile time.  Generated code then calls the `loom__` functions
 * of loom_gen.h, which it gets through this header (at its end); users
 * never call those directly.
 *
 * Handles are opaque pointers owned by the runtime: everything the runtime
 * allocates is freed by loom_exit().
 *
 * Errors: every failing call reports a message that names the object
 * ("map 'pedge': entry 17 (element 8, slot 1) is 999999, outside [0, 721801)
 * of set 'nodes'") through the error handler.  The default handler prints
 * "loom: error: MESSAGE" on stderr and ends the program with exit status 1;
 * loom_set_error_handler() installs another one.  When a handler returns,
 * the failing call returns its failure value (NULL or a LOOM_E* status) and
 * loom_last_error() gives the message.
 *
 * The collective calls are also macros of their own names that record the
 * caller's file and line for the messages of libloom_mpi ("call sites",
 * after the matrix calls); LOOM_NO_CALL_SITES turns them off.
 */
#ifndef LOOM_H
#define LOOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOM_VERSION_MAJOR 0
#define LOOM_VERSION_MINOR 1
#define LOOM_VERSION_PATCH 0
#define LOOM_VERSION_STRING "0.1.0"

/* Status codes. */
enum {
  LOOM_OK = 0,
  LOOM_EINVAL = 1,   /* invalid argument: bad size, name, dim, index  */
  LOOM_ENOMEM = 2,   /* out of memory                                */
  LOOM_ESTATE = 3,   /* call out of order (before init, after exit)   */
  LOOM_EMISMATCH = 4, /* object differs from what the loop was compiled for */
  LOOM_ECOMM = 5,     /* an MPI call failed (libloom_mpi) */
  LOOM_EIO = 6,       /* a file could not be read or written (HDF5) */
  LOOM_EPETSC = 7     /* a PETSc call failed, or a solve diverged (matrices) */
};

/* Element types of dats, as recorded by loom_decl_dat(). */
typedef enum loom_type {
  LOOM_TYPE_UNKNOWN = 0,
  LOOM_DOUBLE,
  LOOM_FLOAT,
  LOOM_INT,
  LOOM_UINT,
  LOOM_LONG,
  LOOM_ULONG,
  LOOM_LLONG,
  LOOM_ULLONG,
  LOOM_SHORT,
  LOOM_USHORT,
  LOOM_CHAR,
  LOOM_SCHAR,
  LOOM_UCHAR
} loom_type;

/* The loom_type of a C type name, at compile time. */
#define LOOM_TYPE_OF(type)                                                     \
  _Generic((type)0,                                                            \
      double: LOOM_DOUBLE, float: LOOM_FLOAT, int: LOOM_INT,                   \
      unsigned int: LOOM_UINT, long: LOOM_LONG, unsigned long: LOOM_ULONG,     \
      long long: LOOM_LLONG, unsigned long long: LOOM_ULLONG,                  \
      short: LOOM_SHORT, unsigned short: LOOM_USHORT, char: LOOM_CHAR,         \
      signed char: LOOM_SCHAR, unsigned char: LOOM_UCHAR,                      \
      default: LOOM_TYPE_UNKNOWN)

typedef struct loom_set_s *loom_set;
typedef struct loom_map_s *loom_map;
typedef struct loom_dat_s *loom_dat;
typedef struct loom_sparsity_s *loom_sparsity;
typedef struct loom_mat_s *loom_mat;

/* ---- lifetime ---------------------------------------------------------- */

/* Starts the runtime.  argc/argv may be NULL. Returns LOOM_OK or a status. */
int loom_init(int *argc, char ***argv);
/* Frees every object the runtime allocated. Returns LOOM_OK or a status. */
int loom_exit(void);

/* ---- errors ------------------------------------------------------------ */

typedef void (*loom_error_handler)(int status, const char *message, void *ctx);
/* Installs handler (NULL restores the default); returns the previous one. */
loom_error_handler loom_set_error_handler(loom_error_handler handler, void *ctx);
/* The message of the last error, or "" if there was none. Borrowed. */
const char *loom_last_error(void);

/* ---- declarations ------------------------------------------------------ */

/* A set of `size` elements (size >= 0).  `name` is copied. */
loom_set loom_decl_set(int size, const char *name);

/* A map of `dim` entries per element of `from`, each an index into `to`.
 * `data` (size(from) * dim ints, element-major) is copied; every entry is
 * checked to lie in [0, size(to)). */
loom_map loom_decl_map(loom_set from, loom_set to, int dim, const int *data,
                       const char *name);

/* A dat of `dim` values of C type `type` per element of `set`; `data`
 * (size(set) * dim values, element-major) is copied.  loomc reads `dim`
 * (an integer constant expression) and `type` from this declaration. */
#define loom_decl_dat(set, dim, type, data, name)                              \
  loom_decl_dat_((set), (dim), LOOM_TYPE_OF(type), sizeof(type),               \
                 (const type *)(data), (name))

/* A temporary: a dat whose values are produced by loops; zero-initialised. */
#define loom_decl_temp(set, dim, type, name)                                   \
  loom_decl_dat_((set), (dim), LOOM_TYPE_OF(type), sizeof(type),               \
                 (const type *)0, (name))

loom_dat loom_decl_dat_(loom_set set, int dim, loom_type type, size_t elem_size,
                        const void *data, const char *name);

/* ---- extruded meshes: columns of layers over a base set --------------------
 *
 * An extruded set stands for `layers` elements (layers >= 1) over each
 * element of `base`: the prisms over triangles, the vertices of each
 * vertical line over the base's vertices (one more layer than the cells).
 * Element (e, k) is layer k of the column over base element e; a dat on
 * the set stores its columns one after the other, element (e, k)'s dim
 * values at ((e * layers) + k) * dim, and so does `data` at declaration.
 *
 * An extruded map reaches, from element (e, k) of `from` (an extruded
 * set), slot j's element (base[e][j], k + shift[j]) of `to` (another, or
 * the same): `base` maps from's base set to to's (arity dim; NULL: the
 * identity, from and to then over one base), `shift` its dim layer
 * offsets (copied).  loomc reads dim and the shifts, which must be
 * integer constants: `(const int[]){0, 0, 0, 1, 1, 1}`, or a const array
 * with such an initialiser.  A loop over an extruded set runs a region
 * of its layers (region(...), dsl-spec/grammar.md); before it runs, every
 * slot's layer is checked to stay in its column.
 *
 * The sets, maps and dats of the base carry the columns: partitioning
 * (whole columns), halos, renumbering and loom_dat_fetch apply to them. */
loom_set loom_decl_extruded_set(loom_set base, int layers, const char *name);
/* An extruded set whose columns have layers of their own: column e (in
 * the base's declared order; with a distributed base, this rank's slice)
 * holds layers[e] >= 1 (copied).  Its dats store every column as high as
 * the highest (loom_set_layers), element (e, k) where an extruded set of
 * that many layers has it; a loop runs layers 0 to layers[e] - 1 of
 * column e (its region's of those).  Collective on a distributed base. */
loom_set loom_decl_extruded_set_columns(loom_set base, const int *layers, const char *name);
loom_map loom_decl_extruded_map(loom_set from, loom_set to, int dim, loom_map base,
                                const int *shift, const char *name);
/* The layers of an extruded set (its highest column's when declared by
 * columns; 1 for any other set), or -1. */
int loom_set_layers(loom_set set);

/* ---- distributed declarations: each rank holds a slice -------------------
 *
 * With libloom_mpi on several ranks, a set may be declared from slices:
 * rank r holds the elements [offset_r, offset_r + count_r) of `gsize`, the
 * ranks' slices tile [0, gsize) in rank order (checked; collective), and
 * maps from the set and dats on it are declared with that rank's rows only
 * (count rows; a map's entries are global element numbers of its target).
 * Nothing is held at global size: the first loop (or loom_partition)
 * partitions the distributed graph, sends every element to its owner,
 * builds the halos and frees the slices.  loom_set_size is the global
 * size.  Without MPI, or on one rank, the slice must be (and is) the whole
 * set. */
loom_set loom_decl_set_slice(int gsize, int offset, int count,
                             const char *name);

/* OP2's HDF5 layout (op_decl_*_hdf5): a set is a dataset `name` holding its
 * size (one int); a map a (size(from) x dim) int dataset; a dat a
 * (size(set) x dim) dataset whose attribute "type" names its C type
 * ("double", "float", "int").  Each rank reads its block of rows (rank r:
 * [floor(r n / P), floor((r + 1) n / P))) collectively through MPI-IO, so
 * these are distributed declarations (above).  Sizes, dims and types are
 * checked against the file; a mismatch is LOOM_EINVAL naming the file and
 * dataset.  Only in libloom_mpi (HDF5 is built on MPI): elsewhere they
 * fail with LOOM_EINVAL saying so.  loomc reads `dim` and `type` from
 * loom_decl_dat_hdf5 as from loom_decl_dat. */
loom_set loom_decl_set_hdf5(const char *file, const char *name);
loom_map loom_decl_map_hdf5(loom_set from, loom_set to, int dim,
                            const char *file, const char *name);
#define loom_decl_dat_hdf5(set, dim, type, file, name)                         \
  loom_decl_dat_hdf5_((set), (dim), LOOM_TYPE_OF(type), sizeof(type),          \
                      (const type *)0, (file), (name))
loom_dat loom_decl_dat_hdf5_(loom_set set, int dim, loom_type type,
                             size_t elem_size, const void *type_witness,
                             const char *file, const char *name);

/* Writes the dat to dataset `name` of HDF5 file `file` (created if
 * missing; an existing dataset must have the dat's shape and type), in
 * OP2's layout and in declared order whatever the partition, with one
 * collective MPI-IO write (collective: every rank calls it).  Partitions
 * first if no loop did.  LOOM_OK, LOOM_EINVAL or LOOM_EIO. */
int loom_dat_write_hdf5(loom_dat dat, const char *file, const char *name);

/* Reads dataset `name` of `file` (OP2's layout, declared order) into an
 * existing dat: each rank reads a block and the owners get their rows by
 * declared number, whatever the partition; the halo follows (collective).
 * With loom_checkpoint, a restart on any number of ranks: declare the mesh
 * as usual, then read back the dats the computation carries. */
int loom_dat_read_hdf5(loom_dat dat, const char *file, const char *name);

/* Writes every set (its size), map (declared numbers) and dat of the
 * program to `file` in OP2's layout, in declared order, with `step` (the
 * caller's time step, dataset "loom_step"); the file is written as
 * FILE.tmp and renamed once complete, so a failure leaves the previous
 * checkpoint in place.  Collective; loomc orders it after every loop
 * before it.  Names must be distinct across sets, maps and dats.
 * loom_checkpoint_step returns a checkpoint's step (-1 on error). */
int loom_checkpoint(const char *file, int step);
int loom_checkpoint_step(const char *file);

/* Pictures: writes the mesh and `nfields` fields for ParaView or VisIt.
 * The HDF5 file `h5` gets, in declared order, the topology map (element ->
 * node, 2, 3, 4 or 8 entries: polylines, triangles, quadrilaterals or, with
 * 3-D coordinates, tetrahedra, hexahedra; an extruded map of 6 or 8:
 * wedges, hexahedra, dsl-spec/extruded.md), the coordinates `coords` (2 or
 * 3 doubles or floats per node) and each field (a dat on the map's cells
 * or on its nodes), as datasets named after them; `xmf` gets the XDMF 2
 * description of them (written by rank 0).  Collective. */
int loom_write_xdmf(const char *xmf, const char *h5, loom_map topology,
                    loom_dat coords, int nfields, const loom_dat *fields);

/* Facts of a handle whose loom_decl_* loomc cannot see: a parameter, a
 * struct member, an extern or file-scope variable.  Written once, after the
 * declarator:
 *
 *   typedef struct mesh {
 *     loom_set nodes, cells;
 *     loom_map pcell LOOM_MAP_FACTS(cells, nodes, 4);
 *     loom_dat p_q   LOOM_DAT_FACTS(cells, 4, double);
 *     loom_mat K     LOOM_MAT_FACTS(nodes, nodes, 1, 1);
 *   } mesh;
 *   void step(loom_set cells, loom_dat q LOOM_DAT_FACTS(cells, 4, double));
 *
 * An extruded set's facts name its base set, an extruded map's its sets,
 * its arity, its base map (or NULL, the identity) and its shifts, one
 * integer per slot (dsl-spec/extruded.md):
 *
 *   loom_set prisms LOOM_EXTRUDED_SET_FACTS(cells);
 *   loom_set cols LOOM_EXTRUDED_COLUMNS_FACTS(cells);  (declared by columns)
 *   loom_map p2v LOOM_EXTRUDED_MAP_FACTS(prisms, lines, 6, c2n, 0, 0, 0, 1, 1, 1);
 *
 * Set names are sibling members in a struct, else names visible at the
 * declaration or member chains from them (`m->cells` after `mesh *m`);
 * dim, arity and a matrix's block sizes (rows, columns, rdim, cdim, as
 * its sparsity declares them) are integer literals, enum constants or
 * macros that are one.  loomc reads them (an
 * annotation clang keeps); a C compiler sees nothing.  The generated loops
 * check each handle against them at run time. */
#if defined(__clang__)
/* In loomc's own output only: a handle of a group that loom__dats_distinct
 * found to be different dats. */
#define LOOM__DISTINCT(group) __attribute__((annotate("loom distinct " #group)))
#define LOOM_DAT_FACTS(set, dim, type)                                         \
  __attribute__((annotate("loom dat " #set ", " #dim ", " #type)))
#define LOOM_MAP_FACTS(from, to, arity)                                        \
  __attribute__((annotate("loom map " #from ", " #to ", " #arity)))
#define LOOM_MAT_FACTS(rows, cols, rdim, cdim)                                 \
  __attribute__((annotate("loom mat " #rows ", " #cols ", " #rdim ", " #cdim)))
#define LOOM_EXTRUDED_SET_FACTS(base) __attribute__((annotate("loom xset " #base)))
#define LOOM_EXTRUDED_COLUMNS_FACTS(base) __attribute__((annotate("loom xcols " #base)))
#define LOOM_EXTRUDED_MAP_FACTS(from, to, arity, base, ...)                    \
  __attribute__((annotate("loom xmap " #from ", " #to ", " #arity ", " #base ", " #__VA_ARGS__)))
#else
#define LOOM__DISTINCT(group)
#define LOOM_DAT_FACTS(set, dim, type)
#define LOOM_MAP_FACTS(from, to, arity)
#define LOOM_MAT_FACTS(rows, cols, rdim, cdim)
#define LOOM_EXTRUDED_SET_FACTS(base)
#define LOOM_EXTRUDED_COLUMNS_FACTS(base)
#define LOOM_EXTRUDED_MAP_FACTS(from, to, arity, base, ...)
#endif

/* A file-scope constant that kernels read (OP2's op_decl_const): `dim`
 * values of C type `type` at `data`, the variable itself (not a copy:
 * host code may change it between loops, and loomc orders the loops around
 * such a write), named `name`.  loomc checks that `data` names a
 * file-scope variable of that type and length and that `name` is its name.
 * With libloom_mpi the declaration is collective and the values must be
 * the same on every rank (compared at the declaration and again when
 * partitioning: LOOM_EMISMATCH on every rank otherwise); declaring a name
 * again updates it and compares again.  Returns LOOM_OK, LOOM_EINVAL,
 * LOOM_ENOMEM, LOOM_EMISMATCH or LOOM_ESTATE. */
#define loom_decl_const(dim, type, data, name)                                 \
  loom_decl_const_((dim), LOOM_TYPE_OF(type), sizeof(type),                    \
                   (const type *)(data), (name))

int loom_decl_const_(int dim, loom_type type, size_t elem_size, const void *data,
                     const char *name);

/* ---- queries ----------------------------------------------------------- */

int loom_set_size(loom_set set);         /* -1 on a NULL handle */
const char *loom_set_name(loom_set set); /* borrowed */
const char *loom_map_name(loom_map map);
const char *loom_dat_name(loom_dat dat);
int loom_dat_dim(loom_dat dat);

/* Copies the dat's values (size(set) * dim elements, element-major) into
 * `buf` of `bytes` bytes.  Fails with LOOM_EINVAL, naming the dat, when
 * `bytes` is not exactly that size.  With libloom_mpi, after partitioning:
 * the whole dat (the declared size of its set), gathered from the owners
 * in declared order, on every rank; collective (every rank calls it). */
int loom_dat_fetch(loom_dat dat, void *buf, size_t bytes);

/* ---- parallel execution (OpenMP target) -------------------------------- */

/* Elements per block of an execution plan: loops over sets run as blocks
 * of this many consecutive elements, blocks of one colour in parallel.
 * The default (LOOM_DEFAULT_BLOCK_SIZE, or $LOOM_BLOCK_SIZE read by
 * loom_init, which fails naming the variable on a value that is not an
 * integer >= 1) suits a per-core cache.  Changing it drops the cached
 * plans.  Returns LOOM_OK, LOOM_EINVAL (size < 1) or LOOM_ESTATE (outside
 * loom_init/loom_exit).  $LOOM_DIAG=1 prints a line on stderr for each
 * plan built (its blocks, colours and build time) and for each
 * renumbering (its primary sets, bandwidths and time). */
#define LOOM_DEFAULT_BLOCK_SIZE 512
int loom_set_block_size(int size);
int loom_block_size(void);

/* Renumbers the elements of every declared set for locality (reverse
 * Cuthill-McKee on the graph the maps give), permuting maps and dats to
 * match; loom_dat_fetch still returns values in the declared numbering.
 * Call after the declarations and before the first loop; also done by
 * loom_init's caller setting $LOOM_RENUMBER=1 (applied at the first loop,
 * in loom__check_set, unless loom_renumber was called before).
 *  - The primary set is the one with the most maps into or out of it
 *    (ties: more bytes of dats per element, then more maps into it, then
 *    more elements, then declared first); Airfoil's is "cells" (3 maps,
 *    like "nodes", but it holds q, qold, adt and res).  It is ordered by
 *    RCM on the graph where two elements are adjacent when a map from it
 *    to itself connects them or an element of another set maps to both
 *    (if neither gives an edge: when they map to a common element).
 *  - Every other set reached through the maps follows, ordered (stably)
 *    by the smallest new index of the elements it maps to in an already
 *    ordered set (the earliest ordered one), or else of the elements that
 *    map to it.  A group of sets not linked to the primary gets its own
 *    primary; sets without maps keep their order.
 * Values are permuted in place, so loom__dat_values / loom__map_values
 * pointers stay valid, and cached plans are dropped: calling it after
 * loops ran is correct, only wasteful.  Maps and dats declared afterwards
 * are stored renumbered too (their data is given in the declared
 * numbering, as always); sets declared afterwards keep their order until
 * the next call.  Calling it again renumbers again (harmless: fetch still
 * returns the declared order).  Returns LOOM_OK, LOOM_ENOMEM (nothing was
 * changed) or LOOM_ESTATE. */
int loom_renumber(void);

/* ---- distributed memory (MPI) ------------------------------------------ */

/* libloom has two builds from the same sources: build/lib/libloom.a (no
 * MPI: one process, every function below is a trivial stub) and
 * build/lib/libloom_mpi.a (compiled with mpicc -DLOOM_MPI; link with
 * `mpicc ... -lloom_mpi -lmetis -lptscotch -lscotch -lptscotcherr -lm`,
 * matrices with libloom_mpi_petsc ahead: "matrices" below).
 * dsl-spec/mpi.md is the reference; in short:
 *
 *  - loom_init calls MPI_Init_thread (FUNNELED) unless MPI is already
 *    initialised; MPI that loom_init started is finalised when the process
 *    exits (atexit), not by loom_exit, so a later loom_init starts a new
 *    session on it, as without MPI (a program that initialised MPI itself
 *    finalises it itself).  The runtime communicates on its own duplicate of
 *    MPI_COMM_WORLD, with MPI_ERRORS_RETURN: every MPI failure is reported
 *    like any other error, naming the call, the peer rank and the object.
 *  - Every rank runs the same host program and declares the WHOLE mesh
 *    (global sizes, global map and dat arrays, identical on every rank:
 *    checked when partitioning).  The runtime partitions once, after the
 *    declarations: at the first loop (loom__mpi_ready) or at an explicit
 *    loom_partition().  From then on each rank stores only its local
 *    elements (below); sets and maps can no longer be declared (LOOM_ESTATE),
 *    dats and temporaries can (their data is still given in global,
 *    declared order, and each rank keeps its rows).
 *  - The default error handler prints "loom: rank R: error: MESSAGE" and
 *    ends the whole job: every rank finalises MPI and exits with status 1
 *    once each has met the failing rank's notice in the runtime's next
 *    wait (at most 10 s; then MPI_Abort: dsl-spec/mpi.md, "Errors").  With a
 *    handler that returns, a failure in a call at which a loop stops (its
 *    argument checks, partitioning, halo and reduction calls) or in
 *    loom_dat_fetch or loom_partition fails the session on every rank:
 *    the other ranks' next wait gives up with LOOM_ESTATE, "...: rank R
 *    failed: MESSAGE", instead of waiting for a rank that is not coming;
 *    from then on every call that would communicate fails at once (loops
 *    return without running), and loom_exit frees what no message can
 *    still reach.  The program ends normally; MPI stays usable for a new
 *    session only on a best-effort basis.
 *  - loom_set_size() keeps returning the declared (global) size;
 *    loom_dat_fetch() gathers the whole dat, in declared order, on every
 *    rank (collective: every rank must call it). */

/* This process's rank and the number of ranks (0 and 1 without MPI, or
 * before loom_init). */
int loom_rank(void);
int loom_nranks(void);

/* Partitions the declared mesh over the ranks and migrates it (collective).
 *  - `primary`: the set whose graph is partitioned; NULL picks the default,
 *    the set loom_renumber would take as primary (the most maps into or
 *    out of it; Airfoil: cells).  Its graph: two elements are adjacent when
 *    a map from the set to itself links them or an element of another set
 *    maps to both (Airfoil: cells sharing an edge).
 *  - `method`: "metis" (METIS k-way on rank 0, broadcast; the default),
 *    "scotch" (Scotch's SCOTCH_graphPart on rank 0, broadcast),
 *    "ptscotch" (PT-Scotch's distributed SCOTCH_dgraphPart, every rank
 *    giving a block of the graph's vertices), "block" (contiguous
 *    ranges of the primary set's storage order: no dependency; after
 *    LOOM_RENUMBER=1, an RCM-ordered set cut in slabs) or "geom" (runs of
 *    a space-filling curve through the coordinates: the first dat of 2 or
 *    3 doubles per element on the primary, or on a set it maps to, the
 *    element then at the mean of its entries; computed in parallel);
 *    NULL: the default, "ptscotch" for a distributed mesh.
 *    $LOOM_PARTITIONER, when set, overrides `method` (a value that is none
 *    of the five is an error naming the variable).  A distributed mesh
 *    (loom_decl_set_slice, loom_decl_*_hdf5), "geom", or
 *    $LOOM_DISTRIBUTE=1 (a test knob) partition on the distributed path,
 *    with no global-size array on any rank.
 *  - The other sets' owners follow the maps: a set with a map into an
 *    assigned set takes, per element, the owner of its first entry through
 *    the first such map (Airfoil: an edge goes with the cell pecell[0]);
 *    otherwise a set that an assigned set maps into takes, per element,
 *    the owner of the lowest-numbered element mapping to it (preferring
 *    maps from the primary; Airfoil: a node goes with the first cell of
 *    pcell that has it); elements nothing maps to, and sets no map reaches,
 *    are cut in blocks.
 * Called once; later calls (and calls without MPI) return LOOM_OK and do
 * nothing, but a method (or $LOOM_PARTITIONER) that is none of the five is
 * LOOM_EINVAL at every call, in every build.  $LOOM_DIAG=1 prints the partition's quality on rank 0 (edge
 * cut of the primary's graph, and per rank and set the owned, core,
 * executed-halo and non-executed-halo counts).  Returns LOOM_OK, LOOM_EINVAL
 * (unknown method, primary not a set), LOOM_EMISMATCH (ranks declared
 * different meshes), LOOM_ENOMEM or LOOM_ESTATE. */
int loom_partition(loom_set primary, const char *method);

/* ---- timers ------------------------------------------------------------ */

/* CPU time of the process and wall-clock time, in seconds (OP2's
 * op_timers). Either pointer may be NULL. */
void loom_timers(double *cpu, double *wall);

/* Prints, on stdout, the wall time spent in each loop so far (calls,
 * seconds, share of the total), in order of first call.  loom_exit prints
 * the same table on stderr, with the other diagnostics, when $LOOM_DIAG=1
 * (with MPI, on rank 0 only). */
void loom_timing_output(void);

/* ---- memory ------------------------------------------------------------ */

/* What libloom holds on this rank, by kind: the storage of dats and
 * temporaries; maps' values; sets' numberings (global numbers of local
 * elements, renumberings); halo lists and exchange buffers; execution
 * plans; scratch buffers of generated code; and the work of MPI start-up
 * (partitioning and migration), which should be zero once it is done.
 * Small bookkeeping (object headers, names) is not counted.  A dat's
 * storage is its rows plus 4 KiB + 64 bytes (where it starts in a page
 * and a cache line); from 2 MiB on it is a mapping of its own, rounded up
 * to 4 KiB, counted whole.  A map's is its values, 4 bytes each. */
typedef enum loom_mem_kind {
  LOOM_MEM_DATS,
  LOOM_MEM_MAPS,
  LOOM_MEM_SETS,
  LOOM_MEM_HALOS,
  LOOM_MEM_PLANS,
  LOOM_MEM_SCRATCH,
  LOOM_MEM_STARTUP,
  LOOM_MEM_TOTAL /* the sum of the kinds above */
} loom_mem_kind;

typedef enum loom_mem_when {
  LOOM_MEM_NOW,    /* held now */
  LOOM_MEM_PEAK,   /* at the largest total since loom_init */
  LOOM_MEM_STARTED /* when MPI partitioning ended (0 before, or without it) */
} loom_mem_when;

/* Bytes of `kind` held on this rank `when`.  $LOOM_DIAG=1 prints the three
 * on stderr at loom_exit, every rank its own. */
size_t loom_memory(loom_mem_kind kind, loom_mem_when when);

/* ---- matrices (PETSc) --------------------------------------------------- */

/* Sparse matrices whose element matrices par_loop kernels fill (PyOP2's
 * sparsities and matrices), assembled into PETSc and solved with its KSP.
 * These calls are in a library of their own, libloom_petsc (under MPI
 * libloom_mpi_petsc), which programs that call them link ahead of libloom
 * (libloom_mpi), with PETSc and MPI:
 *   cc ... build/lib/libloom_petsc.a build/lib/libloom.a
 *      $(pkg-config --libs petsc mpi-c) -lm
 * or pkg-config loom-petsc (loom-mpi-petsc), CMake Loom::loom_petsc
 * (Loom::loom_mpi_petsc): the README and dsl-spec/mpi.md give every line.
 * libloom and libloom_mpi hold no matrix code and need no PETSc, static or
 * shared; a program that calls these without libloom_petsc fails to link
 * (undefined reference to loom_decl_sparsity, ...).  PETSc is Debian's
 * petsc-dev, which the Makefile detects with pkg-config; built without it,
 * libloom_petsc reports LOOM_EINVAL at every call below, saying so.
 *
 *  - PETSc is started (PetscInitialize, with the argc and argv loom_init
 *    received, and $PETSC_OPTIONS) at the first sparsity, unless the
 *    program started it, and ended by loom_exit (when it started MPI itself,
 *    in libloom without MPI: at the process's exit, so that a later session
 *    can start it again).  Loom starts it with -no_signal_handler (crashes
 *    are reported as without PETSc; -no_signal_handler false restores
 *    PETSc's handler).  In libloom, outside mpirun, Open MPI then starts as
 *    an isolated singleton: Loom sets OMPI_MCA_ess_singleton_isolated=1 and
 *    OMPI_MCA_orte_create_session_dirs=0 unless the environment sets them.
 *  - Rows and columns are in the runtime's storage order (after
 *    loom_renumber, not the declared one); the calls below that take node
 *    numbers take declared numbers.  A sparsity or matrix declared before
 *    a renumbering is rebuilt at its next use, element values kept.
 *  - Errors of PETSc calls are LOOM_EPETSC, naming the PETSc function, the
 *    object and PETSc's message.  PETSc is called only from the host
 *    thread, never from a parallel region (also in mpi+openmp programs).
 *  - libloom_mpi, on any number of ranks: every call below is collective
 *    (every rank makes it, in the same order, with the same arguments), as
 *    PETSc's are; loops writing element values (loom__mat_values,
 *    loom__mat_write_values) are not, like any loop.  loom_decl_sparsity partitions the mesh first, as
 *    a loop would (after a pending $LOOM_RENUMBER=1).  PETSc's objects live
 *    on the runtime's communicator (a duplicate of MPI_COMM_WORLD, made
 *    PETSC_COMM_WORLD when Loom starts PETSc): an MPIAIJ matrix whose rows
 *    on each rank are those of the row nodes it owns, numbered after the
 *    nodes of the lower ranks, assembled from the element matrices of the
 *    elements each rank executes (owner-computes: no values travel); a dat
 *    is a vector of its owned rows, in place.  loom_solve leaves x's halo
 *    stale, as a loop writing x would (loom__dat_dirty), loom_mat_mult
 *    y's, and loom_mat_zero_rows_columns b's: the next loop reading them
 *    through a map exchanges them.  Each call agrees with the other ranks
 *    on its outcome: an error on one rank (an argument wrong there only)
 *    is an error on every rank (LOOM_ESTATE, "... failed on another rank",
 *    on the others), not a hang, and the session goes on. */

/* A sparsity: the nonzero pattern of matrices whose block rows are the
 * elements of `rows` and block columns those of `cols`, with rdim x cdim
 * entries per block (rdim, cdim >= 1: components per node, interleaved:
 * row node * rdim + component).  Element e of pair p's iteration set
 * couples every entry of rmaps[p] at e with every entry of cmaps[p] at e:
 * rmaps[p] maps into `rows`, cmaps[p] into `cols`, both from the same set
 * (npairs >= 0 pairs, all different; the arrays are copied).  When rows ==
 * cols the diagonal blocks (node i, node i) are in the pattern as well.
 * Built once, with the exact count of entries per row.  NULL after an
 * error (LOOM_EINVAL naming the pair). */
loom_sparsity loom_decl_sparsity(loom_set rows, loom_set cols, int rdim,
                                 int cdim, int npairs, const loom_map *rmaps,
                                 const loom_map *cmaps, const char *name);

/* A matrix of doubles on a sparsity: a PETSc MATAIJ (block sizes rdim,
 * cdim) with the sparsity's pattern, all zero.  Element values written by
 * loops (loom__mat_values) accumulate until loom_mat_zero; the matrix is
 * their sum, assembled when it is next used. */
loom_mat loom_decl_mat(loom_sparsity sp, const char *name);

/* Assembles the pending element values into the PETSc matrix (nothing to
 * do when no loop wrote since the last assembly).  LOOM_OK or a status. */
int loom_mat_assemble(loom_mat A);
/* Every entry 0 (the pattern is kept), the element values too. */
int loom_mat_zero(loom_mat A);

/* Dirichlet conditions on the n row nodes `nodes` (declared numbers of
 * the row set; A square: rows == cols, rdim == cdim): their rows and
 * columns, all rdim components, become zero but for `diag` on the
 * diagonal.  When x and b are dats (double, dim rdim, on the row set), b
 * is adjusted as PETSc's MatZeroRowsColumns does, so that the solution of
 * A x = b keeps x's values at those nodes and A stays symmetric; both
 * NULL: only A changes.  Assembles first if values are pending.  A later
 * assembly (after loops wrote element values again) starts from the
 * element values: apply the conditions after the last loop that fills A. */
int loom_mat_zero_rows_columns(loom_mat A, int n, const int *nodes,
                               double diag, loom_dat x, loom_dat b);

/* Solves A x = b with A's KSP (created at the first solve: options from
 * loom_init's command line and $PETSC_OPTIONS, e.g. -ksp_type cg -pc_type
 * gamg -ksp_rtol 1e-12; no prefix), x's values the initial guess; x: a
 * double dat of dim cdim on the column set, b: of dim rdim on the row
 * set, both viewed by PETSc in place.  Assembles first if values are
 * pending.  LOOM_OK; LOOM_EPETSC, naming the matrix, PETSc's
 * KSPConvergedReason and the iterations, when the solve diverges (x then
 * holds the last iterate). */
int loom_solve(loom_mat A, loom_dat x, loom_dat b);

/* y = A x: x a double dat of dim cdim on the column set, y one of dim rdim
 * on the row set (another dat: not in place), both viewed by PETSc in
 * place (MatMult); y's values are replaced.  Assembles first if values
 * are pending.  LOOM_OK or a status (LOOM_EINVAL for a wrong dat, named
 * as x or y).  libloom_mpi: collective; x's owned rows are all it reads
 * (not its halo), and y's halo is stale afterwards, as after loom_solve.
 * (loom_petsc.h's loom_dat_vec views a dat as a PETSc Vec for the rest
 * of PETSc's vector operations.) */
int loom_mat_mult(loom_mat A, loom_dat x, loom_dat y);

/* The entry (row_node, rcomp; col_node, ccomp) of A, nodes in the declared
 * numbering (0 outside the pattern).  Assembles first.  NaN after an error
 * was reported.  libloom_mpi: collective (every rank asks for the same
 * entry); the row's owner reads it, every rank returns it. */
double loom_mat_get(loom_mat A, int row_node, int rcomp, int col_node,
                    int ccomp);

/* ---- call sites ----------------------------------------------------------
 *
 * Under MPI, rank 0 reports a collective call that the ranks do not all
 * make with each rank's source line (dsl-spec/mpi.md):
 *
 *   loom: rank 0: error: prog.c:118: loom_dat_fetch: the ranks are not all
 *   making this call (rank 0 is at it; rank 1 is at loom_exit, prog.c:124)
 *
 * So each call below that starts an agreement across ranks (every call
 * libloom_mpi names in such a message) is also a function-like macro of
 * its own name, which records __FILE__ and __LINE__ while the call runs:
 *
 *   loom_dat_fetch(d, buf, n)
 *     -> (loom__call_site(__FILE__, __LINE__),
 *         loom__call_done(loom_dat_fetch(d, buf, n)))
 *
 *  - A macro is not expanded again inside its own expansion: the function
 *    of the same name is called, with the same arguments, each evaluated
 *    once, and its result is the expression's (loom__call_done returns it;
 *    handles go through loom__call_done_ptr and back to their type).
 *  - The name without a following '(' is not a macro call: a function
 *    pointer (`&loom_dat_fetch`, `int (*f)(loom_dat, void *, size_t) =
 *    loom_dat_fetch`) works as before and a call through it records no
 *    line.  To redeclare one of these functions, parenthesise its name:
 *    `int (loom_exit)(void);`.
 *  - The location is the user's line also in a program translated by
 *    loomc: its output keeps the user's text, under #line directives.  (A
 *    call written over several lines: GCC names its first, clang its
 *    last.)
 *  - It is cleared when the call returns, so a later agreement that no
 *    wrapped call started is reported at the loop running (the first
 *    loop's partitioning: the directive's line, from the loop's label) or
 *    without a location (a call through a pointer), never at an older
 *    call's.  A wrapped call inside another's arguments clears the outer
 *    one's: that one is then reported without a location.  One location
 *    for the process (the API is called from the host thread only).
 *  - LOOM_NO_CALL_SITES, defined before this header, leaves the functions
 *    unwrapped.  loomc defines it when it parses a program, so that it
 *    sees the calls themselves; libloom is compiled with it (its own
 *    calls record nothing). */
void loom__call_site(const char *file, int line);
int loom__call_done(int status);
void *loom__call_done_ptr(void *handle);
double loom__call_done_dbl(double value);

#ifndef LOOM_NO_CALL_SITES
#ifdef __cplusplus
#define LOOM__CALL_HANDLE(type, e) static_cast<type>(e)
#else
#define LOOM__CALL_HANDLE(type, e) ((type)(e))
#endif
#define LOOM__CALL_AT(call)                                                    \
  (loom__call_site(__FILE__, __LINE__), loom__call_done(call))
#define LOOM__CALL_AT_DBL(call)                                                \
  (loom__call_site(__FILE__, __LINE__), loom__call_done_dbl(call))
#define LOOM__CALL_AT_PTR(type, call)                                          \
  (loom__call_site(__FILE__, __LINE__),                                        \
   LOOM__CALL_HANDLE(type, loom__call_done_ptr(call)))

#define loom_exit() LOOM__CALL_AT(loom_exit())
#define loom_partition(...) LOOM__CALL_AT(loom_partition(__VA_ARGS__))
#define loom_dat_fetch(...) LOOM__CALL_AT(loom_dat_fetch(__VA_ARGS__))
#define loom_decl_set_slice(...)                                               \
  LOOM__CALL_AT_PTR(loom_set, loom_decl_set_slice(__VA_ARGS__))
#define loom_decl_set_hdf5(...)                                                \
  LOOM__CALL_AT_PTR(loom_set, loom_decl_set_hdf5(__VA_ARGS__))
#define loom_decl_map_hdf5(...)                                                \
  LOOM__CALL_AT_PTR(loom_map, loom_decl_map_hdf5(__VA_ARGS__))
#define loom_decl_dat_hdf5_(...)                                               \
  LOOM__CALL_AT_PTR(loom_dat, loom_decl_dat_hdf5_(__VA_ARGS__))
#define loom_dat_write_hdf5(...) LOOM__CALL_AT(loom_dat_write_hdf5(__VA_ARGS__))
#define loom_dat_read_hdf5(...) LOOM__CALL_AT(loom_dat_read_hdf5(__VA_ARGS__))
#define loom_checkpoint(...) LOOM__CALL_AT(loom_checkpoint(__VA_ARGS__))
#define loom_checkpoint_step(...) LOOM__CALL_AT(loom_checkpoint_step(__VA_ARGS__))
#define loom_write_xdmf(...) LOOM__CALL_AT(loom_write_xdmf(__VA_ARGS__))
#define loom_decl_sparsity(...)                                                \
  LOOM__CALL_AT_PTR(loom_sparsity, loom_decl_sparsity(__VA_ARGS__))
#define loom_decl_mat(...) LOOM__CALL_AT_PTR(loom_mat, loom_decl_mat(__VA_ARGS__))
#define loom_mat_assemble(...) LOOM__CALL_AT(loom_mat_assemble(__VA_ARGS__))
#define loom_mat_zero(...) LOOM__CALL_AT(loom_mat_zero(__VA_ARGS__))
#define loom_mat_zero_rows_columns(...)                                        \
  LOOM__CALL_AT(loom_mat_zero_rows_columns(__VA_ARGS__))
#define loom_solve(...) LOOM__CALL_AT(loom_solve(__VA_ARGS__))
#define loom_mat_mult(...) LOOM__CALL_AT(loom_mat_mult(__VA_ARGS__))
#define loom_mat_get(...) LOOM__CALL_AT_DBL(loom_mat_get(__VA_ARGS__))
#endif /* LOOM_NO_CALL_SITES */

#ifdef __cplusplus
}
#endif

/* The code loomc generates defines LOOM__GENERATED before anything else:
 * it also gets loom_gen.h, its interface to libloom (the loom__ names). */
#if defined(LOOM__GENERATED) && !defined(LOOM_GEN_H)
#include "loom_gen.h"
#endif

#endif /* LOOM_H */
