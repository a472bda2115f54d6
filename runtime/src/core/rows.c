/*
 * core/rows.c — rows of a dat or a map copied between the declared order
 * and the storage order (core.h): at declaration and fetch (core/), and
 * when the mesh is renumbered (plan/renumber.c).
 */
#include <string.h>

#include "core/core.h"

/* Row copies with the row size a constant for the common sizes, so that
 * memcpy becomes a few moves instead of a call. */
#define LOOMRT_ROWS(dst_row, src_row)                                          \
  do {                                                                         \
    char *d = dst;                                                             \
    const char *s = src;                                                       \
    switch (row_bytes) {                                                       \
    case 4:                                                                    \
      LOOMRT_ROWS_OF(4, dst_row, src_row);                                     \
      break;                                                                   \
    case 8:                                                                    \
      LOOMRT_ROWS_OF(8, dst_row, src_row);                                     \
      break;                                                                   \
    case 16:                                                                   \
      LOOMRT_ROWS_OF(16, dst_row, src_row);                                    \
      break;                                                                   \
    case 32:                                                                   \
      LOOMRT_ROWS_OF(32, dst_row, src_row);                                    \
      break;                                                                   \
    default:                                                                   \
      LOOMRT_ROWS_OF(row_bytes, dst_row, src_row);                             \
    }                                                                          \
  } while (0)
#define LOOMRT_ROWS_OF(size, dst_row, src_row)                                 \
  for (int i = 0; i < n; i++)                                                  \
  memcpy(d + (size_t)(dst_row) * (size), s + (size_t)(src_row) * (size), (size))

void loomrt_scatter_rows(void *dst, const void *src, size_t row_bytes, int n,
                         const int *new_of_old) {
  LOOMRT_ROWS(new_of_old[i], i);
}

void loomrt_gather_rows(void *dst, const void *src, size_t row_bytes, int n,
                        const int *new_of_old) {
  LOOMRT_ROWS(i, new_of_old[i]);
}
