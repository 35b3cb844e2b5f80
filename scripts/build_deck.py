#!/usr/bin/env python3
"""Build the court cards' and aces' art, one small SVG per face and deck style, from @letele/playing-cards.

The package (CC0: Adrian Kennard's playing cards) ships its 52 faces as React components in one ES module,
each a tree of ``React.createElement(tag, props, ...children)`` calls. This script reads those calls back
into SVG (no JavaScript runs), keeps the sixteen faces the CSS cards do not draw well (jacks, queens,
kings and aces: the number cards' pips are laid out by web/shared/cards.css), and writes:

- web/vendor/deck/classic/KH.svg, ...: the faces as printed (spades and clubs black, hearts and diamonds
  red), sixteen files;
- web/vendor/deck/four-colour/JD.svg, ...: diamonds' and clubs' faces only, their suit signs blue and
  green (the four-colour deck draws spades and hearts from classic/), eight files;
- web/vendor/deck/LICENSE.txt: the package's licence text.

Each file is one face's picture, its framed middle without the corner indices (the page draws its own,
in the page's language), and CSS shows it as ``url(deck/classic/KH.svg)``. One file per face rather than
one sprite for the deck: the browser parses an SVG image on the page's main thread, and a sprite of every
face (some 350 kB) is one task of 50-100 ms when the first court card comes to the table, a face a few ms.
Numbers are rounded to two decimals, then SVGO (scripts/optimise_svg.mjs, in Node.js) writes each file
shorter with the same picture: 29 % less with gzip for the classic deck. A face file no longer built is
removed. Idempotent; stdlib only, but for Node.js and SVGO from node_modules.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "@letele/playing-cards"
SOURCE = ROOT / "node_modules" / PACKAGE / "dist" / "index.esm.js"
LICENCE = ROOT / "node_modules" / PACKAGE / "LICENSE"
OPTIMISER = ROOT / "scripts" / "optimise_svg.mjs"
SVGO = ROOT / "node_modules" / "svgo" / "package.json"
OUT = ROOT / "web" / "vendor" / "deck"

SUITS = "SHDC"
RANKS = "JQKA"
# The package's card is -120 -168 240 336; its picture frame (courts) is 164.8 x 260.8 in the middle, each
# face file's view box.
FRAME = (-82.4, -130.4, 164.8, 260.8)
# The four-colour deck's inks: diamonds blue, clubs green (web/shared/cards.css uses the same two).
FOUR_COLOUR = {"D": "#1f5fc4", "C": "#1b7a32"}
# An ace's ground is the card's own paper, so that its picture's box does not show on the card
# (web/shared/cards.css: `.card`'s 160deg gradient from --paper to --paper-2; `.ace[data-face]::after`
# inset 11% 16%; cards 1.4 times as tall as wide). A court's picture keeps a white ground inside its frame.
PAPER = ("#fffdf7", "#f1ecdf")
PAPER_ANGLE_DEG = 160
ACE_INSET = (0.11, 0.16)  # top and bottom, left and right: shares of the card's height and width
CARD_RATIO = 1.4
# A face's own suit sign and index are <symbol>s of these view boxes (the figures' are 0 0 1300 2000).
SIGN_BOXES = ("-600 -600 1200 1200", "-500 -500 1000 1000")

# React's camelCase props and their SVG attribute names; props not listed are dropped.
ATTRIBUTES = {
    "width": "width", "height": "height", "x": "x", "y": "y", "rx": "rx", "ry": "ry", "d": "d",
    "id": "id", "viewBox": "viewBox", "preserveAspectRatio": "preserveAspectRatio",
    "transform": "transform", "fill": "fill", "stroke": "stroke", "strokeWidth": "stroke-width",
    "strokeLinecap": "stroke-linecap", "strokeLinejoin": "stroke-linejoin",
    "strokeMiterlimit": "stroke-miterlimit", "strokeDasharray": "stroke-dasharray",
    "xlinkHref": "href", "patternUnits": "patternUnits", "textAnchor": "text-anchor",
    "fontSize": "font-size", "fontFamily": "font-family",
}


class DeckError(Exception):
    pass


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)


TOKEN = re.compile(r"""
    \s+ | /\*.*?\*/                                  # blanks, comments (/*#__PURE__*/)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<num>-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?)
  | (?P<name>[A-Za-z_$][\w$.]*)
  | (?P<punct>[{}(),:?])
""", re.VERBOSE | re.DOTALL)


class Parser:
    """Reads one component's ``React.createElement`` tree (babel's output, a regular shape)."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            match = TOKEN.match(text, pos)
            if not match:
                raise DeckError(f"cannot read the module at {text[pos:pos + 40]!r}")
            pos = match.end()
            if match.lastgroup:
                self.tokens.append((match.lastgroup, match.group(match.lastgroup)))
        self.at = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> str:
        text = self.peek()[1]
        if value is not None and text != value:
            raise DeckError(f"expected {value!r}, found {text!r}")
        self.at += 1
        return text

    def value(self) -> str | None:
        kind, text = self.peek()
        self.take()
        if kind == "str":
            return str(json.loads(text))
        if kind == "num":
            return text
        return None  # a variable (titleId, props): not part of the drawing

    def props(self) -> dict[str, str]:
        if self.peek()[1] == "null":
            self.take()
            return {}
        wrapped = self.peek()[1] == "_extends"
        if wrapped:
            self.take()
            self.take("(")
        self.take("{")
        props: dict[str, str] = {}
        while self.peek()[1] != "}":
            kind, key = self.peek()
            self.take()
            if kind == "str":
                key = json.loads(key)
            self.take(":")
            value = self.value()
            if value is not None and key in ATTRIBUTES:
                props[ATTRIBUTES[key]] = value
            if self.peek()[1] == ",":
                self.take()
        self.take("}")
        if wrapped:
            self.take(",")
            self.take()  # the component's own props
            self.take(")")
        return props

    def element(self) -> Element:
        self.take("React.createElement")
        self.take("(")
        tag = self.value()
        if tag is None:
            raise DeckError("an element without a tag name")
        self.take(",")
        node = Element(tag, self.props())
        while self.peek()[1] == ",":
            self.take()
            kind, text = self.peek()
            if text == "React.createElement":
                node.children.append(self.element())
            elif text == "title":  # `title ? <title> : null`, or the <title>'s text: React's title prop
                self.take()
                if self.peek()[1] == "?":
                    self.take()
                    self.element()
                    self.take(":")
                    self.take("null")
            elif kind == "str":
                node.children.append(self.value() or "")
            else:
                raise DeckError(f"unexpected {text!r} among {tag}'s children")
        self.take(")")
        return node


def read_faces(source: str) -> dict[str, Element]:
    """Each face's <svg> tree by our notation ("KH", "AS"), read from the package's module."""
    faces: dict[str, Element] = {}
    for match in re.finditer(r"^const Svg([SHDC])([JQKA]) = _ref => \{.*?return (.*?);\n\};$", source,
                             re.MULTILINE | re.DOTALL):
        suit, rank, body = match.groups()
        faces[rank + suit] = Parser(body).element()
    missing = [rank + suit for suit in SUITS for rank in RANKS if rank + suit not in faces]
    if missing:
        raise DeckError(f"{PACKAGE} has no face for {', '.join(missing)}")
    return faces


NUMBER = re.compile(r"-?\d*\.\d+|-?\d+")


def rounded(text: str) -> str:
    """Numbers to two decimals, without trailing zeros (path data and transforms)."""
    def one(match: re.Match[str]) -> str:
        number = f"{float(match.group()):.2f}".rstrip("0").rstrip(".")
        return "0" if number == "-0" else number
    return NUMBER.sub(one, text)


def recolour(node: Element, ink: str) -> None:
    """The four-colour deck: a suit sign's or an index's fill and stroke in ``ink`` (black or red before)."""
    for child in node.children:
        if isinstance(child, Element):
            for key in ("fill", "stroke"):
                if child.attrs.get(key, "") not in ("none", "#fff", "#FFF", "white"):
                    child.attrs[key] = ink
            if "fill" not in child.attrs and child.tag == "path":
                child.attrs["fill"] = ink
            recolour(child, ink)


def markup(node: Element | str) -> str:
    """SVG text of a face's tree, its numbers rounded."""
    if isinstance(node, str):
        return escape(node)
    attrs = []
    for key, value in node.attrs.items():
        if key in ("d", "transform", "viewBox", "x", "y", "width", "height", "stroke-width"):
            value = rounded(value)
        attrs.append(f" {key}={quoteattr(value)}")
    inner = "".join(markup(child) for child in node.children)
    head = f"<{node.tag}{''.join(attrs)}"
    return f"{head}>{inner}</{node.tag}>" if inner else f"{head}/>"


def paper_ground() -> str:
    """The card's paper gradient across an ace's picture, in the face file's units: the file is drawn
    into the ace's box (``meet``), centred on the card, so the card's gradient line is placed around the
    origin at the card's size in those units."""
    x0, y0, w, h = FRAME
    inset_y, inset_x = ACE_INSET
    scale = min((1 - 2 * inset_x) / w, (1 - 2 * inset_y) * CARD_RATIO / h)  # file units per card width
    card_w, card_h = 1 / scale, CARD_RATIO / scale
    angle = math.radians(PAPER_ANGLE_DEG)
    dx, dy = math.sin(angle), -math.cos(angle)  # CSS: 0deg points up, 90deg right
    half = (card_w * abs(dx) + card_h * abs(dy)) / 2  # half the CSS gradient line
    return (f'<linearGradient id="paper" gradientUnits="userSpaceOnUse" x1="{-dx * half:.2f}" '
            f'y1="{-dy * half:.2f}" x2="{dx * half:.2f}" y2="{dy * half:.2f}">'
            f'<stop offset="0" stop-color="{PAPER[0]}"/><stop offset="1" stop-color="{PAPER[1]}"/>'
            f'</linearGradient><rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="url(#paper)"/>')


def face_files(faces: dict[str, Element], four_colour: bool) -> dict[str, str]:
    """One small SVG per face, its picture frame for a view box: {"KH.svg": text}."""
    files = {}
    x0, y0, w, h = FRAME
    suits = "".join(FOUR_COLOUR) if four_colour else SUITS
    for card in (rank + suit for suit in suits for rank in RANKS):
        face = faces[card]
        suit = card[1]
        if four_colour:
            for defs in (c for c in face.children if isinstance(c, Element) and c.tag == "defs"):
                for symbol in (c for c in defs.children if isinstance(c, Element) and c.tag == "symbol"):
                    if symbol.attrs.get("viewBox") in SIGN_BOXES:
                        recolour(symbol, FOUR_COLOUR[suit])
            for use in (c for c in face.children if isinstance(c, Element) and c.tag == "use"):
                if use.attrs.get("stroke") not in (None, "#fff", "none"):
                    use.attrs["stroke"] = FOUR_COLOUR[suit]
        # without the card's outline (the CSS card has its own) and the maker's address on the ace of spades
        body = "".join(markup(child) for child in face.children
                       if not (isinstance(child, Element) and (child.tag == "text" or child.attrs.get("rx"))))
        # the ground first: the picture is opaque once drawn, hiding the CSS card's letter or suit
        ground = (paper_ground() if card[0] == "A"
                  else f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#fff"/>')
        files[f"{card}.svg"] = ('<svg xmlns="http://www.w3.org/2000/svg" '
                                f'viewBox="{x0} {y0} {w} {h}">{ground}{body}</svg>\n')
    return files


def optimised(files: dict[str, str]) -> dict[str, str]:
    """The same SVG files, written shorter by SVGO (scripts/optimise_svg.mjs)."""
    if shutil.which("node") is None or not SVGO.is_file():
        raise DeckError("Node.js or node_modules/svgo is missing: run `npm ci` first (make setup does)")
    run = subprocess.run(["node", str(OPTIMISER)], input=json.dumps(files), capture_output=True, text=True,
                         check=False, cwd=ROOT)
    if run.returncode != 0:
        raise DeckError(f"{OPTIMISER.name} failed:\n{run.stderr[-3000:]}")
    result: dict[str, str] = json.loads(run.stdout)
    return result


def write(path: Path, text: str) -> bool:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    if not SOURCE.is_file():
        print(f"{SOURCE.relative_to(ROOT)} is missing: run `npm ci` first (make setup does)", file=sys.stderr)
        return 1
    try:
        source = SOURCE.read_text(encoding="utf-8")
        faces = {f"{style}/{name}": text
                 for style, four_colour in (("classic", False), ("four-colour", True))
                 for name, text in face_files(read_faces(source), four_colour).items()}
        outputs = {"LICENSE.txt": LICENCE.read_text(encoding="utf-8"), **optimised(faces)}
    except DeckError as error:
        print(f"build_deck: {error}", file=sys.stderr)
        return 1
    changed = [name for name, text in outputs.items() if write(OUT / name, text)]
    stale = [path for path in OUT.rglob("*.svg") if path.relative_to(OUT).as_posix() not in outputs]
    for path in stale:
        path.unlink()
    size = sum(len(text.encode()) for name, text in outputs.items() if name.endswith(".svg"))
    print(f"deck: {len(changed)} of {len(outputs)} files changed, {len(stale)} removed "
          f"({len(outputs) - 1} faces, {size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
