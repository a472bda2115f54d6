#!/usr/bin/env python3
"""Generates one random Loom program and its plain-C reference from a seed.

  gen.py SEED [-o DIR] [--avoid PATTERN,...] [--no-idx-map] [--no-affine]
  gen.py --model model.json [-o DIR]        re-emit a (reduced) model

writes DIR/model.json, DIR/prog.c (the Loom program) and DIR/ref.c (plain C,
printing what prog.c must print).  Without -o, prints prog.c.
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dtemit  # noqa: E402
import dtgen  # noqa: E402
import dtmodel  # noqa: E402


def options_from(args):
    return {"avoid": [a for a in (args.avoid or "").split(",") if a],
            "idx_map": not args.no_idx_map, "affine": not args.no_affine,
            "max_size": args.max_size, "modular": not args.no_modular,
            "mats": not args.no_mats}


def add_gen_options(ap):
    ap.add_argument("--avoid", default="",
                    help="known-bug patterns not to generate: %s, or 'known' for all"
                    % ",".join(sorted(dtgen.KNOWN)))
    ap.add_argument("--no-idx-map", action="store_true", help="no idx[map[i]] arguments")
    ap.add_argument("--no-affine", action="store_true", help="no affine loops")
    ap.add_argument("--no-modular", action="store_true",
                    help="no handles through a struct (dtM.x, LOOM_*_FACTS)")
    ap.add_argument("--no-mats", action="store_true",
                    help="no matrices (loom_decl_mat, inc: A[m, m]; they need PETSc)")
    ap.add_argument("--max-size", type=int, default=3000, help="largest set size")


def expand_avoid(opts):
    if "known" in opts["avoid"]:
        opts["avoid"] = sorted(set(opts["avoid"]) - {"known"} | set(dtgen.KNOWN))
    return opts


def write_case(model, outdir):
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "model.json"), "w") as f:
        f.write(dtmodel.dumps(model) + "\n")
    with open(os.path.join(outdir, "prog.c"), "w") as f:
        f.write(dtemit.prog(model))
    with open(os.path.join(outdir, "ref.c"), "w") as f:
        f.write(dtemit.ref(model))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", nargs="?", type=int)
    ap.add_argument("--model", help="re-emit this model.json instead of generating")
    ap.add_argument("-o", "--out", help="output directory")
    add_gen_options(ap)
    args = ap.parse_args()
    if args.model:
        with open(args.model) as f:
            model = json.load(f)
        probs = dtmodel.validate(model)
        if probs:
            sys.exit("gen.py: invalid model: " + "; ".join(probs))
    elif args.seed is not None:
        model = dtgen.generate(args.seed, expand_avoid(options_from(args)))
    else:
        ap.error("give a SEED or --model")
    if args.out:
        write_case(model, args.out)
    else:
        sys.stdout.write(dtemit.prog(model))


if __name__ == "__main__":
    main()
