/*
 * domains.h — isl domains and access relations of mesh loops, and the
 * legality of fusing them.
 *
 * A mesh loop's domain is one-dimensional and parametric in the bounds of
 * its set's sections, which the runtime numbers as contiguous ranges: core
 * elements [0, c), owned [c, o), executed halo [o, x):
 *
 *     [c_cells, o_cells, x_cells] -> { update_4[e] : 0 <= e < x_cells }
 *
 * A direct access is the identity, `{ update_4[e] -> p_q[e] }`; an access
 * through a map is over-approximated by the whole target set,
 * `{ res_calc_3[e] -> p_q[f] : 0 <= f < x_cells }`; a global is one
 * element, `{ update_4[e] -> rms[0] }`.
 *
 * Two loops over the same set may run fused, element by element, when
 * every dependence between them — the pairs of accesses to one object of
 * which at least one writes, composed into a relation from the earlier
 * loop's elements to the later's — maps an element to itself: the fused
 * loop then computes, for each element, exactly what the two loops did,
 * and stays parallel.
 *
 * A loop over an extruded set (a column of layers over each element of a
 * base set) has a two-dimensional domain, an element's column and a
 * layer in its region, with the layers a parameter:
 *
 *     [c_prisms, o_prisms, x_prisms, L_prisms] ->
 *         { jump_4[e, l] : 0 <= e < x_prisms and 0 <= l < L_prisms - 1 }
 *
 * A direct access is the identity on both; an extruded map shifts the
 * layer by its slot's constant, exactly, and reaches the element's own
 * column (a map over the identity) or, over-approximated, any column of
 * its target: `{ jump_4[e, l] -> pq[e, l + 1] }`,
 * `{ avg_1[e, l] -> px[f, l + 1] : 0 <= f < x_lines }`.  Such loops may
 * run fused column by column when every dependence maps a column to
 * itself ({ P[e, l] -> L[e, m] }: each column runs one loop's layers,
 * then the next's), and layer by layer when it maps a cell to itself
 * ({ P[e, l] -> L[e, l] }: each layer runs every loop's kernel).
 */
#ifndef LOOMC_DOMAINS_H
#define LOOMC_DOMAINS_H

#include "ir/ir.h"

/* The isl text of a loop's domain (the form above). */
const char *domain_text(arena *a, const loop *lp);

/* The isl text of the access relation of argument `arg` of `lp`. */
const char *access_text(arena *a, const loop *lp, const loop_arg *arg);

/* Whether `later` may be fused, element by element, after every loop of
 * `earlier` (loop*, in order; all over later's set).  Returns 1, or 0 with
 * *why saying which accesses forbid it, or -1 on an isl error. */
int domains_fusable(arena *a, const loop_list *earlier, const loop *later, const char **why);

/* The same for loops over an extruded set, fused layer by layer (each
 * layer running the loops in order): 1 when every dependence stays in one
 * cell, 2 when each goes from a cell to itself or to a cell above it in
 * its column (later reads what earlier wrote below), 0 (with *why) when
 * one goes down, -1 on an isl error. */
int domains_layer_fusable(arena *a, const loop_list *earlier, const loop *later,
                          const char **why);

/* Pairs of loops over a set without layers are decided in closed form,
 * which is isl's answer for the relations above; with `always` set, isl
 * decides them too (the unit tests compare the two). */
void domains_decide_by_isl(int always);

/* Frees the isl context (created on first use). */
void domains_done(void);

#endif
