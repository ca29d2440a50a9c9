#!/usr/bin/env python3
# src/check_include_order.py — meson test `include_order`: includes point down only, across the whole tree.
# src/README.md writes the order once, in its fenced block `include-order`: one layer a line, the top first;
# a folder is a folder of src/ (support/bench, lib/tdmaps, ...) or a top-level folder of the repository
# (verify, figures, ...). A C/C++/CUDA source of a folder includes only its own folder and the folders of the
# lines below its own; folders on one line stand side by side and include none of each other. Every project
# include of every source under a listed folder is resolved (beside the file for "...", then the include roots
# below) and checked; one that points up or sideways fails with one line (file:line, both folders), unless the
# block names it as an exception (`except FILE -> FOLDER  # why`; one that no include uses any more fails too).
# A folder of sources that the order does not list fails, and so does a name of the order that is no folder.
#   check_include_order.py SRC_DIR      exit 0 when every arrow points down, 1 with one line per wrong one
import os
import re
import sys

SOURCES = ('.hpp', '.h', '.cuh', '.cu', '.cpp', '.cc')
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
# The project's include roots (meson include_directories: tdmaps_inc, support_inc, results_inc, paper_claims_inc,
# oracle_dep's verify/), in the order a compiler searches them: <tdmaps/...>, <gpu/...>, <layouts.hpp>, "claims.hpp".
ROOTS = ('src/lib', 'src/support', 'src/support/results', 'paper/claims', 'verify')
BLOCK = '```include-order'


def read_order(readme):
    """The layers (lists of folder names, the top first) and the exceptions {(file, folder): line}."""
    with open(readme, encoding='utf-8') as f:
        lines = f.read().splitlines()
    starts = [i for i, l in enumerate(lines) if l.strip() == BLOCK]
    if len(starts) != 1:
        return None, None, 'src/README.md: want exactly one fenced block %s; found %d' % (BLOCK, len(starts))
    layers, exceptions = [], {}
    for i in range(starts[0] + 1, len(lines)):
        text = lines[i].split('#', 1)[0].split()
        if lines[i].strip().startswith('```'):
            return layers, exceptions, None
        if not text:
            continue
        if text[0] == 'except':
            if len(text) != 4 or text[2] != '->':
                return None, None, 'src/README.md:%d: want "except FILE -> FOLDER  # why"' % (i + 1)
            exceptions[(text[1], text[3])] = i + 1
        else:
            layers.append(text)
    return None, None, 'src/README.md: the block %s is not closed' % BLOCK


def sources(path):
    """The C/C++/CUDA sources under path, build folders and hidden ones left out."""
    out = []
    for dp, dns, ns in os.walk(path):
        dns[:] = sorted(d for d in dns if not d.startswith(('.', '__'))
                        and not os.path.exists(os.path.join(dp, d, 'meson-private')))
        out += [os.path.join(dp, n) for n in sorted(ns) if n.endswith(SOURCES)]
    return out


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))
    top = os.path.dirname(src)
    layers, exceptions, err = read_order(os.path.join(src, 'README.md'))
    if err:
        print(err)
        return 1
    order = [d for layer in layers for d in layer]
    rank = {d: i for i, layer in enumerate(layers) for d in layer}
    bad = []
    # A name of the order is a folder of src/ where src/ has one, else a top-level folder.
    where = {}
    for d in order:
        rel = 'src/' + d if os.path.isdir(os.path.join(src, d)) else d
        if not os.path.isdir(os.path.join(top, rel)) or order.count(d) > 1:
            bad.append('src/README.md: %s in the include order is %s' % (
                d, 'listed twice' if order.count(d) > 1 else 'no folder of src/ nor of the repository'))
        where[rel] = d
    # An include root names a folder by its last component: <bench/...> is support/bench, <tdmaps/...> lib/tdmaps
    # (src/'s folders only; a header of theirs not yet written still counts).
    by_root = {d.split('/')[-1]: d for r, d in where.items() if r.startswith('src/')}

    def folder_of(rel):
        """The folder of the order a repository-relative path lies in; else the folder to name, or None."""
        parts = rel.split('/')
        for n in range(len(parts) - 1, 0, -1):
            if '/'.join(parts[:n]) in where:
                return where['/'.join(parts[:n])]
        if parts[0] == 'src':
            return '/'.join(parts[1:3]) if len(parts) > 3 else None
        return parts[0] if len(parts) > 1 and parts[0] != '..' else None

    # The folders of sources: the listed ones, and any other of src/support/, src/lib/ or the top that holds one.
    others = [os.path.join('src', p, d) for p in ('support', 'lib') for d in os.listdir(os.path.join(src, p))]
    others += [d for d in os.listdir(top) if d != 'src' and not d.startswith('.')]
    for rel in sorted(others):
        path = os.path.join(top, rel)
        if (rel not in where and os.path.isdir(path) and not os.path.exists(os.path.join(path, 'meson-private'))
                and sources(path)):
            bad.append('%s: a folder of sources not in the include order of src/README.md' % rel)

    checked = excepted = 0
    used = set()
    for rel_dir, here in sorted(where.items()):
        for fp in sources(os.path.join(top, rel_dir)):
            rel = os.path.relpath(fp, top).replace(os.sep, '/')
            with open(fp, encoding='utf-8', errors='replace') as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                kind, name = m.groups()
                found = [os.path.join(os.path.dirname(fp), name)] if kind == '"' else []
                found += [os.path.join(top, r, name) for r in ROOTS]
                found = [p for p in found if os.path.isfile(p)]
                target = folder_of(os.path.relpath(os.path.normpath(found[0]), top).replace(os.sep, '/')) \
                    if found else by_root.get(name.split('/')[0]) if '/' in name else None
                shown = name.join('<>' if kind == '<' else '""')
                if target is None or target == here:
                    continue  # the system's, a third party's, or its own folder
                checked += 1
                line = text.count('\n', 0, m.start()) + 1
                if (rel, target) in exceptions:
                    used.add((rel, target))
                    excepted += 1
                elif target not in rank:
                    bad.append('%s:%d: #include %s points to %s, which the include order does not list'
                               % (rel, line, shown, target))
                elif rank[target] <= rank[here]:
                    bad.append('%s:%d: #include %s points %s (%s -> %s)' % (
                        rel, line, shown, 'up' if rank[target] < rank[here] else 'sideways, one line of the order',
                        here, target))
    for (rel, target), line in sorted(exceptions.items()):
        if (rel, target) not in used:
            bad.append('src/README.md:%d: the exception %s -> %s matches no include' % (line, rel, target))
    for b in bad:
        print(b)
    print('%d include(s) across folders checked against the order %s (%d of them declared exceptions); %d wrong'
          % (checked, ' | '.join(' '.join(layer) for layer in layers), excepted, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
