/*
 * core/reduce_fold.c — what loom__reduce_start and loom__reduce_fold share in
 * libloom and libloom_mpi: the size of a reduced type, and folding a
 * combined result into the user's variable (added for inc; stored for min
 * and max, whose partial results started from the variable's value).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/dist.h"

size_t loomrt_type_size(loom_type type) {
  switch (type) {
  case LOOM_DOUBLE: return sizeof(double);
  case LOOM_FLOAT: return sizeof(float);
  case LOOM_INT: return sizeof(int);
  case LOOM_UINT: return sizeof(unsigned);
  case LOOM_LONG: return sizeof(long);
  case LOOM_ULONG: return sizeof(unsigned long);
  case LOOM_LLONG: return sizeof(long long);
  case LOOM_ULLONG: return sizeof(unsigned long long);
  case LOOM_SHORT: return sizeof(short);
  case LOOM_USHORT: return sizeof(unsigned short);
  case LOOM_CHAR: return sizeof(char);
  case LOOM_SCHAR: return sizeof(signed char);
  case LOOM_UCHAR: return sizeof(unsigned char);
  default: return 0;
  }
}

#define ADD(T)                                                                 \
  for (int i = 0; i < count; i++)                                              \
    ((T *)var)[i] = (T)(((T *)var)[i] + ((const T *)values)[i]);               \
  break

void loomrt_reduce_fold(void *var, const void *values, int count, loom_type type,
                        int op) {
  if (op != LOOM_REDUCE_INC) {
    memcpy(var, values, (size_t)count * loomrt_type_size(type));
    return;
  }
  switch (type) {
  case LOOM_DOUBLE: ADD(double);
  case LOOM_FLOAT: ADD(float);
  case LOOM_INT: ADD(int);
  case LOOM_UINT: ADD(unsigned);
  case LOOM_LONG: ADD(long);
  case LOOM_ULONG: ADD(unsigned long);
  case LOOM_LLONG: ADD(long long);
  case LOOM_ULLONG: ADD(unsigned long long);
  case LOOM_SHORT: ADD(short);
  case LOOM_USHORT: ADD(unsigned short);
  case LOOM_CHAR: ADD(char);
  case LOOM_SCHAR: ADD(signed char);
  case LOOM_UCHAR: ADD(unsigned char);
  default: break;
  }
}

/* ---- start and fold (over loom__reduce_begin/end, MPI or not) ---------- */

int loom__reduce_start(loom__reduction *r, const void *values, int count,
                       loom_type type, int op) {
  if (!r)
    return loom_error_(LOOM_EINVAL, "loom__reduce_start: reduction is NULL");
  if (r->active)
    return loom_error_(LOOM_ESTATE, "loom__reduce_start: the reduction was started "
                       "again before its result was folded (loom__reduce_fold)");
  size_t bytes = (size_t)(count > 0 ? count : 0) * loomrt_type_size(type);
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    return loom_error_(LOOM_ENOMEM, "loom__reduce_start: out of memory");
  if (bytes)
    memcpy(copy, values, bytes);
  int status = loomrt_distribution.reduce_begin(r, copy, count, type, op);
  if (status != LOOM_OK) {
    free(copy);
    return status;
  }
  r->copied = 1;
  return LOOM_OK;
}

int loom__reduce_fold(loom__reduction *r, void *var) {
  if (!r || !r->active)
    return LOOM_OK;
  int status = loomrt_distribution.reduce_end(r);
  if (status == LOOM_OK && var)
    loomrt_reduce_fold(var, r->values, r->count, r->type, r->op);
  if (r->copied)
    free(r->values);
  r->values = NULL;
  r->copied = 0;
  return status;
}
