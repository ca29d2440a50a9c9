#!/usr/bin/env python3
# src/check_include_order.py — meson test `include_order`: every #include of a file under src/support/
# and src/lib/ points to its own folder or to a folder after it in the order src/README.md states
# (its line "include order: support/bench support/gpu ... lib/tdmaps"); an include that points up
# (to a folder before it) fails, and so does a folder of sources that the order does not list.
#   check_include_order.py SRC_DIR      exit 0 when every arrow points down, 1 with one line per arrow up
import os
import re
import sys

SOURCES = ('.hpp', '.h', '.cuh', '.cu', '.cpp', '.cc')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))
    with open(os.path.join(src, 'README.md'), encoding='utf-8') as f:
        lines = [l for l in f.read().splitlines() if l.startswith('include order:')]
    if len(lines) != 1:
        print('src/README.md: want exactly one line "include order: FOLDER ..."; found %d' % len(lines))
        return 1
    order = lines[0].split(':', 1)[1].split()
    rank = {d: i for i, d in enumerate(order)}
    # An include root names a folder by its last component: <bench/...> is support/bench, <tdmaps/...> lib/tdmaps.
    by_root = {d.split('/')[-1]: d for d in order}
    # src/support/results is an include root of its own (<layouts.hpp>): its bare names.
    results_dir = os.path.join(src, 'support', 'results')
    results_names = set(os.listdir(results_dir)) if os.path.isdir(results_dir) else set()

    bad = []
    checked = 0
    for part in ('support', 'lib'):
        for folder in sorted(os.listdir(os.path.join(src, part))):
            rel = part + '/' + folder
            path = os.path.join(src, part, folder)
            if not os.path.isdir(path):
                continue
            files = [os.path.join(dp, n) for dp, _, ns in os.walk(path) for n in ns if n.endswith(SOURCES)]
            if rel not in rank:
                if files:
                    bad.append('%s: a folder of sources not in the include order of src/README.md' % rel)
                continue
            for fp in sorted(files):
                with open(fp, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                for kind, name in INCLUDE.findall(text):
                    target = None
                    if kind == '"':
                        p = os.path.normpath(os.path.join(os.path.dirname(fp), name))
                        if os.path.exists(p):
                            r = os.path.relpath(p, src).split(os.sep)
                            target = '/'.join(r[:2]) if len(r) > 2 else None
                    if target is None:
                        first = name.split('/')[0]
                        if '/' in name and first in by_root:
                            target = by_root[first]
                        elif '/' not in name and name in results_names:
                            target = 'support/results'
                    if target is None or target == rel:
                        continue  # the system's, a third party's, or its own folder
                    checked += 1
                    if target not in rank:
                        bad.append('%s: #include %s points to %s, which the include order does not list'
                                   % (os.path.relpath(fp, src), name, target))
                    elif rank[target] < rank[rel]:
                        bad.append('%s: #include %s points up (%s -> %s; order: %s)'
                                   % (os.path.relpath(fp, src), name, rel, target, ' '.join(order)))
    for b in bad:
        print(b)
    print('%d include(s) across folders checked against the order %s; %d wrong'
          % (checked, ' '.join(order), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
