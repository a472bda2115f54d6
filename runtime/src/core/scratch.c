/*
 * core/scratch.c — loom__scratch(): per-slot growable buffers for generated
 * code (per-block partial results of reductions, and the like).
 *
 * Design
 * ------
 * A fixed table of LOOMRT_SCRATCH_SLOTS buffers, each with its capacity.
 * A request for more than the capacity grows the buffer with realloc (the
 * old contents are kept up to the old capacity; the pointer may change), to
 * at least the request and at least twice the old capacity, so a slowly
 * growing request costs amortised O(1) reallocations.  A request of 0
 * bytes still returns a usable non-NULL pointer (generated code tests the
 * result against NULL for failure).  loom_exit() frees every slot.
 */
#include <stdlib.h>

#include "core/core.h"

enum { LOOMRT_SCRATCH_SLOTS = 16 };

static struct {
  void *data;
  size_t capacity;
} slots[LOOMRT_SCRATCH_SLOTS];

void *loom__scratch(int slot, size_t bytes) {
  if (loomrt_require_active("loom__scratch") != LOOM_OK)
    return NULL;
  if (slot < 0 || slot >= LOOMRT_SCRATCH_SLOTS) {
    loom_error_(LOOM_EINVAL, "loom__scratch: slot %d is outside [0, %d)",
                slot, (int)LOOMRT_SCRATCH_SLOTS);
    return NULL;
  }
  if (slots[slot].data && bytes <= slots[slot].capacity)
    return slots[slot].data;
  size_t capacity = bytes ? bytes : 1;
  if (slots[slot].capacity <= SIZE_MAX / 2 &&
      capacity < 2 * slots[slot].capacity)
    capacity = 2 * slots[slot].capacity;
  void *grown = loomrt_realloc(LOOM_MEM_SCRATCH, slots[slot].data, capacity);
  if (!grown && capacity > bytes && bytes > 0) /* retry without slack */
    grown = loomrt_realloc(LOOM_MEM_SCRATCH, slots[slot].data, capacity = bytes);
  if (!grown) {
    loom_error_(LOOM_ENOMEM,
                "loom__scratch: out of memory growing slot %d to %zu bytes",
                slot, bytes);
    return NULL;
  }
  slots[slot].data = grown;
  slots[slot].capacity = capacity;
  return grown;
}

void loomrt_scratch_free_all(void) {
  for (int i = 0; i < LOOMRT_SCRATCH_SLOTS; i++) {
    loomrt_free(slots[i].data);
    slots[i].data = NULL;
    slots[i].capacity = 0;
  }
}
