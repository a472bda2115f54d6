"""Builds and runs programs: the configurations, the batch executables and the
standalone check of one program (used to confirm, save and reduce failures).

A *build* is how a Loom program becomes an executable (loomc binary, target,
loomc flags, C compiler and library).  A *configuration* is one run of a
build's executable: its environment, threads and MPI ranks.  Configurations of
one build with the same number of ranks run in one process (a *group*): the
batch driver (driver_source) sets the environment between programs, each
program being a full loom_init/loom_exit session.
"""

import os
import re
import shutil
import signal
import subprocess
import time

import dtemit

# ---------------------------------------------------------------------------
# Builds and configurations

BUILDS = {
    # name: (loomc: "loomc" | "san", target, loomc flags, C flags, MPI?, sanitized?)
    "seq": ("loomc", "seq", [], [], False, False),
    "seq-nofuse": ("loomc", "seq", ["--no-fuse"], [], False, False),
    "seq-novec": ("loomc", "seq", ["--no-vectorize"], [], False, False),
    "omp": ("loomc", "openmp", [], ["-fopenmp"], False, False),
    "mpi": ("loomc", "mpi", [], [], True, False),
    "mpiomp": ("loomc", "mpi+openmp", [], ["-fopenmp"], True, False),
    "san-seq": ("san", "seq", [], [], False, True),
    "san-omp": ("san", "openmp", [], ["-fopenmp"], False, True),
}

# LOOM_VECTOR: staged loops run staged (1), element by element (0), or
# each way by turns over their first calls, then the faster (unset);
# LOOM_AVX512=0: never in their AVX-512 twins (which seq and mpi builds
# run by default where the CPU has AVX-512)
ENV_VARS = ("LOOM_BLOCK_SIZE", "LOOM_RENUMBER", "LOOM_PARTITIONER", "LOOM_CHECK_PLANS",
            "LOOM_VECTOR", "LOOM_AVX512")


class Config:
    def __init__(self, name, build, env=None, threads=0, np=0, tags=()):
        self.name, self.build, self.threads, self.np = name, build, threads, np
        self.env = {v: "" for v in ENV_VARS}
        self.env.update(env or {})
        self.tags = set(tags)

    def spec(self):
        """The batch driver's description: NAME;VAR=VALUE;...;T=threads."""
        parts = [self.name] + ["%s=%s" % kv for kv in sorted(self.env.items())]
        parts.append("T=%d" % self.threads)
        return ";".join(parts)

    def env_words(self):
        """VAR=VALUE words for a shell command reproducing this configuration."""
        words = ["%s=%s" % (k, v) for k, v in sorted(self.env.items()) if v]
        if self.threads:
            words.append("OMP_NUM_THREADS=%d" % self.threads)
        return words


def all_configs():
    cs = [Config("seq", "seq", {"LOOM_VECTOR": "1"}),
          Config("seq-vec0", "seq", {"LOOM_VECTOR": "0"}),
          Config("seq-avx0", "seq", {"LOOM_VECTOR": "1", "LOOM_AVX512": "0"}),
          Config("seq-renum", "seq", {"LOOM_RENUMBER": "1"}, tags=["renum"]),
          Config("seq-nofuse", "seq-nofuse"),
          Config("seq-novec", "seq-novec")]
    for t in (1, 2, 3):
        for b in ("1", "7", ""):
            for r in ("0", "1"):
                cs.append(Config("omp-t%d-b%s-r%s" % (t, b or "def", r), "omp",
                                 {"LOOM_BLOCK_SIZE": b, "LOOM_RENUMBER": r,
                                  "LOOM_CHECK_PLANS": "1",
                                  "LOOM_VECTOR": "1" if r == "0" else "0"}, threads=t,
                                 tags=["omp", "renum"] if r == "1" else ["omp"]))
    for n in (1, 2, 3):
        for part in ("metis", "scotch", "ptscotch", "block"):
            cs.append(Config("mpi-n%d-%s" % (n, part), "mpi", {"LOOM_PARTITIONER": part}, np=n,
                             tags=["mpi"]))
    # beyond the list: MPI after renumbering (the partition of an RCM-ordered mesh)
    cs.append(Config("mpi-n2-metis-r1", "mpi", {"LOOM_PARTITIONER": "metis", "LOOM_RENUMBER": "1"},
                     np=2, tags=["mpi", "renum"]))
    cs.append(Config("mpi-n3-block-r1", "mpi", {"LOOM_PARTITIONER": "block", "LOOM_RENUMBER": "1"},
                     np=3, tags=["mpi", "renum"]))
    # the distributed path (mpi_dist*.c): the whole mesh cut into slices,
    # partitioned in parallel and migrated without global arrays
    # (a renumbered mesh is not supported there: programs calling
    # loom_renumber() skip them, "dist")
    cs.append(Config("mpi-n3-dist", "mpi", {"LOOM_PARTITIONER": "ptscotch", "LOOM_DISTRIBUTE": "1"},
                     np=3, tags=["mpi", "dist"]))
    cs.append(Config("mpi-n2-dist-block", "mpi", {"LOOM_PARTITIONER": "block", "LOOM_DISTRIBUTE": "1"},
                     np=2, tags=["mpi", "dist"]))
    cs.append(Config("mpiomp-n2-t2", "mpiomp", {"LOOM_CHECK_PLANS": "1"}, threads=2, np=2,
                     tags=["mpi", "omp"]))
    cs.append(Config("san-seq", "san-seq", {"LOOM_VECTOR": "1"}))
    cs.append(Config("san-omp-t2-b7", "san-omp", {"LOOM_BLOCK_SIZE": "7", "LOOM_CHECK_PLANS": "1"},
                     threads=2, tags=["omp"]))
    return cs


def select_configs(patterns):
    """Configurations whose name matches one of the regular expressions (all: None)."""
    cs = all_configs()
    if not patterns:
        return cs
    return [c for c in cs if any(re.fullmatch(p, c.name) or c.name.startswith(p)
                                 for p in patterns)]


def config_by_name(name):
    for c in all_configs():
        if c.name == name:
            return c
    raise KeyError(name)


def skipped(model, config):
    return bool(set(model.get("skip", [])) & config.tags)


# ---------------------------------------------------------------------------
# Tools

class Tools:
    """Where loomc, libloom and the compilers are; how to call them."""

    def __init__(self, root, opt="-O0", timeout_scale=1.0):
        self.root = os.path.abspath(root)
        self.opt = opt
        self.scale = timeout_scale
        b = os.path.join(self.root, "build")
        self.loomc = {"loomc": os.path.join(b, "bin", "loomc"),
                      "san": os.path.join(b, "san", "bin", "loomc")}
        self.inc = os.path.join(self.root, "runtime", "include")
        self.lib = os.path.join(b, "lib", "libloom.a")
        self.lib_mpi = os.path.join(b, "lib", "libloom_mpi.a")
        self.lib_san = os.path.join(b, "san", "lib", "libloom.a")
        # The matrices' library of each (libloom_petsc.a: ahead of libloom.a,
        # its objects only pulled in by programs with matrices)
        self.lib_mat = {self.lib: os.path.join(b, "lib", "libloom_petsc.a"),
                        self.lib_mpi: os.path.join(b, "lib", "libloom_mpi_petsc.a"),
                        self.lib_san: os.path.join(b, "san", "lib", "libloom_petsc.a")}
        # PETSc, for programs with matrices; --as-needed: the others do not
        # load it
        p = run(["pkg-config", "--libs", "petsc", "mpi-c"], cwd=self.root, timeout=30)
        self.petsc = (["-Wl,--as-needed"] + p.out.split() + ["-Wl,--no-as-needed"]
                      if p.rc == 0 else [])

    def missing(self, builds):
        need = set()
        for bname in builds:
            lc, _, _, _, mpi, san = BUILDS[bname]
            need.add(self.loomc[lc])
            lib = self.lib_san if san else self.lib_mpi if mpi else self.lib
            need.add(lib)
            need.add(self.lib_mat[lib])
        return sorted(p for p in need if not os.path.exists(p))

    def loomc_cmd(self, build, src, out):
        lc, target, flags, _, _, _ = BUILDS[build]
        return [self.loomc[lc], "--target=" + target] + flags + [src, "-o", out]

    def cc_cmd(self, build, srcs, out, extra=(), link=True):
        _, _, _, cflags, mpi, san = BUILDS[build]
        cc = ["mpicc"] if mpi else ["cc"]
        cmd = cc + ["-std=c11", self.opt, "-g0", "-Wall", "-Wextra", "-Werror", "-I" + self.inc]
        cmd += cflags + list(extra)
        if san:
            cmd += ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                    "-fno-omit-frame-pointer"]
        if not link:
            return cmd + ["-c"] + list(srcs) + ["-o", out]
        lib = self.lib_san if san else self.lib_mpi if mpi else self.lib
        libs = [self.lib_mat[lib], lib] + (["-lmetis", "-lptscotch", "-lscotch", "-lptscotcherr"]
                                           if mpi else [])
        return cmd + list(srcs) + ["-o", out] + libs + self.petsc + ["-lm"]

    def ref_cc_cmd(self, srcs, out, extra=()):
        return (["cc", "-std=c11", self.opt, "-g0", "-Wall", "-Wextra", "-Werror"] + list(extra)
                + list(srcs) + ["-o", out, "-lm"])

    def run_cmd(self, build, np, exe, args=()):
        if BUILDS[build][4]:
            return (["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "btl",
                     "self,vader", "--mca", "pml", "ob1", "--mca", "mpi_yield_when_idle", "1",
                     "-x", "OMP_WAIT_POLICY", "-np", str(np), exe] + list(args))
        return [exe] + list(args)


def base_env(root=None, program=False):
    """The environment of the tools; program: of a generated program, whose
    sanitizer unwinds the stacks of allocations fully, so that lsan.supp's
    entries for Open MPI's and PETSc's own leaks (programs with matrices)
    match (loomc, allocating much more, keeps the fast unwinder)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("LOOM_") and not k.startswith("OMP_")}
    supp = os.path.join(root or "", "fuzz", "lsan.supp")
    if root and os.path.exists(supp):  # libclang's own leaks, as `make SANITIZE=1` does
        env["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" % supp
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMP_WAIT_POLICY": "passive", "OMPI_MCA_rmaps_base_oversubscribe": "1",
                "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0",
                "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
                "LC_ALL": "C"})
    if program:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0"
    return env


class Proc:
    def __init__(self, rc, out, err, secs, timeout):
        self.rc, self.out, self.err, self.secs, self.timeout = rc, out, err, secs, timeout


def run(cmd, cwd=None, env=None, timeout=60):
    """Runs cmd; kills its whole process group on timeout."""
    t0 = time.time()
    p = subprocess.Popen(cmd, cwd=cwd, env=env or base_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        to = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        to = True
    return Proc(p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                time.time() - t0, to)


# ---------------------------------------------------------------------------
# Halo exchanges without a scheduled begin (MPI builds)
#
# libloom counts the halo ends that found a stale halo with no exchange
# begun (loom__halo_unscheduled: loomc scheduled no begin for it); loom_exit
# resets the count (loomrt_halo_state_free), so it is read just before:
# PROBE_H, included ahead of the generated code (`-include dt_probe.h`),
# makes the program's loom_exit() (a macro of loom.h) a call of
# dt_loom_exit(), which reads the count and then ends the session.  In a batch (DT_BATCH) the driver gathers every rank's count
# after the program's main returns and rank 0 prints "@@HALO n0 n1 ...";
# standalone, each rank with a count prints HALO_LINE on stderr.  Either is
# a failure of its own kind, "unscheduled" (classify_run).

PROBE_H = r"""/* difftest: reads loom__halo_unscheduled() just before loom_exit()
 * resets it (tests/difftest/dtpipe.py, PROBE_H). */
#ifndef DT_PROBE_H
#define DT_PROBE_H
#include <loom_gen.h> /* loom__halo_unscheduled, and loom.h */
#include <stdio.h>
#ifdef DT_BATCH
static long dt_halo_unscheduled = -1; /* -1: the program did not reach loom_exit */
#endif
static inline int dt_loom_exit(void) {
  const long n = loom__halo_unscheduled();
#ifdef DT_BATCH
  dt_halo_unscheduled = n;
#else
  if (n > 0) {
    fprintf(stderr, "difftest: rank %d: %ld halo exchanges ended without a scheduled begin\n",
            loom_rank(), n);
    fflush(stderr);
  }
#endif
  return (loom_exit)(); /* the function, not loom.h's macro */
}
#undef loom_exit
#ifdef LOOM__CALL_AT /* loom.h's call-site wrapper, kept at the program's call */
#define loom_exit() LOOM__CALL_AT(dt_loom_exit())
#else
#define loom_exit() dt_loom_exit()
#endif
#endif
"""

HALO_LINE = re.compile(r"^difftest: rank (\d+): (\d+) halo exchanges ended without a "
                       r"scheduled begin$")


def halo_from_stderr(err):
    """(the counts of the ranks that printed HALO_LINE, stderr without those lines)."""
    counts, rest = [], []
    for line in err.splitlines(keepends=True):
        m = HALO_LINE.match(line.strip())
        if m:
            counts.append(int(m.group(2)))
        else:
            rest.append(line)
    return counts, "".join(rest)


# ---------------------------------------------------------------------------
# The batch driver

def driver_source(nprogs, present, mpi):
    """The batch's main: programs p0 .. p<nprogs-1>, of which those not in
    `present` (left out: their code did not build) are stubs."""
    lines = ["/* difftest batch driver: runs programs p0 .. p%d under configurations."
             % (nprogs - 1),
             " * usage: batch 'NAME;VAR=VALUE;...;T=threads@0,1,2' ... */",
             "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>"]
    if mpi:
        lines.append("#include <mpi.h>")
    lines += ["#ifdef _OPENMP", "#include <omp.h>", "#endif"]
    for k in range(nprogs):
        if k in present:
            lines.append("int p%d_main(int argc, char **argv);" % k)
        else:
            lines.append("static int p%d_main(int argc, char **argv) { (void)argc; (void)argv; "
                         "return 99; }" % k)
    lines.append("static int (*const dt_progs[])(int, char **) = {%s};"
                 % ", ".join("p%d_main" % k for k in range(nprogs)))
    lines += [r'''
/* POSIX, hidden by -std=c11 in <stdlib.h> */
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);

static const char *dt_apply(char *spec) {
  char *name = strtok(spec, ";"), *kv;
  while ((kv = strtok(NULL, ";")) != NULL) {
    char *eq = strchr(kv, '=');
    if (!eq) continue;
    *eq = '\0';
    if (strcmp(kv, "T") == 0) {
#ifdef _OPENMP
      if (atoi(eq + 1) > 0) omp_set_num_threads(atoi(eq + 1));
#endif
    } else if (eq[1]) {
      setenv(kv, eq + 1, 1);
    } else {
      unsetenv(kv);
    }
  }
  return name;
}

int main(int argc, char **argv) {
  int rank = 0;''']
    if mpi:
        lines += ["  int provided;",
                  "  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);",
                  "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);"]
    lines += [r'''  for (int a = 1; a < argc; a++) {
    char *at = strrchr(argv[a], '@');
    if (!at) continue;
    *at = '\0';
    const char *name = dt_apply(argv[a]);
    for (char *p = strtok(at + 1, ","); p; p = strtok(NULL, ",")) {
      int k = atoi(p);
      if (rank == 0) {
        printf("@@DT %s %d\n", name, k);
        fflush(stdout);
        fprintf(stderr, "@@DT %s %d\n", name, k);
        fflush(stderr);
      }
      char *pargv[2] = {argv[0], NULL};''']
    if mpi:
        lines.append("      dt_halo_unscheduled = -1;")
    lines += [r'''      int rc = dt_progs[k](1, pargv);
      fflush(stdout);
      fflush(stderr);''']
    if mpi:  # every rank's count of halo ends without a begin (PROBE_H)
        lines += [r'''      int size;
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      long *halo = malloc(sizeof(long) * (size_t)size);
      MPI_Gather(&dt_halo_unscheduled, 1, MPI_LONG, halo, 1, MPI_LONG, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        printf("@@HALO");
        for (int r = 0; r < size; r++) printf(" %ld", halo[r]);
        printf("\n");
      }
      free(halo);''']
    lines += [r'''      if (rank == 0) {
        printf("@@END %d\n", rc);
        fflush(stdout);
      }''']
    if mpi:
        lines.append("      MPI_Barrier(MPI_COMM_WORLD);")
    lines += ["    }", "  }"]
    if mpi:
        lines.append("  MPI_Finalize();")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def batch_source(files, nprogs, mpi):
    """One translation unit: every program's file (k, path) with its main
    renamed p<k>_main, then the driver (MPI: PROBE_H first)."""
    out = []
    if mpi:
        out += ["#define DT_BATCH 1", "#include \"dt_probe.h\""]
    for k, f in files:
        out += ["#define main p%d_main" % k, "#include \"%s\"" % f, "#undef main"]
    out.append(driver_source(nprogs, {k for k, _ in files}, mpi))
    return "\n".join(out) + "\n"


MARK = re.compile(r"^@@DT (\S+) (\d+)$")
END = re.compile(r"^@@END (-?\d+)$")
HALO = re.compile(r"^@@HALO((?: -?\d+)*)$")


def parse_output(out, err):
    """{(config, k): {"out": text, "rc": int | None, "err": text, "halo": [int]}}
    from a batch run ("halo": every rank's count of halo ends without a
    scheduled begin, MPI builds; -1 where the program did not reach loom_exit)."""
    res = {}
    cur = None
    for line in out.splitlines(keepends=True):
        m = MARK.match(line.rstrip("\n"))
        if m:
            cur = (m.group(1), int(m.group(2)))
            res[cur] = {"out": "", "rc": None, "err": "", "halo": []}
            continue
        h = HALO.match(line.rstrip("\n"))
        if h and cur:
            res[cur]["halo"] = [int(x) for x in h.group(1).split()]
            continue
        e = END.match(line.rstrip("\n"))
        if e and cur:
            res[cur]["rc"] = int(e.group(1))
            continue
        if cur:
            res[cur]["out"] += line
    cur = None
    stray = ""
    for line in err.splitlines(keepends=True):
        m = MARK.match(line.rstrip("\n"))
        if m:
            cur = (m.group(1), int(m.group(2)))
            continue
        if cur in res:
            res[cur]["err"] += line
        else:
            stray += line
    return res, stray


# ---------------------------------------------------------------------------
# Failure details and signatures

ID = re.compile(r"\b(?:p\d+_)?(?:k|t|d|s|m|g|c|a|n|it)\d+\b")
NUM = re.compile(r"\d+")


def normalise(line):
    """A message with names and numbers replaced: failures that differ only
    in them are the same failure."""
    line = re.sub(r"^\S+?:\d+:\d+: ", "", line.strip())
    line = ID.sub("X", line)
    line = re.sub(r"'[^']*'", "'Q'", line)
    return NUM.sub("N", line)[:160]


def loomc_kind(p):
    """The kind of a failed loomc run: a reported error, or loomc itself broke."""
    if p.timeout:
        return "loomc-crash"
    if re.search(r"Sanitizer|runtime error:", p.err):
        return "loomc-san"
    return "loomc" if p.rc in (0, 1) else "loomc-crash"


def first_message(text, words=("error", "warning", "ERROR", "runtime error")):
    """The line of a tool's or program's stderr that says what went wrong."""
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("@@")]
    for pat in (r"^loom: .*(error|warning)", r"ERROR: \w+Sanitizer|runtime error|LeakSanitizer",
                r"(error|warning):", r"Signal|signal|Segmentation|Abort"):
        for line in lines:
            if re.search(pat, line):
                return line
    for line in text.splitlines():
        if line.strip() and not line.startswith("@@"):
            return line.strip()
    return ""


def first_difference(expected, actual):
    el, al = expected.splitlines(), actual.splitlines()
    for n in range(max(len(el), len(al))):
        e = el[n] if n < len(el) else "<end of output>"
        a = al[n] if n < len(al) else "<end of output>"
        if e != a:
            return n + 1, e, a
    return None


def classify_run(expected, out, err, rc, timeout, halo=()):
    """(kind, detail) of one program run against the reference's output, or
    None.  halo: the ranks' counts of halo exchanges ended without a
    scheduled begin (MPI; PROBE_H)."""
    if timeout:
        return ("timeout", "")
    if rc is None:
        return ("crash", normalise(first_message(err)) or "no end marker")
    if rc != 0:
        return ("crash", "rc=%d %s" % (rc, normalise(first_message(err))))
    if out != expected:
        return ("mismatch", "")
    if any(n > 0 for n in halo):
        return ("unscheduled", "halo exchanges ended without a scheduled begin")
    if err.strip():
        return ("stderr", normalise(first_message(err)))
    return None


# ---------------------------------------------------------------------------
# One program on its own (confirmation, saved cases, the reducer)

class Check:
    """The result of check_one: kind None when the configuration printed what
    the reference printed."""

    def __init__(self, kind, detail, expected="", actual="", stderr="", cmds=(), log=""):
        self.kind, self.detail = kind, detail
        self.expected, self.actual, self.stderr = expected, actual, stderr
        self.cmds = list(cmds)
        self.log = log

    def signature(self, config):
        return {"config": config, "kind": self.kind, "detail": self.detail}


def check_one(model, config, tools, wd, expected=None, timeout=30, stop_after=None):
    """Emits the model standalone into wd and runs it under one configuration:
    loomc, the C compiler, the reference, the program.  stop_after "loomc" or
    "cc" ends the check after that step when it passes (the reducer, when the
    failure it keeps is a compile-time one)."""
    os.makedirs(wd, exist_ok=True)
    with open(os.path.join(wd, "prog.c"), "w") as f:
        f.write(dtemit.prog(model))
    with open(os.path.join(wd, "ref.c"), "w") as f:
        f.write(dtemit.ref(model))
    cmds = []
    sc = tools.scale
    build = config.build
    cmd = tools.loomc_cmd(build, "prog.c", "gen.c")
    cmds.append(cmd)
    p = run(cmd, cwd=wd, env=base_env(tools.root), timeout=60 * sc)
    if p.timeout or p.rc != 0 or p.err.strip():
        return Check(loomc_kind(p), "timeout" if p.timeout else normalise(first_message(p.err)),
                     stderr=p.err, cmds=cmds)
    if stop_after == "loomc":
        return Check(None, "", cmds=cmds)
    if BUILDS[build][4]:
        with open(os.path.join(wd, "dt_probe.h"), "w") as f:
            f.write(PROBE_H)
    cmd = tools.cc_cmd(build, ["gen.c"], "prog", probe_args(build))
    cmds.append(cmd)
    p = run(cmd, cwd=wd, timeout=120 * sc)
    if p.rc != 0 or p.err.strip():
        return Check("cc", normalise(first_message(p.err)), stderr=p.err, cmds=cmds)
    if stop_after == "cc":
        return Check(None, "", cmds=cmds)
    if expected is None:
        cmd = tools.ref_cc_cmd(["ref.c"], "ref")
        cmds.insert(0, cmd)
        p = run(cmd, cwd=wd, timeout=60 * sc)
        if p.rc != 0 or p.err.strip():
            return Check("ref-cc", normalise(first_message(p.err)), stderr=p.err, cmds=cmds)
        p = run(["./ref"], cwd=wd, timeout=timeout * sc)
        if p.rc != 0 or p.timeout:
            return Check("ref-run", "rc=%s" % p.rc, stderr=p.err, cmds=cmds)
        expected = p.out
    with open(os.path.join(wd, "expected.out"), "w") as f:
        f.write(expected)
    env = base_env(tools.root, program=True)
    for k, v in config.env.items():
        if v:
            env[k] = v
    if config.threads:
        env["OMP_NUM_THREADS"] = str(config.threads)
    cmd = tools.run_cmd(build, config.np, "./prog")
    cmds.append(config.env_words() + cmd)
    p = run(cmd, cwd=wd, env=env, timeout=timeout * sc * (3 if BUILDS[build][5] else 1))
    with open(os.path.join(wd, "actual.out"), "w") as f:
        f.write(p.out)
    halo, err = halo_from_stderr(filter_mpi_noise(p.err))
    c = classify_run(expected, p.out, err, p.rc, p.timeout, halo)
    if c is None:
        return Check(None, "", expected, p.out, p.err, cmds)
    return Check(c[0], c[1], expected, p.out, p.err, cmds)


MPI_NOISE = re.compile(r"^(\[[\w.-]+:\d+\] .*(help|show_help|ORTE_ERROR_LOG|Set MCA).*"
                       r"|.*mpirun noticed .*|-{10,}.*|Primary job.*|.*Please see.*)$")


def probe_args(build):
    """C compiler options that make an MPI build's loom_exit read the count
    of unscheduled halo exchanges first (PROBE_H, written as dt_probe.h)."""
    return ["-include", "dt_probe.h"] if BUILDS[build][4] else []


def filter_mpi_noise(err):
    return "".join(l for l in err.splitlines(keepends=True) if not MPI_NOISE.match(l.strip()))


def repro_script(config, tools, kind):
    """A shell script that rebuilds and reruns a saved case by hand."""
    lines = ["#!/bin/sh", "# Reproduces a difftest failure (%s under %s) from prog.c and ref.c."
             % (kind, config.name),
             "# LOOM=<loom root> sh repro.sh   (default: %s)" % tools.root,
             "set -x", "cd \"$(dirname \"$0\")\"", "LOOM=${LOOM:-%s}" % tools.root,
             "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"]

    def sh(cmd):
        return " ".join(w.replace(tools.root, "$LOOM") for w in cmd)
    lines.append(sh(tools.ref_cc_cmd(["ref.c"], "ref")) + " && ./ref > expected.out")
    lines.append(sh(tools.loomc_cmd(config.build, "prog.c", "gen.c")) + " || exit 1")
    lines.append(sh(tools.cc_cmd(config.build, ["gen.c"], "prog", probe_args(config.build)))
                 + " || exit 1")
    lines.append(sh(config.env_words() + tools.run_cmd(config.build, config.np, "./prog"))
                 + " > actual.out")
    lines.append("diff expected.out actual.out && echo same output")
    return "\n".join(lines) + "\n"


def rmtree(path):
    shutil.rmtree(path, ignore_errors=True)
