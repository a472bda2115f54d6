/*
 * narrow.h — a stored temporary keeps only the components its readers
 * name.
 *
 * OP2 aero's element matrices (p_K, 16 doubles per cell) are written
 * whole by res_calc, but spMV, their only reader, names 10 of the 16 (the
 * upper triangle of a symmetric matrix).  A temporary is the program's
 * own storage — the host never sees it — so loomc may store only what is
 * read: fewer bytes per element for the loops that stream it, and the
 * values read are the values written, so results are bit-identical.
 *
 * A temporary is narrowed when it is stored (not contracted or pinned,
 * and sharing no storage), nothing but par_loops use it (no host code, no
 * sync, no call the loops are not seen through), and every loop naming
 * it is a mesh loop that names it once, directly (`t`, not `t[map[i]]`),
 * to read or to write, with a plain pointer parameter; and its readers'
 * kernels name its components with constant subscripts only (`K[5]`,
 * `*K`; loop_arg.read_mask), which together leave at least one component
 * out.  Writers get the element's values in a local of the full dim (the
 * kept components copied in) and store the kept ones after the kernel;
 * readers get a local with the kept components copied in and the others
 * 0.  At run time the temporary's storage is reallocated at the kept dim
 * by the first loop that names it (loom__dat_narrow), before any value is
 * written.  Each narrowing is noted in the DAG of a region using it
 * (--report).
 */
#ifndef LOOMC_NARROW_H
#define LOOMC_NARROW_H

#include "transform/fuse.h"

/* A stored temporary narrowed: the components kept, one bit each, and
 * how many. */
typedef struct narrowing {
  const obj *t;
  unsigned long long kept;
  int nkept;
} narrowing;

typedef LIST(narrowing *) narrowing_list;

/* Which of fu's stored temporaries are narrowed, noted in t's DAGs.
 * --no-narrow: none are. */
narrowing_list narrow(const translation *t, const fusion *fu, arena *a);

/* t's narrowing in narrowed (narrowing*), or NULL: t is stored whole, or
 * is no stored temporary. */
const narrowing *narrow_find(const narrowing_list *narrowed, const obj *t);
/* The components of t stored when it is narrowed, else 0. */
int narrow_kept(const narrowing_list *narrowed, const obj *t);

#endif
