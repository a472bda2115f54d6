/*
 * test_schedule.c — unit tests of the schedule (transform/schedule.c):
 * with MPI, sends early and receives late; program order otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <criterion/criterion.h>

#include "dag_harness.h"

/* ---- the schedule ---------------------------------------------------------------- */

static int pos(const dag *d, const char *label) {
  for (int i = 0; i < d->order.len; i++)
    if (strcmp(((const comp *)d->order.items[i])->label, label) == 0 ||
        (strcmp(label, "host(") == 0 && !((const comp *)d->order.items[i])->mesh &&
         strncmp(((const comp *)d->order.items[i])->label, label, 5) == 0))
      return i;
  cr_assert_fail("'%s' not scheduled", label);
  return -1;
}

static int topological(const dag *d) {
  for (int i = 0; i < d->order.len; i++) {
    const comp *c = d->order.items[i];
    for (int p = 0; p < c->preds.len; p++) {
      int found = 0;
      for (int j = 0; j < i; j++)
        found |= d->order.items[j] == c->preds.items[p];
      if (!found)
        return 0;
    }
  }
  return 1;
}

Test(schedule, sends_early_receives_late) {
  run r;
  const dag *d = dag_of(&r,
      "  loom_dat w2 = loom_decl_temp(edges, 1, double, \"w2\");\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w2)\n"
      "#pragma loom par_loop(k_edge) over(edges) "
      "args(read: x[e2n_map[0]], x[e2n_map[1]], write: w)\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w2, write: w2)\n"
      "  xs[0] = gsum;\n",
      "mpi");
  cr_expect(topological(d));
  cr_expect_eq(d->order.len, d->comps.len);
  cr_expect_eq(pos(d, "HaloSend(x)"), PRELUDE,
               "the send waits only for the mesh (it partitions it): right after it");
  cr_expect_eq(pos(d, "HaloRecv(x)") + 1, pos(d, "k_edge[owned]"), "right before its consumer");
  cr_expect_eq(pos(d, "ReductionBegin(gsum)"), pos(d, "k_sum[core,owned]") + 1);
  cr_expect_eq(pos(d, "ReductionEnd(gsum)") + 1, pos(d, "host("), "after the second k_copy");
  cr_expect(noted(d, "HaloSend(x) for k_edge moved before k_copy[core,owned]"));
  cr_expect(noted(d, "ReductionEnd(gsum) for k_sum moved after k_copy[core,owned]"));
  run_free(&r);
}

Test(schedule, keeps_program_order_otherwise) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n"
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "  xs[0] = gsum;\n",
      "seq");
  cr_assert_eq(d->order.len, PRELUDE + 5);
  for (int i = 0; i < PRELUDE + 5; i++)
    cr_expect_eq(d->order.items[i], d->comps.items[i]);
  cr_expect_eq(d->notes.len, 0);
  run_free(&r);
}

Test(schedule, end_with_no_consumer_goes_last) {
  run r;
  const dag *d = dag_of(&r,
      "#pragma loom par_loop(k_sum) over(edges) args(read: w, inc: gsum)\n"
      "#pragma loom par_loop(k_copy) over(edges) args(read: w, write: w)\n",
      "mpi");
  /* the final return reads gsum: the end waits until just before it */
  cr_expect_eq(pos(d, "ReductionEnd(gsum)") + 1, pos(d, "host("));
  cr_expect(pos(d, "k_copy[core,owned]") < pos(d, "ReductionEnd(gsum)"));
  run_free(&r);
}
