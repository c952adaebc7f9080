#!/usr/bin/env python3
"""Generates Sources/WidgetHostKit/View/DisplayWidthTable.swift from the
Unicode Character Database, so that DisplayWidth follows the standard rather
than hand-picked ranges.

Input: the UCD text files of one Unicode version (Debian's `unicode-data`
package installs them in /usr/share/unicode; no network is used):
  extracted/DerivedEastAsianWidth.txt   East_Asian_Width, and its @missing defaults
  extracted/DerivedGeneralCategory.txt  General_Category (Cn: unassigned)
  auxiliary/GraphemeBreakProperty.txt   Grapheme_Cluster_Break
  emoji/emoji-data.txt                  Emoji, Emoji_Presentation, Extended_Pictographic
  PropList.txt                          Prepended_Concatenation_Mark

  tools/generate-display-width.py [--ucd DIR] [--output FILE] [--check]

--check writes nothing: it exits 1 if FILE differs from what the data gives
(CI runs it so the checked-in table cannot drift from the generator).

The reference is glibc's wcwidth, scalar by scalar, as terminals that use it
(VTE, xterm) draw text; Python's wcwidth where glibc has no answer (emoji
sequences, unassigned code points). docs/reliability.md says why. The rules
(DisplayWidth.swift sums them over a grapheme cluster's scalars):
  zero   General_Category Mn, Me, Cf (but U+00AD SOFT HYPHEN, shown as a
         hyphen, and the Prepended_Concatenation_Marks such as the Arabic
         number signs U+0600..0605, which are drawn), Zl, Zp, and
         Grapheme_Cluster_Break V and T (Hangul jungseong and jongseong,
         which join a leading consonant's block). Spacing marks (Mc) take a
         column, as in glibc: a virama conjunct's consonants each count.
  wide   East_Asian_Width W or F, with the @missing defaults for unassigned
         code points (the reserved CJK ranges are W), or Emoji_Presentation
         (regional indicators), or an unassigned Extended_Pictographic code
         point (where emoji of later Unicode versions are added, drawn two
         columns wide by terminals that know them); unless zero; plus
         WIDE_AHEAD below
  emoji  Emoji=Yes or Extended_Pictographic: a cluster on such a base with
         VS16, a ZWJ, a skin tone or a keycap is one glyph of two columns
         (VS15: one)
"""
import argparse
import os
import re
import sys

UNICODE_VERSION_EXPECTED = None  # read from the files' headers

# UAX #11 for Unicode 16.0 made these Wide (they are N in 15.0); terminals
# already draw them two columns wide, so the table takes them ahead of the
# data files it is generated from.
WIDE_AHEAD = [(0x2630, 0x2637), (0x268A, 0x268F), (0x4DC0, 0x4DFF)]

HEADER = re.compile(r"^#\s*\S+-(\d+\.\d+\.\d+)\.txt")
MISSING = re.compile(r"^#\s*@missing:\s*([0-9A-F]+)\.\.([0-9A-F]+)\s*;\s*(\w+)")
# The long value names @missing lines use, as the data lines abbreviate them.
SHORT = {"Neutral": "N", "Wide": "W", "Fullwidth": "F", "Halfwidth": "H", "Narrow": "Na", "Ambiguous": "A"}


def read(path):
    """(rows, version, defaults): the (first, last, value) rows of a UCD
    property file, its Unicode version, and its `# @missing` defaults (the
    value of a code point no row lists), most general first."""
    rows, version, defaults = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if version is None:
                match = HEADER.match(line)
                if match:
                    version = match.group(1)
            missing = MISSING.match(line)
            if missing:
                value = SHORT.get(missing.group(3), missing.group(3))
                defaults.append((int(missing.group(1), 16), int(missing.group(2), 16), value))
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [part.strip() for part in data.split(";")]
            span = fields[0].split("..")
            first = int(span[0], 16)
            last = int(span[-1], 16)
            rows.append((first, last, fields[1]))
    return rows, version, defaults


def with_defaults(rows, defaults):
    """`rows` plus a row for each code point only an @missing line covers
    (a later, narrower @missing line overrides an earlier one)."""
    listed = set()
    for first, last, _ in rows:
        listed.update(range(first, last + 1))
    value = {}
    for first, last, default in defaults:
        for point in range(first, last + 1):
            if point not in listed:
                value[point] = default
    return rows + [(point, point, v) for point, v in value.items()]


def codepoints(rows, values):
    result = set()
    for first, last, value in rows:
        if value in values:
            result.update(range(first, last + 1))
    return result


def ranges(points):
    """Sorted, merged (first, last) ranges of a set of code points."""
    out = []
    for point in sorted(points):
        if out and out[-1][1] == point - 1:
            out[-1][1] = point
        else:
            out.append([point, point])
    return out


def swift_table(name, points, doc):
    lines = [f"    /// {doc}", f"    static let {name}: [UInt32] = ["]
    pairs = [f"0x{a:X}, 0x{b:X}," for a, b in ranges(points)]
    for i in range(0, len(pairs), 6):
        lines.append("        " + " ".join(pairs[i:i + 6]))
    lines.append("    ]")
    return "\n".join(lines)


def generate(ucd):
    eaw, v1, eaw_missing = read(os.path.join(ucd, "extracted", "DerivedEastAsianWidth.txt"))
    gc, v2, _ = read(os.path.join(ucd, "extracted", "DerivedGeneralCategory.txt"))
    gcb, v3, _ = read(os.path.join(ucd, "auxiliary", "GraphemeBreakProperty.txt"))
    emoji, v4, _ = read(os.path.join(ucd, "emoji", "emoji-data.txt"))
    props, v5, _ = read(os.path.join(ucd, "PropList.txt"))
    versions = {v for v in (v1, v2, v3, v4, v5) if v}
    if len(versions) != 1:
        sys.exit(f"the data files are of different Unicode versions: {sorted(versions)}")
    version = versions.pop()

    assigned = set()
    for first, last, value in gc:
        if value != "Cn":
            assigned.update(range(first, last + 1))
    zero = codepoints(gc, {"Mn", "Me", "Cf", "Zl", "Zp"}) | codepoints(gcb, {"V", "T"})
    zero.discard(0x00AD)
    zero -= codepoints(props, {"Prepended_Concatenation_Mark"})
    pictographic = codepoints(emoji, {"Extended_Pictographic"})
    wide = codepoints(with_defaults(eaw, eaw_missing), {"W", "F"}) | codepoints(emoji, {"Emoji_Presentation"})
    wide |= pictographic - assigned
    for first, last in WIDE_AHEAD:
        wide.update(range(first, last + 1))
    wide -= zero
    is_emoji = codepoints(emoji, {"Emoji"}) | pictographic

    body = "\n\n".join([
        swift_table("zeroWidth", zero, "Scalars that take no column."),
        swift_table("wide", wide, "Scalars that take two columns."),
        swift_table("emoji", is_emoji, "Emoji=Yes or Extended_Pictographic: the bases of emoji sequences."),
    ])
    return f"""// Generated by tools/generate-display-width.py from the Unicode {version}
// Character Database (EastAsianWidth with its @missing defaults, General_Category,
// GraphemeBreakProperty, emoji-data, PropList), plus the ranges UAX #11 made Wide
// in Unicode 16.0. Do not edit:
// run the script. CI checks that this file is what the script gives.

/// Sorted, disjoint ranges as flat (first, last) pairs, for binary search.
enum DisplayWidthTable {{
    static let unicodeVersion = "{version}"

{body}
}}
"""


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ucd", default="/usr/share/unicode", help="directory of the UCD files")
    parser.add_argument("--output", default=os.path.join(root, "Sources/WidgetHostKit/View/DisplayWidthTable.swift"))
    parser.add_argument("--check", action="store_true", help="exit 1 if --output differs; write nothing")
    args = parser.parse_args()
    for part in ("extracted/DerivedEastAsianWidth.txt", "emoji/emoji-data.txt", "auxiliary/GraphemeBreakProperty.txt", "PropList.txt"):
        if not os.path.exists(os.path.join(args.ucd, part)):
            sys.exit(f"{args.ucd}/{part} is missing: install the UCD (apt-get install unicode-data) or give --ucd")
    text = generate(args.ucd)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = ""
        if current != text:
            sys.exit(f"{args.output} is not what tools/generate-display-width.py gives: run it and commit the result")
        print(f"{args.output} matches the Unicode data")
        return
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
