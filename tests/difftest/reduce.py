#!/usr/bin/env python3
"""Shrinks a failing difftest case while it keeps failing the same way.

  reduce.py CASE_DIR [-o OUT_DIR] [--config NAME] [--loom-root ROOT]
            [--all-configs] [--max-tests N]

CASE_DIR is a directory saved by run.py (model.json, info.json).  The
*signature* of the failure is (configuration, kind, detail): e.g.
(omp-t2-b7-r0, mismatch, ""), (mpi-n2-metis, crash, "rc=N loom: rank N:
error: ...") or (seq, loomc, "error: ..."), names and numbers normalised.
Each step transforms the model (dtmodel.py) — drops a statement, a loop
argument, a print, a declaration; unwraps a nested statement; shrinks a set,
a dim, an arity, a time-loop count — re-emits prog.c and ref.c, and keeps the
change when the model is still valid and the standalone check still gives
the same signature.  It stops when no transformation keeps the failure.
The smallest program goes to OUT_DIR (default CASE_DIR/reduced):
model.json, prog.c, ref.c, gen.c, expected.out, actual.out, info.json,
repro.sh.  --all-configs then lists every configuration on which the
reduced program fails.
"""

import argparse
import hashlib
import json
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dtemit  # noqa: E402
import dtmodel  # noqa: E402
import dtpipe  # noqa: E402
from dtmodel import walk, clone, by_name  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------
# Cleaning: what a transformation leaves unused is dropped (the C compilers
# warn about unused variables, and validate() insists).

def referenced(model):
    used = set(model["prints"]) | dtmodel.prologue_names(model)
    for st, _, _ in walk(model["body"]):
        used |= dtmodel.stmt_names(model, st)
        if st["k"] == "loop":
            for a in st["args"]:
                if a.get("map"):
                    used.add(a["map"])
            used.add(st["set"])
        if st["k"] == "aloop":
            used.add(st["dom"]["param"])
        if st["k"] == "host" and st["op"] == "size":
            used.add(st["set"])
        if st["k"] == "decl":
            used.add(st["dat"])
        if st["k"] == "hint":
            used.add(st["temp"])
    return used


def remove_stmts(body, pred):
    body[:] = [st for st in body if not pred(st)]
    for st in body:
        for key in ("body", "else"):
            if st.get(key) is not None:
                remove_stmts(st[key], pred)


def clean(m):
    read_consts = {c for lp in dtmodel.all_loops(m) for c in lp["consts"]}
    gone = {c["name"] for c in m["consts"] if c["name"] not in read_consts}
    m["consts"] = [c for c in m["consts"] if c["name"] in read_consts]
    remove_stmts(m["body"], lambda st: st["k"] == "host" and st["op"] == "set_c"
                 and st["c"] in gone)
    for st, _, _ in walk(m["body"]):
        if st["k"] == "if" and st["cond"].get("c") in gone:
            st["cond"] = {"true": 1}
    # statement-declared dats nothing uses
    used = set()
    for st, _, _ in walk(m["body"]):
        if st["k"] != "decl":
            used |= dtmodel.stmt_names(m, st)
            if st["k"] == "hint":
                used.add(st["temp"])
    drop = {d["name"] for d in m["dats"] if d["decl"] == "stmt" and d["name"] not in used}
    remove_stmts(m["body"], lambda st: st["k"] == "decl" and st["dat"] in drop)
    m["dats"] = [d for d in m["dats"] if d["name"] not in drop]
    used = referenced(m)
    m["globals"] = [g for g in m["globals"] if g["name"] in used]
    m["arrays"] = [a for a in m["arrays"] if a["name"] in used]
    pars = {a["param"] for a in m["arrays"]} | {
        lp["dom"]["param"] for lp in dtmodel.all_aloops(m)}
    m["params"] = [q for q in m["params"] if q["name"] in pars]
    # matrices no loop assembles any more
    mats = {a["mat"] for lp in dtmodel.all_loops(m) for a in lp["args"] if a["kind"] == "mat"}
    m["mats"] = [A for A in m.get("mats", []) if A["name"] in mats]
    names = {x["name"] for k in ("dats", "globals", "arrays", "mats") for x in m[k]}
    m["prints"] = [p for p in m["prints"] if p in names]
    clean_prologue(m)
    return m


def clean_prologue(m):
    """The prologue without the items of objects that are gone."""
    if m.get("prologue") is None:
        return
    have = {x["name"] for k in ("sets", "maps", "globals", "consts") for x in m[k]}
    have |= {d["name"] for d in m["dats"] if d["decl"] == "top"}
    have |= {A["name"] for A in m.get("mats", [])}
    keep = []
    for it in m["prologue"]:
        if it["k"] in dtmodel.DECL_KINDS and it["name"] not in have:
            continue
        if it["k"] == "host" and not all(it.get(key) in have for key in ("set", "g", "c", "src")
                                         if it.get(key)):
            continue
        keep.append(it)
    m["prologue"] = keep


# ---------------------------------------------------------------------------
# Transformations: each yields (description, new model)

def stmt_paths(body, path=()):
    """Paths to every statement: tuples of (index, key) steps."""
    for i, st in enumerate(body):
        yield path + (i,)
        for key in ("body", "else"):
            if st.get(key) is not None:
                yield from stmt_paths(st[key], path + (i, key))


def locate(m, path):
    """(containing list, index) of the statement at path."""
    lst = m["body"]
    i = 0
    while path:
        i = path[0]
        if len(path) == 1:
            return lst, i
        lst = lst[i][path[1]]
        path = path[2:]
    return lst, i


def describe(st):
    if st["k"] == "loop":
        return "loop k%d" % st["id"]
    if st["k"] == "aloop":
        return "affine loop k%d" % st["id"]
    if st["k"] == "host":
        return "host %s" % st["op"]
    return st["k"]


def candidates(m):
    paths = list(stmt_paths(m["body"]))
    # big things first: nested statements and their halves, then single statements
    by_size = sorted(paths, key=lambda p: -sum(1 for _ in walk([locate(m, p)[0][locate(m, p)[1]]])))
    for p in by_size:
        c = clone(m)
        lst, i = locate(c, p)
        st = lst.pop(i)
        yield "drop %s" % describe(st), c
    for p in paths:
        lst, i = locate(m, p)
        st = lst[i]
        if st["k"] in ("for", "block", "if"):
            c = clone(m)
            lst, i = locate(c, p)
            st = lst[i]
            lst[i:i + 1] = st["body"] + (st.get("else") or [])
            yield "unwrap %s" % st["k"], c
            if st["k"] == "if" and st.get("else") is not None:
                c = clone(m)
                lst, i = locate(c, p)
                lst[i].pop("else")
                yield "drop else", c
            if st["k"] == "for" and st["n"] > 1:
                c = clone(m)
                lst, i = locate(c, p)
                lst[i]["n"] = 1
                yield "one iteration", c
            if st["k"] == "for" and st.get("var") and st["n"] >= 1:
                c = clone(m)
                lst, i = locate(c, p)
                lst[i].pop("var")
                lst[i]["n"] = min(lst[i]["n"], 3)
                yield "constant count", c
            if st["k"] == "if" and "true" not in st["cond"]:
                c = clone(m)
                lst, i = locate(c, p)
                lst[i]["cond"] = {"true": 1}
                yield "if (1)", c
    for name in list(m["prints"]):
        c = clone(m)
        c["prints"].remove(name)
        yield "no print of %s" % name, c
    yield from prologue_candidates(m)
    for p in paths:
        lst, i = locate(m, p)
        st = lst[i]
        if st["k"] not in ("loop", "aloop"):
            continue
        for a in range(len(st["args"])):
            c = clone(m)
            lst2, i2 = locate(c, p)
            arg = lst2[i2]["args"].pop(a)
            yield "drop argument %d of k%d" % (a, st["id"]), c
        if st["k"] == "loop":
            for a, arg in enumerate(st["args"]):
                if arg["kind"] == "dat" and arg["slot"] == "*":
                    for s in (0, 1):
                        c = clone(m)
                        lst2, i2 = locate(c, p)
                        lst2[i2]["args"][a]["slot"] = s
                        yield "slot * -> %d" % s, c
                if arg.get("mode") in ("rw",):
                    c = clone(m)
                    lst2, i2 = locate(c, p)
                    lst2[i2]["args"][a]["mode"] = "write"
                    yield "rw -> write", c
            if st.get("consts"):
                c = clone(m)
                lst2, i2 = locate(c, p)
                lst2[i2]["consts"] = []
                yield "no constants in k%d" % st["id"], c
        if st.get("heavy"):
            c = clone(m)
            lst2, i2 = locate(c, p)
            lst2[i2]["heavy"] = False
            yield "light kernel k%d" % st["id"], c
        if st.get("kseed"):
            c = clone(m)
            lst2, i2 = locate(c, p)
            lst2[i2]["kseed"] = 0
            yield "kseed 0 in k%d" % st["id"], c
    used = referenced(m)
    for kind in ("maps", "dats", "sets"):
        for x in m[kind]:
            if x["name"] not in used and not any(
                    y.get("from") == x["name"] or y.get("to") == x["name"] or
                    y.get("set") == x["name"] for k2 in ("maps", "dats") for y in m[k2]):
                c = clone(m)
                c[kind] = [y for y in c[kind] if y["name"] != x["name"]]
                yield "drop unused %s" % x["name"], c
    for s in m["sets"]:
        n = s["size"]
        if s.get("columns") is not None:  # declared by columns: one number of layers
            c = clone(m)
            del by_name(c["sets"], s["name"])["columns"]
            yield "one number of layers for %s" % s["name"], c
            continue
        if s.get("base"):  # an extruded set: fewer layers (its size follows its base's)
            for new in range(1, s["layers"]):
                c = clone(m)
                x = by_name(c["sets"], s["name"])
                x["layers"], x["size"] = new, new * by_name(c["sets"], s["base"])["size"]
                yield "layers of %s -> %d" % (s["name"], new), c
            continue
        for new in sorted({0, 1, 2, 3, 4, 8, n // 2, n - 1}):
            if 0 <= new < n:
                c = clone(m)
                by_name(c["sets"], s["name"])["size"] = new
                for x in c["sets"]:  # the extruded sets over it
                    if x.get("base") == s["name"] and x.get("columns") is not None:
                        x["columns"] = x["columns"][:new]
                        x["layers"] = max(x["columns"]) if x["columns"] else 1
                    if x.get("base") == s["name"]:
                        x["size"] = new * x["layers"]
                yield "size of %s %d -> %d" % (s["name"], n, new), c
    for d in m["dats"]:
        if d["dim"] > 1:
            for new in (1, d["dim"] - 1 if d["dim"] <= 4 else 4):  # dims 1-4, 8
                c = clone(m)
                by_name(c["dats"], d["name"])["dim"] = new
                yield "dim of %s -> %d" % (d["name"], new), c
        if d["type"] == "int":
            c = clone(m)
            by_name(c["dats"], d["name"])["type"] = "double"
            yield "%s double" % d["name"], c
        if not d["temp"]:
            c = clone(m)
            by_name(c["dats"], d["name"])["temp"] = True
            by_name(c["dats"], d["name"]).pop("handle", None)
            yield "%s a temporary" % d["name"], c
        if d["decl"] == "stmt":
            pass
    for mp in m["maps"]:
        if mp["kind"] == "extruded":
            if any(mp["shift"]):
                c = clone(m)
                by_name(c["maps"], mp["name"])["shift"] = [0] * mp["arity"]
                yield "shifts of %s -> 0" % mp["name"], c
            continue
        if mp["arity"] > 1:
            for new in range(1, mp["arity"]):
                c = clone(m)
                by_name(c["maps"], mp["name"])["arity"] = new
                if new < 2 and mp["kind"] == "dup":
                    by_name(c["maps"], mp["name"])["kind"] = "rand"
                yield "arity of %s -> %d" % (mp["name"], new), c
        simpler = {"shift": (), "rand": ("shift",)}.get(mp["kind"], ("shift", "rand"))
        for kind in simpler:
            if True:
                c = clone(m)
                by_name(c["maps"], mp["name"])["kind"] = kind
                yield "map %s %s" % (mp["name"], kind), c
    for g in m["globals"]:
        if g["dim"] > 0:
            c = clone(m)
            x = by_name(c["globals"], g["name"])
            x["dim"], x["init"] = 0, x["init"][:1]
            yield "%s scalar" % g["name"], c
        if g["type"] == "int":
            c = clone(m)
            by_name(c["globals"], g["name"])["type"] = "double"
            yield "%s double" % g["name"], c
    for q in m["params"]:
        for new in sorted({0, 1, 2, q["value"] // 2, q["value"] - 1}):
            if 0 <= new < q["value"]:
                c = clone(m)
                by_name(c["params"], q["name"])["value"] = new
                yield "%s = %d" % (q["name"], new), c


def prologue_candidates(m):
    """The prologue's host calls and loom_renumber() dropped or made plain,
    handles declared with their initialisers, the declarations in the
    classic order."""
    pro = m.get("prologue")
    if pro is None:
        return
    for i, it in enumerate(pro):
        if it["k"] not in dtmodel.DECL_KINDS:
            c = clone(m)
            c["prologue"].pop(i)
            yield "drop prologue %s" % it.get("op", it["k"]), c
        if it["k"] == "renumber" and it["how"] != "plain":
            c = clone(m)
            c["prologue"][i]["how"] = "plain"
            yield "plain loom_renumber()", c
    for kind in ("dats", "maps", "sets"):
        for x in m[kind]:
            if x.get("handle"):
                c = clone(m)
                by_name(c[kind], x["name"]).pop("handle")
                yield "%s declared with its initialiser" % x["name"], c
    classic = dtmodel.classic_prologue(m)
    decls = [it for it in pro if it["k"] in dtmodel.DECL_KINDS]
    if decls != classic:
        c = clone(m)
        c["prologue"] = classic + [it for it in pro if it["k"] not in dtmodel.DECL_KINDS]
        yield "declarations in the classic order", c
    if pro == classic:
        c = clone(m)
        c.pop("prologue")
        yield "no prologue", c


def canonical(m):
    """The same model with its objects renamed in order (s0, s1, m0, d0, t0, ...)
    and its loops numbered from 1: reduced programs read better."""
    m = clone(m)
    ren = {}
    for kind, pre in (("sets", "s"), ("maps", "m"), ("globals", "g"), ("consts", "c"),
                      ("params", "n"), ("arrays", "a")):
        for i, x in enumerate(m[kind]):
            ren[x["name"]] = "%s%d" % (pre, i)
    nd = nt = 0
    for d in m["dats"]:
        if d["temp"]:
            ren[d["name"]] = "t%d" % nt
            nt += 1
        else:
            ren[d["name"]] = "d%d" % nd
            nd += 1
    def r(name):
        return ren.get(name, name)
    for kind in ("sets", "maps", "globals", "consts", "params", "arrays", "dats", "mats"):
        for x in m.get(kind, []):
            x["name"] = r(x["name"])
            for key in ("from", "to", "set", "param"):
                if key in x:
                    x[key] = r(x[key])
    m["prints"] = [r(p) for p in m["prints"]]
    for it in m.get("prologue") or []:
        for key in ("name", "set", "g", "c", "src"):
            if key in it:
                it[key] = r(it[key])
    lid = 0
    for st, _, _ in walk(m["body"]):
        for key in ("dat", "temp", "g", "src", "dst", "c", "set"):
            if key in st and isinstance(st[key], str):
                st[key] = r(st[key])
        if "names" in st:
            st["names"] = [r(n) for n in st["names"]]
        if st["k"] == "if":
            for key in ("g", "c"):
                if key in st["cond"]:
                    st["cond"][key] = r(st["cond"][key])
        if st["k"] in ("loop", "aloop"):
            lid += 1
            st["id"] = lid
            for a in st["args"]:
                for key in ("dat", "map", "g", "arr"):
                    if a.get(key):
                        a[key] = r(a[key])
            if st["k"] == "loop":
                st["consts"] = [r(c) for c in st["consts"]]
            else:
                st["dom"]["param"] = r(st["dom"]["param"])
    return m


# ---------------------------------------------------------------------------

class Reducer:
    def __init__(self, model, config, signature, tools, wd, max_tests, log):
        self.model = model
        self.config = config
        self.sig = signature
        self.tools = tools
        self.wd = wd
        self.max_tests = max_tests
        self.log = log
        self.seen = {}
        self.tests = 0

    def same(self, chk):
        if chk.kind != self.sig["kind"]:
            return False
        return chk.kind in ("mismatch", "timeout") or chk.detail == self.sig["detail"]

    def test(self, m):
        src = dtemit.prog(m)
        key = hashlib.sha1((src + dtemit.ref(m)).encode()).hexdigest()
        if key in self.seen:
            return False  # tested already: failed, or kept before (no cycles)
        self.tests += 1
        stop = {"loomc": "loomc", "loomc-crash": "loomc", "cc": "cc"}.get(self.sig["kind"])
        chk = dtpipe.check_one(m, self.config, self.tools, os.path.join(self.wd, "try"),
                               stop_after=stop)
        ok = self.same(chk)
        self.seen[key] = ok
        return ok

    def run(self):
        """Passes over the candidates; after a kept one, the pass goes on from the
        same position of the new model's candidates (the earlier ones failed
        already), and passes repeat until one keeps nothing."""
        m = self.model
        progress = True
        while progress and self.tests < self.max_tests:
            progress = False
            pos = 0
            while self.tests < self.max_tests:
                kept = False
                for n, (what, cand) in enumerate(candidates(m)):
                    if n < pos:
                        continue
                    if self.tests >= self.max_tests:
                        break
                    cand = clean(cand)
                    if dtmodel.validate(cand) or not self.test(cand):
                        continue
                    m = cand
                    progress = kept = True
                    pos = n
                    self.log("  kept: %s (%d lines)" % (what, size_of(m)))
                    break
                if not kept:
                    break
        return m


def size_of(m):
    return len(dtemit.prog(m).splitlines())


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", help="a failure directory saved by run.py")
    ap.add_argument("-o", "--out", help="where to write the reduced case (default CASE/reduced)")
    ap.add_argument("--config", help="the configuration to reduce on (default: the saved one)")
    ap.add_argument("--loom-root", default=os.path.abspath(os.path.join(HERE, "..", "..")))
    ap.add_argument("--max-tests", type=int, default=1500)
    ap.add_argument("--all-configs", action="store_true",
                    help="then run the reduced program on every configuration")
    ap.add_argument("--opt", default="-O0")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    with open(os.path.join(args.case, "model.json")) as f:
        model = json.load(f)
    info = {}
    if os.path.exists(os.path.join(args.case, "info.json")):
        with open(os.path.join(args.case, "info.json")) as f:
            info = json.load(f)
    cname = args.config or (info.get("signature") or {}).get("config") or \
        (info.get("configs") or ["seq"])[0]
    config = dtpipe.config_by_name(cname)
    tools = dtpipe.Tools(args.loom_root, args.opt)
    out = os.path.abspath(args.out or os.path.join(args.case, "reduced"))
    wd = os.path.join(out, "work")
    os.makedirs(wd, exist_ok=True)
    t0 = time.time()
    chk = dtpipe.check_one(model, config, tools, os.path.join(wd, "try"))
    if chk.kind is None:
        sys.exit("reduce.py: the case does not fail standalone under %s" % cname)
    sig = chk.signature(cname)
    log("reduce: %s fails under %s: %s %s (%d lines)" % (args.case, cname, chk.kind,
                                                           chk.detail, size_of(model)))
    r = Reducer(model, config, sig, tools, wd, args.max_tests, log)
    small = r.run()
    nice = canonical(small)
    if not dtmodel.validate(nice) and r.same(dtpipe.check_one(nice, config, tools,
                                                               os.path.join(wd, "try"))):
        small = nice
    final = dtpipe.check_one(small, config, tools, out)
    for tmp in ("ref", "prog"):
        if os.path.exists(os.path.join(out, tmp)):
            os.remove(os.path.join(out, tmp))
    with open(os.path.join(out, "model.json"), "w") as f:
        f.write(dtmodel.dumps(small) + "\n")
    with open(os.path.join(out, "repro.sh"), "w") as f:
        f.write(dtpipe.repro_script(config, tools, sig["kind"]))
    with open(os.path.join(out, "stderr.txt"), "w") as f:
        f.write(final.stderr)
    result = {"signature": sig, "tests": r.tests, "seconds": round(time.time() - t0, 1),
              "lines": size_of(small), "final": {"kind": final.kind, "detail": final.detail}}
    if args.all_configs:
        fails = []
        for c in dtpipe.all_configs():
            ck = dtpipe.check_one(small, c, tools, os.path.join(wd, "all"),
                                  expected=final.expected)
            if ck.kind:
                fails.append("%s: %s %s" % (c.name, ck.kind, ck.detail))
        result["failing_configs"] = fails
        log("fails on %d configurations:\n  %s" % (len(fails), "\n  ".join(fails)))
    with open(os.path.join(out, "info.json"), "w") as f:
        json.dump(result, f, indent=1)
    dtpipe.rmtree(wd)
    log("reduce: %d tests, %.0f s: %d lines in %s/prog.c" % (
        r.tests, time.time() - t0, result["lines"], out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
