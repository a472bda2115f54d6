#!/usr/bin/env python3
"""check-layers.py — the include rules of loomc and libloom.

Each tree (compiler/, runtime/src/) is a stack of folders, its layers, as
scripts/layers.conf lists them bottom to top ('.' is the tree's own top
folder: compiler/main.c).  A file may include, with #include "...", only
files of its own folder and of the folders below it.  Modules (x.c with
x.h) must not include each other in a circle, across folders or within
one, but for the circles layers.conf allows, each with its reason.

Calls obey the same order: a function of a .c file may call a function
defined (not static) in its own folder or a lower one, never one defined
in a higher layer, which the include rule alone does not see (a
prototype written out, or a header of the lower layer declaring what the
higher defines).  The calls found are the names followed by '(' in the
code (comments and strings left out) that name a function some file of
the tree defines; `allow-call FILE FUNCTION` in layers.conf lets one
stand, with its reason.

Prints every violation as FILE:LINE: error: ... and exits 1 when there is
any; with --list, prints each tree's layers and their files.  --root DIR
checks another tree (DIR/scripts/layers.conf): tests/layers/run.sh gives
it trees that break each rule.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if '--root' in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index('--root') + 1])
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_conf(path):
    trees, allowed, calls = [], set(), set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            if words[0] == 'tree' and len(words) >= 3:
                trees.append((words[1], words[2:]))
            elif words[0] == 'allow-cycle' and len(words) >= 3:
                allowed.add(frozenset(words[1:]))
            elif words[0] == 'allow-call' and len(words) == 3:
                calls.add((words[1], words[2]))
            else:
                sys.exit('%s:%d: error: expected "tree DIR LAYER...", '
                         '"allow-cycle MODULE MODULE..." or "allow-call FILE '
                         'FUNCTION"' % (path, n))
    return trees, allowed, calls


def sources(tree):
    out = []
    for d, _, files in os.walk(os.path.join(ROOT, tree)):
        out += [os.path.join(d, f) for f in files if f.endswith(('.c', '.h'))]
    return sorted(out)


def resolve(inc, src, tree):
    """The file an #include "inc" of src names, or None (a system header
    or one outside the tree)."""
    for base in (os.path.dirname(src), os.path.join(ROOT, tree)):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p):
            return p
    return None


def layer_of(path, tree, layers):
    rel = os.path.relpath(path, os.path.join(ROOT, tree))
    folder = os.path.dirname(rel) or '.'
    return folder, (layers.index(folder) if folder in layers else -1)


def module(path, tree):
    return os.path.splitext(os.path.relpath(path, os.path.join(ROOT, tree)))[0]


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# A function definition at the start of a line: not static, its
# parameters, then its body's brace.
DEFINITION = re.compile(r'^(?!static\b|typedef\b|extern\b|return\b|else\b)'
                        r'(?:[A-Za-z_]\w*[\s*]+)+([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{', re.M)
# Any function a file defines, static ones included: a call of that name
# there is its own.
OWN = re.compile(r'^(?:[A-Za-z_]\w*[\s*]+)+([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{', re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def code_of(path):
    """The file's text with comments and the insides of literals blanked
    (lines kept)."""
    with open(path, errors='replace') as f:
        t = f.read()
    t = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), t, flags=re.S)
    t = re.sub(r'//[^\n]*', '', t)
    t = re.sub(r'"(\\.|[^"\\\n])*"', '""', t)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", t)


def check_calls(tree, layers, allowed_calls, errors):
    """Calls from a .c file to a function a higher layer defines."""
    files, defined = [], {}
    for src in sources(tree):
        folder, rank = layer_of(src, tree, layers)
        if rank < 0 or not src.endswith('.c'):
            continue
        code = code_of(src)
        files.append((src, folder, rank, code))
        for m in DEFINITION.finditer(code):
            defined.setdefault(m.group(1), []).append((src, folder, rank))
    for src, folder, rank, code in files:
        own = set(OWN.findall(code))
        rel = os.path.relpath(src, ROOT)
        for n, line in enumerate(code.split('\n'), 1):
            for name in CALL.findall(line):
                if name in own or (rel, name) in allowed_calls:
                    continue
                for dst, to_folder, to_rank in defined.get(name, ()):
                    if to_rank > rank:
                        errors.append('%s:%d: error: %s (layer %s) calls %s, defined in '
                                      '%s of the higher layer %s' %
                                      (rel, n, rel, folder, name,
                                       os.path.relpath(dst, ROOT), to_folder))


def check_tree(tree, layers, allowed, errors):
    graph, strays = {}, set()
    for src in sources(tree):
        folder, rank = layer_of(src, tree, layers)
        rel = os.path.relpath(src, ROOT)
        if rank < 0:
            if folder not in strays:
                errors.append('%s:1: error: folder %s/%s is not a layer of %s '
                              '(scripts/layers.conf)' % (rel, tree, folder, tree))
            strays.add(folder)
            continue
        with open(src, errors='replace') as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                dst = m and resolve(m.group(1), src, tree)
                if not dst:
                    continue
                to_folder, to_rank = layer_of(dst, tree, layers)
                if to_rank > rank:
                    errors.append('%s:%d: error: %s (layer %s) includes "%s" of the '
                                  'higher layer %s' % (rel, n, rel, folder,
                                                       m.group(1), to_folder))
                a, b = module(src, tree), module(dst, tree)
                if a != b:
                    graph.setdefault(a, set()).add(b)
    for comp in cycles(graph):
        if frozenset(comp) in allowed:
            continue
        errors.append('%s: error: include circle between modules %s' %
                      (tree, ' <-> '.join(comp)))


def main():
    trees, allowed, allowed_calls = read_conf(os.path.join(ROOT, 'scripts', 'layers.conf'))
    errors = []
    for tree, layers in trees:
        if '--list' in sys.argv:
            for layer in layers:
                files = [os.path.basename(s) for s in sources(tree)
                         if layer_of(s, tree, layers)[0] == layer]
                print('%-24s %s' % (os.path.normpath(os.path.join(tree, layer)),
                                    ' '.join(files)))
        check_tree(tree, layers, allowed, errors)
        check_calls(tree, layers, allowed_calls, errors)
    for e in errors:
        print(e)
    if errors:
        print('check-layers: %d error(s)' % len(errors))
        return 1
    print('check-layers: %s: every include and call points down, no include circle' %
          ', '.join(t for t, _ in trees))
    return 0


if __name__ == '__main__':
    sys.exit(main())
