/*
 * core/hooks.h — the calls core/ makes into the layers above it (plan/,
 * mpi/, mat/), declared here, at the bottom, so that core's files include
 * nothing from a higher folder: core owns the interface, the layer named
 * beside each declaration implements it (without MPI, core/nompi.c stands
 * in for mpi/).  mat/'s calls are not linked by name but installed at run
 * time (loomrt_at_session_exit here, loomrt_kind_ops in core/core.h; both
 * defined in core/core.c): mat/ is a library of its own (libloom_petsc,
 * libloom_mpi_petsc) above libloom, which never needs it or PETSc.  Nothing else goes here: plan/'s, mpi/'s and mat/'s own
 * internals are in plan/plan.h, mpi/mpi.h, mpi/partition.h and mat/mat.h.
 *
 * Included by the core files that make these calls (core.c, set.c,
 * dat.c, const.c), by the files that define them (plan/plan.c,
 * plan/renumber.c, mpi/session.c, mpi/halo.c, mpi/fail.c, mpi/dist.c,
 * core/nompi.c), and by the files above that call them too (plan/ocplan.c;
 * mat/petsc.c, which installs PETSc's end, and mat/mat.c and mat/vec.c,
 * which apply a pending renumbering).
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

/* ---- distributed declarations (mpi/dist.c; core/nompi.c) --------------- */

/* Agrees on `status` (a slice declaration's own checks) over the ranks
 * and checks that the slices of set `name` tile [0, gsize) in rank order
 * (core/nompi.c: the one slice is the whole set).  Collective. */
int loomrt_slice_check(int status, int gsize, int offset, int count,
                       const char *name);

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

#ifdef LOOM_MPI
/* ---- MPI hooks (mpi/; only in libloom_mpi) ----------------------------- */
/* From loom_init and loom_exit (mpi/session.c). */
int loomrt_mpi_init(int *argc, char ***argv);
/* loom_exit's first step: the ranks agree that they are all leaving
 * (mpi/agree.c), before any collective of the end. */
int loomrt_mpi_exit_agree(void);
void loomrt_mpi_exit(void);
/* The default error handler's end under MPI: prints "loom: rank R: error:
 * MESSAGE" and calls MPI_Abort (exit(1) when MPI is not running;
 * mpi/session.c). */
void loomrt_mpi_abort(const char *message);
/* loom_dat_fetch of a partitioned dat: gathers it on every rank
 * (mpi/halo.c). */
int loomrt_mpi_fetch(loom_dat dat, void *buf, size_t bytes);
/* LOOM_OK when `bytes` at data are the same on every rank (collective);
 * otherwise LOOM_EMISMATCH on every rank, naming constant `name`
 * (mpi/session.c). */
int loomrt_mpi_same(const void *data, size_t bytes, int dim, const char *name);
/* This rank leaves the program's communication after the error `message`
 * (mpi/fail.c): the session fails, the other ranks are told. */
void loomrt_mpi_error_raised(const char *message);
#endif

#endif /* LOOM_CORE_HOOKS_H */
