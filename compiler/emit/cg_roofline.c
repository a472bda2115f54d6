/*
 * cg_roofline.c — LOOM_DIAG's roofline (see codegen.h): after a group's
 * loop, the bytes it moved and the floating-point operations its kernels
 * did (loom__loop_traffic), the bytes per element counted here from its
 * arguments, the elements at run time.
 */
#include "emit/codegen.h"

#include <string.h>

#include "emit/cg_internal.h"

/* Bytes a group moves per element of the iteration set (its own data and
 * the maps' indices), or per element a map reaches (the dats read or
 * written through it, each element counted once). */
typedef struct traffic {
  const obj *map; /* NULL: the iteration set */
  long bytes;
} traffic;

typedef struct seen_access {
  const obj *o, *map;
  int reads, writes;
} seen_access;

static traffic *traffic_of(cg *g, vec *t, const obj *map) {
  for (int i = 0; i < t->len; i++) {
    traffic *x = t->items[i];
    if (x->map == map)
      return x;
  }
  traffic *x = arena_alloc(g->arena, sizeof *x);
  *x = (traffic){map, 0};
  vec_push(g->arena, t, x);
  return x;
}

/* Argument a's dat, reached through `map` (NULL: directly): each dat and
 * map once, a read and a write at most once each. */
static void note_access(cg *g, vec *seen, vec *t, const loop_arg *a, const obj *map) {
  seen_access *x = NULL;
  for (int i = 0; i < seen->len && !x; i++) {
    seen_access *y = seen->items[i];
    if (y->o == a->obj && y->map == map)
      x = y;
  }
  if (!x) {
    x = arena_alloc(g->arena, sizeof *x);
    *x = (seen_access){a->obj, map, 0, 0};
    vec_push(g->arena, seen, x);
  }
  long row = (long)cg_stored_dim(g, a->obj) * a->obj->type->size;
  traffic *to = traffic_of(g, t, map);
  if (a->mode != MODE_WRITE && !x->reads++)
    to->bytes += row;
  if (a->mode != MODE_READ && !x->writes++)
    to->bytes += row;
}

/* A map's indices, per element of the iteration set, once per group. */
static void map_traffic(cg *g, vec *maps, vec *t, const obj *map) {
  if (!map)
    return;
  for (int i = 0; i < maps->len; i++)
    if (maps->items[i] == map)
      return;
  vec_push(g->arena, maps, (void *)map);
  traffic_of(g, t, NULL)->bytes += 4L * map->dim;
}

static void arg_traffic(cg *g, vec *seen, vec *maps, vec *t, const loop_arg *a) {
  map_traffic(g, maps, t, a->map);
  map_traffic(g, maps, t, a->map2);
  if (a->kind == ARG_MAT)
    traffic_of(g, t, NULL)->bytes += 8L * cg_mat_block(a);
  else if (a->kind == ARG_DAT && cg_fate(g, a->obj) == TEMP_STORED)
    note_access(g, seen, t, a, NULL);
  else if ((a->kind == ARG_MAPPED || a->kind == ARG_MAPPED_ALL) &&
           cg_fate(g, a->obj) == TEMP_STORED && !cg_pinned_producer(g, a))
    note_access(g, seen, t, a, a->map);
}

/* After the loop: the bytes it moved and the floating-point operations
 * its kernels did, for LOOM_DIAG (loom__loop_traffic). */
void cg_emit_traffic(cg *g, const group *gr) {
  vec loops = cg_called_loops(g, gr), seen = {0}, maps = {0}, t = {0};
  long flops = 0;
  traffic_of(g, &t, NULL);
  for (int l = 0; l < loops.len; l++) {
    const loop *lp = loops.items[l];
    flops += lp->kernel_flops;
    for (int i = 0; i < lp->nargs; i++)
      arg_traffic(g, &seen, &maps, &t, &lp->args[i]);
  }
  const obj *set = cg_set(gr);
  const char *n = set->base ? arena_printf(g->arena, "loom__set_size(%s) * loom_L_%s",
                                           cg_set_handle(g, set), set->name)
                            : arena_printf(g->arena, "loom__set_size(%s)", set->name);
  cg_line(g, "loom__loop_traffic(loom_loop, %s, /* elements, bytes moved, operations */", n);
  /* the bytes, as many terms to a line as fit; then the operations */
  const char *pad = "                   ";
  strbuf line;
  sb_init(&line);
  for (int i = 0; i < t.len; i++) {
    const traffic *x = t.items[i];
    const char *count = n;
    if (x->map && x->map->shift && x->map->base) /* extruded: the columns reached */
      count = arena_printf(g->arena, "loom__map_reach(%s) * loom_L_%s",
                           cg_map_handle(g, x->map), x->map->to->name);
    else if (x->map && !x->map->shift)
      count = arena_printf(g->arena, "loom__map_reach(%s)", x->map->name);
    const char *term = arena_printf(g->arena, "%s%ld.0 * %s%s", i ? "+ " : "", x->bytes,
                                    count, i + 1 < t.len ? "" : ",");
    if (line.len &&
        2 * (size_t)g->indent + strlen(pad) + line.len + 1 + strlen(term) > WRAP) {
      cg_line(g, "%s%s", pad, line.data);
      line.len = 0;
    }
    sb_printf(&line, "%s%s", line.len ? " " : "", term);
  }
  cg_line(g, "%s%s", pad, line.data);
  sb_free(&line);
  cg_line(g, "%s%ld.0 * %s);", pad, flops, n);
}
