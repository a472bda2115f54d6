/*
 * core/hooks.h — the calls core/ makes into plan/ by name, and the hooks
 * mat/ installs at run time, declared here, at the bottom, so that core's
 * files include nothing from a higher folder.  The distribution (MPI or
 * one process) is not here: core calls it through one table
 * (core/dist.h).  plan/ is in both libraries; its session (plans and
 * renumbering begun and dropped) and the renumbering a loop's start
 * applies are the calls left, each allowed by name in
 * scripts/layers.conf.  mat/'s calls are not linked by name but
 * installed at run time (loomrt_at_session_exit here, loomrt_kind_ops in
 * core/core.h; both defined in core/core.c): mat/ is a library of its own
 * (libloom_petsc, libloom_mpi_petsc) above libloom, which never needs it
 * or PETSc.  plan/'s and mat/'s own internals are in plan/plan.h and
 * mat/mat.h.
 *
 * Included by the core files that make these calls (core.c, set.c), by
 * the files that define them (plan/plan.c, plan/renumber.c), and by the
 * files above that call them too (plan/ocplan.c, mpi/session.c; mat/petsc.c,
 * which installs PETSc's end, and mat/mat.c and mat/vec.c, which apply a
 * pending renumbering).
 */
#ifndef LOOM_CORE_HOOKS_H
#define LOOM_CORE_HOOKS_H

#include <stddef.h>

#include "loom_gen.h"

/* ---- sessions of plan/ (called by loom_init / loom_exit) --------------- */

void loomrt_plan_begin(int block_size); /* plan/plan.c: no plans, this size */
void loomrt_plan_drop_all(void);        /* plan/plan.c: frees all plans */
void loomrt_renumber_begin(int lazy);   /* plan/renumber.c: $LOOM_RENUMBER */

/* ---- renumbering (plan/renumber.c) ------------------------------------- */

/* Applies a pending $LOOM_RENUMBER=1: called where a loop starts
 * (loom__check_set, loom__plan_get).  LOOM_OK or a reported status. */
int loomrt_renumber_lazy(void);

/* ---- installed at run time (mat/) ---------------------------------------
 * mat/ needs PETSc and is a library of its own, which a program that
 * declares no matrix does not link: core cannot name mat/'s functions
 * (libloom would then need libloom_petsc), so mat/ installs them here
 * when it creates its first object of a session. */

/* (The retire and free functions of mat/'s objects are installed the same
 * way, with the registry: loomrt_kind_ops, core/core.h.) */
/* `hook` runs once at the end of this session's loom_exit, after every
 * object was retired (and, under MPI, before MPI's own end); installing it
 * again in the same session does nothing.  LOOM_OK, or LOOM_ENOMEM
 * (reported) when more than a few hooks were installed. */
int loomrt_at_session_exit(void (*hook)(void));

#endif /* LOOM_CORE_HOOKS_H */
