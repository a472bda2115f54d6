/*
 * core/hooks.h — what the layers above core install at run time for
 * core to call: core names no function above it (scripts/check-layers.py
 * checks calls as well as includes).  A layer that keeps state per
 * session (plan/: its plans; mat/: PETSc) takes the session's settings at
 * its first call in it (loomrt_session, core/core.h) and installs its end
 * here; mat/ also installs the retire and free of its objects
 * (loomrt_kind_ops, core/core.h).  mat/ is a library of its own
 * (libloom_petsc, libloom_mpi_petsc) above libloom, which never needs it
 * or PETSc.  The distribution (MPI or one process) is core/dist.h's
 * table.
 *
 * Included by core/core.c, which defines it, and by the files that
 * install hooks: plan/cache.c and mat/petsc.c.
 */
#ifndef LOOM_CORE_HOOKS_H
#define LOOM_CORE_HOOKS_H

#include <stddef.h>

#include "loom_gen.h"

/* ---- installed at run time (plan/, mat/) -------------------------------
 * plan/ installs the plans' end at its first call of a session; mat/
 * needs PETSc and is a library of its own, which a program that declares
 * no matrix does not link: core cannot name mat/'s functions (libloom
 * would then need libloom_petsc), so mat/ installs them here when it
 * creates its first object of a session. */

/* (The retire and free functions of mat/'s objects are installed the same
 * way, with the registry: loomrt_kind_ops, core/core.h.) */
/* `hook` runs once at the end of this session's loom_exit, after every
 * object was retired (and, under MPI, before MPI's own end); installing it
 * again in the same session does nothing.  LOOM_OK, or LOOM_ENOMEM
 * (reported) when more than a few hooks were installed. */
int loomrt_at_session_exit(void (*hook)(void));

#endif /* LOOM_CORE_HOOKS_H */
