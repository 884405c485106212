#!/usr/bin/env python3
"""Writes glyphs.json: the outlines of the kanji the shogi pieces carry, taken from
Noto Serif CJK JP Bold (SIL Open Font License 1.1), so that make-pieces.mjs draws the
letters as paths and the pieces look the same on machines without a Japanese font.

Needs fontTools and the font: on Debian `apt-get install python3-fonttools fonts-noto-cjk`.
Run it only when the set of characters changes; glyphs.json is committed.

    /usr/bin/python3 web/pieces/tools/extract-glyphs.py
"""
import json
import os
import sys

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.ttLib import TTCollection

FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
FACE = "Noto Serif CJK JP Bold"
HERE = os.path.dirname(os.path.abspath(__file__))


def characters():
    """Every character make-pieces.mjs writes, read from its piece table."""
    with open(os.path.join(HERE, "make-pieces.mjs"), encoding="utf-8") as f:
        text = f.read()
    return sorted({ch for ch in text if ord(ch) > 0x2E80})


def main():
    collection = TTCollection(FONT)
    font = next(f for f in collection.fonts if f["name"].getDebugName(4) == FACE)
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    out = {
        "font": FACE + " " + font["name"].getDebugName(5).split(";")[0],
        "copyright": font["name"].getDebugName(0),
        "licence": "SIL Open Font License 1.1 (https://openfontlicense.org)",
        "unitsPerEm": font["head"].unitsPerEm,
        "ascender": font["hhea"].ascent,
        "descender": font["hhea"].descent,
        "glyphs": {},
    }
    for ch in characters():
        name = cmap.get(ord(ch))
        if name is None:
            sys.exit(f"{FACE} has no glyph for {ch}")
        pen = SVGPathPen(glyphs)
        glyphs[name].draw(pen)
        bounds = BoundsPen(glyphs)
        glyphs[name].draw(bounds)
        out["glyphs"][ch] = {
            "advance": glyphs[name].width,
            "bounds": [round(v) for v in bounds.bounds],
            "d": pen.getCommands(),
        }
    with open(os.path.join(HERE, "glyphs.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(out['glyphs'])} glyphs: {''.join(out['glyphs'])}")


if __name__ == "__main__":
    main()
