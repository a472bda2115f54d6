/*
 * test_strtab.c — unit tests of the table from strings to pointers
 * (util/strtab.c): a key's slot is created once and found again, across
 * the table's growth, and every value goes to the free callback once.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/strtab.h"

static int freed;
static void count_free(void *v) {
  freed++;
  free(v);
}

Test(strtab, slots_found_again_across_growth) {
  strtab t = {0};
  char key[32];
  for (int i = 0; i < 1000; i++) {
    snprintf(key, sizeof key, "key %d", i);
    int fresh;
    strtab_slot *s = strtab_slot_of(&t, key, &fresh);
    cr_assert(s && fresh, "%s: a new slot", key);
    int *v = malloc(sizeof *v);
    *v = i;
    s->value = v;
  }
  for (int i = 999; i >= 0; i--) {
    snprintf(key, sizeof key, "key %d", i);
    int fresh;
    strtab_slot *s = strtab_slot_of(&t, key, &fresh);
    cr_assert(s && !fresh && *(int *)s->value == i, "%s: found again", key);
  }
  cr_assert_eq(t.used, 1000);
  freed = 0;
  strtab_free(&t, count_free);
  cr_assert_eq(freed, 1000);
  cr_assert(t.slots == NULL && t.used == 0);
}
