#!/usr/bin/env python3
"""Differential tester for Loom: runs random programs on every configuration
and compares what they print with their plain-C references.

  run.py [-n N] [--seed S] [-j J] [--out DIR] [--configs PATTERN,...]
         [--batch B] [--loom-root ROOT] [--avoid PATTERNS] [--keep]

Programs are seeds S .. S+N-1 (gen.py SEED builds the same program).  They
run in batches of B: one executable per build holds the batch, and one
process runs every configuration of a group (same build, same number of
ranks) for every program of the batch.  A failing (configuration, program)
pair is rerun on its own to attribute the failure, then checked standalone
and saved under DIR/failures/ (model.json, prog.c, ref.c, gen.c,
expected.out, actual.out, info.json, repro.sh).  One line per failure, and
a tally at the end; exit status 1 when anything failed.
"""

import argparse
import concurrent.futures
import json
import os
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dtemit  # noqa: E402
import dtgen  # noqa: E402
import dtmodel  # noqa: E402
import dtpipe  # noqa: E402
from dtpipe import BUILDS, run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------
# One batch (runs in a worker process)

STAGED_INC = re.compile(r"/\* (\w+) \(line (\d+)\): its increments through maps, in element order")


def staged_increments(gen_c):
    """The loops of a translated program that run staged with increments
    through maps (each kernel and line once: a turn written for several
    groups or parts is one loop)."""
    with open(gen_c) as f:
        return len(set(STAGED_INC.findall(f.read())))


class Batch:
    def __init__(self, seeds, st):
        self.seeds = seeds
        self.st = st
        self.tools = dtpipe.Tools(st["root"], st["opt"], st["scale"])
        self.wd = os.path.join(st["out"], "work", "b%d" % seeds[0])
        self.configs = [dtpipe.config_by_name(n) for n in st["configs"]]
        self.fails = []          # raw failures: one per (program, configuration) or stage
        self.times = {}
        self.runs = 0
        self.models = {}
        self.batch_seen = {}     # (config, k): what the batch run saw
        self.transient = 0       # MPI jobs whose stray stderr did not come back
        self.staged = {}         # build: staged loops with increments through maps

    def timed(self, stage, t0):
        self.times[stage] = self.times.get(stage, 0.0) + time.time() - t0

    def fail(self, k, build, configs, kind, detail, out="", err="", cmd=None):
        self.fails.append({"k": k, "seed": self.seeds[k], "build": build,
                           "configs": list(configs), "kind": kind, "detail": detail,
                           "out": out, "err": err, "cmd": cmd})

    def path(self, *p):
        return os.path.join(self.wd, *p)

    # -- the stages ------------------------------------------------------------
    def run_all(self):
        dtpipe.rmtree(self.wd)
        os.makedirs(self.path("src"))
        t0 = time.time()
        for k, seed in enumerate(self.seeds):
            try:
                m = dtgen.generate(seed, self.st["gen"])
            except Exception as e:  # a generator bug: report it, go on
                self.fail(k, "gen", [], "gen", "%s: %s" % (type(e).__name__, e))
                continue
            self.models[k] = m
            with open(self.path("src", "p%d.c" % k), "w") as f:
                f.write(dtemit.prog(m, "p%d_" % k))
            with open(self.path("src", "r%d.c" % k), "w") as f:
                f.write(dtemit.ref(m, "p%d_" % k))
        self.timed("generate", t0)
        t0 = time.time()
        self.expected = self.reference()
        self.timed("reference", t0)
        builds = []
        for c in self.configs:
            if c.build not in builds:
                builds.append(c.build)
        for b in builds:
            self.build_and_run(b)
        if not self.st["keep"] and not self.fails:
            dtpipe.rmtree(self.wd)
        return self.report()

    def reference(self):
        """Builds every reference into one executable and runs it once."""
        ks = sorted(self.models)
        d = self.path("ref")
        os.makedirs(d)
        ok = self.compile_batch(d, "ref", ks, [(k, "../src/r%d.c" % k) for k in ks], ref=True)
        expected = {}
        if not ok:
            return expected
        p = run(["./batch", "ref;T=0@" + ",".join(map(str, ok))], cwd=d,
                timeout=(30 + 2 * len(ok)) * self.tools.scale)
        res, _ = dtpipe.parse_output(p.out, p.err)
        for k in ok:
            r = res.get(("ref", k))
            if r and r["rc"] == 0 and not r["err"].strip():
                expected[k] = r["out"]
                continue
            q = run(["./batch", "ref;T=0@%d" % k], cwd=d, timeout=30 * self.tools.scale)
            r = dtpipe.parse_output(q.out, q.err)[0].get(("ref", k))
            if r and r["rc"] == 0 and not r["err"].strip():
                expected[k] = r["out"]
            else:
                self.fail(k, "ref", [], "ref-run", "the reference failed", q.out, q.err)
        return expected

    def compile_batch(self, d, build, ks, files, ref=False):
        """Compiles the batch executable d/batch; returns the programs in it (a
        program whose code does not compile is a failure, and left out)."""
        ks = list(ks)
        files = dict(files)
        mpi = False if ref else BUILDS[build][4]
        if mpi:  # loom_exit reads the count of unscheduled halo exchanges first
            with open(os.path.join(d, "dt_probe.h"), "w") as f:
                f.write(dtpipe.PROBE_H)
        for attempt in range(3):
            if not ks:
                return []
            with open(os.path.join(d, "batch.c"), "w") as f:
                f.write(dtpipe.batch_source([(k, files[k]) for k in ks], len(self.seeds), mpi))
            cmd = (self.tools.ref_cc_cmd(["batch.c"], "batch") if ref
                   else self.tools.cc_cmd(build, ["batch.c"], "batch"))
            t0 = time.time()
            p = run(cmd, cwd=d, timeout=600 * self.tools.scale)
            self.timed("cc " + build, t0)
            if p.rc == 0 and not p.err.strip():
                return ks
            # find the programs that do not compile, one by one
            bad = []
            for k in ks:
                one = (self.tools.ref_cc_cmd([files[k]], "/dev/null", ["-c", "-Dmain=p%d_main" % k])
                       if ref else self.tools.cc_cmd(build, [files[k]], "/dev/null",
                                                     ["-Dmain=p%d_main" % k] +
                                                     dtpipe.probe_args(build), link=False))
                q = run(one, cwd=d, timeout=120 * self.tools.scale)
                if q.rc != 0 or q.err.strip():
                    bad.append(k)
                    kind = "ref-cc" if ref else "cc"
                    self.fail(k, build, self.build_configs(build), kind,
                              dtpipe.normalise(dtpipe.first_message(q.err)), "", q.err, one)
            if not bad:
                self.fail(0, build, [], "internal", "the batch does not compile",
                          "", p.err[-3000:], cmd)
                return []
            ks = [k for k in ks if k not in bad]
        return ks

    def build_configs(self, build):
        return [c.name for c in self.configs if c.build == build]

    def build_and_run(self, build):
        d = self.path(build)
        os.makedirs(d)
        mine = [c for c in self.configs if c.build == build]
        ks = [k for k in sorted(self.models) if k in self.expected
              and any(not dtpipe.skipped(self.models[k], c) for c in mine)]
        ok = []
        t0 = time.time()
        for k in ks:
            cmd = self.tools.loomc_cmd(build, "../src/p%d.c" % k, "p%d.gen.c" % k)
            p = run(cmd, cwd=d, env=dtpipe.base_env(self.tools.root),
                    timeout=120 * self.tools.scale)
            self.timed("loomc " + build, t0)
            t0 = time.time()
            if p.timeout or p.rc != 0 or p.err.strip():
                kind = dtpipe.loomc_kind(p)
                self.fail(k, build, self.build_configs(build), kind,
                          "timeout" if p.timeout else dtpipe.normalise(dtpipe.first_message(p.err)),
                          "", p.err, cmd)
                continue
            if BUILDS[build][0] == "san":
                twin = {"san-seq": "seq", "san-omp": "omp"}[build]
                mine = open(os.path.join(d, "p%d.gen.c" % k)).read()
                other = os.path.join(self.path(twin), "p%d.gen.c" % k)
                if os.path.exists(other) and open(other).read() != mine:
                    self.fail(k, build, self.build_configs(build), "loomc-san-differs",
                              "the sanitized loomc's output differs from loomc's", "", "", cmd)
            ok.append(k)
            self.staged[build] = self.staged.get(build, 0) + staged_increments(
                os.path.join(d, "p%d.gen.c" % k))
        ok = self.compile_batch(d, build, ok, [(k, "p%d.gen.c" % k) for k in ok])
        if not ok:
            return
        t0 = time.time()
        groups = {}
        for c in self.configs:
            if c.build == build:
                groups.setdefault(c.np, []).append(c)
        for np, cs in groups.items():
            pairs = [(c, k) for c in cs for k in ok if not dtpipe.skipped(self.models[k], c)]
            self.run_group(d, build, np, pairs)
        self.timed("run " + build, t0)

    def launch(self, d, build, np, pairs, timeout):
        args = []
        for c, k in pairs:
            if args and args[-1][0] is c:
                args[-1][1].append(k)
            else:
                args.append((c, [k]))
        words = ["%s@%s" % (c.spec(), ",".join(map(str, ks))) for c, ks in args]
        cmd = self.tools.run_cmd(build, np, "./batch", words)
        p = run(cmd, cwd=d, env=dtpipe.base_env(self.tools.root, program=True), timeout=timeout)
        self.runs += 1
        return p, cmd

    def run_group(self, d, build, np, pairs):
        san = BUILDS[build][5]
        mpi = BUILDS[build][4]
        pending = list(pairs)
        suspects = []
        while pending:
            tmo = (30 + 1.5 * len(pending)) * (3 if san else 1) * self.tools.scale
            p, cmd = self.launch(d, build, np, pending, tmo)
            res, stray = dtpipe.parse_output(p.out, dtpipe.filter_mpi_noise(p.err))
            rest = []
            crashed = p.timeout or p.rc != 0
            for c, k in pending:
                r = res.get((c.name, k))
                if r is None:
                    rest.append((c, k))
                    continue
                # Under MPI, stderr is attributed by rank 0's markers only; after an
                # abort, the messages of the dying job land anywhere: ignore them.
                err = "" if mpi and crashed else r["err"]
                bad = dtpipe.classify_run(self.expected[k], r["out"], err, r["rc"], False,
                                          r["halo"])
                if bad:
                    suspects.append((c, k))
                    self.batch_seen[(c.name, k)] = (bad, r["out"], r["err"] + stray)
            if mpi and not crashed and stray.strip():
                self.mpi_stray(d, build, np, pending, stray)
            if rest and rest[0] == pending[0] and not res:
                # died before the first program: every pair on its own
                suspects += rest
                break
            if p.timeout or p.rc != 0 or (stray.strip() and not mpi):
                started = [ck for ck in pending if (ck[0].name, ck[1]) in res]
                last = started[-1] if started else None
                if last and res[(last[0].name, last[1])]["rc"] is None and last not in suspects:
                    suspects.append(last)
                if stray.strip() and not rest:
                    # an exit-time report (a leak): rerun each program alone
                    suspects = list(dict.fromkeys(suspects + list(pending)))
            pending = rest
        for c, k in dict.fromkeys(suspects):
            self.confirm(d, build, np, c, k)

    def mpi_stray(self, d, build, np, pairs, stray):
        """An MPI job that exited normally but wrote on stderr before its first
        program (no rank-0 marker to attribute it to): run the job again; a
        message that comes back is a failure of the group, one that does not
        (an MPI start-up complaint on a loaded machine) is counted, not failed."""
        p, cmd = self.launch(d, build, np, pairs, (30 + 1.5 * len(pairs)) * self.tools.scale)
        again = dtpipe.parse_output(p.out, dtpipe.filter_mpi_noise(p.err))[1]
        if again.strip():
            c, k = pairs[0]
            self.fail(k, build, sorted({c.name for c, _ in pairs}), "stderr",
                      dtpipe.normalise(dtpipe.first_message(again)), "", again, cmd)
        else:
            self.transient += 1

    def confirm(self, d, build, np, c, k):
        """Reruns one program under one configuration on its own."""
        tmo = 40 * (3 if BUILDS[build][5] else 1) * self.tools.scale
        p, cmd = self.launch(d, build, np, [(c, k)], tmo)
        res, stray = dtpipe.parse_output(p.out, dtpipe.filter_mpi_noise(p.err))
        r = res.get((c.name, k), {"out": "", "rc": None, "err": "", "halo": []})
        err = r["err"] + stray
        rc = r["rc"]
        if rc == 0 and p.rc != 0:
            rc = p.rc  # failed after the program returned (an exit-time report)
        bad = dtpipe.classify_run(self.expected[k], r["out"], err, rc, p.timeout, r["halo"])
        if bad:
            self.fail(k, build, [c.name], bad[0], bad[1], r["out"], err, cmd)
        else:
            seen = self.batch_seen.get((c.name, k), (None, "", ""))
            self.fail(k, build, [c.name], "batch-only",
                      "fails in a batch (%s), passes alone" % (seen[0],), seen[1], seen[2], cmd)

    # -- results ---------------------------------------------------------------------
    def report(self):
        """Groups the raw failures per (program, build, kind, detail), saves each
        group's case standalone and returns the summaries."""
        groups = {}
        for f in self.fails:
            key = (f["k"], f["build"], f["kind"], f["detail"])
            if key in groups:
                groups[key]["configs"] += [c for c in f["configs"] if c not in groups[key]["configs"]]
            else:
                groups[key] = dict(f)
        saved = []
        t0 = time.time()
        for key, f in groups.items():
            saved.append(self.save(f))
        self.timed("save", t0)
        n = len(self.models)
        shapes = {}
        for m in self.models.values():
            for sh in dtmodel.shapes(m):
                shapes[sh] = shapes.get(sh, 0) + 1
        return {"programs": len(self.seeds), "generated": n, "runs": self.runs,
                "transient": self.transient, "shapes": shapes, "staged": self.staged,
                "pairs": sum(1 for k in self.models for c in self.configs
                             if not dtpipe.skipped(self.models[k], c)),
                "times": self.times, "failures": saved}

    def save(self, f):
        seed = f["seed"]
        name = "s%d-%s-%s" % (seed, f["build"], f["kind"])
        fdir = os.path.join(self.st["out"], "failures", name)
        n = 1
        while os.path.exists(fdir):
            n += 1
            fdir = os.path.join(self.st["out"], "failures", "%s-%d" % (name, n))
        os.makedirs(fdir)
        m = self.models.get(f["k"])
        info = {"seed": seed, "build": f["build"], "kind": f["kind"], "detail": f["detail"],
                "configs": f["configs"], "batch_command": f["cmd"],
                "gen_options": self.st["gen"]}
        line = ""
        if m is not None:
            with open(os.path.join(fdir, "model.json"), "w") as fh:
                fh.write(dtmodel.dumps(m) + "\n")
            if f["configs"]:
                cfg = dtpipe.config_by_name(f["configs"][0])
                chk = dtpipe.check_one(m, cfg, self.tools, fdir)
                info["standalone"] = {"config": cfg.name, "kind": chk.kind,
                                      "detail": chk.detail, "commands": chk.cmds}
                info["signature"] = {"config": cfg.name, "kind": f["kind"], "detail": f["detail"]}
                with open(os.path.join(fdir, "repro.sh"), "w") as fh:
                    fh.write(dtpipe.repro_script(cfg, self.tools, f["kind"]))
                with open(os.path.join(fdir, "stderr.txt"), "w") as fh:
                    fh.write(chk.stderr or f["err"])
                for tmp in ("ref", "prog"):
                    p = os.path.join(fdir, tmp)
                    if os.path.exists(p):
                        os.remove(p)
                if chk.kind == "mismatch":
                    diff = dtpipe.first_difference(chk.expected, chk.actual)
                    if diff:
                        line = "line %d: expected '%s', got '%s'" % (
                            diff[0], diff[1][:70], diff[2][:70])
                elif chk.kind is None:
                    line = "(does not fail standalone)"
                if chk.kind != f["kind"] and chk.kind is not None:
                    line = "(standalone: %s %s) %s" % (chk.kind, chk.detail, line)
        with open(os.path.join(fdir, "info.json"), "w") as fh:
            json.dump(info, fh, indent=1)
        with open(os.path.join(fdir, "batch-output.txt"), "w") as fh:
            fh.write("$ %s\n--- stdout\n%s\n--- stderr\n%s" % (
                " ".join(f["cmd"] or []), f["out"], f["err"]))
        cfgs = f["configs"]
        cfg_text = (cfgs[0] + (" +%d" % (len(cfgs) - 1) if len(cfgs) > 1 else "")) if cfgs else "-"
        summary = "FAIL seed %d %s [%s] %s: %s %s" % (
            seed, f["kind"], cfg_text, f["build"], f["detail"][:100], line)
        return {"summary": summary.rstrip(), "dir": fdir, "seed": seed, "kind": f["kind"],
                "build": f["build"], "detail": f["detail"], "configs": cfgs}


def run_batch(job):
    seeds, st = job
    try:
        return Batch(seeds, st).run_all()
    except Exception as e:  # keep the run going; say what broke
        import traceback
        return {"programs": len(seeds), "generated": 0, "runs": 0, "pairs": 0, "times": {},
                "shapes": {},
                "failures": [{"summary": "FAIL batch %d: internal error %s" % (seeds[0], e),
                              "dir": "", "seed": seeds[0], "kind": "internal",
                              "build": "-", "detail": traceback.format_exc(), "configs": []}]}


# ---------------------------------------------------------------------------

def family(configs):
    """A short name for a set of failing configurations (for triage)."""
    cs = [dtpipe.config_by_name(c) for c in configs]
    if cs and all("renum" in c.tags for c in cs):
        return "renumbering only"
    builds = sorted({c.build for c in cs})
    return "+".join(builds)


def print_classes(failures):
    """Failures grouped by kind, detail and the builds that fail, per program:
    a first triage (a mismatch's cause still needs reduce.py)."""
    per_seed = {}
    for f in failures:
        key = (f["seed"], f["kind"], f["detail"])
        per_seed.setdefault(key, {"configs": [], "dir": f["dir"]})
        per_seed[key]["configs"] += f["configs"]
    classes = {}
    for (seed, kind, detail), v in per_seed.items():
        ck = (kind, detail[:90], family(v["configs"]))
        classes.setdefault(ck, []).append((seed, v["dir"]))
    if not classes:
        return
    print("difftest: failure classes (kind, detail, failing builds: programs, first example):")
    for (kind, detail, fam), xs in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print("  %4d  %s %s [%s]  e.g. %s" % (len(xs), kind, detail, fam,
                                              os.path.relpath(xs[0][1]) if xs[0][1] else xs[0][0]))


SHAPES = (("renumber", "loom_renumber() before the first loop"),
          ("interleaved", "declarations interleaved (mixed kinds, host calls between)"),
          ("handles", "handles at file scope or assigned after their declaration"),
          ("mat_after_write", "matrix loops reading a dat the loop before wrote"),
          ("mat_direct", "... reading it directly"),
          ("extruded", "loops over extruded sets"),
          ("extruded_region", "... over part of the layers"),
          ("extruded_shift", "... reaching other layers"),
          ("extruded_columns", "... over columns of their own heights"),
          ("stage", "stage loops in a time loop (unrolled on the syntax)"))


def print_shapes(tally):
    """How many programs of the run had each shape (dtmodel.shapes)."""
    n = tally["generated"]
    if not n:
        return
    print("difftest: shapes (programs of %d): %s" % (n, "; ".join(
        "%s %d" % (what, tally["shapes"].get(key, 0)) for key, what in SHAPES)))


def probe_idx_map(tools, out):
    """Whether loomc accepts idx[map[i]]."""
    d = os.path.join(out, "work", "probe")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "probe.c")
    with open(src, "w") as f:
        f.write("#include <loom.h>\n"
                "static void k(const int *n, double *x) { *x = *n; }\n"
                "int main(int argc, char **argv) {\n"
                "  static const int mv[2] = {1, 0};\n"
                "  loom_init(&argc, &argv);\n"
                "  loom_set s = loom_decl_set(2, \"s\");\n"
                "  loom_map m = loom_decl_map(s, s, 1, mv, \"m\");\n"
                "  loom_dat x = loom_decl_temp(s, 1, double, \"x\");\n"
                "#pragma loom par_loop(k) over(s) args(read: idx[m[0]], write: x)\n"
                "  loom_exit();\n  return 0;\n}\n")
    p = run([tools.loomc["loomc"], src, "-o", os.path.join(d, "probe.out.c")], timeout=60)
    return p.rc == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=100, help="number of programs (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("-j", type=int, default=2, help="batches in parallel (default 2)")
    ap.add_argument("--batch", type=int, default=20, help="programs per batch (default 20)")
    ap.add_argument("--out", default="difftest-out", help="output directory")
    ap.add_argument("--configs", default="",
                    help="comma-separated configuration names or prefixes (default: all; "
                    "see --list-configs)")
    ap.add_argument("--list-configs", action="store_true")
    ap.add_argument("--loom-root", default=os.path.abspath(os.path.join(HERE, "..", "..")),
                    help="the Loom tree whose build/ is tested (default: this repository)")
    ap.add_argument("--opt", default="-O0", help="C optimisation flag for programs (default -O0)")
    ap.add_argument("--timeout-scale", type=float, default=1.0)
    ap.add_argument("--idx-map", choices=("auto", "on", "off"), default="auto",
                    help="generate idx[map[i]] (auto: when loomc accepts it)")
    ap.add_argument("--keep", action="store_true", help="keep the work directories")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    import gen as genmod
    genmod.add_gen_options(ap)
    args = ap.parse_args()
    if args.list_configs:
        for c in dtpipe.all_configs():
            print("%-18s build %-10s %s" % (c.name, c.build, " ".join(c.env_words())
                                            + (" np=%d" % c.np if c.np else "")))
        return 0
    configs = dtpipe.select_configs([p for p in args.configs.split(",") if p])
    if not configs:
        sys.exit("run.py: no configuration matches %r" % args.configs)
    tools = dtpipe.Tools(args.loom_root, args.opt, args.timeout_scale)
    missing = tools.missing({c.build for c in configs})
    if missing:
        sys.exit("run.py: missing %s\n(build them: make -j2 all mpi && make SANITIZE=1 "
                 "build/san/lib/libloom.a build/san/lib/libloom_petsc.a build/san/bin/loomc)"
                 % ", ".join(missing))
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    gopts = genmod.expand_avoid(genmod.options_from(args))
    if args.idx_map == "auto":
        gopts["idx_map"] = probe_idx_map(tools, out) and not args.no_idx_map
    else:
        gopts["idx_map"] = args.idx_map == "on"
    st = {"root": tools.root, "opt": args.opt, "scale": args.timeout_scale, "out": out,
          "configs": [c.name for c in configs], "gen": gopts, "keep": args.keep}
    seeds = list(range(args.seed, args.seed + args.n))
    jobs = [(seeds[i:i + args.batch], st) for i in range(0, len(seeds), args.batch)]
    print("difftest: %d programs (seeds %d..%d), %d configurations, %d batches, -j%d, "
          "idx[map] %s, avoid: %s; loom root %s"
          % (len(seeds), seeds[0], seeds[-1], len(configs), len(jobs), args.j,
             "on" if gopts["idx_map"] else "off", ",".join(gopts["avoid"]) or "nothing",
             tools.root), flush=True)
    t0 = time.time()
    tally = {"programs": 0, "generated": 0, "runs": 0, "pairs": 0, "transient": 0, "times": {},
             "shapes": {}, "staged": {}}
    failures = []
    done = 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.j) as ex:
        for res in ex.map(run_batch, jobs):
            done += 1
            for k in ("programs", "generated", "runs", "pairs", "transient"):
                tally[k] += res.get(k, 0)
            for k, v in res["times"].items():
                tally["times"][k] = tally["times"].get(k, 0.0) + v
            for k, v in res.get("shapes", {}).items():
                tally["shapes"][k] = tally["shapes"].get(k, 0) + v
            for k, v in res.get("staged", {}).items():
                tally["staged"][k] = tally["staged"].get(k, 0) + v
            for f in res["failures"]:
                print(f["summary"] + ("  -> " + os.path.relpath(f["dir"]) if f["dir"] else ""),
                      flush=True)
                failures.append(f)
            if not args.quiet:
                print("difftest: batch %d/%d done, %d programs, %.0f s"
                      % (done, len(jobs), tally["programs"], time.time() - t0), flush=True)
    wall = time.time() - t0
    with open(os.path.join(out, "failures.json"), "w") as f:
        json.dump(failures, f, indent=1)
    print_classes(failures)
    stages = ", ".join("%s %.0f s" % kv for kv in sorted(tally["times"].items()))
    print("difftest: %d programs x %d configurations (%d program runs checked) in %.0f s wall "
          "(%.2f s per program; worker time: %s); %d failures (%d programs)"
          % (tally["programs"], len(configs), tally["pairs"], wall,
             wall / max(1, tally["programs"]), stages, len(failures),
             len({f["seed"] for f in failures})))
    print_shapes(tally)
    if tally["staged"]:
        print("difftest: loops staged with increments through maps, per build: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(tally["staged"].items())))
    if tally["transient"]:
        print("difftest: %d MPI jobs wrote on stderr before their first program once and not "
              "when run again (not counted as failures)" % tally["transient"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
