/*
 * test_fuse.c — unit tests of the fusion stage (transform/fuse.c): which
 * loops are grouped, and what becomes of each temporary without a hint
 * (contracted, stored, sharing storage).
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "fuse_harness.h"

/* ---- groups ------------------------------------------------------------------ */

Test(fuse, groups_follow_legality_and_no_fuse) {
  const char *body = "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                     "#pragma loom par_loop(k_w) over(edges) args(read: t, write: u)\n"
                     "#pragma loom par_loop(k_sum) over(edges) args(read: u, inc: gsum)\n"
                     "#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: y)\n";
  fused f;
  fuse_body(&f, body, 0);
  cr_assert_eq(f.fu->groups.len, 2);
  const group *g = fusion_group(f.fu, loop_n(&f, 1));
  cr_assert_eq(g->loops.len, 3);
  cr_assert_eq(g->anchor, loop_n(&f, 3), "a group runs where its last loop stood");
  cr_assert_eq(fusion_group(f.fu, loop_n(&f, 2)), g);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 4)), g);
  run_free(&f.r);
  fuse_body(&f, body, 1);
  cr_assert_eq(f.fu->groups.len, 4, "--no-fuse: one group per loop");
  run_free(&f.r);
}

Test(fuse, host_code_between_blocks_fusion) {
  fused f;
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "  gsum = 1.0;\n"
                "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: w, write: u)\n"
                "  loom_dat_fetch(u, xs, 0);\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: u, write: w)\n", 0);
  /* k_one and k_sum: the host assignment of gsum is independent of k_one,
   * which moves down past it; k_w(u) joins; the last loop reads u after
   * the fetch, which needs k_w(u) first: it cannot join */
  const group *g = fusion_group(f.fu, loop_n(&f, 1));
  cr_assert_eq(g->loops.len, 3);
  cr_assert_eq(g->anchor, loop_n(&f, 3));
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 4)), g);
  run_free(&f.r);
}

Test(fuse, loops_move_up_past_what_they_do_not_touch) {
  fused f;
  /* k_w(t -> w) does not touch u: it moves up past the fetch of u and the
   * group runs where k_w(u) stood; k_sum cannot move down past the host
   * read of gsum, so k_w(w -> v) moves up to it */
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: w, write: u)\n"
                "  loom_dat_fetch(u, xs, 0);\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n"
                "#pragma loom par_loop(k_sum) over(nodes) args(read: x, inc: gsum)\n"
                "  xs[0] = gsum;\n"
                "#pragma loom par_loop(k_copy) over(nodes) args(read: x, write: y)\n", 0);
  const group *g = fusion_group(f.fu, loop_n(&f, 1));
  cr_assert_eq(g->loops.len, 3);
  cr_assert_eq(fusion_group(f.fu, loop_n(&f, 3)), g);
  cr_assert_eq(g->anchor, loop_n(&f, 2), "the call stands where k_w(u) stood");
  const group *h = fusion_group(f.fu, loop_n(&f, 4));
  cr_assert_eq(h->loops.len, 2);
  cr_assert_eq(h->anchor, loop_n(&f, 4), "k_sum cannot move past the read of gsum");
  cr_assert_eq(fusion_group(f.fu, loop_n(&f, 5)), h);
  run_free(&f.r);
}

Test(fuse, a_loop_does_not_move_up_past_a_declaration_it_names) {
  fused f;
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "  loom_dat_fetch(t, xs, 0);\n"
                "  loom_dat v = loom_decl_dat(edges, 1, double, xs, \"v\");\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: w, write: v)\n", 0);
  cr_assert_neq(fusion_group(f.fu, loop_n(&f, 1)), fusion_group(f.fu, loop_n(&f, 2)));
  run_free(&f.r);
}

/* ---- temporaries ------------------------------------------------------------- */

Test(fuse, temporaries_contracted_stored_shared) {
  fused f;
  /* t: producer and consumer fused, each reading its own element */
  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_w) over(edges) args(read: t, write: w)\n", 0);
  cr_assert_eq(temps_find(&f.fu->temps, temp_named(&f, "t"))->fate, TEMP_CONTRACTED);
  run_free(&f.r);

  fuse_body(&f, "#pragma loom par_loop(k_one) over(edges) args(read: w, write: t)\n"
                "#pragma loom par_loop(k_scatter) over(edges) args(read: t, "
                "inc: x[e2n_map[0]], x[e2n_map[1]])\n"
                "#pragma loom par_loop(k_edge) over(edges) args(read: x[e2n_map[0]], "
                "x[e2n_map[1]], write: u)\n"
                "#pragma loom par_loop(k_scatter) over(edges) args(read: u, "
                "inc: x[e2n_map[0]], x[e2n_map[1]])\n", 1);
  /* without fusion both are stored; u is written after t's last use */
  const temp_info *t = temps_find(&f.fu->temps, temp_named(&f, "t"));
  const temp_info *u = temps_find(&f.fu->temps, temp_named(&f, "u"));
  cr_assert_eq(t->fate, TEMP_STORED);
  cr_assert_eq(u->fate, TEMP_STORED);
  cr_assert_eq(u->shares, t->t, "u's lifetime starts after t's last use");
  cr_assert_eq(u->first, loop_n(&f, 3));
  cr_assert_null(t->shares);
  run_free(&f.r);
}
