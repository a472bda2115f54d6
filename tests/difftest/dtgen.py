"""Random generation of valid program models (see dtmodel.py for the model).

generate(seed, options) -> model.  The same seed and options always give the
same model.  Options:

  idx_map   generate idx[map[i]] arguments (loomc accepts them from the
            version that implements OP2's op_arg_idx)
  avoid     a list of known-bug patterns not to generate (see KNOWN below),
            so that a run finds new bugs instead of the known ones
  affine    generate affine loops (domain(...)) too
  max_size  the largest set size
"""

import math
import random

from dtmodel import (by_name, map_data, validate, walk, loop_dat_args, kernel_signature,
                     mesh_hint_problem, affine_hint_problem, all_loops, classic_prologue,
                     decl_needs, is_extruded, shift_fits, REGIONS)

# Known bugs (/work/shared/regressions) the generator can steer clear of.
# Each maps to what the generator does instead.
KNOWN = {
    "const_fusion": "no host write of a file-scope constant after the first loop",
    "idx_renumber": "programs with idx skip the renumbering configurations",
    "pin_idx": "no idx in the producer of a pinned temporary",
    "omp_direct_inc": "no dat incremented both directly and through a map in one loop",
    "affine_loop_carried": "no inc/rw affine temporary read in a time loop",
    "mpi_pin_halo_end": "no pin of a temporary whose consumer exchanges a halo (mpi)",
    "omp_fused_inc": "programs with two consecutive loops over one set that both "
                     "write through maps or both reduce skip the OpenMP configurations",
    "mpi_halo_nested": "programs where a dat is exchanged inside a nested statement and "
                       "outside it skip the MPI configurations",
    "pinned_unused_map": "no pin of a temporary that a consumer reads through a map",
}

DEFAULTS = {"idx_map": True, "avoid": [], "affine": True, "max_size": 3000, "modular": True,
            "mats": True}


class Gen:
    def __init__(self, seed, options):
        self.seed = seed
        self.r = random.Random(seed)
        self.o = dict(DEFAULTS)
        self.o.update(options or {})
        self.avoid = set(self.o["avoid"])
        self.m = {"version": 1, "seed": seed, "options": self.o, "sets": [], "maps": [],
                  "dats": [], "globals": [], "consts": [], "params": [], "arrays": [],
                  "mats": [],
                  "body": [], "prints": [], "skip": [], "avoid": sorted(self.avoid)}
        # Loops name some handles through a struct (dtemit.py: struct_name);
        # drawn apart so that the other choices of a seed stay as they were.
        self.m["via_struct"] = (self.o["modular"] and
                                random.Random(seed * 7919 + 1).random() < 0.35)
        # In half of those, more loops in functions main calls (dtemit.py:
        # in_helper), drawn apart too.
        self.m["helpers_more"] = (self.m["via_struct"] and
                                  random.Random(seed * 6007 + 11).random() < 0.5)
        # Matrices in about one program in six (they need PETSc), drawn apart too.
        self.use_mats = (self.o.get("mats", True) and
                         random.Random(seed * 31337 + 5).random() < 0.17)
        # The counts of time loops held in variables, drawn apart for the same reason.
        self.bounds = random.Random(seed * 104729 + 3)
        # In four matrix programs in five, one or two matrix-assembling loops
        # right after a loop writing a dat they read (gen_mat_pair).
        self.mat_pairs = 0
        if self.use_mats and random.Random(seed * 7727 + 9).random() < 0.8:
            self.mat_pairs = random.Random(seed * 7727 + 10).choice([1, 1, 2])
        self.pairs_made = 0
        self.counter = {}
        self.loop_id = 0
        self.first_loop_done = False
        self.cur_region = None  # the region of the loop over an extruded set being made
        self.written = set()  # dats some loop has written (producers for later reads)
        self.reserved = set()  # temporaries kept for pin/pin_cse: one producer, no host use
        self.made = []  # the loops made so far

    # -- names and small choices -----------------------------------------------
    def name(self, prefix):
        n = self.counter.get(prefix, 0)
        self.counter[prefix] = n + 1
        return "%s%d" % (prefix, n)

    def chance(self, p):
        return self.r.random() < p

    def size(self):
        r = self.r.random()
        if r < 0.07:
            n = 0
        elif r < 0.14:
            n = 1
        elif r < 0.75:
            n = self.r.randint(2, 200)
        elif r < 0.93:
            n = self.r.randint(201, 700)
        else:
            n = self.r.randint(701, 3000)
        return min(n, self.o["max_size"])

    def sizes(self):
        return {s["name"]: s["size"] for s in self.m["sets"]}

    # -- declarations -------------------------------------------------------------
    def gen_sets_maps(self):
        nsets = self.r.choice([1, 2, 2, 3, 3, 4])
        for _ in range(nsets):
            self.m["sets"].append({"name": self.name("s"), "size": self.size()})
        names = [s["name"] for s in self.m["sets"]]
        sizes = self.sizes()
        for _ in range(self.r.choice([0, 1, 2, 2, 3, 4, 5])):
            f, t = self.r.choice(names), self.r.choice(names)
            if sizes[t] == 0 and sizes[f] > 0:
                continue
            self.add_map(f, t)
        # a self map on one set, often (inc: x, x[next[0]])
        if self.chance(0.5):
            s = self.r.choice(names)
            if sizes[s] > 0 or True:
                self.add_map(s, s, arity=1, kind=self.r.choice(["shift", "perm", "rand"]))

    def gen_extruded(self):
        """In about one program in four, from an RNG of its own: one or two
        extruded sets over base sets (1-4 layers), sometimes with a set of
        one layer more over the same or another base (the points over the
        cells' layers), and extruded maps between them: through a base map
        or the identity, their shifts inside the target's columns from every
        layer (0 .. Lt - Lf), or reaching one layer up (valid over the
        interior and the bottom) or down (over the top)."""
        r = random.Random(self.seed * 6007 + 11)
        plain = [s for s in self.m["sets"]]
        if r.random() >= 0.25 or not plain:
            return
        made = []
        for _ in range(r.choice([1, 1, 2])):
            b = r.choice(plain)
            x = self.add_xset(r, b, r.randint(1, 4))
            made.append(x)
            if r.random() < 0.6:
                maps = [mp for mp in self.m["maps"] if mp["from"] == b["name"]
                        and mp["kind"] != "extruded"]
                b2 = by_name(self.m["sets"], r.choice(maps)["to"]) if maps and \
                    r.random() < 0.7 else b
                made.append(self.add_xset(r, b2, x["layers"] + 1, x))
        for x in made:
            for _ in range(r.choice([1, 1, 2, 3])):
                y = r.choice(made)
                self.add_xmap(r, x, y)

    def add_xset(self, r, base, layers, under=None):
        """An extruded set of `layers` over base; in about one in two,
        declared by columns: each column 1 to `layers` high, or, over the
        set `under` (the cells below these points), one higher than the
        highest column of `under` that reaches it through a base map (or
        stands on it), so that maps one layer up stay in their columns."""
        x = {"name": self.name("x"), "size": base["size"] * layers, "base": base["name"],
             "layers": layers, "var": r.random() < 0.3}
        if under is None and r.random() < 0.5 and base["size"] > 0:
            x["columns"] = [r.randint(1, layers) for _ in range(base["size"])]
        elif under is not None and under.get("columns") is not None:
            x["columns"] = self.columns_over(under, base)
        if x.get("columns") is not None:
            x["var"] = False
            x["layers"] = max(x["columns"]) if x["columns"] else 1
            x["size"] = base["size"] * x["layers"]
        self.m["sets"].append(x)
        return x

    def columns_over(self, under, base):
        """Each column of base one higher than the highest column of
        `under` that stands on it or reaches it through a map of the bases."""
        top = [0] * base["size"]
        cols = under["columns"]
        if under["base"] == base["name"]:
            for c, h in enumerate(cols):
                top[c] = max(top[c], h)
        for mp in self.m["maps"]:
            if mp["kind"] == "extruded" or mp["from"] != under["base"] or mp["to"] != base["name"]:
                continue
            data = map_data(self.m, mp["name"])
            for k, t in enumerate(data):
                top[t] = max(top[t], cols[k // mp["arity"]])
        return [h + 1 for h in top]

    def add_xmap(self, r, x, y):
        lf, lt = x["layers"], y["layers"]
        bases = [mp for mp in self.m["maps"] if mp["kind"] != "extruded"
                 and mp["from"] == x["base"] and mp["to"] == y["base"]]
        if x["base"] == y["base"] and (not bases or r.random() < 0.5):
            base, ar = None, r.choice([1, 2, 2, 3])
        elif bases:
            bm = r.choice(bases)
            base, ar = bm["name"], bm["arity"]
        else:
            return
        if self.sizes()[y["name"]] == 0 and self.sizes()[x["name"]] > 0:
            return
        how = r.random()
        if x is y and lf >= 2 and how < 0.25:
            shift = [r.choice([0, 1]) for _ in range(ar)]  # up: interior, bottom
        elif x is y and lf >= 2 and how < 0.35:
            shift = [r.choice([-1, 0]) for _ in range(ar)]  # down: top
        elif lt >= lf:
            shift = [r.randint(0, lt - lf) for _ in range(ar)]
        else:
            return
        mp = {"name": self.name("m"), "from": x["name"], "to": y["name"], "arity": ar,
              "kind": "extruded", "base": base, "shift": shift}
        self.m["maps"].append(mp)

    def add_map(self, f, t, arity=None, kind=None):
        sizes = self.sizes()
        ar = arity or self.r.choice([1, 1, 2, 2, 2, 3, 4])
        kinds = ["rand", "rand", "few", "shift"]
        if ar >= 2:
            kinds.append("dup")
        if sizes[f] * ar <= sizes[t]:
            kinds += ["perm", "perm"]
        kind = kind or self.r.choice(kinds)
        if kind == "perm" and sizes[f] * ar > sizes[t]:
            kind = "rand"
        if kind == "dup" and ar < 2:
            kind = "rand"
        to = max(1, sizes[t])
        a = self.r.randint(1, 4000)
        if kind == "perm":
            a = self.r.randint(1, max(1, to - 1)) if to > 1 else 1
            while math.gcd(a, to) != 1:
                a += 1
        b = self.r.randint(0, to - 1) if kind in ("perm", "shift") else self.r.randint(1, 3)
        mp = {"name": self.name("m"), "from": f, "to": t, "arity": ar, "kind": kind,
              "a": a, "b": b}
        self.m["maps"].append(mp)
        return mp

    def new_dat(self, setname, temp, decl="top", dim=None, typ=None):
        d = {"name": self.name("t" if temp else "d"), "set": setname,
             "dim": dim or self.r.choice([1, 1, 1, 2, 2, 3, 4, 8]),
             "type": typ or self.r.choice(["double", "double", "double", "int"]),
             "temp": temp, "seed": self.r.randint(0, 9999), "decl": decl}
        self.m["dats"].append(d)
        return d

    def new_global(self, role):
        typ = self.r.choice(["double", "double", "int"])
        dim = self.r.choice([0, 0, 0, 1, 2, 3, 4])
        n = max(1, dim)
        if role == "min":
            init = [100000] * n
        elif role == "max":
            init = [-100000] * n
        else:
            init = [self.r.randint(0, 9) for _ in range(n)]
        g = {"name": self.name("g"), "type": typ, "dim": dim, "init": init,
             "const": role == "read" and self.chance(0.2), "role": role}
        if not g["const"] and self.chance(0.2):
            g["file"] = True  # a file-scope variable passed as a global argument
        self.m["globals"].append(g)
        return g

    def reset_value(self, g):
        return {"min": 100000, "max": -100000}.get(g["role"], 0)

    # -- mesh loops ------------------------------------------------------------------
    def maps_from(self, s):
        """The maps from s; from an extruded set, those whose every slot stays
        in its column over the region of the loop being made (all, outside
        one)."""
        region = self.cur_region or "all"
        return [mp for mp in self.m["maps"] if mp["from"] == s and (
            mp["kind"] != "extruded" or shift_fits(self.m, mp, range(mp["arity"]), region))]

    def dats_on(self, s, scope, temp=None):
        return [d for d in self.m["dats"] if d["set"] == s
                and (d["decl"] == "top" or d["name"] in scope)
                and (temp is None or d["temp"] == temp)]

    def injective_slots(self, mp):
        """The slots of mp through which writes reach each target at most once
        (all of them, or one of them, or none)."""
        data = map_data(self.m, mp["name"])
        ar = mp["arity"]
        if len(set(data)) == len(data):
            return list(range(ar))
        for k in range(ar):
            col = data[k::ar]
            if len(set(col)) == len(col):
                return [k]
        return []

    def pick_read_dat(self, s, scope, busy):
        cands = [d for d in self.dats_on(s, scope) if d["name"] not in busy]
        if not cands:
            return None
        fresh = [d for d in cands if d["name"] in self.written or not d["temp"]]
        pool = fresh if fresh and self.chance(0.8) else cands
        return self.r.choice(pool)

    def gen_loop(self, scope, ctx, set_hint=None, forced_out=None, pure=False, consume=None,
                 light=False, forced_mode="write", mat=None, extra_out=(), direct=False):
        """A mesh loop over a set (set_hint or random).  forced_out: a dat to write
        directly with forced_mode (a pure producer when pure: nothing else written,
        nothing reduced).  consume: a dat (or a list of dats) to read (directly or
        through a map).  mat: a map to assemble a matrix through (inc or write:
        A[mat, mat]).  extra_out: outputs to add as they are (dat arguments).
        direct: its other inputs read dats directly, none through a map."""
        sizes = self.sizes()
        s = set_hint or self.r.choice([x["name"] for x in self.m["sets"]])
        if mat is not None and is_extruded(self.m, s):
            s = mat["from"]
        region = None
        if is_extruded(self.m, s):
            region = "all" if consume is not None or (
                forced_out is not None and self.chance(0.6)) else self.r.choice(
                ["all", "all", "all"] + list(REGIONS[1:]))
        self.cur_region = region
        args, busy, out_dats = [], set(), set()
        used_globals = set()
        consumed = [] if consume is None else consume if isinstance(consume, list) else [consume]

        def add(a):
            args.append(a)

        # outputs
        if forced_out is not None:
            add({"kind": "dat", "dat": forced_out["name"], "mode": forced_mode, "map": None,
                 "slot": None})
            out_dats.add(forced_out["name"])
        for a in extra_out:
            add(a)
            out_dats.add(a["dat"])
        if mat is not None:
            self.gen_mat_output(mat, add, out_dats)
        nout = 0 if pure or mat is not None else 1 if light else self.r.choice([1, 1, 1, 2, 2, 3])
        if forced_out is None and nout == 0 and mat is None:
            nout = 1
        for t in consumed:
            out_dats.add(t["name"])  # read only, in this loop
        for _ in range(nout):
            self.gen_output(s, scope, ctx, add, out_dats, used_globals)
        # inputs
        busy = set(out_dats)
        for t in consumed:
            self.gen_consume(s, t, add)
        nin = self.r.choice([0, 1, 1, 2] if light else [0, 1, 1, 2, 2, 3, 4, 5])
        for _ in range(nin):
            self.gen_input(s, scope, add, busy, used_globals, pure, direct)
        self.r.shuffle(args)
        consts = []
        if self.chance(0.2):
            consts = [self.get_const()["name"]]
        self.loop_id += 1
        lp = {"k": "loop", "id": self.loop_id, "set": s, "args": args,
              "kseed": self.r.randint(0, 10 ** 6), "consts": consts,
              "heavy": self.chance(0.4)}
        if region is not None:
            lp["region"] = region
        self.cur_region = None
        if not any(a["kind"] != "idx" and a["kind"] != "idxmap" and a["mode"] != "read"
                   for a in args):
            # every input was refused and no output could be made: reduce into a global
            g = self.new_global("inc")
            args.append({"kind": "global", "g": g["name"], "mode": "inc"})
        for a in args:
            if a["kind"] == "dat" and a["mode"] != "read":
                self.written.add(a["dat"])
        self.first_loop_done = True
        self.share_kernel(lp)
        return lp

    def share_kernel(self, lp):
        """Sometimes, an earlier loop's kernel: two loops of one kernel in a block."""
        sig = kernel_signature(self.m, lp)
        same = [x for x in self.made if kernel_signature(self.m, x) == sig]
        if same and self.chance(0.6):
            lp["kname"] = same[0].get("kname") or same[0]["id"]
        self.made.append(lp)

    def gen_output(self, s, scope, ctx, add, out_dats, used_globals):
        sizes = self.sizes()
        choice = self.r.choice(["write", "write", "rw", "inc_map", "inc_map", "inc_direct",
                                "write_map", "reduce", "reduce", "mat"])
        maps = [mp for mp in self.maps_from(s)]
        if is_extruded(self.m, s) and choice in ("mat", "write_map"):
            choice = "inc_map"  # no matrices; writes through maps overlap along columns
        if choice == "mat" and self.use_mats:
            if maps:
                self.gen_mat_output(self.r.choice(maps), add, out_dats)
            return
        if choice == "mat":
            choice = "inc_map"
        if choice in ("write", "rw", "inc_direct"):
            cands = [d for d in self.dats_on(s, scope) if d["name"] not in out_dats
                     and d["name"] not in self.reserved]
            if choice == "write" and (not cands or self.chance(0.5)):
                d = self.new_dat(s, temp=self.chance(0.8), decl="top")
                ctx["new_top"].append(d["name"])
                scope.add(d["name"])
            elif not cands:
                return
            else:
                d = self.r.choice(cands)
            mode = {"write": "write", "rw": "rw", "inc_direct": self.commuting()}[choice]
            add({"kind": "dat", "dat": d["name"], "mode": mode, "map": None, "slot": None})
            out_dats.add(d["name"])
            return
        if choice == "inc_map" and maps:
            mp = self.r.choice(maps)
            cands = [d for d in self.dats_on(mp["to"], scope) if d["name"] not in out_dats
                     and d["name"] not in self.reserved]
            if not cands or self.chance(0.3):
                d = self.new_dat(mp["to"], temp=self.chance(0.7), decl="top")
                ctx["new_top"].append(d["name"])
                scope.add(d["name"])
            else:
                d = self.r.choice(cands)
            slot = "*" if self.chance(0.25) else self.r.randrange(mp["arity"])
            mode = self.commuting()
            add({"kind": "dat", "dat": d["name"], "mode": mode, "map": mp["name"], "slot": slot})
            if slot != "*" and mp["arity"] > 1 and self.chance(0.5):
                other = self.r.choice([k for k in range(mp["arity"]) if k != slot])
                add({"kind": "dat", "dat": d["name"], "mode": mode, "map": mp["name"],
                     "slot": other})
            if (mp["to"] == s and self.chance(0.5) and "omp_direct_inc" not in self.avoid):
                add({"kind": "dat", "dat": d["name"], "mode": mode, "map": None, "slot": None})
            out_dats.add(d["name"])
            return
        if choice == "write_map" and maps:
            mp = self.r.choice(maps)
            slots = self.injective_slots(mp)
            if not slots or sizes[s] == 0 and self.chance(0.5):
                return
            cands = [d for d in self.dats_on(mp["to"], scope) if d["name"] not in out_dats
                     and d["name"] not in self.reserved]
            if not cands or self.chance(0.4):
                d = self.new_dat(mp["to"], temp=self.chance(0.5), decl="top")
                ctx["new_top"].append(d["name"])
                scope.add(d["name"])
            else:
                d = self.r.choice(cands)
            mode = self.r.choice(["write", "rw"])
            if len(slots) == mp["arity"] and mp["arity"] > 1 and self.chance(0.4):
                add({"kind": "dat", "dat": d["name"], "mode": mode, "map": mp["name"], "slot": "*"})
            else:
                for k in self.r.sample(slots, self.r.randint(1, len(slots))):
                    add({"kind": "dat", "dat": d["name"], "mode": mode, "map": mp["name"],
                         "slot": k})
            out_dats.add(d["name"])
            return
        # a reduction into a global
        role = self.r.choice(["inc", "inc", "min", "max"])
        cands = [g for g in self.m["globals"] if g["name"] not in used_globals
                 and g["role"] == role]
        g = self.r.choice(cands) if cands and self.chance(0.5) else self.new_global(role)
        used_globals.add(g["name"])
        add({"kind": "global", "g": g["name"], "mode": role})

    def gen_mat_output(self, mp, add, out_dats):
        """inc: A[mp, mp] (or write: 3 in 10), A a matrix on mp's target set
        (block size 1 or 2): an existing one of that map, or a new one (two
        at most)."""
        mats = [x for x in self.m["mats"] if x["map"] == mp["name"]]
        if mats and (self.chance(0.7) or len(self.m["mats"]) >= 2):
            A = mats[0]
        elif len(self.m["mats"]) < 2:
            A = {"name": self.name("A"), "map": mp["name"], "set": mp["to"],
                 "dim": self.r.choice([1, 1, 2])}
            self.m["mats"].append(A)
            self.m["prints"].append(A["name"])
        else:
            return
        if A["name"] in out_dats:
            return
        mode = "write" if self.chance(0.3) else "inc"
        add({"kind": "mat", "mat": A["name"], "map": mp["name"], "mode": mode})
        out_dats.add(A["name"])

    def gen_mat_pair(self, scope, ctx):
        """A loop writing a dat x, then a loop assembling a matrix (inc or
        write: A[m, m]) that reads x directly — and sometimes, through a map,
        a dat y that the first loop also wrote (mpi_mat_read_unscheduled_halo.c):
        under MPI the assembling loop runs its executed halo, so the exchange
        of x the write made stale must be scheduled.  [] when no map allows it."""
        if len(self.m["mats"]) >= 2:
            maps = [by_name(self.m["maps"], A["map"]) for A in self.m["mats"]]
        else:
            maps = [mp for mp in self.m["maps"] if mp["kind"] != "extruded"]
        sizes = self.sizes()
        maps = [mp for mp in maps if sizes[mp["to"]] > 0 or sizes[mp["from"]] == 0]
        if not maps:
            return []
        mp = self.r.choice(maps)
        s = mp["from"]
        cands = [d for d in self.dats_on(s, scope) if d["name"] not in self.reserved]
        if cands and self.chance(0.4):
            x = self.r.choice(cands)
        else:
            x = self.new_dat(s, temp=self.chance(0.5), decl="top")
            ctx["new_top"].append(x["name"])
            scope.add(x["name"])
        # the writer: over s, x written directly (write, rw or inc); or, one
        # time in four, over a set with a map into s, x incremented through it
        into = [m2 for m2 in self.m["maps"] if m2["to"] == s and m2["kind"] != "extruded"]
        reads = [x]
        if into and self.chance(0.25):
            m2 = self.r.choice(into)
            extra = [{"kind": "dat", "dat": x["name"], "mode": "inc", "map": m2["name"],
                      "slot": "*" if self.chance(0.25) else self.r.randrange(m2["arity"])}]
            w = self.gen_loop(scope, ctx, set_hint=m2["from"], extra_out=extra, light=True)
        else:
            extra = []
            if self.chance(0.3):
                # y on the matrix's target set, incremented through its map by
                # the writer and read through a map by the assembling loop
                ys = [d for d in self.dats_on(mp["to"], scope)
                      if d["name"] not in self.reserved and d is not x]
                y = self.r.choice(ys) if ys and self.chance(0.5) else None
                if y is None:
                    y = self.new_dat(mp["to"], temp=self.chance(0.5), decl="top")
                    ctx["new_top"].append(y["name"])
                    scope.add(y["name"])
                extra.append({"kind": "dat", "dat": y["name"], "mode": "inc", "map": mp["name"],
                              "slot": "*" if self.chance(0.25) else
                              self.r.randrange(mp["arity"])})
                reads.append(y)
            mode = self.r.choice(["write", "rw", "rw", "inc"])
            w = self.gen_loop(scope, ctx, set_hint=s, forced_out=x, forced_mode=mode,
                              light=True, extra_out=extra)
        # half of the others read nothing through a map but the matrix's: the
        # loop would not be split into exchanges and parts for another reason
        a = self.gen_loop(scope, ctx, set_hint=s, consume=reads, mat=mp, light=True,
                          direct=len(reads) == 1 and self.chance(0.5))
        return [w, a]

    def commuting(self):
        """The mode of a dat's commuting update: mostly inc, else min or max
        (PyOP2's MIN/MAX access on dats)."""
        return self.r.choice(["inc", "inc", "inc", "min", "max"])

    def gen_consume(self, s, t, add):
        if t["set"] == s:
            add({"kind": "dat", "dat": t["name"], "mode": "read", "map": None, "slot": None})
            return
        maps = [mp for mp in self.maps_from(s) if mp["to"] == t["set"]]
        if not maps:
            return  # none from s's region (readers are chosen over every layer)
        mp = self.r.choice(maps)
        slot = "*" if self.chance(0.25) else self.r.randrange(mp["arity"])
        add({"kind": "dat", "dat": t["name"], "mode": "read", "map": mp["name"], "slot": slot})
        if slot != "*" and mp["arity"] > 1 and self.chance(0.4):
            add({"kind": "dat", "dat": t["name"], "mode": "read", "map": mp["name"],
                 "slot": self.r.randrange(mp["arity"])})

    def gen_input(self, s, scope, add, busy, used_globals, pure, direct=False):
        c = self.r.choice(["direct", "direct", "map", "map", "global", "idx", "idxmap"])
        if direct and c in ("map", "idxmap"):
            c = "direct"
        if is_extruded(self.m, s) and c in ("idx", "idxmap"):
            c = "direct"
        if pure and c == "map" and self.chance(0.7):
            c = "direct"  # a producer that may be pinned under MPI too
        maps = self.maps_from(s)
        if c == "map" and maps:
            mp = self.r.choice(maps)
            d = self.pick_read_dat(mp["to"], scope, busy)
            if d is None:
                return
            slot = "*" if self.chance(0.25) else self.r.randrange(mp["arity"])
            add({"kind": "dat", "dat": d["name"], "mode": "read", "map": mp["name"], "slot": slot})
            return
        if c == "direct" or (c == "map" and not maps):
            d = self.pick_read_dat(s, scope, busy)
            if d is None:
                return
            add({"kind": "dat", "dat": d["name"], "mode": "read", "map": None, "slot": None})
            return
        if c == "global":
            cands = [g for g in self.m["globals"] if g["name"] not in used_globals]
            g = self.r.choice(cands) if cands and self.chance(0.6) else self.new_global("read")
            used_globals.add(g["name"])
            add({"kind": "global", "g": g["name"], "mode": "read"})
            return
        if c == "idx":
            if "idx" in busy:
                return
            add({"kind": "idx"})
            busy.add("idx")  # at most once
            return
        if c == "idxmap" and self.o["idx_map"] and maps:
            mp = self.r.choice(maps)
            add({"kind": "idxmap", "map": mp["name"], "slot": self.r.randrange(mp["arity"])})

    def get_const(self):
        if self.m["consts"] and self.chance(0.6):
            return self.r.choice(self.m["consts"])
        c = {"name": self.name("c"), "type": self.r.choice(["double", "int"]),
             "init": self.r.randint(0, 9), "dim": self.r.choice([0, 0, 0, 2, 3, 4])}
        self.m["consts"].append(c)
        return c

    # -- statements ------------------------------------------------------------------
    def gen_block(self, scope, depth, budget, ctx):
        """A statement list holding about `budget` loops."""
        body = []
        scope = set(scope)
        last_set = None
        while budget > 0:
            if ctx.get("plain"):
                # a stage loop's body: par_loops only (loomc's syntax can unroll it)
                lp = self.gen_loop(scope, ctx, set_hint=last_set if self.chance(0.5) else None)
                last_set = lp["set"]
                body.append(lp)
                budget -= 1
                continue
            if self.pairs_made < self.mat_pairs and self.chance(0.25):
                pair = self.gen_mat_pair(scope, ctx)
                if pair:
                    self.pairs_made += 1
                    body += pair
                    budget -= 2
                    last_set = pair[-1]["set"]
                    continue
            r = self.r.random()
            if r < 0.12 and depth < 2 and ctx["loopdepth"] > 0 and self.chance(0.5):
                n = min(budget, self.r.randint(1, 4))
                body.append(self.gen_stage(scope, depth, n, ctx))
                budget -= n
            elif r < 0.12 and depth < 2:
                n = min(budget, self.r.randint(1, 4))
                inner = self.gen_block(scope, depth + 1, n, dict(ctx, loopdepth=ctx["loopdepth"] + 1))
                if depth == 0 and self.chance(0.3):
                    inner.insert(self.r.randint(0, len(inner)), self.gen_stage(
                        scope, depth + 1, self.r.randint(1, 3), dict(ctx, loopdepth=1)))
                st = {"k": "for", "n": self.r.randint(1, 3), "body": inner}
                if self.bounds.random() < 0.4:
                    # a count loomc cannot see (a variable, sometimes zero): the loop
                    # is rotated, its exchanges hoisted, but never unrolled
                    st["var"] = True
                    st["n"] = self.bounds.choice([0, 1, 2, 3, 4])
                body.append(st)
                budget -= n
            elif r < 0.19 and depth < 2:
                n = min(budget, self.r.randint(1, 3))
                st = {"k": "if", "cond": self.gen_cond(ctx),
                      "body": self.gen_block(scope, depth + 1, n, ctx)}
                if self.chance(0.3):
                    st["else"] = self.gen_block(scope, depth + 1, 1, ctx)
                body.append(st)
                budget -= n
            elif r < 0.23 and depth < 2:
                n = min(budget, self.r.randint(1, 3))
                body.append({"k": "block", "body": self.gen_block(scope, depth + 1, n, ctx)})
                budget -= n
            elif r < 0.38:
                body += self.gen_producer_consumers(scope, depth, ctx)
                budget -= 2
            elif r < 0.46 and self.o["affine"]:
                body += self.gen_affine(ctx)
                budget -= 2
            else:
                s = last_set if last_set and self.chance(0.5) else None
                lp = self.gen_loop(scope, ctx, set_hint=s)
                last_set = lp["set"]
                body.append(lp)
                budget -= 1
            if self.chance(0.3):
                h = self.gen_host(scope, ctx)
                if h:
                    body.append(h)
        return body

    def gen_stage(self, scope, depth, n, ctx):
        """A stage loop in a time loop (Airfoil's k loop): a literal count and a
        body of n par_loops, which loomc unrolls on the syntax alone."""
        inner = self.gen_block(scope, depth + 1, n,
                               dict(ctx, loopdepth=ctx["loopdepth"] + 1, plain=True))
        return {"k": "for", "n": self.r.randint(2, 3), "body": inner}

    def gen_producer_consumers(self, scope, depth, ctx):
        """A pure producer of a temporary t (write: t, reads only) and 1-3 loops
        reading t, directly or through maps: the pin / pin_cse / contraction shape."""
        out = []
        s = self.r.choice([x["name"] for x in self.m["sets"]])
        xs = [x["name"] for x in self.m["sets"] if is_extruded(self.m, x["name"])]
        column = xs and self.chance(0.35)
        if column:
            s = self.r.choice(xs)  # a column temporary: layer runs, contraction, pin
        if ctx.get("last_pc") and self.chance(0.5):
            s = ctx["last_pc"]  # another temporary of the same shape: storage reuse
        ctx["last_pc"] = s
        shape = {"dim": 1, "typ": "double"} if self.chance(0.5) else {}
        if self.chance(0.4 if depth > 0 else 0.2):
            # declared here: inside a nested block, or after the first loop (MPI
            # has partitioned by then); sometimes a dat with data, not a temporary
            t = self.new_dat(s, temp=depth > 0 or self.chance(0.6), decl="stmt", **shape)
            out.append({"k": "decl", "dat": t["name"]})
        else:
            t = self.new_dat(s, temp=True, decl="top", **shape)
            ctx["new_top"].append(t["name"])
        scope.add(t["name"])
        if self.chance(0.7):
            self.reserved.add(t["name"])  # only its producer writes it, no host code names it
        out.append(self.gen_loop(scope, ctx, set_hint=s, forced_out=t, pure=self.chance(0.8)))
        readers = [x["name"] for x in self.m["sets"] if x["name"] == s or any(
            mp["to"] == s for mp in self.maps_from(x["name"]))]
        for _ in range(self.r.randint(1, 3)):
            r = s if column or self.chance(0.5) else self.r.choice(readers)
            out.append(self.gen_loop(scope, ctx, set_hint=r, consume=t, light=self.chance(0.5)))
            if self.chance(0.15):
                h = self.gen_host(scope, ctx)
                if h:
                    out.append(h)
        return out

    def gen_cond(self, ctx):
        r = self.r.random()
        if ctx["loopdepth"] > 0 and r < 0.4:
            return {"it": self.r.randrange(ctx["loopdepth"]), "mod": 2}
        if self.m["globals"] and r < 0.85:
            g = self.r.choice(self.m["globals"])
            return {"g": g["name"], "lt": self.r.randint(1, 1023)}
        c = self.get_const_for_cond()
        if c:
            return {"c": c["name"], "lt": self.r.randint(0, 9)}
        return {"g": self.new_global("read")["name"], "lt": 512}

    def get_const_for_cond(self):
        return self.r.choice(self.m["consts"]) if self.m["consts"] else None

    def gen_host(self, scope, ctx):
        r = self.r.random()
        gl = self.m["globals"]
        if r < 0.25 and gl:
            st = {"k": "host", "op": "print_g", "g": self.r.choice(gl)["name"]}
            if self.chance(0.3):
                st["how"] = "call"  # through a function taking a pointer to const
            return st
        if r < 0.35 and gl:
            g = self.r.choice([g for g in gl if not g["const"]] or [None])
            if g and self.chance(0.3):  # through a function storing through its argument
                return {"k": "host", "op": "bump_g", "g": g["name"], "by": self.r.randint(1, 5)}
            if g:
                return {"k": "host", "op": "reset_g", "g": g["name"], "value": self.reset_value(g)}
        if r < 0.45 and len(gl) >= 2:
            dst = self.r.choice([g for g in gl if not g["const"] and g["role"] == "read"] or [None])
            if dst:
                src = self.r.choice([g for g in gl if g is not dst])
                return {"k": "host", "op": "derive_g", "dst": dst["name"], "src": src["name"],
                        "mul": self.r.randint(1, 5), "add": self.r.randint(0, 9)}
        if r < 0.55 and self.m["consts"] and not (
                "const_fusion" in self.avoid and self.first_loop_done):
            c = self.r.choice(self.m["consts"])
            st = {"k": "host", "op": "set_c", "c": c["name"], "j": self.r.randint(0, 3),
                  "how": self.r.choice(["assign", "assign", "call", "memcpy", "store"])}
            if gl and self.chance(0.5):
                st["src"] = self.r.choice(gl)["name"]
            else:
                st["value"] = self.r.randint(0, 9)
            return st
        if r < 0.75:
            ds = [d for d in self.m["dats"] if d["name"] in scope
                  and d["name"] not in self.reserved]
            if ds:
                return {"k": "host", "op": "fetch", "dat": self.r.choice(ds)["name"]}
        if r < 0.8:
            return {"k": "host", "op": "size", "set": self.r.choice(self.m["sets"])["name"]}
        if r < 0.85:
            objs = [d["name"] for d in self.m["dats"] if (d["name"] in scope or d["decl"] == "top")
                    and d["name"] not in self.reserved]
            objs += [g["name"] for g in gl]
            if objs:
                return {"k": "host", "op": "sync",
                        "names": self.r.sample(objs, self.r.randint(1, min(3, len(objs))))}
        if r < 0.88:
            return {"k": "host", "op": "block_size", "value": self.r.choice([1, 3, 16, 64])}
        return None

    # -- affine loops ------------------------------------------------------------------
    def get_param(self):
        if self.m["params"] and self.chance(0.7):
            return self.r.choice(self.m["params"])
        q = {"name": self.name("n"), "value": self.r.choice([0, 1, 2, 3, 5, 8, 13, 20, 31])}
        self.m["params"].append(q)
        return q

    def new_array(self, q, rank, temp):
        a = {"name": self.name("a"), "param": q["name"], "rank": rank, "temp": temp,
             "seed": self.r.randint(0, 9999), "type": "double"}
        self.m["arrays"].append(a)
        return a

    def aloop(self, q, shape, args):
        self.loop_id += 1
        return {"k": "aloop", "id": self.loop_id, "dom": {"param": q["name"], "shape": shape,
                "rank": 1 if shape in ("1d", "1d+") else 2}, "args": args,
                "kseed": self.r.randint(0, 10 ** 6), "heavy": self.chance(0.3)}

    def arrays_of(self, q, rank, temp=None):
        return [a for a in self.m["arrays"] if a["param"] == q["name"] and a["rank"] == rank
                and (temp is None or a["temp"] == temp)]

    def gen_affine(self, ctx):
        """1-3 affine loops: a producer of a temporary array and its consumers, or a
        loop over data arrays; shapes from samples/outer and the golden cases."""
        q = self.get_param()
        I, J = {"i": 1}, {"j": 1}
        I1 = {"i": 1, "c": 1}
        pattern = self.r.choice(["map", "matvec", "outer", "running", "tri"])
        in_time = ctx["loopdepth"] > 0
        x = self.r.choice(self.arrays_of(q, 1, False) or [self.new_array(q, 1, False)])
        out = []
        if pattern == "running":
            y = self.new_array(q, 1, True)
            out.append(self.aloop(q, "1d", [{"arr": y["name"], "mode": "read", "sub": [I]},
                                             {"arr": x["name"], "mode": "read", "sub": [I]},
                                             {"arr": y["name"], "mode": "write", "sub": [I1]}]))
            self.m["prints"].append(y["name"])
            return out
        if pattern == "tri":
            A = self.r.choice(self.arrays_of(q, 2, False) or [self.new_array(q, 2, False)])
            L = self.new_array(q, 2, True)
            out.append(self.aloop(q, "tri", [{"arr": A["name"], "mode": "read", "sub": [I, J]},
                                              {"arr": L["name"], "mode": self.r.choice(
                                                  ["write", "rw", "inc"]), "sub": [I, J]}]))
            self.m["prints"].append(L["name"])
            return out
        # a temporary t and its consumers
        t = self.new_array(q, 1, True)
        pmode = "write"
        if pattern == "matvec":
            A = self.r.choice(self.arrays_of(q, 2, False) or [self.new_array(q, 2, False)])
            if not (in_time and "affine_loop_carried" in self.avoid):
                pmode = self.r.choice(["inc", "inc", "write"])
            out.append(self.aloop(q, "2d", [{"arr": A["name"], "mode": "read", "sub": [I, J]},
                                             {"arr": x["name"], "mode": "read", "sub": [J]},
                                             {"arr": t["name"], "mode": pmode, "sub": [I]}]))
            shape_c = "1d"
        else:
            wide = self.chance(0.4)
            out.append(self.aloop(q, "1d+" if wide else "1d",
                                  [{"arr": x["name"], "mode": "read", "sub": [I]},
                                   {"arr": t["name"], "mode": "write", "sub": [I]}]))
            shape_c = "1d"
        nc = self.r.choice([1, 1, 2])
        for _ in range(nc):
            if pattern == "outer":
                C = self.new_array(q, 2, True)
                out.append(self.aloop(q, "2d", [{"arr": t["name"], "mode": "read", "sub": [I]},
                                                 {"arr": t["name"], "mode": "read", "sub": [J]},
                                                 {"arr": C["name"], "mode": "write",
                                                  "sub": [I, J]}]))
                self.m["prints"].append(C["name"])
            else:
                y = self.new_array(q, 1, True)
                subs = [[I]]
                if out[0]["dom"]["shape"] == "1d+" and self.chance(0.7):
                    subs.append([I1])
                args = [{"arr": t["name"], "mode": "read", "sub": s} for s in subs]
                args.append({"arr": y["name"], "mode": self.r.choice(["write", "write", "inc"]),
                             "sub": [I]})
                if self.chance(0.4):
                    args.append({"arr": x["name"], "mode": "read", "sub": [I]})
                out.append(self.aloop(q, shape_c, args))
                self.m["prints"].append(y["name"])
        if self.chance(0.25):
            self.m["prints"].append(t["name"])
        return out

    # -- hints -------------------------------------------------------------------------
    def gen_hints(self):
        mpi = True
        for d in list(self.m["dats"]):
            if not d["temp"] or not self.chance(0.6):
                continue
            self.try_hint(d["name"], lambda h: mesh_hint_problem(self.m, h, mpi, self.avoid))
        for a in list(self.m["arrays"]):
            if not a["temp"] or not self.chance(0.6):
                continue
            self.try_hint(a["name"], lambda h: affine_hint_problem(self.m, h))

    def try_hint(self, t, problem):
        prod = None
        for st, _, lst in walk(self.m["body"]):
            if st["k"] in ("loop", "aloop"):
                if st["k"] == "loop":
                    w = [a for a in loop_dat_args(st, t) if a["mode"] != "read"]
                else:
                    w = [a for a in st["args"] if a["arr"] == t and a["mode"] != "read"]
                if w:
                    prod, block = st, lst
                    break
        if prod is None:
            return
        kind = self.r.choice(["pin", "pin_cse"])
        if kind == "pin_cse" and is_extruded(self.m, t) and self.chance(0.5):
            kind = "pin"  # along a column: each consumer evaluates it at its cell
        hint = {"k": "hint", "kind": kind, "temp": t}
        d = by_name(self.m["dats"], t)
        at_top = self.chance(0.2) and (d is None or d["decl"] == "top")
        where = self.m["body"] if at_top else block
        pos = 0 if at_top else next(i for i, x in enumerate(block) if x is prod)
        where.insert(pos, hint)
        why = problem(hint)
        if why and kind == "pin":
            hint["kind"] = "pin_cse"
            why = problem(hint)
        if why or self.breaks_other_hints(hint):
            where.remove(hint)
        elif hint["kind"] == "pin" and prod["k"] == "loop" and (
                ("mpi_pin_halo_end" in self.avoid and self.consumer_exchanges(t, block)) or
                ("pinned_unused_map" in self.avoid and self.consumer_maps(t, block))):
            where.remove(hint)

    def breaks_other_hints(self, hint):
        """Whether a hint already placed is no longer legal with this one: a
        pin's producer is evaluated down a chain of pinned temporaries, so
        pinning a consumer's output can extend it past a write of an input
        (seed 830269)."""
        for st, _, _ in walk(self.m["body"]):
            if st["k"] != "hint" or st is hint:
                continue
            if by_name(self.m["arrays"], st["temp"]):
                why = affine_hint_problem(self.m, st)
            else:
                why = mesh_hint_problem(self.m, st, True, self.avoid)
            if why:
                return True
        return False

    def consumer_maps(self, t, block):
        return any(st["k"] == "loop" and any(a["map"] is not None for a in loop_dat_args(st, t))
                   for st in block)

    def consumer_exchanges(self, t, block):
        for st in block:
            if st["k"] == "loop" and loop_dat_args(st, t) and any(
                    a["kind"] == "dat" and a["map"] is not None for a in st["args"]):
                return True
        return False

    # -- the program ---------------------------------------------------------------------
    def generate(self):
        self.gen_sets_maps()
        self.gen_extruded()
        for _ in range(self.r.randint(1, 4)):
            s = self.r.choice(self.m["sets"])["name"]
            self.new_dat(s, temp=self.chance(0.3))
        scope = {d["name"] for d in self.m["dats"]}
        ctx = {"loopdepth": 0, "new_top": []}
        budget = self.r.randint(2, 10)
        self.m["body"] = self.gen_block(scope, 0, budget, ctx)
        if self.mat_pairs and not self.pairs_made:
            # none came up in the draws: one at the end of main's body
            scope = ({d["name"] for d in self.m["dats"] if d["decl"] == "top"} |
                     {st["dat"] for st in self.m["body"] if st["k"] == "decl"})
            pair = self.gen_mat_pair(scope, ctx)
            self.pairs_made += len(pair) // 2
            self.m["body"] += pair
        self.gen_hints()
        hinted = {st["temp"] for st, _, _ in walk(self.m["body"]) if st["k"] == "hint"}
        self.m["prints"] = [x for x in self.m["prints"] if x not in hinted]
        late = {st["dat"] for st in self.m["body"] if st["k"] == "decl"}
        for d in self.m["dats"]:
            if (d["decl"] == "top" or d["name"] in late) and d["name"] not in hinted \
                    and self.chance(0.25 if d["temp"] else 0.8):
                self.m["prints"].append(d["name"])
        for g in self.m["globals"]:
            self.m["prints"].append(g["name"])
        self.m["prints"] = list(dict.fromkeys(self.m["prints"]))
        self.finish()
        self.gen_prologue()
        return self.m

    # -- the prologue: declarations and host calls before the first loop ------------
    def gen_prologue(self):
        """How main declares its handles and what it calls before the first
        statement (dtmodel.py: "handle", "prologue"): handles at file scope
        or assigned after their declaration, declarations in an order the
        dependencies allow, loom_renumber() (four ways) and host calls
        between them (mpi_halo_begin_above_renumber.c).  From an RNG of its
        own, so that the rest of a seed's program is unchanged; only
        objects, globals and constants the body kept."""
        r = random.Random(self.seed * 2654435761 + 17)
        m = self.m
        # handle styles, in about two programs in five; never for dats when
        # a mesh temporary is hinted: those dats would be of alias classes
        # (semantics.md 1.1), which can make a legal pin unprovable
        if r.random() < 0.4:
            file_only = r.random() < 0.4
            hinted = any(st["k"] == "hint" and by_name(m["dats"], st["temp"])
                         for st, _, _ in walk(m["body"]))

            def style(sets):
                hs = {(by_name(m["sets"], x) or {}).get("handle") for x in sets}
                if None in hs or r.random() < 0.3:
                    return None
                if hs == {"file"} and (file_only or r.random() < 0.5):
                    return "file"
                return "assigned"
            for st in m["sets"]:
                if r.random() < 0.7 and not st.get("base"):
                    st["handle"] = "file" if file_only or r.random() < 0.5 else "assigned"
            for mp in m["maps"]:
                h = style([mp["from"], mp["to"]])
                if h and mp["kind"] != "extruded":
                    mp["handle"] = h
            for d in m["dats"]:
                if d["decl"] == "top" and not d["temp"] and not hinted:
                    h = style([d["set"]])
                    if h:
                        d["handle"] = h
        items = classic_prologue(m)
        if r.random() < 0.4:
            # a random order the dependencies allow: a dat, then a map, ...
            left, items = items, []
            while left:
                done = {it["name"] for it in items}
                ready = [it for it in left if all(n in done for n in decl_needs(m, it))]
                it = r.choice(ready)
                left.remove(it)
                items.append(it)
        has_idx = any(a["kind"] in ("idx", "idxmap") for lp in all_loops(m) for a in lp["args"])
        if r.random() < 0.4 and not (has_idx and "idx_renumber" in self.avoid):
            for _ in range(2 if r.random() < 0.15 else 1):
                how = r.choice(["plain", "must", "must", "fn", "ptr"])
                # after every declaration (as in the regression) or among them
                pos = len(items) if r.random() < 0.5 else r.randint(1, max(1, len(items)))
                items.insert(pos, {"k": "renumber", "how": how})
            # the distributed path (LOOM_DISTRIBUTE=1) refuses a renumbered
            # mesh (runtime/src/mpi/dist.c): those configurations are skipped
            m["skip"].append("dist")
        # under MPI, a sparsity's declaration partitions the mesh: the
        # matrices come after the last set, map and loom_renumber()
        mats = [it for it in items if it["k"] == "mat"]
        items = [it for it in items if it["k"] != "mat"]
        for it in mats:
            first = 1 + max([i for i, x in enumerate(items)
                             if x["k"] in ("set", "map", "renumber")] or [-1])
            items.insert(r.randint(first, len(items)), it)
        if r.random() < 0.4:
            for _ in range(r.randint(1, 3)):
                pos = r.randint(0, len(items))
                what = r.choice(["size", "size", "print", "note", "note", "set_c"])
                declared = [it["name"] for it in items[:pos] if it["k"] == "set"]
                if what == "size" and declared:
                    it = {"k": "host", "op": "size", "set": r.choice(declared)}
                elif what == "print" and m["globals"]:
                    it = {"k": "host", "op": "print_g", "g": r.choice(m["globals"])["name"]}
                    if r.random() < 0.3:
                        it["how"] = "call"
                elif what == "set_c" and m["consts"]:
                    c = r.choice(m["consts"])
                    it = {"k": "host", "op": "set_c", "c": c["name"], "j": r.randint(0, 3),
                          "how": r.choice(["assign", "call", "memcpy", "store"]),
                          "value": r.randint(0, 9)}
                else:
                    it = {"k": "note", "n": r.randint(0, 99), "how": r.choice(["call", "ptr"])}
                items.insert(pos, it)
        if items != classic_prologue(m):
            m["prologue"] = items

    def finish(self):
        """Drops unused declarations and marks known-bug skips."""
        used = set(self.m["prints"])
        for st, _, _ in walk(self.m["body"]):
            for key in ("g", "src", "dst", "c", "dat", "temp"):
                if key in st:
                    used.add(st[key])
            used |= set(st.get("names", []))
            if st["k"] == "if":
                used |= {st["cond"].get("g"), st["cond"].get("c")}
            if st["k"] in ("loop", "aloop"):
                for a in st["args"]:
                    used |= {a.get("g"), a.get("dat"), a.get("arr")}
                used |= set(st.get("consts", []))
                if st["k"] == "aloop":
                    used.add(st["dom"]["param"])
        consts_read = {c for lp in all_loops(self.m) for c in lp["consts"]}
        # a constant read by no kernel: its host writes and conditions go
        for st, _, lst in list(walk(self.m["body"])):
            if st["k"] == "host" and st["op"] == "set_c" and st["c"] not in consts_read:
                lst.remove(st)
            if st["k"] == "if" and "c" in st["cond"] and st["cond"]["c"] not in consts_read:
                st["cond"] = {"g": self.new_global("read")["name"], "lt": 512}
                self.m["prints"].append(st["cond"]["g"])
                used.add(st["cond"]["g"])
        self.m["consts"] = [c for c in self.m["consts"] if c["name"] in consts_read]
        self.m["globals"] = [g for g in self.m["globals"] if g["name"] in used]
        self.m["arrays"] = [a for a in self.m["arrays"] if a["name"] in used]
        self.m["params"] = [q for q in self.m["params"]
                            if any(a["param"] == q["name"] for a in self.m["arrays"])]
        if "idx_renumber" in self.avoid and any(
                a["kind"] in ("idx", "idxmap") for lp in all_loops(self.m) for a in lp["args"]):
            self.m["skip"].append("renum")
        if "mpi_halo_nested" in self.avoid and self.halo_nested():
            self.m["skip"].append("mpi")
        if "omp_fused_inc" in self.avoid and self.fusable_incs():
            self.m["skip"].append("omp")
        for g in self.m["globals"]:
            g.pop("role", None)

    def halo_nested(self):
        """A dat exchanged (read through a map) by a loop in a nested statement and
        by a loop outside it (the shape of mpi_halo_begin_twice_nested.c)."""
        def exchanged(lp):
            """The dats whose halo the loop exchanges (dsl-spec/semantics.md 9.4)."""
            halo = any(a["kind"] == "dat" and a["map"] is not None and a["mode"] != "read"
                       for a in lp["args"])  # writes through a map: runs its halo
            return {a["dat"] for a in lp["args"] if a["kind"] == "dat"
                    and a["mode"] in ("read", "rw") and (a["map"] is not None or halo)}
        def scan(body):
            outside = set()
            nested = []
            for st in body:
                if st["k"] == "loop":
                    outside |= exchanged(st)
                for key in ("body", "else"):
                    if st.get(key) is not None:
                        inner = set()
                        for s2, _, _ in walk(st[key]):
                            if s2["k"] == "loop":
                                inner |= exchanged(s2)
                        nested.append(inner)
                        if scan(st[key]):
                            return True
            everything = set(outside)
            for i, inner in enumerate(nested):
                others = set(outside)
                for j, o in enumerate(nested):
                    if j != i:
                        others |= o
                if inner & others:
                    return True
            return False
        return scan(self.m["body"])

    def fusable_incs(self):
        """Two loops over one set, one after the other in a block, that both
        increment through maps or both reduce (openmp_fused_inc_redefinition.c)."""
        def kinds(lp):
            inc = any(a["kind"] == "dat" and a["map"] is not None and a["mode"] != "read"
                      for a in lp["args"])
            red = any(a["kind"] == "global" and a["mode"] != "read" for a in lp["args"])
            return inc, red
        blocks = [self.m["body"]] + [st[key] for st, _, _ in walk(self.m["body"])
                                     for key in ("body", "else") if st.get(key) is not None]
        for b in blocks:
            loops = [st for st in b if st["k"] == "loop"]
            for x, y in zip(loops, loops[1:]):
                if x["set"] == y["set"]:
                    kx, ky = kinds(x), kinds(y)
                    if (kx[0] and ky[0]) or (kx[1] and ky[1]):
                        return True
        return False


def generate(seed, options=None):
    """A valid model for this seed (asserted: an invalid one is a generator bug)."""
    g = Gen(seed, options)
    m = g.generate()
    probs = validate(m)
    if probs:
        raise AssertionError("seed %d: generated an invalid model: %s" % (seed, "; ".join(probs)))
    return m
