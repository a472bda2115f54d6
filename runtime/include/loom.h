/*
 * loom.h — the public API of libloom, Loom's runtime.
 *
 * User programs declare their mesh through this API (sets, maps, dats,
 * temporaries), and loomc reads those declarations to type-check parallel
 * loops at compile time.  Generated code then calls the `loom__` functions
 * at the bottom of this file; users never call those directly.
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
#ifdef _OPENMP
#include <omp.h> /* code generated for --target=openmp asks for the threads */
#endif

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
 * 3-D coordinates, tetrahedra, hexahedra), the coordinates `coords` (2 or
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
#else
#define LOOM__DISTINCT(group)
#define LOOM_DAT_FACTS(set, dim, type)
#define LOOM_MAP_FACTS(from, to, arity)
#define LOOM_MAT_FACTS(rows, cols, rdim, cdim)
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

/* ======================================================================== */
/* Internal interface for code generated by loomc.  Not for users; its     */
/* names begin with loom__ and may change between releases.                */
/* ======================================================================== */

/* Checks, before a generated loop runs, that an object is what the loop was
 * compiled for.  `loop` names the loop ("res_calc at airfoil.c:211") and
 * `arg` the argument's position.  Return LOOM_OK, or a status after the
 * error was reported (LOOM_EMISMATCH; LOOM_ESTATE outside init/exit). */
int loom__check_set(loom_set set, const char *loop);
int loom__check_map(loom_map map, loom_set from, loom_set to, int dim,
                    const char *loop, int arg); /* to == NULL: not checked */
int loom__check_dat(loom_dat dat, loom_set set, int dim, loom_type type,
                    const char *loop, int arg);
/* Two arguments (positions arg_a, arg_b) the loop was compiled for as two
 * dats, under handles loomc could not prove distinct, where one dat would
 * make the result depend on the order of the elements (one written, the
 * other reached through a map): LOOM_EMISMATCH when they are one dat. */
int loom__check_distinct(loom_dat a, loom_dat b, const char *loop, int arg_a, int arg_b);
/* Whether the n handles after n are n different dats (1) or not (0): the
 * test of a function body loomc wrote twice, the first copy for handles
 * that are distinct (dsl-spec/transformations.md §8).  Local: every rank
 * of a collective program holds the same pattern of handles. */
int loom__dats_distinct(int n, ...);

/* Execution plans.  A plan splits a loop's iteration set into blocks of
 * consecutive elements and colours them so that no two blocks of one
 * colour write the same element of a target set through a map; the
 * elements of each block are coloured the same way.  Colours are found
 * with 32-bit masks, in passes of 32 colours.  A plan covers a range
 * [lo, hi) of the set's elements (the whole set, or one section of an MPI
 * partition: core, then the rest of the executed elements) and reads only
 * the map rows of elements in its range.  A plan is built once per
 * (loop, set, range, written maps, block size) and cached until
 * loom_exit. */
typedef struct loom__plan_arg {
  loom_map map; /* a map a loop argument writes through; NULL (slot 0): the
                   loop's own element, for a dat the loop writes directly and
                   also through a map (its increments must not meet either) */
  int slot;     /* the slot it writes, or -1 for all slots */
} loom__plan_arg;

typedef struct loom__plan {
  int nelems, nblocks, block_size; /* nelems == hi - lo */
  const int *block_start;   /* nblocks + 1: block b is [start[b], start[b+1]),
                               absolute element indices: start[0] == lo,
                               start[nblocks] == hi */
  int ncolours;             /* block colours */
  const int *colour_start;  /* ncolours + 1: ranges of blocks_by_colour */
  const int *blocks_by_colour; /* block ids, colour by colour, ascending */
  const int *block_colour;  /* nblocks */
  const int *elem_colour;   /* nelems: colour of element e in its block is
                               elem_colour[e - lo] */
  const int *block_elem_colours; /* nblocks: element colours used per block */
  int max_elem_colours;
  const char *loop;         /* the `loop` it was built for (for messages) */
  int lo, hi;               /* the elements covered: [lo, hi) of the set */
} loom__plan;

/* The plan of a loop over the whole set: exactly
 * loom__plan_get_range(loop, set, 0, loom__set_total(set), nargs, args)
 * (the set's size without MPI; every local element after partitioning). */
const loom__plan *loom__plan_get(const char *loop, loom_set set, int nargs,
                                 const loom__plan_arg *args);

/* The plan of a loop over the elements [lo, hi) of `set` (`loop` names
 * it, as for the checks; its address is part of the cache key, with lo
 * and hi: two ranges of one loop are two plans).  Blocks split [lo, hi)
 * into runs of the block size, the last one shorter; only the map rows of
 * elements in [lo, hi) are read (with MPI, the rows of non-executed halo
 * elements hold -1); the colour masks still cover the whole target sets.
 * nargs may be 0 (a loop that needs blocks only, for deterministic
 * reductions; one colour); an empty range has no blocks and no colours.
 * 0 <= lo <= hi <= loom__set_total(set), else LOOM_EINVAL (naming the
 * loop).  NULL after an error was reported. */
const loom__plan *loom__plan_get_range(const char *loop, loom_set set, int lo,
                                       int hi, int nargs,
                                       const loom__plan_arg *args);

/* Checks that the accesses of a loop to one dat through maps, of which one
 * at least is `rw` (its plan arguments), reach each target element from
 * one element of the iteration set only: otherwise the value left would
 * depend on the order of the elements, and the error names the target and
 * the two elements (their declared numbers).  Every executed element is
 * checked: the set, or with MPI the rank's [0, exec).  Done once per
 * (loop, set, arguments); LOOM_OK, or a status after the error was
 * reported. */
int loom__check_unique(const char *loop, loom_set set, int nargs,
                       const loom__plan_arg *args);
/* The writes of a loop to one dat through maps with mode `write` (its plan
 * arguments): for each element of the target set (its rows in the order
 * of the arguments' distinct target sets, as for plans: one set here),
 * the element of the iteration set that writes it last in declared order
 * — the one whose write is kept, whatever the order elements run in (-1:
 * none writes it).  Built once per (loop, set, arguments), valid until the
 * numbering changes (renumbering, partitioning); NULL after an error was
 * reported.  Generated code lets the other elements write to a scratch
 * local. */
const int *loom__write_winners(const char *loop, loom_set set, int nargs,
                               const loom__plan_arg *args);

/* Checks a plan exhaustively against its own range [lo, hi) (done for
 * every plan built when $LOOM_CHECK_PLANS=1), reading only the map rows
 * of elements in range: every element of [lo, hi) in exactly one block,
 * once, and no block outside it; no two blocks of one colour, and no two
 * elements of one colour within a block, write the same target element.
 * Returns LOOM_OK, or LOOM_EMISMATCH after reporting the first
 * violation. */
int loom__plan_check(const loom__plan *plan, loom_set set, int nargs,
                     const loom__plan_arg *args);

/* An owner-computes plan (for a loop whose writes through maps are all
 * increments into one target set): the whole target set split into
 * nparts contiguous ranges [part_lo[p], part_lo[p+1]); part p runs
 * elements elems[elem_start[p] .. elem_start[p+1]) (absolute indices from
 * [lo, hi), ascending), applying only the increments into its range.
 * Results are bit-identical to seq. */
typedef struct loom__ocplan {
  int nparts, nelems;    /* nelems == hi - lo */
  const int *part_lo;    /* nparts + 1 */
  const int *elem_start; /* nparts + 1 */
  const int *elems;
  int lo, hi;            /* the elements covered: [lo, hi) of the set */
} loom__ocplan;

/* The owner-computes plan of a loop over the whole set: exactly
 * loom__ocplan_get_range(loop, set, 0, loom__set_total(set), nparts,
 * nargs, args). */
const loom__ocplan *loom__ocplan_get(const char *loop, loom_set set, int nparts,
                                     int nargs, const loom__plan_arg *args);
/* The owner-computes plan of a loop over the elements [lo, hi) of `set`:
 * the parts still split the whole target set, balanced by the increments
 * of the elements in range; only their map rows are read.  Cached per
 * (loop, set, range, nparts, written maps).  0 <= lo <= hi <=
 * loom__set_total(set), else LOOM_EINVAL (naming the loop); an empty
 * range gives parts with no elements.  NULL after an error was
 * reported. */
const loom__ocplan *loom__ocplan_get_range(const char *loop, loom_set set,
                                           int lo, int hi, int nparts,
                                           int nargs,
                                           const loom__plan_arg *args);
/* Checks an owner-computes plan exhaustively against its own range (also
 * done for every plan built when $LOOM_CHECK_PLANS=1), reading only the
 * map rows of elements in range: the parts' ranges partition the target
 * set, and part p lists, ascending and once each, exactly the elements of
 * the range that increment a target in its range, and nothing else. */
int loom__ocplan_check(const loom__ocplan *plan, loom_set set, int nargs,
                       const loom__plan_arg *args);

/* The element matrices of pair (rmap, cmap) of A's sparsity, for the loop
 * over rmap's from-set: element e's block starts at base + e * (ra * rdim)
 * * (ca * cdim) (ra, ca: the maps' arities), row-major [ra * rdim][ca *
 * cdim], components interleaved (row i * rdim + r, column j * cdim + c),
 * e in the runtime's storage order of the iteration set (libloom_mpi: its
 * local index; a slot for every local element, of which the elements [0,
 * exec) count, as a loop writing through maps runs them).  Kernels only add
 * to these values ("inc"); they accumulate until loom_mat_zero.  Calling
 * this marks A pending (assembly needed); a pending $LOOM_RENUMBER=1 is
 * applied first, as at a loop's start.  Host code only (the pointer is
 * shared by the loop's threads: each element has its own block).  NULL
 * after an error: LOOM_EINVAL when (rmap, cmap) is not a pair of A's
 * sparsity. */
double *loom__mat_values(loom_mat A, loom_map rmap, loom_map cmap);
/* A loop writing pair (rmap, cmap) of A (mode write): the element
 * matrices it fills, laid out as loom__mat_values's, all 0 (the kernel's
 * element matrix is inserted whole), in a scratch buffer of A's; then,
 * after the loop, loom__mat_write_end makes each entry the loop reached
 * equal the value written there by the element with the highest declared
 * number (the last in row-major order within that element); other entries
 * keep theirs.  Host code only; local under MPI (each rank its executed
 * elements and owned rows).  NULL, or a status other than LOOM_OK, after
 * an error (as loom__mat_values). */
double *loom__mat_write_values(loom_mat A, loom_map rmap, loom_map cmap);
int loom__mat_write_end(loom_mat A, loom_map rmap, loom_map cmap);
/* A matrix argument's check: A is a live matrix with rdim x cdim blocks,
 * the block sizes loomc read from its declaration.  LOOM_EMISMATCH (or
 * LOOM_EINVAL without PETSc) naming the loop and the argument. */
int loom__check_mat(loom_mat A, int rdim, int cdim, const char *loop, int arg);

/* A scratch buffer of at least `bytes` bytes owned by the runtime, one per
 * `slot` (0..15), reused across calls and freed by loom_exit. */
void *loom__scratch(int slot, size_t bytes);

/* Per-loop timing: generated code reads loom__wall() when a loop starts
 * and calls loom__loop_done() when it ends; before that,
 * loom__loop_traffic() with the elements it ran (owned), the bytes the
 * call moved (each element of each
 * dat once, maps' indices included, as loomc counts them from the
 * arguments) and the floating-point operations its kernels did (counted
 * from their text), for LOOM_DIAG's GB/s and GFLOP/s columns. */
double loom__wall(void);
void loom__loop_traffic(const char *loop, double elems, double bytes, double flops);
void loom__loop_done(const char *loop, double t0);

/* A group function with staged loops runs them staged or element by
 * element, as its tuner says (a static of its own, zero-initialised):
 * loom__tune_pick when it starts (nonzero: staged), loom__tune_done with
 * that pick and its start time when it ends.  The first calls alternate
 * and are timed; then the faster stays ($LOOM_VECTOR=0|1 forces one). */
typedef struct loom__tuner {
  int calls;
  int staged;
  double best[2]; /* the best time of each: element by element, staged */
} loom__tuner;
int loom__tune_pick(const loom__tuner *t);
void loom__tune_done(loom__tuner *t, int pick, double t0, const char *loop);
/* Nonzero when such a function runs its AVX-512 twin (generated where the
 * C compiler allows, loomc's emit/codegen.c): the CPU has AVX-512 (F, VL,
 * BW, DQ, CD) and $LOOM_AVX512 is not 0. */
int loom__twin_avx512(void);

/* LOOM__ADD_ROW(T, n, p, v0, ..., vn-1): p[k] += vk for each k, the n
 * components of one row of a dat of T, as one vector add where the C
 * compiler has GNU vector types (each component's sum is the same IEEE
 * addition either way: results do not change).  Generated code adds a
 * strip's increments through maps to their rows with it, in element order;
 * loomc uses it only for the (T, n) below.  -DLOOM_NO_VECTOR_ROWS: the
 * plain loop. */
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ROW_TYPE(T, n, bytes)                                            \
  typedef T loom__row_##T##_##n                                                \
      __attribute__((vector_size(bytes), aligned(sizeof(T)), may_alias))
LOOM__ROW_TYPE(double, 2, 16);
LOOM__ROW_TYPE(double, 4, 32);
LOOM__ROW_TYPE(double, 8, 64);
LOOM__ROW_TYPE(float, 4, 16);
LOOM__ROW_TYPE(float, 8, 32);
LOOM__ROW_TYPE(float, 16, 64);
LOOM__ROW_TYPE(int, 4, 16);
LOOM__ROW_TYPE(int, 8, 32);
LOOM__ROW_TYPE(int, 16, 64);
#undef LOOM__ROW_TYPE
#define LOOM__ADD_ROW(T, n, p, ...)                                            \
  ((void)(*(loom__row_##T##_##n *)(p) += (loom__row_##T##_##n){__VA_ARGS__}))
#else
#define LOOM__ADD_ROW(T, n, p, ...)                                            \
  do {                                                                         \
    const T loom__row_[n] = {__VA_ARGS__};                                     \
    T *const loom__at_ = (p);                                                  \
    for (int loom__k_ = 0; loom__k_ < (n); loom__k_++)                         \
      loom__at_[loom__k_] += loom__row_[loom__k_];                             \
  } while (0)
#endif

/* Eight elements' rows at a time, for a strip laid out component by
 * component (a strip local T[n][stride]): loom__rows8_double_N(r, c,
 * stride) sets r[k] to the row of element k, whose component v is
 * c[v * stride + k] (c: the first element's component 0); then
 * LOOM__ADD_ROWV(T, n, p, r[k]) adds a row to p[0..n-1], element by element
 * as generated code calls it.  Where __builtin_shufflevector exists the
 * rows come from the components' vectors by shuffles (a transposition in
 * registers: a few instructions instead of n loads per row); else one by
 * one (or with -DLOOM_NO_ROW_SHUFFLES).  Either way the sums are those of
 * LOOM__ADD_ROW.  For double x 2 and x 4, the rows loomc adds this way. */
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ADD_ROWV(T, n, p, row)                                           \
  ((void)(*(loom__row_##T##_##n *)(p) += (row)))
#if defined(__has_builtin) && !defined(LOOM_NO_ROW_SHUFFLES)
#if __has_builtin(__builtin_shufflevector)
#define LOOM__ROWS_BY_SHUFFLES 1
#endif
#endif
#else
typedef struct loom__row_double_2 {
  double v[2];
} loom__row_double_2;
typedef struct loom__row_double_4 {
  double v[4];
} loom__row_double_4;
#define LOOM__ADD_ROWV(T, n, p, row)                                           \
  do {                                                                         \
    T *const loom__at_ = (p);                                                  \
    for (int loom__k_ = 0; loom__k_ < (n); loom__k_++)                         \
      loom__at_[loom__k_] += (row).v[loom__k_];                                \
  } while (0)
#endif
#if defined(LOOM__ROWS_BY_SHUFFLES)
typedef double loom__v8_double
    __attribute__((vector_size(64), aligned(sizeof(double)), may_alias));
#define LOOM__SHUF __builtin_shufflevector
static inline __attribute__((always_inline)) void
loom__rows8_double_2(loom__row_double_2 r[8], const double *c, int stride) {
  const loom__v8_double c0 = *(const loom__v8_double *)c;
  const loom__v8_double c1 = *(const loom__v8_double *)(c + stride);
  const loom__v8_double lo = LOOM__SHUF(c0, c1, 0, 8, 1, 9, 2, 10, 3, 11);
  const loom__v8_double hi = LOOM__SHUF(c0, c1, 4, 12, 5, 13, 6, 14, 7, 15);
  r[0] = LOOM__SHUF(lo, lo, 0, 1), r[1] = LOOM__SHUF(lo, lo, 2, 3);
  r[2] = LOOM__SHUF(lo, lo, 4, 5), r[3] = LOOM__SHUF(lo, lo, 6, 7);
  r[4] = LOOM__SHUF(hi, hi, 0, 1), r[5] = LOOM__SHUF(hi, hi, 2, 3);
  r[6] = LOOM__SHUF(hi, hi, 4, 5), r[7] = LOOM__SHUF(hi, hi, 6, 7);
}
static inline __attribute__((always_inline)) void
loom__rows8_double_4(loom__row_double_4 r[8], const double *c, int stride) {
  const loom__v8_double c0 = *(const loom__v8_double *)c;
  const loom__v8_double c1 = *(const loom__v8_double *)(c + stride);
  const loom__v8_double c2 = *(const loom__v8_double *)(c + 2 * stride);
  const loom__v8_double c3 = *(const loom__v8_double *)(c + 3 * stride);
  /* t0: components 0, 1 of elements 0, 2, 4, 6; t1: of 1, 3, 5, 7; t2, t3:
   * components 2, 3 of the same; u0: rows 0 and 4, u1: 1 and 5, ... */
  const loom__v8_double t0 = LOOM__SHUF(c0, c1, 0, 8, 2, 10, 4, 12, 6, 14);
  const loom__v8_double t1 = LOOM__SHUF(c0, c1, 1, 9, 3, 11, 5, 13, 7, 15);
  const loom__v8_double t2 = LOOM__SHUF(c2, c3, 0, 8, 2, 10, 4, 12, 6, 14);
  const loom__v8_double t3 = LOOM__SHUF(c2, c3, 1, 9, 3, 11, 5, 13, 7, 15);
  const loom__v8_double u0 = LOOM__SHUF(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
  const loom__v8_double u1 = LOOM__SHUF(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
  const loom__v8_double u2 = LOOM__SHUF(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  const loom__v8_double u3 = LOOM__SHUF(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
  r[0] = LOOM__SHUF(u0, u0, 0, 1, 2, 3), r[4] = LOOM__SHUF(u0, u0, 4, 5, 6, 7);
  r[1] = LOOM__SHUF(u1, u1, 0, 1, 2, 3), r[5] = LOOM__SHUF(u1, u1, 4, 5, 6, 7);
  r[2] = LOOM__SHUF(u2, u2, 0, 1, 2, 3), r[6] = LOOM__SHUF(u2, u2, 4, 5, 6, 7);
  r[3] = LOOM__SHUF(u3, u3, 0, 1, 2, 3), r[7] = LOOM__SHUF(u3, u3, 4, 5, 6, 7);
}
#undef LOOM__SHUF
#else
#define LOOM__ROWS8_ONE_BY_ONE(n)                                              \
  static inline void loom__rows8_double_##n(loom__row_double_##n r[8],         \
                                            const double *c, int stride) {     \
    for (int k = 0; k < 8; k++)                                                \
      for (int v = 0; v < (n); v++)                                            \
        LOOM__ROW_SET(r[k], v, c[v * stride + k]);                             \
  }
#if defined(__GNUC__) && !defined(LOOM_NO_VECTOR_ROWS)
#define LOOM__ROW_SET(row, comp, x) ((row)[comp] = (x))
#else
#define LOOM__ROW_SET(row, comp, x) ((row).v[comp] = (x))
#endif
LOOM__ROWS8_ONE_BY_ONE(2)
LOOM__ROWS8_ONE_BY_ONE(4)
#undef LOOM__ROWS8_ONE_BY_ONE
#undef LOOM__ROW_SET
#endif

/* Raw storage, element-major.  loom__set_size: the number of elements
 * (after MPI partitioning: the owned ones, see loom__set_owned). */
int loom__set_size(loom_set set);
const int *loom__map_values(loom_map map);
loom_set loom__map_to(loom_map map); /* the target set, NULL on NULL */
/* How many distinct target elements the map reaches from the owned
 * elements of its set (computed once; for loom__loop_traffic). */
int loom__map_reach(loom_map map);
void *loom__dat_values(loom_dat dat);
/* Temporary t uses owner's storage from now on (same size; loomc emits
 * this where their lifetimes in a block do not overlap).  The values of t
 * before its next write are unspecified. */
int loom__dat_share(loom_dat t, loom_dat owner);

/* Temporary t keeps `dim` values per element from now on, the components
 * its readers name (loomc emits this before each loop naming a temporary
 * it narrowed, transform/narrow.h; the loops are compiled for that dim).
 * Its storage is reallocated, zero-filled, at the first call: before any
 * loop has written t.  LOOM_OK, also when t has that dim already. */
int loom__dat_narrow(loom_dat t, int dim);

/* ---- distributed memory (generated code for --target=mpi) -------------- */

/* Called at the start of every generated loop function: partitions the
 * mesh at the first call (loom_partition(NULL, NULL), after a pending
 * $LOOM_RENUMBER=1, which renumbers the global mesh first, so blocks and
 * sections inherit its locality).  LOOM_OK, or the partition's status.
 * Without MPI: LOOM_OK. */
int loom__mpi_ready(void);

/* Local numbering of a set after partitioning, one contiguous range per
 * section (the isl domain [c, o, x] of the compiler):
 *   [0, core)      core: owned elements whose every entry, through every
 *                  map from the set, is an owned element (they need no
 *                  halo data);
 *   [core, owned)  owned boundary: the other owned elements;
 *   [owned, exec)  executed halo: elements owned by another rank that
 *                  some map from the set links to an element owned here
 *                  (executed redundantly, so increments into owned
 *                  elements are complete without reverse communication);
 *   [exec, total)  non-executed halo: elements owned elsewhere, not in the
 *                  executed halo, that an executed element (owned or
 *                  executed halo, of any set) reaches through a map.
 * Core and owned elements are in increasing global order; each halo
 * section is ordered by owner rank, then global order.  Map rows of local
 * elements in [0, exec) hold local indices of the target set (always
 * < its total); rows in [exec, total) hold -1 (never executed).  Dats
 * have `total` rows.  loom__set_size returns `owned` (the direct loop
 * bound), loom_set_size the global size.  Before partitioning and
 * without MPI: core == owned == exec == total == size. */
int loom__set_core(loom_set set);
int loom__set_owned(loom_set set);
int loom__set_exec(loom_set set);
int loom__set_total(loom_set set);
/* The declared (global) index of each of the `total` local elements (of
 * each element in storage order, after loom_renumber without MPI); NULL
 * when every element's index is its declared one (neither partitioned
 * nor renumbered).  Borrowed: valid until the next renumbering. */
const int *loom__set_global(loom_set set);

/* Halo exchange of one dat: its values at the set's halo elements (both
 * executed and non-executed halo) are received from their owners.  One
 * message per neighbour rank and direction, non-blocking (MPI_Isend /
 * MPI_Irecv), through send/receive buffers allocated at the dat's first
 * exchange and reused.  A dat whose halo is clean is not exchanged: begin
 * and end then do nothing.  Halos are clean after partitioning (every rank
 * had the global values); generated code calls loom__dat_dirty(d) after a
 * loop writes d (any mode but read), and loom__halo_end cleans it.
 * Collective in program order: every rank must call these for the same
 * dats in the same order (they do: the host program is the same).
 * begin twice without end is LOOM_ESTATE.  end without begin makes a stale
 * halo current on the spot, without overlap (loom__halo_unscheduled counts
 * those).  Without MPI: no-ops that return LOOM_OK. */
int loom__halo_begin(loom_dat dat);
int loom__halo_end(loom_dat dat);
void loom__dat_dirty(loom_dat dat);
int loom__dat_is_dirty(loom_dat dat); /* 1 dirty, 0 clean, -1 bad handle */
/* Messages sent by this rank's halo exchanges so far in this session
 * (for tests and diagnostics). */
long loom__halo_messages(void);
/* Exchanges made by a halo end without a begin, so far in this session. */
long loom__halo_unscheduled(void);
/* Lets MPI move the exchanges in flight along (MPI_Testall): called by
 * generated code between strips of core elements, so that messages too
 * large to be sent eagerly are transferred while the core computes. */
int loom__halo_progress(void);
/* Seconds this rank has spent waiting in loom__halo_end (printed per rank
 * at loom_exit under LOOM_DIAG=1, with the exchanges and messages). */
double loom__halo_wait(void);

/* Global reductions of a loop's global arguments, non-blocking
 * (MPI_Iallreduce in place): begin starts combining `count` values of
 * `type` at `values` across ranks, end waits; between them the values
 * must not be touched.  `values` holds this rank's contribution, which
 * should start from the identity of the operation (0 for inc; generated
 * code reduces into a local and then combines it with the user's
 * variable), since every rank's contribution is combined.  Sums of
 * floating-point values are not bit-identical to seq (MPI's order).
 * Without MPI: begin records, end returns LOOM_OK (values unchanged). */
enum { LOOM_REDUCE_INC = 1, LOOM_REDUCE_MIN = 2, LOOM_REDUCE_MAX = 3 };
typedef struct loom__reduction {
  void *values;
  int count;
  loom_type type;
  int op;
  int active; /* between begin and end */
  int copied; /* values is loom__reduce_start's copy */
  /* MPI_Request storage (opaque; an MPI_Request fits in it). */
  union {
    void *p;
    long long ll;
    double d;
    unsigned char bytes[32];
  } request;
} loom__reduction;
int loom__reduce_begin(loom__reduction *r, void *values, int count,
                       loom_type type, int op);
int loom__reduce_end(loom__reduction *r);
/* The same for a result needed later than the loop (the region's schedule
 * places the end where host code first uses the variable, dsl-spec/mpi.md):
 * start copies the `count` values (this rank's partial result) and starts
 * combining the copy; fold waits, folds the result into `var` — added for
 * inc, stored for min and max (whose partial results started from the
 * variable's value) — and frees the copy.  fold on a reduction that was not
 * started does nothing; starting one again before its fold is an error.
 * `r` must live until fold (the generated code makes it a static). */
int loom__reduce_start(loom__reduction *r, const void *values, int count,
                       loom_type type, int op);
int loom__reduce_fold(loom__reduction *r, void *var);

#ifdef __cplusplus
}
#endif

#endif /* LOOM_H */
