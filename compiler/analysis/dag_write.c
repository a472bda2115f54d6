/*
 * dag_write.c — the DAGs for people: Graphviz (--emit-dag) and the text
 * report (--report) of every region's computations, their accesses and
 * dependences, the schedule and the transformations (see dag.h).
 */
#include "analysis/dag.h"

static const char *const section_names[SEC_COUNT] = {
    "CORE", "OWNED", "HALOEXEC", "HALOIMPORT", "NET", "VALUE", "PARTIAL", "ORDER"};

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

static int is_program_order(const dag *d) {
  for (int i = 0, k = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (!c->removed && d->order.items[k++] != c)
      return 0;
  }
  return 1;
}

static void write_schedule(FILE *f, const dag *d) {
  if (!d->mpi) {
    fputs("program order\n", f);
    return;
  }
  for (int i = 0; i < d->order.len; i++)
    fprintf(f, "%s%d", i ? " " : "", ((const comp *)d->order.items[i])->id);
  fputs(is_program_order(d) ? " (program order)\n" : "\n", f);
}

/* An exchange another one was merged into, or made redundant. */
static int absorbs(const dag *d, const comp *c) {
  for (int i = 0; i < d->comps.len; i++)
    if (((const comp *)d->comps.items[i])->into == c)
      return 1;
  return 0;
}

/* Whether c's edge from p crosses from iteration i to i+1 (loops.h). */
static int carried(const comp *c, const comp *p) { return p->step == 0 && c->step == 1; }

/* The nodes and edges of one DAG, its nodes named PREFIX_cID. */
static void dot_nodes(FILE *f, const dag *d, const char *prefix) {
  fprintf(f, "    %s_top [label=\"top\", shape=plaintext];\n", prefix);
  fprintf(f, "    %s_bot [label=\"bot\", shape=plaintext];\n", prefix);
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    fprintf(f, "    %s_c%d [label=", prefix, c->id);
    dot_quoted(f, c->label);
    if (c->removed)
      fprintf(f, ", style=dashed, color=red, fontcolor=red];  // %s\n", c->removed);
    else if (absorbs(d, c))
      fputs(", color=blue, fontcolor=blue];\n", f);
    else if (c->latch)
      fputs(", shape=diamond];\n", f);
    else if (c->kind == COMP_ALLOC || c->kind == COMP_FREE)
      fputs(", shape=ellipse, color=darkgreen, fontcolor=darkgreen];\n", f);
    else
      fputs("];\n", f);
  }
  for (int i = 0; i < d->comps.len; i++) {
    const comp *c = d->comps.items[i];
    if (c->removed)
      continue;
    if (c->preds.len == 0)
      fprintf(f, "    %s_top -> %s_c%d;\n", prefix, prefix, c->id);
    for (int p = 0; p < c->preds.len; p++) {
      const comp *pc = c->preds.items[p];
      fprintf(f, "    %s_c%d -> %s_c%d%s;\n", prefix, pc->id, prefix, c->id,
              carried(c, pc) ? " [style=bold, color=purple]  // carried" : "");
    }
    if (c->nsuccs == 0)
      fprintf(f, "    %s_c%d -> %s_bot;\n", prefix, c->id, prefix);
  }
}

static const char *steps_title(const dag *s, char *buf, size_t n) {
  snprintf(buf, n, "two iterations of the %s at %s:%u (iteration i+1 primed)",
           s->r->loop->what, s->r->loop->loc.file, s->r->loop->loc.line);
  return buf;
}

/* Removed computations are drawn dashed in red and unconnected, the
 * exchange that replaces them in blue (seed 001's colours); the schedule
 * and the transformations are comments.  A loop body's region is followed
 * by the DAG of two of its iterations: the latch a diamond, allocations
 * and frees green ellipses, carried edges bold purple. */
void dag_write_dot(FILE *f, const dag_list *dags) {
  char title[512], prefix[32];
  fputs("digraph loom {\n  node [shape=box, fontname=\"monospace\"];\n", f);
  for (int r = 0; r < dags->len; r++) {
    const dag *d = dags->items[r];
    fprintf(f, "  subgraph cluster_%d {\n    label=", r);
    dot_quoted(f, region_title(d->r, title, sizeof title));
    fprintf(f, ";\n    // schedule: ");
    write_schedule(f, d);
    for (int i = 0; i < d->notes.len; i++) {
      const note *n = d->notes.items[i];
      fprintf(f, "    // line %u: %s\n", n->loc.line, n->text);
    }
    snprintf(prefix, sizeof prefix, "r%d", r);
    dot_nodes(f, d, prefix);
    fputs("  }\n", f);
    if (!d->steps)
      continue;
    fprintf(f, "  subgraph cluster_%d_steps {\n    label=", r);
    dot_quoted(f, steps_title(d->steps, title, sizeof title));
    fputs(";\n", f);
    for (int i = 0; i < d->steps->notes.len; i++) {
      const note *n = d->steps->notes.items[i];
      fprintf(f, "    // line %u: %s\n", n->loc.line, n->text);
    }
    snprintf(prefix, sizeof prefix, "r%d_s", r);
    dot_nodes(f, d->steps, prefix);
    fputs("  }\n", f);
  }
  fputs("}\n", f);
}

static void write_accesses(FILE *f, const char *what, const access_list *set) {
  fprintf(f, "%s", what);
  if (set->len == 0)
    fputs(" -", f);
  for (int i = 0; i < set->len; i++) {
    const access *a = set->items[i];
    for (int s = 0; s < SEC_COUNT; s++)
      if (a->sections & (1u << s))
        fprintf(f, " %s(%s)", section_names[s], obj_label(a->o));
  }
  fputc('\n', f);
}

static int removed_count(const dag *d) {
  int n = 0;
  for (int i = 0; i < d->comps.len; i++)
    n += ((const comp *)d->comps.items[i])->removed != NULL;
  return n;
}

/* The DAG of two iterations, compactly: each computation and what it
 * comes after, carried edges starred; the exchanges found redundant
 * across iterations. */
static void write_steps(FILE *f, const dag *s) {
  char title[512];
  int ncarried = 0;
  fprintf(f, "  %s: %d computations\n", steps_title(s, title, sizeof title), s->comps.len);
  for (int i = 0; i < s->comps.len; i++) {
    const comp *c = s->comps.items[i];
    fprintf(f, "    %2d. %s", c->id, c->label);
    if (c->removed) {
      fprintf(f, "  [%s]\n", c->removed);
      continue;
    }
    fputs("  after:", f);
    if (c->preds.len == 0)
      fputs(" top", f);
    for (int p = 0; p < c->preds.len; p++) {
      const comp *pc = c->preds.items[p];
      fprintf(f, " %d%s", pc->id, carried(c, pc) ? "*" : "");
      ncarried += carried(c, pc);
    }
    fputc('\n', f);
  }
  fprintf(f, "    carried (*): %d edge%s from iteration i to i+1\n", ncarried,
          ncarried == 1 ? "" : "s");
  for (int i = 0; i < s->notes.len; i++) {
    const note *n = s->notes.items[i];
    fprintf(f, "    line %u: %s\n", n->loc.line, n->text);
  }
}

void dag_write_report(FILE *f, const dag_list *dags) {
  char title[512];
  for (int r = 0; r < dags->len; r++) {
    const dag *d = dags->items[r];
    fprintf(f, "region %s: %d computations", region_title(d->r, title, sizeof title),
            d->comps.len);
    if (removed_count(d))
      fprintf(f, " (%d removed)", removed_count(d));
    fputc('\n', f);
    for (int i = 0; i < d->comps.len; i++) {
      const comp *c = d->comps.items[i];
      fprintf(f, "  %2d. %s", c->id, c->label);
      if (c->removed) {
        fprintf(f, "  [%s: see transformations]\n", c->removed);
        continue;
      }
      fputc('\n', f);
      if (c->barrier)
        fprintf(f, "      barrier (%s): nothing moves across it\n",
                c->mesh ? "it changes the mesh" : "a jump, a label or loom_exit");
      if (c->kind == COMP_LOOP && c->lp->kernel_unseen)
        fprintf(f, "      its kernel calls %s, whose body loomc does not see: it reads "
                   "the unseen state (<unseen>), which host code that loomc cannot see "
                   "through may write\n", c->lp->kernel_unseen);
      write_accesses(f, "      reads: ", &c->reads);
      write_accesses(f, "      writes:", &c->writes);
      fputs("      after: ", f);
      if (c->preds.len == 0)
        fputs(" top", f);
      for (int p = 0; p < c->preds.len; p++)
        fprintf(f, " %d", ((const comp *)c->preds.items[p])->id);
      fputc('\n', f);
    }
    fputs("  schedule: ", f);
    write_schedule(f, d);
    if (d->steps)
      write_steps(f, d->steps);
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
