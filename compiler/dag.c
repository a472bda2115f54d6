/*
 * dag.c — lazy computations, their sections and dependences (see dag.h).
 */
#include "dag.h"

#include <stdarg.h>

#include <string.h>

static const char *const section_names[SEC_COUNT] = {
    "CORE", "OWNED", "HALOEXEC", "HALOIMPORT", "NET", "VALUE", "PARTIAL", "ORDER"};

enum {
  ALL_DAT = (1u << SEC_CORE) | (1u << SEC_OWNED) | (1u << SEC_HALOEXEC) |
            (1u << SEC_HALOIMPORT),
  CO = (1u << SEC_CORE) | (1u << SEC_OWNED),
  COX = CO | (1u << SEC_HALOEXEC),
  OX = (1u << SEC_OWNED) | (1u << SEC_HALOEXEC),
};

typedef struct builder {
  arena *arena;
  int mpi;
  dag *d;
} builder;

/* ---- computations ------------------------------------------------------- */

static comp *new_comp(builder *b, const char *label, srcloc loc) {
  comp *c = arena_alloc(b->arena, sizeof *c);
  c->label = label;
  c->loc = loc;
  vec_push(b->arena, &b->d->comps, c);
  c->id = b->d->comps.len;
  return c;
}

static void add(arena *a, vec *set, const obj *o, unsigned sections) {
  if (!sections)
    return;
  for (int i = 0; i < set->len; i++) {
    access *x = set->items[i];
    if (x->o == o) {
      x->sections |= sections;
      return;
    }
  }
  access *x = arena_alloc(a, sizeof *x);
  x->o = o;
  x->sections = sections;
  vec_push(a, set, x);
}

static int reads_mode(access_mode m) { return m != MODE_WRITE; }
static int writes_mode(access_mode m) { return m != MODE_READ; }
static int is_mapped(const loop_arg *a) {
  return a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL;
}

static int loop_is_indirect(const loop *lp) {
  for (int i = 0; i < lp->nargs; i++)
    if (is_mapped(&lp->args[i]))
      return 1;
  return 0;
}

/* The accesses of one part of a loop: `part` is CO (not split), or
 * 1<<SEC_CORE / 1<<SEC_OWNED for the two halves of a split loop. */
static void loop_accesses(builder *b, comp *c, const loop *lp, unsigned part) {
  int split = part != CO;
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    if (a->kind == ARG_IDX)
      continue;
    if (a->kind == ARG_GLOBAL) {
      unsigned s = arg_is_reduction(a) && b->mpi ? 1u << SEC_PARTIAL : 1u << SEC_VALUE;
      add(b->arena, &c->reads, a->obj, s);
      if (arg_is_reduction(a))
        add(b->arena, &c->writes, a->obj, s);
      continue;
    }
    unsigned r = part, w = part;
    if (is_mapped(a)) {
      /* a core element's neighbours are core or owned; an owned one's may
       * be in the executed halo */
      r = !split ? COX : part == (1u << SEC_CORE) ? CO : COX;
      w = !split ? COX : part == (1u << SEC_CORE) ? (1u << SEC_CORE) : OX;
    }
    if (reads_mode(a->mode))
      add(b->arena, &c->reads, a->obj, r);
    if (writes_mode(a->mode))
      add(b->arena, &c->writes, a->obj, w);
  }
}

/* The dats a loop writes, "t1,t2". */
static const char *written(arena *a, const loop *lp) {
  char buf[256] = "";
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *x = &lp->args[i];
    if (x->obj && writes_mode(x->mode) && x->kind != ARG_GLOBAL &&
        !strstr(buf, x->name) && strlen(buf) + strlen(x->name) + 2 < sizeof buf) {
      if (buf[0])
        strcat(buf, ",");
      strcat(buf, x->name);
    }
  }
  return arena_strdup(a, buf);
}

/* A loop's label: its kernel, and the dats it writes when the region has
 * another loop of the same kernel writing other dats: zero(t1), zero(t2). */
static const char *loop_name(builder *b, const region *r, const loop *lp) {
  const char *mine = written(b->arena, lp);
  for (int i = 0; i < r->items.len; i++) {
    const item *it = r->items.items[i];
    if (it->kind == ITEM_LOOP && it->lp != lp && strcmp(it->lp->kernel, lp->kernel) == 0 &&
        strcmp(written(b->arena, it->lp), mine) != 0)
      return arena_printf(b->arena, "%s(%s)", lp->kernel, mine);
  }
  return lp->kernel;
}

/* Dats a loop reads through a map (read or rw): their halos are
 * exchanged.  A dat only incremented through a map needs no exchange
 * before the loop: each rank computes its contributions. */
static vec halo_dats(builder *b, const loop *lp) {
  vec v = {0};
  for (int i = 0; i < lp->nargs; i++) {
    const loop_arg *a = &lp->args[i];
    int dup = 0;
    for (int j = 0; j < v.len; j++)
      dup |= v.items[j] == a->obj;
    if (is_mapped(a) && (a->mode == MODE_READ || a->mode == MODE_RW) && !dup)
      vec_push(b->arena, &v, a->obj);
  }
  return v;
}

static void halo_comps(builder *b, const vec *dats, srcloc loc, int recv) {
  for (int i = 0; i < dats->len; i++) {
    const obj *o = dats->items[i];
    comp *c = new_comp(b, arena_printf(b->arena, "Halo%s(%s)", recv ? "Recv" : "Send",
                                       o->name), loc);
    add(b->arena, &c->reads, o, recv ? 1u << SEC_NET : CO);
    add(b->arena, &c->writes, o,
        recv ? (1u << SEC_HALOEXEC) | (1u << SEC_HALOIMPORT) : 1u << SEC_NET);
  }
}

static void reduction_comps(builder *b, const loop *lp) {
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < lp->nargs; i++) {
      const loop_arg *a = &lp->args[i];
      if (!arg_is_reduction(a))
        continue;
      comp *c = new_comp(b, arena_printf(b->arena, "Reduction%s(%s)",
                                         pass ? "End" : "Begin", a->name), lp->loc);
      add(b->arena, &c->reads, a->obj, pass ? 1u << SEC_NET : 1u << SEC_PARTIAL);
      if (pass)
        add(b->arena, &c->reads, a->obj, 1u << SEC_VALUE);
      add(b->arena, &c->writes, a->obj, pass ? 1u << SEC_VALUE : 1u << SEC_NET);
    }
}

static void loop_comps(builder *b, const region *r, const loop *lp) {
  const char *name = loop_name(b, r, lp);
  if (!b->mpi || !loop_is_indirect(lp)) {
    comp *c = new_comp(b, arena_printf(b->arena, "%s[core,owned]", name), lp->loc);
    loop_accesses(b, c, lp, CO);
  } else {
    vec halos = halo_dats(b, lp);
    halo_comps(b, &halos, lp->loc, 0);
    comp *core = new_comp(b, arena_printf(b->arena, "%s[core]", name), lp->loc);
    loop_accesses(b, core, lp, 1u << SEC_CORE);
    halo_comps(b, &halos, lp->loc, 1);
    comp *owned = new_comp(b, arena_printf(b->arena, "%s[owned]", name), lp->loc);
    loop_accesses(b, owned, lp, 1u << SEC_OWNED);
    /* the owned half runs after the core half of the same loop (seed 001) */
    obj *order = arena_alloc(b->arena, sizeof *order);
    order->name = lp->kernel;
    add(b->arena, &core->writes, order, 1u << SEC_ORDER);
    add(b->arena, &owned->reads, order, 1u << SEC_ORDER);
  }
  if (b->mpi)
    reduction_comps(b, lp);
}

/* A host statement, or a nested statement: all of what its host code
 * names, and the union of what its loops access. */
static void whole_comp(builder *b, const item *it) {
  const char *label =
      it->kind == ITEM_HOST
          ? arena_printf(b->arena, "host(%s:%u)", it->loc.file, it->loc.line)
          : arena_printf(b->arena, "%s(%s:%u)", it->what, it->loc.file, it->loc.line);
  comp *c = new_comp(b, label, it->loc);
  for (int i = 0; i < it->objs.len; i++) {
    const obj *o = it->objs.items[i];
    unsigned s = o->kind == OBJ_GLOBAL ? (1u << SEC_VALUE) : ALL_DAT;
    add(b->arena, &c->reads, o, s);
    add(b->arena, &c->writes, o, s);
  }
  int mpi = b->mpi;
  b->mpi = 0; /* inside, a loop is seen whole: [core,owned] */
  for (int i = 0; i < it->loops.len; i++)
    loop_accesses(b, c, it->loops.items[i], CO);
  b->mpi = mpi;
}

/* ---- dependences ---------------------------------------------------------- */

static int overlap(const vec *x, const vec *y) {
  for (int i = 0; i < x->len; i++)
    for (int j = 0; j < y->len; j++) {
      const access *a = x->items[i], *b = y->items[j];
      if (a->o == b->o && (a->sections & b->sections))
        return 1;
    }
  return 0;
}

static int depends(const comp *c, const comp *earlier) {
  return overlap(&c->reads, &earlier->writes) || overlap(&c->writes, &earlier->reads) ||
         overlap(&c->writes, &earlier->writes);
}

int dag_depends(const comp *c, const comp *earlier) { return depends(c, earlier); }

/* Edges j -> i for every dependence, then only those not implied by a
 * path through a computation between them (transitive reduction). */
static void link(builder *b) {
  int n = b->d->comps.len;
  unsigned char *dep = arena_alloc(b->arena, (size_t)n * (size_t)n + 1);
  unsigned char *reach = arena_alloc(b->arena, (size_t)n * (size_t)n + 1);
  comp **c = (comp **)b->d->comps.items;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      dep[i * n + j] = (unsigned char)depends(c[i], c[j]);
  /* reach[i][j]: j reaches i through at least one dependence */
  for (int i = 0; i < n; i++)
    for (int j = i - 1; j >= 0; j--) {
      if (!dep[i * n + j])
        continue;
      reach[i * n + j] = 1;
      for (int k = 0; k < j; k++)
        reach[i * n + k] |= reach[j * n + k];
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      if (!dep[i * n + j])
        continue;
      int implied = 0;
      for (int k = j + 1; k < i && !implied; k++)
        implied = dep[i * n + k] && reach[k * n + j];
      if (!implied) {
        vec_push(b->arena, &c[i]->preds, c[j]);
        c[j]->nsuccs++;
      }
    }
}

void dag_note(dag *d, arena *a, srcloc loc, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *text = arena_alloc(a, (size_t)n + 1);
  vsnprintf(text, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  va_end(ap);
  note *nt = arena_alloc(a, sizeof *nt);
  *nt = (note){loc, text};
  vec_push(a, &d->notes, nt);
}

vec dag_build(const vec *regions, const char *target, arena *a) {
  vec dags = {0};
  for (int r = 0; r < regions->len; r++) {
    const region *reg = regions->items[r];
    dag *d = arena_alloc(a, sizeof *d);
    d->r = reg;
    builder b = {a, strcmp(target, "mpi") == 0 || strcmp(target, "mpi+openmp") == 0, d};
    for (int i = 0; i < reg->items.len; i++) {
      const item *it = reg->items.items[i];
      if (it->kind == ITEM_LOOP)
        loop_comps(&b, reg, it->lp);
      else
        whole_comp(&b, it);
    }
    link(&b);
    vec_push(a, &dags, d);
  }
  return dags;
}

/* ---- output ---------------------------------------------------------------- */

static void dot_quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static const char *region_title(const region *r, char *buf, size_t n) {
  snprintf(buf, n, "%s() at %s:%u%s", r->func, r->loc.file, r->loc.line,
           r->depth ? " (nested block)" : "");
  return buf;
}

void dag_write_dot(FILE *f, const vec *dags) {
  char title[512];
  fputs("digraph loom {\n  node [shape=box, fontname=\"monospace\"];\n", f);
  for (int r = 0; r < dags->len; r++) {
    const dag *d = dags->items[r];
    fprintf(f, "  subgraph cluster_%d {\n    label=", r);
    dot_quoted(f, region_title(d->r, title, sizeof title));
    fprintf(f, ";\n    r%d_top [label=\"top\", shape=plaintext];\n", r);
    fprintf(f, "    r%d_bot [label=\"bot\", shape=plaintext];\n", r);
    for (int i = 0; i < d->comps.len; i++) {
      const comp *c = d->comps.items[i];
      fprintf(f, "    r%d_c%d [label=", r, c->id);
      dot_quoted(f, c->label);
      fputs("];\n", f);
    }
    for (int i = 0; i < d->comps.len; i++) {
      const comp *c = d->comps.items[i];
      if (c->preds.len == 0)
        fprintf(f, "    r%d_top -> r%d_c%d;\n", r, r, c->id);
      for (int p = 0; p < c->preds.len; p++)
        fprintf(f, "    r%d_c%d -> r%d_c%d;\n", r, ((const comp *)c->preds.items[p])->id,
                r, c->id);
      if (c->nsuccs == 0)
        fprintf(f, "    r%d_c%d -> r%d_bot;\n", r, c->id, r);
    }
    fputs("  }\n", f);
  }
  fputs("}\n", f);
}

static void write_accesses(FILE *f, const char *what, const vec *set) {
  fprintf(f, "%s", what);
  if (set->len == 0)
    fputs(" -", f);
  for (int i = 0; i < set->len; i++) {
    const access *a = set->items[i];
    for (int s = 0; s < SEC_COUNT; s++)
      if (a->sections & (1u << s))
        fprintf(f, " %s(%s)", section_names[s], a->o->name);
  }
  fputc('\n', f);
}

void dag_write_report(FILE *f, const vec *dags) {
  char title[512];
  for (int r = 0; r < dags->len; r++) {
    const dag *d = dags->items[r];
    fprintf(f, "region %s: %d computations\n", region_title(d->r, title, sizeof title),
            d->comps.len);
    for (int i = 0; i < d->comps.len; i++) {
      const comp *c = d->comps.items[i];
      fprintf(f, "  %2d. %s\n", c->id, c->label);
      write_accesses(f, "      reads: ", &c->reads);
      write_accesses(f, "      writes:", &c->writes);
      fputs("      after: ", f);
      if (c->preds.len == 0)
        fputs(" top", f);
      for (int p = 0; p < c->preds.len; p++)
        fprintf(f, " %d", ((const comp *)c->preds.items[p])->id);
      fputc('\n', f);
    }
    fputs("  schedule: program order\n", f);
    fputs("  transformations:", f);
    if (d->notes.len == 0)
      fputs(" none\n", f);
    else
      fputc('\n', f);
    for (int i = 0; i < d->notes.len; i++) {
      const note *n = d->notes.items[i];
      fprintf(f, "    line %u: %s\n", n->loc.line, n->text);
    }
  }
}
