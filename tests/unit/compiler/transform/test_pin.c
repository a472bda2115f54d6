/*
 * test_pin.c — unit tests of the pin and pin_cse hints on mesh loops
 * (transform/pin.c): the fate they give a temporary, what fusion then
 * does with its producer, and a hint that cannot be honoured.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "fuse_harness.h"

Test(pin, pin_and_pin_cse_fates) {
  fused f;
  fuse_body(&f, "#pragma loom pin(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n"
                "#pragma loom par_loop(k_sum) over(edges) args(read: u, inc: gsum)\n", 0);
  const temp_info *t = temps_find(&f.fu->temps, temp_named(&f, "t"));
  cr_assert_eq(t->fate, TEMP_PINNED);
  cr_assert_eq(t->producer, loop_n(&f, 1));
  cr_assert_null(fusion_group(f.fu, loop_n(&f, 1)), "a pinned producer has no loop");
  run_free(&f.r);

  fuse_body(&f, "#pragma loom pin_cse(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n", 0);
  cr_assert_eq(temps_find(&f.fu->temps, temp_named(&f, "t"))->fate, TEMP_STORED);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 1)), fusion_group(f.fu, loop_n(&f, 2)),
                "pin_cse keeps the producer's loop apart");
  run_free(&f.r);
}

Test(pin, hint_that_cannot_be_honoured) {
  fused f;
  fuse_body(&f, "#pragma loom pin(t)\n"
                "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n", 0);
  cr_assert_eq(f.r.errors, 1);
  cr_assert(strstr(f.r.diags, "pin(t) cannot be honoured: w, which its producer k_one "
                              "reads, is written"), "%s", f.r.diags);
  run_free(&f.r);
}
