#!/usr/bin/env python3
"""Layout test of the drawn figures (issue #28 item 6): no text is clipped.

    check_layout.py DIR [DIR...]

Reads every SVG under each DIR (the figures tdmaps_figures drew; the PNG is drawn by the same
gnuplot commands at the same size) and fails when a centred text -- a figure or panel title,
an axis label -- would reach past the picture's edge in the PNG. gnuplot's pngcairo sets a
font of P points at P*4/3 pixels where the SVG sets P pixels, so the PNG is the one that clips:
a text's width there is estimated as its length times the average advance of DejaVu Sans
(0.55 em, measured on our PNGs: a 60-character title at 13 points spans 572 pixels) times 4/3
times its size, centred where the SVG centres it (a centred text sits at the same place in
both pictures). Key entries and tick labels are left out: gnuplot lays them out again for
each terminal's own font, so the SVG's places are not the PNG's (the PNGs were checked by
their edge pixels when this test was written: no text touches an edge). The titles are
wrapped by figures/plot.cpp with the same model. Prints one line per clipped text and a
summary; exit 1 when any is clipped.
"""
import html
import os
import re
import sys

EM = 0.55 * 4.0 / 3.0  # PNG pixels per character per point (DejaVu Sans, pngcairo)
TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)(?: rotate\(([-\d.]+)\))?"[^>]*?'
                  r'font-size="([\d.]+)"[^>]*?text-anchor="(\w+)"[^>]*>\s*<text[^>]*>(.*?)</text>', re.S)
VIEW = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def check(path):
    s = open(path, encoding="utf-8").read()
    m = VIEW.search(s)
    if not m:
        return []
    W, H = float(m.group(1)), float(m.group(2))
    bad = []
    for x, y, rot, size, anchor, body in TEXT.findall(s):
        text = html.unescape(re.sub(r"<[^>]+>", "", body)).strip()
        if not text:
            continue
        if anchor != "middle":
            continue
        x, y, size = float(x), float(y), float(size)
        w = len(text) * EM * size
        if rot and abs(float(rot)) > 45:  # vertical (a y label): its extent is along y
            lo, hi, edge = y - w / 2, y + w / 2, H
        else:
            lo, hi, edge = x - w / 2, x + w / 2, W
        if lo < 0 or hi > edge:
            bad.append("%s: clipped (%.0f..%.0f of 0..%.0f px at %g pt): %s" % (path, lo, hi, edge, size, text[:90]))
    return bad


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    files = []
    for d in sys.argv[1:]:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith(".svg")]
    bad = [b for f in sorted(files) for b in check(f)]
    for b in bad:
        print(b)
    print("%d SVG files, %d clipped titles or axis labels" % (len(files), len(bad)))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
