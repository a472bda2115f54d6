/*
 * cpu_avx512.c — what the output holds for one family of CPUs, x86-64
 * with AVX-512 (see codegen.h): the twins, compiled for AVX-512, of the
 * group functions that time their turns (under OpenMP, of their staged
 * turns in strips: emit_strip_twins), and the file's prologue and
 * epilogue (cg_prologue, cg_epilogue), which tune the file for the
 * twins, turn floating-point contraction off and quiet clang about
 * LOOM_IVDEP (loom_gen.h defines the macros both use).  A new
 * CPU's code goes in a file like this one, cpu_NAME.c: the shared walk
 * (codegen.c, cg_group_function) asks whether a group has a twin and has
 * it written.
 */
#include "emit/codegen.h"

#include <string.h>

#include "emit/cg_internal.h"
#include "transform/vectorize.h"

/* A group function that times its turns is written as NAME_body, always
 * inlined into NAME and into NAME_avx512, its twin compiled for AVX-512
 * (512-bit vectors): NAME runs the twin where the CPU has it and
 * $LOOM_AVX512 is not 0 (loom__twin_avx512), by loom_gen.h's
 * LOOM_TWIN(NAME, (args)).  Lanes gain most from the
 * gathers and wide vectors a build for the x86-64 baseline never uses, and
 * the tuner still times both turns in whichever runs.  The C compiler
 * decides whether twins exist (loom_gen.h's LOOM_TWINS: GCC on x86-64
 * building below AVX-512 (the baseline, -mavx2, ...), where a twin's code
 * computes the same bits: the file contracts no multiply-add;
 * -DLOOM_NO_TWINS: none).  GCC inlines a function into one with other
 * tuning only when forced, so the whole file is tuned as for a recent
 * AVX-512 CPU, under which its gathers pay.  A build for AVX-512 itself
 * (-march=native there, -march=x86-64-v4) needs no twin, but GCC's tuning
 * for such CPUs prefers 256-bit vectors, with which staged turns lost to
 * element by element: the file asks for 512 bits. */
int cg_has_twin(cg *g, const group *gr) {
  return g->be->twins && !g->be->twin_strips && cg_has_tuner(g, gr);
}

int cg_twins_strips(cg *g, const group *gr) {
  return g->be->twins && g->be->twin_strips && cg_has_tuner(g, gr);
}

/* Whether one of gr's turns in strips is written, with its twin, as a
 * function of its own. */
static int has_strip_twin(cg *g, const group *gr) {
  for (int i = 0; cg_twins_strips(g, gr) && i < gr->loops.len; i++)
    if (cg_strip_shareable(g, gr, gr->loops.items[i]))
      return 1;
  return 0;
}

/* Whether the output has a twin of gr's, of its function or its turns. */
static int has_twins(cg *g, const group *gr) { return cg_has_twin(g, gr) || has_strip_twin(g, gr); }

/* Whether the lanes' loop is written under LOOM_IVDEP, which tells the C
 * compiler that no lane (the kernel over one element of a strip) touches
 * what another writes (a backend's `simd` says so itself).  It holds for
 * every loop run as lanes: increments go to strip locals, one per element;
 * direct writes to the element's own row; globals are only read
 * (reductions are not staged, vectorize.c); and a dat written directly is
 * never also reached through a map (the front end's check_order). */
int cg_asserts_lanes(cg *g, const loop *lp) {
  return !g->be->simd && vectorize_lanes(g->tr->staged, lp);
}

static int lanes_only(cg *g, const group *gr) {
  for (int k = 0; k < gr->loops.len; k++)
    if (cg_asserts_lanes(g, gr->loops.items[k]))
      return 1;
  return 0;
}

/* ... or a loop over a column's layers under it (cg_asserts_layers). */
static int asserts_lanes(cg *g, const group *gr) {
  return lanes_only(g, gr) || cg_asserts_layers(g, gr);
}

/* Whether some group of the output has `has` (a twin, a tuner, lanes
 * under LOOM_IVDEP). */
static int any_group(cg *g, int (*has)(cg *g, const group *gr)) {
  for (int i = 0; i < transformed_ngroups(g->tr); i++)
    if (has(g, transformed_group(g->tr, i)))
      return 1;
  return 0;
}

/* LOOM_IVDEP (loom_gen.h): the lanes' loop has no dependence between
 * iterations.  clang's pragma also demands that the loop be vectorized,
 * and warns (-Wpass-failed, an error under -Werror) where it cannot be,
 * e.g. around a libm call: not a fault of the program, so not reported in
 * this file (the diagnostic state is pushed here and popped by
 * cg_epilogue). */
static void emit_ivdep_quiet(cg *g) {
  cg_line(g, "#if defined(__clang__)");
  cg_line(g, "#pragma clang diagnostic push");
  cg_line(g, "#pragma clang diagnostic ignored \"-Wpass-failed\"");
  cg_line(g, "#endif");
}

/* A loop that times its turns runs staged or element by element, and the
 * two must give the same bits (whichever the tuner keeps, on any rank):
 * a C compiler allowed to contract a * b + c into a fused multiply-add
 * (GCC in its GNU modes, clang by default, when the target has FMA) may
 * contract in one copy of a kernel and not in the other.  Measured: GCC
 * -march=native and clang -march=native builds of Airfoil gave different
 * q staged and element by element.  So contraction is off in the file
 * (GCC: between push_options and the pop cg_epilogue writes, which the
 * twins' tuning shares). */
static void emit_contract_off(cg *g) {
  cg_line(g, "#if defined(__clang__) || defined(__INTEL_COMPILER)");
  cg_line(g, "#pragma STDC FP_CONTRACT OFF");
  cg_line(g, "#elif defined(__GNUC__)");
  cg_line(g, "#pragma GCC push_options /* popped at the end of the file */");
  cg_line(g, "#pragma GCC optimize(\"fp-contract=off\")");
  cg_line(g, "#endif");
}

/* The file's tuning where it has twins (see above; loom_gen.h defines
 * LOOM_TWINS and the twins' macros under the same condition), after
 * emit_contract_off's push.  A build tuned for AMD's Zen cores keeps its
 * own tuning: tuned for the twins' CPU, GCC 12 reads through maps with
 * AVX2 gathers, which Zen runs slowly (Airfoil's staged update + adt_calc
 * built with -march=native on Zen 3: 15.6 ms a call with them, 11.4 ms
 * without, 10.6 ms in the baseline build). */
static void emit_twins_tuning(cg *g) {
  cg_line(g, "#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && \\");
  cg_line(g, "    defined(__x86_64__) && !defined(__AVX512F__) && !defined(LOOM_NO_TWINS)");
  cg_line(g, "#if !(defined(__tune_znver1__) || defined(__tune_znver2__) || \\");
  cg_line(g, "      defined(__tune_znver3__) || defined(__tune_znver4__))");
  cg_line(g, "#pragma GCC target(\"tune=sapphirerapids\") /* the twins' CPU; Zen's own tuning stands */");
  cg_line(g, "#endif");
  cg_line(g, "#elif defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)");
  cg_line(g, "#pragma GCC target(\"prefer-vector-width=512\") /* built for AVX-512: all of it */");
  cg_line(g, "#endif");
}

/* One comment for what follows: the file's floating-point contraction
 * off, its twins, LOOM_IVDEP. */
void cg_prologue(cg *g) {
  const int twins = any_group(g, has_twins), tuned = any_group(g, cg_has_tuner),
            ivdep = any_group(g, asserts_lanes);
  if (!tuned && !twins && !ivdep)
    return;
  const char *text = "No multiply-add is contracted: loops timed staged and element by "
                     "element give the same bits.";
  if (twins)
    text = arena_printf(g->arena, "%s GCC below AVX-512 (no -DLOOM_NO_TWINS): LOOM_TWIN(NAME, "
                        "args), from loom_gen.h, runs NAME_avx512%s where the CPU has it, else "
                        "NAME_body.",
                        text, g->be->twin_strips ? " (a staged turn in a strip)" : "");
  if (any_group(g, lanes_only))
    text = arena_printf(g->arena, "%s LOOM_IVDEP: lanes touch nothing another writes.", text);
  if (any_group(g, cg_asserts_layers))
    text = arena_printf(g->arena, "%s LOOM_IVDEP: a column's layers touch nothing another "
                        "writes.", text);
  cg_emit_wrapped_comment(g, text);
  emit_contract_off(g);
  if (twins)
    emit_twins_tuning(g);
  if (ivdep)
    emit_ivdep_quiet(g);
}

/* What cg_prologue pushed, popped after the user's last line. */
void cg_epilogue(cg *g) {
  if (!any_group(g, cg_has_tuner) && !any_group(g, has_twins) && !any_group(g, asserts_lanes))
    return;
  const program *p = g->prog;
  if (p->len && p->text[p->len - 1] != '\n')
    cg_put(g, "\n");
  cg_line_self(g);
  if (any_group(g, asserts_lanes)) { /* one chain: clang's diagnostics, or GCC's options */
    cg_line(g, "#if defined(__clang__)");
    cg_line(g, "#pragma clang diagnostic pop");
    cg_line(g, "#elif defined(__GNUC__) && !defined(__INTEL_COMPILER)");
  } else {
    cg_line(g, "#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)");
  }
  cg_line(g, "#pragma GCC pop_options");
  cg_line(g, "#endif");
}

/* The twin and FN itself, after FN_body (objs: its parameters; with
 * g->state_params, the per-loop state before them). */
static void emit_twins(cg *g, const group *gr, const vec *objs, const char *fn) {
  vec decls = {0}, names = {0}, args = {0};
  if (g->state_params)
    cg_state_of(g, gr, objs, &decls, &names, &args);
  const vec *state = g->state_params ? &decls : NULL;
  const char *body = arena_printf(g->arena, "%s_body", fn);
  cg_line(g, "#if LOOM_TWINS");
  cg_emit_signature(g, gr, state, objs, "static LOOM_TWIN_TARGET void",
                    arena_printf(g->arena, "%s_avx512", fn));
  cg_line(g, "{");
  cg_line(g, "  %s;", cg_forward(g, body, &names, objs, 2));
  cg_line(g, "}");
  cg_line(g, "#endif");
  cg_line(g, "%s", "");
  cg_emit_signature(g, gr, state, objs, g->state_params ? "static void" : CG_ENTRY_LEAD, fn);
  cg_line(g, "{");
  const char *args1 = cg_forward(g, "", &names, objs, -1);
  if (strlen("  LOOM_TWIN(, );") + strlen(fn) + strlen(args1) <= WRAP) {
    cg_line(g, "  LOOM_TWIN(%s, %s);", fn, args1);
  } else { /* the arguments aligned with the name */
    cg_line(g, "  LOOM_TWIN(%s,", fn);
    cg_line(g, "            %s);", cg_forward(g, "", &names, objs, (int)strlen("  LOOM_TWIN(")));
  }
  cg_line(g, "}");
  cg_line(g, "%s", "");
}

/* A strip function's twin, after FN_body; the loops' parallel regions run
 * one or the other by LOOM_TWIN(FN, (args)). */
static void emit_strip_twins(cg *g, vec *params, vec *names, const char *fn) {
  const char *lead = "static LOOM_TWIN_TARGET void";
  cg_line(g, "#if LOOM_TWINS");
  cg_line(g, "%s %s", lead,
          cg_join(g, arena_printf(g->arena, "%s_avx512", fn), params, (int)strlen(lead) + 1));
  cg_line(g, "{");
  cg_line(g, "  %s;", cg_join(g, arena_printf(g->arena, "%s_body", fn), names, 2));
  cg_line(g, "}");
  cg_line(g, "#endif");
  cg_line(g, "%s", "");
}

const cg_cpu cg_cpu_avx512 = {"LOOM_TWIN_INLINE", emit_twins, emit_strip_twins, "LOOM_TWIN"};
