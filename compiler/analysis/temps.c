/*
 * temps.c — looking up the fates of temporaries (see temps.h).
 */
#include "analysis/temps.h"

const temp_info *temps_find(const temp_info_list *temps, const obj *t) {
  for (int i = 0; temps && i < temps->len; i++) {
    const temp_info *ti = temps->items[i];
    if (ti->t == t)
      return ti;
  }
  return NULL;
}

int temps_pinned_away(const temp_info_list *temps, const loop *lp) {
  for (int i = 0; temps && i < temps->len; i++) {
    const temp_info *ti = temps->items[i];
    if (ti->fate == TEMP_PINNED && ti->producer == lp)
      return 1;
  }
  return 0;
}

