"""The program model: a JSON-serialisable description of one random Loom
program, the rules a valid model obeys, and the facts derived from it.

A model is a dict (see README.md, "The model"):

  sets    [{name, size}]                             or extruded: {name, size, base, layers,
                                                     var, columns}: `layers` over each element
                                                     of set `base` (size: base's times layers;
                                                     var: layers a run-time value; columns:
                                                     each base element's own layers, declared
                                                     by columns, `layers` their most)
  maps    [{name, from, to, arity, kind, a, b}]      entries from a formula; or kind
                                                     "extruded": {base, shift} between
                                                     extruded sets (base: a map of their
                                                     bases, or None: the identity)
  dats    [{name, set, dim, type, temp, seed, decl}] decl: "top" | "stmt"
  globals [{name, type, dim, init, const}]           dim 0: a scalar
  consts  [{name, type, init}]                       static file-scope, read by kernels
  params  [{name, value}]                            affine domain parameters
  arrays  [{name, param, rank, temp, seed}]          plain C arrays of affine loops
  mats    [{name, map, set, dim}]                    matrices (assembled through map)
  prologue [item]                                    main's declarations and host calls before
                                                     the first statement (absent: sets, maps,
                                                     dats, matrices, in that order)
  body    [statement]                                main's statements after the declarations
  prints  [name]                                     dats, globals, arrays printed at the end
  skip    [config-prefix]                            configurations not to run (known bugs)

A set, map or non-temporary top-level dat may carry "handle": "file" (a
static handle at file scope, with LOOM_MAP_FACTS / LOOM_DAT_FACTS, assigned
in main: the sets its facts name are "file" too) or "assigned" (a local of
main declared at its top without an initialiser, with its facts, and
assigned in the prologue: its sets are "file" or "assigned").  Without it,
the handle is declared with its loom_decl_* call as initialiser.

Prologue items (key "k"), in main's order, before the body:
  set / map / dat / mat  {name}       the declaration of that object (every set,
                                      map, top-level dat and matrix once, after
                                      the sets and map it names)
  renumber {how}                      loom_renumber(): "plain", "must" (through a
                                      checking helper that exits on failure), "fn"
                                      (in a function of the file), "ptr" (that
                                      function called through a pointer: loomc
                                      does not see it)
  note     {n, how}                   a function of the file printing "note n",
                                      called directly ("call") or through a
                                      pointer ("ptr")
  host     {op, ...}                  size, print_g, set_c (as in the body)
Sets and maps are all declared, and loom_renumber called, before the first
loop: both are rules of the runtime under MPI, which the prologue keeps by
construction; and, as under MPI a sparsity's declaration partitions the
mesh, before the first matrix.

Statements (key "k"):
  loop   {id, set, args, kseed, consts, heavy}   a par_loop over a mesh set (over an
                                                 extruded set: also region, one of
                                                 REGIONS; no idx, idxmap or mat)
  aloop  {id, dom, args, kseed}                  an affine par_loop (domain(...))
  for    {n, body}                               a time loop, K = n iterations
  if     {cond, body, else}                      cond: {g, lt} | {it, mod} | {c, lt}
  block  {body}
  host   {op, ...}                               host code between loops
  decl   {dat}                                   a dat/temp declared here (decl "stmt")
  hint   {kind, temp}                            #pragma loom pin(t) / pin_cse(t)

Mesh loop arguments:
  {kind: dat, dat, mode, map, slot}   map None: direct; slot an int or "*"
  {kind: global, g, mode}
  {kind: idx}                         the iteration index
  {kind: idxmap, map, slot}           idx[map[slot]]
Affine loop arguments: {arr, mode, sub}: sub a list of subscripts, each
{"i": a, "j": b, "c": c} meaning a*i + b*j + c.

validate(model, mpi=True) returns a list of problems (empty: valid).  The
generator builds valid models and asserts it; the reducer drops every
candidate that is not valid.
"""

import copy
import json

MASK32 = 0xFFFFFFFF
COMMUTING = ("inc", "min", "max")   # a dat's modes that commute with themselves
GLOBAL_RED = ("inc", "min", "max")


# ---------------------------------------------------------------------------
# Map and dat contents: formulas shared by Python (validation) and C (emit).

def h32(k):
    """The integer hash the emitted C uses (PFX_h)."""
    k &= MASK32
    k ^= k >> 16
    k = (k * 0x7FEB352D) & MASK32
    k ^= k >> 15
    k = (k * 0x846CA68B) & MASK32
    k ^= k >> 16
    return k


def map_entry(m, k):
    """Entry k (element k // arity, slot k % arity) of map m; to > 0."""
    kind, a, b, to, ar = m["kind"], m["a"], m["b"], m["to_size"], m["arity"]
    if kind == "rand":
        return h32(k + a) % to
    if kind == "few":
        return h32(k + a) % max(1, min(to, b))
    if kind == "dup":  # slot 1 repeats slot 0
        kk = k - 1 if k % ar == 1 else k
        return h32(kk + a) % to
    if kind == "perm":  # injective when from * arity <= to and gcd(a, to) == 1
        return ((k * a) + b) % to
    if kind == "shift":
        return (k // ar + k % ar + b) % to
    raise ValueError("unknown map kind " + kind)


REGIONS = ("all", "bottom", "top", "interior")


def region_layers(region, layers):
    """The layers [lo, hi) a loop of this region runs in a column."""
    return {"all": (0, layers), "bottom": (0, min(1, layers)),
            "top": (layers - 1, layers), "interior": (0, max(0, layers - 1))}[region]


def shift_fits(model, m, slots, region):
    """Whether the slots of extruded map m stay in their columns from every
    layer of region (column by column where either set has columns)."""
    cf, ct = set_columns(model, m["from"]), set_columns(model, m["to"])
    if cf is None and ct is None:
        lf, lt = set_layers(model, m["from"]), set_layers(model, m["to"])
        lo, hi = region_layers(region, lf)
        return hi <= lo or all(lo + m["shift"][j] >= 0 and hi - 1 + m["shift"][j] <= lt - 1
                               for j in slots)
    base = map_data(model, m["base"]) if m["base"] else None
    ncol = sizes_of(model)[by_name(model["sets"], m["from"])["base"]]
    for c in range(ncol):
        lo, hi = region_layers(region, cf[c] if cf else set_layers(model, m["from"]))
        for j in slots:
            t = base[m["arity"] * c + j] if base else c
            lt = ct[t] if ct else set_layers(model, m["to"])
            if hi > lo and not (lo + m["shift"][j] >= 0 and hi - 1 + m["shift"][j] <= lt - 1):
                return False
    return True


def set_layers(model, name):
    return (by_name(model["sets"], name) or {}).get("layers", 1)


def set_columns(model, name):
    """Each column's layers of a set declared by columns, else None."""
    return (by_name(model["sets"], name) or {}).get("columns")


def region_run(model, s, region):
    """The elements of set s a loop of region runs (every one but over an
    extruded set: its region's layers of each column)."""
    n = sizes_of(model)[s]
    if region is None:
        return list(range(n))
    L, cols = set_layers(model, s), set_columns(model, s)
    out = []
    for e in range(n):
        lo, hi = region_layers(region, cols[e // L] if cols else L)
        if lo <= e % L < hi:
            out.append(e)
    return out


def is_extruded(model, name):
    """Whether the set (or the map, or the dat's set) is extruded."""
    x = by_name(model["sets"], name)
    if x is None and by_name(model["maps"], name):
        return by_name(model["maps"], name)["kind"] == "extruded"
    if x is None and by_name(model["dats"], name):
        x = by_name(model["sets"], by_name(model["dats"], name)["set"])
    return bool(x and x.get("base"))


def map_entry_c(m, kvar, pfx):
    """The C expression of map_entry (kvar an int variable >= 0)."""
    if m["kind"] == "extruded":
        ar, lf, lt = m["arity"], m["lf"], m["lt"]
        col = ("%s_data[%d * (%s / %d / %d) + %s %% %d]" % (m["base"], ar, kvar, ar, lf, kvar, ar)
               if m["base"] else "(%s / %d / %d)" % (kvar, ar, lf))
        return "(%s * %d + %s / %d %% %d + (const int[]){%s}[%s %% %d])" % (
            col, lt, kvar, ar, lf, ", ".join(str(x) for x in m["shift"]), kvar, ar)
    kind, a, b, to, ar = m["kind"], m["a"], m["b"], m["to_size"], m["arity"]
    k = "(unsigned)%s" % kvar
    if kind == "rand":
        return "(int)(%sdt_h(%s + %du) %% %du)" % (pfx, k, a, to)
    if kind == "few":
        return "(int)(%sdt_h(%s + %du) %% %du)" % (pfx, k, a, max(1, min(to, b)))
    if kind == "dup":
        return "(int)(%sdt_h(%s - (%s %% %du == 1u) + %du) %% %du)" % (pfx, k, k, ar, a, to)
    if kind == "perm":
        return "(int)((%s * %du + %du) %% %du)" % (k, a, b, to)
    if kind == "shift":
        return "(int)((%s / %du + %s %% %du + %du) %% %du)" % (k, ar, k, ar, b, to)
    raise ValueError("unknown map kind " + kind)


def dat_value(seed, k, typ):
    """Initial value k of a dat or array with this seed: an integer in [0, 1024)."""
    return h32(k * 7 + seed) % 1024


# ---------------------------------------------------------------------------
# Lookups

def by_name(items, name):
    for it in items:
        if it["name"] == name:
            return it
    return None


def sizes_of(model):
    return {s["name"]: s["size"] for s in model["sets"]}


def resolved_map(model, mname):
    """The map with its target set's size filled in (for map_entry), and an
    extruded map's layers (lf, lt: of its from and to sets)."""
    m = dict(by_name(model["maps"], mname))
    m["to_size"] = sizes_of(model)[m["to"]]
    if m["kind"] == "extruded":
        m["lf"], m["lt"] = set_layers(model, m["from"]), set_layers(model, m["to"])
    return m


def map_data(model, mname):
    m = resolved_map(model, mname)
    n = sizes_of(model)[m["from"]] * m["arity"]
    if m["kind"] != "extruded":
        return [map_entry(m, k) for k in range(n)]
    # element (c, k) of from, slot j: (base[c][j], k + shift[j]) of to
    ar, lf, lt = m["arity"], m["lf"], m["lt"]
    base = map_data(model, m["base"]) if m["base"] else None
    out = []
    for k in range(n):
        e, j = k // ar, k % ar
        col = base[ar * (e // lf) + j] if base else e // lf
        out.append(col * lt + e % lf + m["shift"][j])
    return out


def walk(body, depth=0, parent=None):
    """Yields (stmt, depth, containing list) for every statement, pre-order."""
    for st in body:
        yield st, depth, body
        for key in ("body", "else"):
            if st.get(key) is not None:
                yield from walk(st[key], depth + 1, st)


def stage_loops(body, in_for=False):
    """The stage loops of body (shapes: "stage"); in_for: body is a for's."""
    for st in body:
        if st["k"] == "for" and in_for and not st.get("var") and st["body"] and \
                all(x["k"] == "loop" for x in st["body"]):
            yield st
        for key in ("body", "else"):
            if st.get(key) is not None:
                yield from stage_loops(st[key], st["k"] == "for" and key == "body")


def all_loops(model):
    return [st for st, _, _ in walk(model["body"]) if st["k"] == "loop"]


def all_aloops(model):
    return [st for st, _, _ in walk(model["body"]) if st["k"] == "aloop"]


def loop_dat_args(lp, dat):
    return [a for a in lp["args"] if a["kind"] == "dat" and a["dat"] == dat]


def arg_reads(a):
    return a.get("mode", "read") in ("read", "rw")


def arg_writes(a):
    return a.get("mode", "read") in ("write", "rw", "inc", "min", "max")


def names_in_host(st):
    """The dats and globals a host statement names (as loomc sees it)."""
    op = st["op"]
    if op == "fetch":
        return {st["dat"]}
    if op in ("print_g", "bump_g"):
        return {st["g"]}
    if op == "reset_g":
        return {st["g"]}
    if op == "derive_g":
        return {st["dst"], st["src"]}
    if op == "set_c":
        return {st["src"]} if st.get("src") else set()
    if op == "sync":
        return set(st["names"])
    return set()


def host_writes(st):
    """What a host statement writes: dats named (loomc: any use writes), globals assigned,
    file-scope constants assigned."""
    op = st["op"]
    if op == "fetch":
        return {st["dat"]}
    if op in ("reset_g", "bump_g"):
        return {st["g"]}
    if op == "derive_g":
        return {st["dst"]}
    if op == "set_c":
        return {st["c"]}
    if op == "sync":
        return set(st["names"])  # sync reads and writes everything it names
    return set()


def stmt_writes(model, st):
    """Everything a statement (and what it holds) writes: dats, globals, consts, arrays."""
    out = set()
    for s, _, _ in walk([st]):
        if s["k"] == "loop":
            for a in s["args"]:
                if a["kind"] == "dat" and arg_writes(a):
                    out.add(a["dat"])
                if a["kind"] == "global" and arg_writes(a):
                    out.add(a["g"])
        elif s["k"] == "aloop":
            for a in s["args"]:
                if a["mode"] != "read":
                    out.add(a["arr"])
        elif s["k"] == "host":
            out |= host_writes(s)
    return out


def stmt_names(model, st):
    """Every dat, global, const and array a statement names."""
    out = set()
    for s, _, _ in walk([st]):
        if s["k"] == "loop":
            for a in s["args"]:
                if a["kind"] == "dat":
                    out.add(a["dat"])
                if a["kind"] == "global":
                    out.add(a["g"])
            out |= set(s["consts"])
        elif s["k"] == "aloop":
            out |= {a["arr"] for a in s["args"]}
        elif s["k"] == "host":
            out |= names_in_host(s) | host_writes(s)
        elif s["k"] == "if":
            c = s["cond"]
            if "g" in c:
                out.add(c["g"])
            if "c" in c:
                out.add(c["c"])
    return out


def loop_reads(lp):
    """Dats, globals and consts a mesh loop reads."""
    out = set(lp["consts"])
    for a in lp["args"]:
        if a["kind"] == "dat" and arg_reads(a):
            out.add(a["dat"])
        if a["kind"] == "global" and a["mode"] == "read":
            out.add(a["g"])
    return out


# ---------------------------------------------------------------------------
# The prologue: declarations and host calls before the first statement

DECL_KINDS = ("set", "map", "dat", "mat")


def classic_prologue(model):
    """The declarations in the order main has without a prologue."""
    return ([{"k": "set", "name": s["name"]} for s in model["sets"]] +
            [{"k": "map", "name": m["name"]} for m in model["maps"]] +
            [{"k": "dat", "name": d["name"]} for d in model["dats"] if d["decl"] == "top"] +
            [{"k": "mat", "name": A["name"]} for A in model.get("mats", [])])


def prologue(model):
    return model["prologue"] if model.get("prologue") is not None else classic_prologue(model)


def decl_needs(model, it):
    """The objects a declaration item names (declared before it)."""
    k = it["k"]
    if k == "set":
        return [x for x in [(by_name(model["sets"], it["name"]) or {}).get("base")] if x]
    if k == "map":
        m = by_name(model["maps"], it["name"]) or {}
        return [m.get("from"), m.get("to")] + ([m["base"]] if m.get("base") else [])
    if k == "dat":
        return [(by_name(model["dats"], it["name"]) or {}).get("set")]
    if k == "mat":
        A = by_name(model.get("mats", []), it["name"]) or {}
        return [A.get("map"), A.get("set")]
    return []


def prologue_names(model):
    """The sets, globals and constants the prologue's host items name."""
    out = set()
    for it in model.get("prologue") or []:
        if it["k"] == "host":
            out |= names_in_host(it) | host_writes(it)
            if it["op"] == "size":
                out.add(it["set"])
    return out


def handle_objects(model):
    """The sets, maps and dats declared with a "handle" style."""
    return [x for kind in ("sets", "maps", "dats") for x in model[kind] if x.get("handle")]


def aliased_dats(model):
    """Dats whose handles loomc cannot prove distinct from others of their dim
    and type (semantics.md 1.1): handles at file scope, or locals assigned
    after their declaration."""
    return [d for d in model["dats"] if d.get("handle")]


def _validate_prologue(model, p):
    pro = model.get("prologue")
    for x in handle_objects(model):
        h = x["handle"]
        if h not in ("file", "assigned"):
            p.add("%s: handle %s", x["name"], h)
        need = ([x["from"], x["to"]] if "from" in x else [x["set"]] if "set" in x else [])
        for s in need:
            hs = (by_name(model["sets"], s) or {}).get("handle")
            if h == "file" and hs != "file" or h == "assigned" and hs not in ("file", "assigned"):
                p.add("%s: a %s handle whose facts name set %s (%s)", x["name"], h, s, hs)
        if "set" in x and (x.get("temp") or x.get("decl") != "top"):
            p.add("%s: a handle style on a temporary or a statement-declared dat", x["name"])
    if pro is None:
        return
    want = {(it["k"], it["name"]) for it in classic_prologue(model)}
    seen = set()
    mats_seen = False
    for it in pro:
        k = it["k"]
        if k in ("set", "map", "renumber") and mats_seen:
            # under MPI, loom_decl_sparsity partitions the mesh
            p.add("prologue: a matrix declared before a %s", k)
        mats_seen |= k == "mat"
        if k in DECL_KINDS:
            key = (k, it["name"])
            if key not in want:
                p.add("prologue declares unknown %s %s", k, it["name"])
            elif key in seen:
                p.add("prologue declares %s twice", it["name"])
            for n in decl_needs(model, it):
                if n not in {x[1] for x in seen}:
                    p.add("prologue declares %s before %s", it["name"], n)
            seen.add(key)
        elif k == "renumber":
            if it.get("how") not in ("plain", "must", "fn", "ptr"):
                p.add("renumber how %s", it.get("how"))
            if "dist" not in model.get("skip", []):
                # LOOM_DISTRIBUTE=1 refuses a renumbered mesh (mpi/dist.c)
                p.add("loom_renumber() in a program run on the distributed path")
        elif k == "note":
            if it.get("how") not in ("call", "ptr"):
                p.add("note how %s", it.get("how"))
        elif k == "host":
            if it["op"] not in ("size", "print_g", "set_c"):
                p.add("prologue host op %s", it["op"])
            elif it["op"] == "size" and ("set", it["set"]) not in seen:
                p.add("prologue: size of %s before its declaration", it["set"])
            else:
                _validate_host(model, it, set(), p)
        else:
            p.add("prologue item %s", k)
    for key in sorted(want - seen):
        p.add("prologue does not declare %s", key[1])


def shapes(model):
    """The shapes of the declarations and of the matrix loops that run.py
    counts: "renumber" (loom_renumber before the first loop), "interleaved"
    (declarations in mixed kinds, or with host calls between them),
    "handles" (handles at file scope or assigned after their declaration),
    "mat_after_write" (a matrix-assembling loop that reads a dat the loop
    before it, in the same statement list, wrote), "mat_direct" (of those,
    one that reads it directly), "extruded" (a loop over an extruded set),
    "extruded_region" (one over part of its layers), "extruded_shift" (one
    reaching another layer through an extruded map), "extruded_columns" (one
    over a set declared by columns), "stage" (a loop of a literal count
    holding par_loops only, in another loop's body: loomc unrolls it on the
    syntax alone, transform/prescan.h)."""
    out = set()
    if any(True for _ in stage_loops(model["body"])):
        out.add("stage")
    pro = prologue(model)
    if any(it["k"] == "renumber" for it in pro):
        out.add("renumber")
    order = {"set": 0, "map": 1, "dat": 2, "mat": 3}
    ranks = [order[it["k"]] for it in pro if it["k"] in order]
    last_decl = max([i for i, it in enumerate(pro) if it["k"] in order] or [-1])
    if ranks != sorted(ranks) or any(it["k"] not in order for it in pro[:last_decl]):
        out.add("interleaved")
    if handle_objects(model):
        out.add("handles")
    blocks = [model["body"]] + [st[key] for st, _, _ in walk(model["body"])
                                for key in ("body", "else") if st.get(key) is not None]
    for b in blocks:
        loops = [st for st in b if st["k"] in ("loop", "aloop")]
        for x, y in zip(loops, loops[1:]):
            if y["k"] != "loop" or x["k"] != "loop" or \
                    not any(a["kind"] == "mat" for a in y["args"]):
                continue
            wrote = {a["dat"] for a in x["args"] if a["kind"] == "dat" and arg_writes(a)}
            read = [a for a in y["args"] if a["kind"] == "dat" and a["dat"] in wrote]
            if read:
                out.add("mat_after_write")
            if any(a["map"] is None for a in read):
                out.add("mat_direct")
    for lp in all_loops(model):
        if lp.get("region"):
            out.add("extruded")
            if lp["region"] != "all":
                out.add("extruded_region")
            maps = [by_name(model["maps"], a["map"]) for a in lp["args"]
                    if a["kind"] == "dat" and a["map"]]
            if any(any(m["shift"]) for m in maps if m["kind"] == "extruded"):
                out.add("extruded_shift")
            if set_columns(model, lp["set"]) is not None:
                out.add("extruded_columns")
    return out


# ---------------------------------------------------------------------------
# Validation

class Problems(list):
    def add(self, fmt, *args):
        self.append(fmt % args if args else fmt)


def validate(model, mpi=True):
    p = Problems()
    sets = sizes_of(model)
    names = set()
    for kind in ("sets", "maps", "dats", "globals", "consts", "params", "arrays"):
        for it in model[kind]:
            if it["name"] in names:
                p.add("duplicate name %s", it["name"])
            names.add(it["name"])
    for s in model["sets"]:
        if s["size"] < 0:
            p.add("set %s has a negative size", s["name"])
        if s.get("base"):
            b = by_name(model["sets"], s["base"])
            if b is None or b.get("base") or not 1 <= s["layers"] <= 6 or \
                    s["size"] != b["size"] * s["layers"]:
                p.add("extruded set %s: base %s, %s layers", s["name"], s["base"], s["layers"])
            cols = s.get("columns")
            if b is not None and cols is not None and (
                    len(cols) != b["size"] or (cols and max(cols) != s["layers"]) or
                    any(c < 1 for c in cols) or s.get("var")):
                p.add("extruded set %s: columns %s over %s", s["name"], cols, s["base"])
            if s.get("handle"):
                p.add("extruded set %s: a handle style", s["name"])
    for m in model["maps"]:
        if m["from"] not in sets or m["to"] not in sets:
            p.add("map %s: unknown set", m["name"])
            continue
        if m["kind"] == "extruded":
            _validate_extruded_map(model, m, p)
            continue
        if is_extruded(model, m["from"]) or is_extruded(model, m["to"]):
            p.add("map %s: a map formula between extruded sets", m["name"])
        if not 1 <= m["arity"] <= 4:
            p.add("map %s: arity %d", m["name"], m["arity"])
        if sets[m["to"]] == 0 and sets[m["from"]] > 0:
            p.add("map %s: empty target set", m["name"])
        if m["kind"] == "dup" and m["arity"] < 2:
            p.add("map %s: dup needs arity >= 2", m["name"])
    for d in model["dats"]:
        if d["set"] not in sets:
            p.add("dat %s: unknown set", d["name"])
        elif d.get("handle") and is_extruded(model, d["set"]):
            p.add("dat %s on an extruded set: a handle style", d["name"])
        if d["dim"] not in (1, 2, 3, 4, 8):
            p.add("dat %s: dim %d", d["name"], d["dim"])
    for g in model["globals"]:
        if not 0 <= g["dim"] <= 4:
            p.add("global %s: dim %d", g["name"], g["dim"])
    if p:
        return p
    _validate_prologue(model, p)
    _validate_body(model, p, mpi)
    _validate_prints(model, p)
    if p:
        return p
    _validate_hints(model, p, mpi)
    _validate_used(model, p)
    _validate_kernels(model, p)
    return p


def _validate_extruded_map(model, m, p):
    f, t = by_name(model["sets"], m["from"]), by_name(model["sets"], m["to"])
    if not f.get("base") or not t.get("base"):
        p.add("extruded map %s between sets that are not extruded", m["name"])
        return
    if len(m["shift"]) != m["arity"] or not 1 <= m["arity"] <= 4:
        p.add("extruded map %s: %d shifts, arity %d", m["name"], len(m["shift"]), m["arity"])
    if m.get("handle"):
        p.add("extruded map %s: a handle style", m["name"])
    if m["base"] is None:
        if f["base"] != t["base"]:
            p.add("extruded map %s: the identity between bases %s and %s", m["name"],
                  f["base"], t["base"])
        return
    b = by_name(model["maps"], m["base"])
    if b is None or b["kind"] == "extruded" or b["from"] != f["base"] or \
            b["to"] != t["base"] or b["arity"] != m["arity"]:
        p.add("extruded map %s: base map %s", m["name"], m["base"])


def kernel_signature(model, lp):
    """What a kernel's code depends on: loops that share a kernel (kname) agree."""
    sig = [lp["k"], lp.get("heavy", False), tuple(lp.get("consts", ()))]
    for a in lp["args"]:
        if lp["k"] == "aloop":
            arr = by_name(model["arrays"], a["arr"]) or {}
            sig.append((a["mode"], arr.get("type", "double")))
        elif a["kind"] in ("idx", "idxmap"):
            sig.append(("idx",))
        elif a["kind"] == "global":
            g = by_name(model["globals"], a["g"]) or {}
            sig.append(("g", a["mode"], g.get("type"), max(1, g.get("dim", 0))))
        elif a["kind"] == "mat":
            A = by_name(model.get("mats", []), a["mat"]) or {}
            ar = (by_name(model["maps"], a["map"]) or {}).get("arity")
            sig.append(("mat", a["mode"], ar, A.get("dim")))
        else:
            d = by_name(model["dats"], a["dat"]) or {}
            ar = 0
            if a["slot"] == "*":
                ar = (by_name(model["maps"], a["map"]) or {}).get("arity")
            sig.append(("d", a["mode"], d.get("type"), d.get("dim"), ar))
    return tuple(sig)


def _validate_kernels(model, p):
    first = {}
    for st, _, _ in walk(model["body"]):
        if st["k"] in ("loop", "aloop"):
            kn = st.get("kname") or st["id"]
            sig = kernel_signature(model, st)
            if kn in first and first[kn] != sig:
                p.add("loop %s shares kernel k%s with a different signature", st["id"], kn)
            first.setdefault(kn, sig)


def _validate_prints(model, p):
    for name in model["prints"]:
        if not (by_name(model["dats"], name) or by_name(model["globals"], name)
                or by_name(model["arrays"], name) or by_name(model.get("mats", []), name)):
            p.add("print of unknown %s", name)
        d = by_name(model["dats"], name)
        if d and d["decl"] != "top" and not any(
                st["k"] == "decl" and st["dat"] == name for st in model["body"]):
            p.add("print of %s, which is not declared in main's block", name)


def _validate_used(model, p):
    """Everything declared is used (the C compilers warn about unused variables)."""
    used = set(model["prints"]) | prologue_names(model)
    for st, _, _ in walk(model["body"]):
        used |= stmt_names(model, st)
        if st["k"] == "loop":
            for a in st["args"]:
                if a.get("map"):
                    used.add(a["map"])
        if st["k"] == "aloop":
            used.add(st["dom"]["param"])
        if st["k"] == "host" and st["op"] == "size":
            used.add(st["set"])
    for c in model["consts"]:
        if not any(c["name"] in lp["consts"] for lp in all_loops(model)):
            p.add("const %s is read by no kernel", c["name"])
    for g in model["globals"]:
        if g["name"] not in used:
            p.add("global %s unused", g["name"])
    for a in model["arrays"]:
        if a["name"] not in used:
            p.add("array %s unused", a["name"])
    for q in model["params"]:
        if q["name"] not in used:
            p.add("param %s unused", q["name"])


def _validate_body(model, p, mpi):
    sets = sizes_of(model)
    top = {d["name"] for d in model["dats"] if d["decl"] == "top"}
    declared_stmt = set()
    ids = set()

    def visit(body, scope, loopdepth):
        scope = set(scope)
        for st in body:
            k = st["k"]
            if k == "decl":
                d = by_name(model["dats"], st["dat"])
                if d is None or d["decl"] != "stmt":
                    p.add("decl of %s, not a statement-declared dat", st["dat"])
                elif st["dat"] in declared_stmt:
                    p.add("dat %s declared twice", st["dat"])
                else:
                    declared_stmt.add(st["dat"])
                    scope.add(st["dat"])
            elif k == "loop":
                if st["id"] in ids:
                    p.add("loop id %s twice", st["id"])
                ids.add(st["id"])
                _validate_loop(model, st, scope, p)
            elif k == "aloop":
                if st["id"] in ids:
                    p.add("loop id %s twice", st["id"])
                ids.add(st["id"])
                _validate_aloop(model, st, p)
            elif k == "for":
                if not (0 if st.get("var") else 1) <= st["n"] <= (4 if st.get("var") else 3):
                    p.add("time loop count %d", st["n"])
                visit(st["body"], scope, loopdepth + 1)
            elif k == "if":
                c = st["cond"]
                if "it" in c and c["it"] >= loopdepth:
                    p.add("if on a time loop variable outside its loop")
                if "g" in c and not by_name(model["globals"], c["g"]):
                    p.add("if on unknown global %s", c["g"])
                if "c" in c and not by_name(model["consts"], c["c"]):
                    p.add("if on unknown const %s", c["c"])
                visit(st["body"], scope, loopdepth)
                if st.get("else") is not None:
                    visit(st["else"], scope, loopdepth)
            elif k == "block":
                visit(st["body"], scope, loopdepth)
            elif k == "host":
                _validate_host(model, st, scope, p)
            elif k == "hint":
                if st["kind"] not in ("pin", "pin_cse"):
                    p.add("hint kind %s", st["kind"])
            else:
                p.add("unknown statement %s", k)

    visit(model["body"], top, 0)
    for d in model["dats"]:
        if d["decl"] == "stmt" and d["name"] not in declared_stmt:
            p.add("dat %s is never declared", d["name"])


def _validate_host(model, st, scope, p):
    op = st["op"]
    if op == "fetch":
        if st["dat"] not in scope:
            p.add("fetch of %s out of scope", st["dat"])
    elif op in ("print_g", "reset_g", "bump_g"):
        if not by_name(model["globals"], st["g"]):
            p.add("host use of unknown global %s", st["g"])
        elif by_name(model["globals"], st["g"])["const"] and op != "print_g":
            p.add("reset of const global %s", st["g"])
    elif op == "derive_g":
        gd, gs = by_name(model["globals"], st["dst"]), by_name(model["globals"], st["src"])
        if not gd or not gs or gd["const"]:
            p.add("bad derive %s <- %s", st["dst"], st["src"])
    elif op == "set_c":
        if not by_name(model["consts"], st["c"]):
            p.add("set of unknown const %s", st["c"])
        if st.get("src") and not by_name(model["globals"], st["src"]):
            p.add("set_c from unknown global %s", st["src"])
    elif op == "size":
        if st["set"] not in sizes_of(model):
            p.add("size of unknown set %s", st["set"])
    elif op == "block_size":
        pass
    elif op == "sync":
        for n in st["names"]:
            if not (n in scope or by_name(model["globals"], n)):
                p.add("sync of %s out of scope", n)
        if not st["names"]:
            p.add("empty sync")
    else:
        p.add("unknown host op %s", op)


def _validate_loop(model, lp, scope, p):
    sets = sizes_of(model)
    s = lp["set"]
    if s not in sets:
        p.add("loop %s: unknown set %s", lp["id"], s)
        return
    if not lp["args"]:
        p.add("loop %s: no arguments", lp["id"])
        return
    gl_seen = set()
    idx_seen = 0
    outputs = 0
    for c in lp["consts"]:
        if not by_name(model["consts"], c):
            p.add("loop %s: unknown const %s", lp["id"], c)
    extruded = is_extruded(model, s)
    region = lp.get("region")
    if (region is not None) != extruded or extruded and region not in REGIONS:
        p.add("loop %s: region %s over %s", lp["id"], region, s)
    for a in lp["args"]:
        kind = a["kind"]
        if extruded and kind in ("idx", "idxmap", "mat"):
            p.add("loop %s: %s over an extruded set", lp["id"], kind)
        if extruded and kind == "dat" and a["map"] is not None:
            m = by_name(model["maps"], a["map"])
            if m is not None and m["kind"] == "extruded" and m["from"] == s and not shift_fits(
                    model, m, range(m["arity"]) if a["slot"] == "*" else [a["slot"]], region):
                p.add("loop %s: %s leaves its columns from region %s", lp["id"], a["map"], region)
        if kind in ("dat", "idxmap") and a.get("map") is not None:
            m = by_name(model["maps"], a["map"])
            if m is None:
                p.add("loop %s: unknown map %s", lp["id"], a["map"])
                continue
            if m["from"] != s:
                p.add("loop %s: map %s from %s", lp["id"], a["map"], m["from"])
            if a["slot"] != "*" and not 0 <= a["slot"] < m["arity"]:
                p.add("loop %s: slot %s of %s", lp["id"], a["slot"], a["map"])
            if kind == "idxmap" and a["slot"] == "*":
                p.add("loop %s: idx[map[*]]", lp["id"])
        if kind == "dat":
            d = by_name(model["dats"], a["dat"])
            if d is None or a["dat"] not in scope:
                p.add("loop %s: dat %s not in scope", lp["id"], a["dat"])
                continue
            want = s if a["map"] is None else by_name(model["maps"], a["map"])["to"]
            if d["set"] != want:
                p.add("loop %s: dat %s on %s, wanted %s", lp["id"], a["dat"], d["set"], want)
            if a["mode"] not in ("read", "write", "rw") + COMMUTING:
                p.add("loop %s: dat mode %s", lp["id"], a["mode"])
            if a["mode"] != "read":
                outputs += 1
        elif kind == "global":
            g = by_name(model["globals"], a["g"])
            if g is None:
                p.add("loop %s: unknown global %s", lp["id"], a["g"])
                continue
            if a["g"] in gl_seen:
                p.add("loop %s: global %s twice", lp["id"], a["g"])
            gl_seen.add(a["g"])
            if a["mode"] not in ("read",) + GLOBAL_RED:
                p.add("loop %s: global mode %s", lp["id"], a["mode"])
            if g["const"] and a["mode"] != "read":
                p.add("loop %s: const global %s reduced", lp["id"], a["g"])
            if a["mode"] != "read":
                outputs += 1
        elif kind == "idx":
            idx_seen += 1
        elif kind == "idxmap":
            pass
        elif kind == "mat":
            A = by_name(model.get("mats", []), a["mat"])
            m = by_name(model["maps"], a["map"])
            if A is None or m is None or A["map"] != a["map"] or m["from"] != s:
                p.add("loop %s: matrix %s through %s", lp["id"], a["mat"], a["map"])
            if a["mode"] not in ("inc", "write"):
                p.add("loop %s: matrix mode %s", lp["id"], a["mode"])
            outputs += 1
        else:
            p.add("loop %s: arg kind %s", lp["id"], kind)
    if idx_seen > 1:
        p.add("loop %s: idx twice", lp["id"])
    if outputs == 0:
        p.add("loop %s: no output", lp["id"])
    # Order independence: per dat, all reads; one direct write/rw; all inc
    # (all min, all max); or writes/rws through maps that reach each target
    # at most once.
    for dname in {a["dat"] for a in lp["args"] if a["kind"] == "dat"}:
        args = loop_dat_args(lp, dname)
        modes = {a["mode"] for a in args}
        if modes == {"read"} or len(modes) == 1 and modes <= set(COMMUTING):
            continue
        if len(args) == 1 and args[0]["map"] is None:
            continue  # one direct write or rw
        if "read" in modes or modes & set(COMMUTING) or any(a["map"] is None for a in args):
            p.add("loop %s: dat %s accessed in an order-dependent way", lp["id"], dname)
            continue
        if len({a["map"] for a in args}) != 1 or len(modes) != 1:
            p.add("loop %s: dat %s written through several maps or modes", lp["id"], dname)
            continue
        m = by_name(model["maps"], args[0]["map"])
        slots = set()
        for a in args:
            slots |= set(range(m["arity"])) if a["slot"] == "*" else {a["slot"]}
        if len(slots) != sum(m["arity"] if a["slot"] == "*" else 1 for a in args):
            p.add("loop %s: dat %s written twice through one slot", lp["id"], dname)
            continue
        data = map_data(model, m["name"])
        run = region_run(model, s, region if extruded else None)
        targets = [data[e * m["arity"] + k] for e in run for k in sorted(slots)]
        if len(set(targets)) != len(targets):
            p.add("loop %s: dat %s written through a non-injective map %s",
                  lp["id"], dname, m["name"])


def _validate_aloop(model, lp, p):
    dom = lp["dom"]
    if not by_name(model["params"], dom["param"]):
        p.add("aloop %s: unknown param", lp["id"])
        return
    outputs = 0
    for a in lp["args"]:
        arr = by_name(model["arrays"], a["arr"])
        if arr is None:
            p.add("aloop %s: unknown array %s", lp["id"], a["arr"])
            continue
        if arr["param"] != dom["param"]:
            p.add("aloop %s: array %s sized by another parameter", lp["id"], a["arr"])
        if len(a["sub"]) != arr["rank"]:
            p.add("aloop %s: %s has rank %d", lp["id"], a["arr"], arr["rank"])
        for sub in a["sub"]:
            if dom["rank"] == 1 and sub.get("j"):
                p.add("aloop %s: j in a 1-D domain", lp["id"])
        if a["mode"] != "read":
            outputs += 1
    if outputs == 0:
        p.add("aloop %s: no output", lp["id"])


# ---------------------------------------------------------------------------
# Hints

def ancestors(body, target, stack=()):
    """The statements enclosing target, outermost first (None: not found)."""
    for st in body:
        if st is target:
            return list(stack)
        for key in ("body", "else"):
            if st.get(key) is not None:
                r = ancestors(st[key], target, stack + (st,))
                if r is not None:
                    return r
    return None


def in_time_loop(model, st):
    return any(a["k"] == "for" for a in ancestors(model["body"], st) or [])


def find_stmt(body, pred):
    """(containing list, index) of the first statement satisfying pred."""
    for st, _, lst in walk(body):
        if pred(st):
            return lst, next(i for i, x in enumerate(lst) if x is st)
    return None, None


def _validate_hints(model, p, mpi):
    seen = set()
    for st, _, _ in walk(model["body"]):
        if st["k"] != "hint":
            continue
        if st["temp"] in seen:
            p.add("two hints for %s", st["temp"])
        seen.add(st["temp"])
        if by_name(model["arrays"], st["temp"]):
            why = affine_hint_problem(model, st)
        else:
            why = mesh_hint_problem(model, st, mpi, model.get("avoid", ()))
        if why:
            p.add("%s(%s): %s", st["kind"], st["temp"], why)


def mesh_hint_problem(model, hint, mpi=True, avoid=()):
    """Why #pragma loom HINT(t) is not legal (transformations.md section 4), or None."""
    t = hint["temp"]
    d = by_name(model["dats"], t)
    if d is None or not d["temp"]:
        return "not a temporary"
    if t in model["prints"]:
        return "printed at the end"
    users = [(st, lst) for st, _, lst in walk(model["body"])
             if st["k"] == "loop" and loop_dat_args(st, t)]
    for st, _, _ in walk(model["body"]):
        if st["k"] == "host" and t in names_in_host(st):
            return "named by host code"
    writers = [(st, lst) for st, lst in users if any(arg_writes(a) for a in loop_dat_args(st, t))]
    if len(writers) != 1:
        return "%d producers" % len(writers)
    prod, block = writers[0]
    pargs = loop_dat_args(prod, t)
    if len(pargs) != 1 or pargs[0]["mode"] != "write" or pargs[0]["map"] is not None:
        return "the producer does not write it directly with mode write"
    if any(lst is not block for _, lst in users):
        return "used by a loop of another block"
    # the hint must stand in the function before the producer
    hl, hi = find_stmt(model["body"], lambda s: s is hint)
    if hl is None:
        return "hint not in the body"
    order = [s for s, _, _ in walk(model["body"])]
    if order.index(hint) > order.index(prod):
        return "hint after its producer"
    if hint["kind"] == "pin_cse":
        return None
    # pin
    for a in prod["args"]:
        if a is pargs[0]:
            continue
        if arg_writes(a):
            return "the producer has another effect"
        if a["kind"] == "idx" and "pin_idx" in avoid:
            return "avoided: idx in a pinned producer (known bug)"
        if a["kind"] == "idxmap" and "pin_idx" in avoid:
            return "avoided: idx in a pinned producer (known bug)"
    pi = next(i for i, x in enumerate(block) if x is prod)
    readers = [i for i, x in enumerate(block) if x["k"] == "loop" and x is not prod
               and loop_dat_args(x, t)]
    if not readers:
        return "no consumer"
    if min(readers) < pi:
        return "a consumer reads it before the producer"
    if is_extruded(model, t):
        # evaluated at the consumer's own cell (extruded.md)
        for i in readers:
            if any(a["map"] is not None for a in loop_dat_args(block[i], t)):
                return "extruded: a consumer reads it through a map"
            if prod.get("region", "all") not in ("all", block[i].get("region", "all")):
                return "extruded: the producer runs fewer layers than a consumer"
    if mpi and _reached_through_map(model, block, t) and any(
            a["kind"] in ("dat", "idxmap") and a.get("map") is not None
            for a in prod["args"]):
        # a consumer (or, down a chain of pinned temporaries, the loop that
        # evaluates one) reaches the producer's elements through a map: at
        # halo elements its own map rows are not held by any rank
        return "mpi: the producer reads through a map and is evaluated through one"
    # nothing the producer reads changes before the last loop evaluating it
    # (down a chain: the last consumer of a pinned temporary it feeds)
    inputs = loop_reads(prod)
    last = _last_evaluation(model, block, t)
    for i in range(pi + 1, last + 1):
        if stmt_writes(model, block[i]) & inputs:
            return "an input of the producer is written before the last consumer"
    return None


def _pinned(model, block, t):
    return any(st["k"] == "hint" and st["kind"] == "pin" and st["temp"] == t
               for st, _, _ in walk(model["body"]))


def _consumers(block, t):
    """(index, loop) of the loops of block that read t and do not write it."""
    return [(i, x) for i, x in enumerate(block)
            if x["k"] == "loop" and loop_dat_args(x, t)
            and not any(arg_writes(a) for a in loop_dat_args(x, t))]


def _produced(lp):
    """The temporaries a loop writes directly with mode write."""
    return [a["dat"] for a in lp["args"]
            if a["kind"] == "dat" and a["map"] is None and a["mode"] == "write"]


def _reached_through_map(model, block, t, depth=0):
    """Whether a loop evaluating t's producer reaches t through a map: a
    consumer reading t through a map, or the consumer of a pinned
    temporary whose producer reads t, reached through one (a chain)."""
    for _, c in _consumers(block, t):
        if any(a["map"] is not None for a in loop_dat_args(c, t)):
            return True
        for u in _produced(c):
            if depth < 8 and _pinned(model, block, u) and _reached_through_map(
                    model, block, u, depth + 1):
                return True
    return False


def _last_evaluation(model, block, t, depth=0):
    """The index of the last loop of block evaluating t's producer."""
    last = -1
    for i, c in _consumers(block, t):
        last = max(last, i)
        for u in _produced(c):
            if depth < 8 and _pinned(model, block, u):
                last = max(last, _last_evaluation(model, block, u, depth + 1))
    return last


def affine_hint_problem(model, hint):
    """Why an affine pin/pin_cse hint is not legal (affine.md, Temporaries), or None."""
    t = hint["temp"]
    if t in model["prints"]:
        return "printed at the end"
    users = [(st, lst) for st, _, lst in walk(model["body"])
             if st["k"] == "aloop" and any(a["arr"] == t for a in st["args"])]
    writers = [(st, lst) for st, lst in users
               if any(a["arr"] == t and a["mode"] != "read" for a in st["args"])]
    if len(writers) != 1:
        return "%d producers" % len(writers)
    prod, block = writers[0]
    targs = [a for a in prod["args"] if a["arr"] == t]
    if len(targs) != 1:
        return "the producer names it twice"
    if sum(1 for a in prod["args"] if a["mode"] != "read") != 1:
        return "the producer writes something else"
    if any(lst is not block for _, lst in users):
        return "named by a loop of another block"
    pi = next(i for i, x in enumerate(block) if x is prod)
    readers = [i for i, x in enumerate(block)
               if x["k"] == "aloop" and x is not prod and any(a["arr"] == t for a in x["args"])]
    if not readers or min(readers) < pi:
        return "no consumer after the producer, or one before it"
    for i in readers:
        if any(a["arr"] == t and a["mode"] != "read" for a in block[i]["args"]):
            return "a consumer writes it"
    if hint["kind"] == "pin_cse" and len(readers) != 1:
        return "pin_cse with several consumers"
    # the producer must not itself consume a hinted temporary
    hinted = {st["temp"] for st, _, _ in walk(model["body"]) if st["k"] == "hint"}
    if any(a["arr"] in hinted and a["mode"] == "read" for a in prod["args"]):
        return "the producer reads a hinted temporary"
    inputs = {a["arr"] for a in prod["args"] if a["mode"] == "read"}
    for i in range(pi + 1, max(readers) + 1):
        if stmt_writes(model, block[i]) & inputs:
            return "an input of the producer is written before the last consumer"
        if block[i]["k"] not in ("aloop",) and stmt_names(model, block[i]) & (inputs | {t}):
            return "host code names an input in between"
    # coverage: every element a consumer reads is written by the producer
    if not _covers(model, prod, t, [block[i] for i in readers]):
        return "a consumer reads an element the producer does not write"
    if in_time_loop(model, prod) and targs[0]["mode"] != "write":
        return "an inc/rw producer inside a time loop"
    return None


def aloop_points(model, lp):
    n = by_name(model["params"], lp["dom"]["param"])["value"]
    shape = lp["dom"]["shape"]
    if shape == "1d":
        return [(i, 0) for i in range(n)]
    if shape == "1d+":
        return [(i, 0) for i in range(n + 1)]
    if shape == "2d":
        return [(i, j) for i in range(n) for j in range(n)]
    if shape == "tri":
        return [(i, j) for i in range(n) for j in range(i + 1)]
    raise ValueError(shape)


def sub_value(sub, i, j):
    return sub.get("i", 0) * i + sub.get("j", 0) * j + sub.get("c", 0)


def _footprint(model, lp, arr, modes):
    out = set()
    for i, j in aloop_points(model, lp):
        for a in lp["args"]:
            if a["arr"] == arr and a["mode"] in modes:
                out.add(tuple(sub_value(s, i, j) for s in a["sub"]))
    return out


def _covers(model, prod, t, consumers):
    written = _footprint(model, prod, t, ("write", "rw", "inc"))
    for c in consumers:
        if not _footprint(model, c, t, ("read",)) <= written:
            return False
    return True


def dumps(model):
    return json.dumps(model, indent=1, sort_keys=True)


def clone(model):
    return copy.deepcopy(model)
