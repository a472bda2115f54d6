/*
 * mpi/reduce.c — global reductions of loops' global arguments
 * (loom__reduce_begin / loom__reduce_end), non-blocking.
 *
 * Design
 * ------
 * begin starts an MPI_Iallreduce in place on the caller's values (the
 * MPI_Request lives in the loom__reduction handle, which the generated
 * code keeps on its stack between begin and end), so whatever the
 * schedule puts between begin and end overlaps the reduction; end waits.
 * inc is MPI_SUM, min MPI_MIN, max MPI_MAX; each loom_type maps to its MPI
 * type (char to MPI_SIGNED_CHAR or MPI_UNSIGNED_CHAR as the platform's
 * char is signed or not: MPI_CHAR is not a reduction type).
 */
#include <limits.h>
#include <stdio.h>

#include "core/core.h"
#include "mpi/mpi.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(((loom__reduction *)0)->request),
               "loom__reduction's request storage is too small");

static MPI_Datatype mpi_type(loom_type type) {
  switch (type) {
  case LOOM_DOUBLE: return MPI_DOUBLE;
  case LOOM_FLOAT: return MPI_FLOAT;
  case LOOM_INT: return MPI_INT;
  case LOOM_UINT: return MPI_UNSIGNED;
  case LOOM_LONG: return MPI_LONG;
  case LOOM_ULONG: return MPI_UNSIGNED_LONG;
  case LOOM_LLONG: return MPI_LONG_LONG;
  case LOOM_ULLONG: return MPI_UNSIGNED_LONG_LONG;
  case LOOM_SHORT: return MPI_SHORT;
  case LOOM_USHORT: return MPI_UNSIGNED_SHORT;
  case LOOM_CHAR: return CHAR_MIN < 0 ? MPI_SIGNED_CHAR : MPI_UNSIGNED_CHAR;
  case LOOM_SCHAR: return MPI_SIGNED_CHAR;
  case LOOM_UCHAR: return MPI_UNSIGNED_CHAR;
  default: return MPI_DATATYPE_NULL;
  }
}

static MPI_Op mpi_op(int op) {
  return op == LOOM_REDUCE_INC   ? MPI_SUM
         : op == LOOM_REDUCE_MIN ? MPI_MIN
         : op == LOOM_REDUCE_MAX ? MPI_MAX
                                 : MPI_OP_NULL;
}

static const char *op_name(int op) {
  return op == LOOM_REDUCE_INC ? "inc" : op == LOOM_REDUCE_MIN ? "min" : "max";
}

static int loom__reduce_begin_body(loom__reduction *r, void *values, int count, loom_type type, int op);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__reduce_begin(loom__reduction *r, void *values, int count, loom_type type, int op) {
  return loomrt_leave(loom__reduce_begin_body(r, values, count, type, op));
}

static int loom__reduce_begin_body(loom__reduction *r, void *values, int count,
                       loom_type type, int op) {
  int status = loomrt_require_active("loom__reduce_begin");
  if (status == LOOM_OK)
    status = loomrt_mpi_usable("loom__reduce_begin");
  if (status != LOOM_OK)
    return status;
  if (!r)
    return loom_error_(LOOM_EINVAL, "loom__reduce_begin: reduction is NULL");
  if (count < 0 || (count > 0 && !values) || mpi_op(op) == MPI_OP_NULL ||
      mpi_type(type) == MPI_DATATYPE_NULL)
    return loom_error_(LOOM_EINVAL,
                       "loom__reduce_begin: bad arguments (count %d, type %d, "
                       "op %d)",
                       count, (int)type, op);
  r->values = values;
  r->count = count;
  r->type = type;
  r->op = op;
  MPI_Request *req = (MPI_Request *)(void *)&r->request;
  status = loomrt_mpi_check(MPI_Iallreduce(MPI_IN_PLACE, values, count,
                                           mpi_type(type), mpi_op(op),
                                           loomrt_mpi_comm(), req),
                            "MPI_Iallreduce (%s of %d values)", op_name(op),
                            count);
  r->active = status == LOOM_OK;
  return status;
}

static int loom__reduce_end_body(loom__reduction *r);

/* On failure, the caller leaves the communication (loomrt_leave). */
int loom__reduce_end(loom__reduction *r) {
  return loomrt_leave(loom__reduce_end_body(r));
}

static int loom__reduce_end_body(loom__reduction *r) {
  int status = loomrt_require_active("loom__reduce_end");
  if (status != LOOM_OK)
    return status;
  if (!r || !r->active)
    return loom_error_(LOOM_ESTATE,
                       "loom__reduce_end without loom__reduce_begin");
  r->active = 0;
  MPI_Request *req = (MPI_Request *)(void *)&r->request;
  char what[96];
  snprintf(what, sizeof what, "the wait of a reduction (%s of %d values)", op_name(r->op),
           r->count);
  status = loomrt_mpi_wait_until(1, req, what, loomrt_mpi_deadline());
  if (status != LOOM_ETIMEOUT_)
    return status;
  return loom_error_(LOOM_ESTATE, "a reduction (%s of %d values) did not complete within "
                     "%g s: not every rank reached it (every rank runs every loop, in the "
                     "same order: a loop skipped on some ranks? LOOM_COLLECTIVE_TIMEOUT "
                     "sets the wait)", op_name(r->op), r->count, loomrt_mpi_timeout());
}
