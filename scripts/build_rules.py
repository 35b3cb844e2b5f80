#!/usr/bin/env python3
"""Build the rules pages from their sources and the worked examples' records (run by `make setup`).

    python scripts/build_rules.py [--root DIR] [--check]

Writes (git-ignored, like sw.js):
- rules/index.html: the three games in every language;
- rules/<lang>/<game>.html: one page per language and game, from the prose in rules/src/<lang>/<game>.html;
- rules/frames/<lang>/<example id>.json: each example's frames and the page's labels, for embed.html.

The prose sources are HTML fragments (a <title>, a description, an <h1>, a lead paragraph, then
<section id=...> blocks with an <h2>) in which `<example id="..."></example>` places a worked example and
`<a data-play="first_defence_limit=5">` links to the table with those options. Every example is read from
its record, rules/examples/<id>.durak (durak.record), and replayed with the engine: one frame per step
(web/examples/frames.py), its comment translated through the catalogues
(web.shared.i18n.translate_comment), its moves put into words by the narrator. Step 0 is written into the page as
static HTML by web/examples/stepper.js itself, run in
Node (scripts/render_examples.mjs), so the page shows what the stepper draws before any script runs.

The sources are checked as they are read: every language has the same sections in the same order, every
example sits on its game's page (EXAMPLE_PAGES) in every language, and every link stays on the site.
Files are rewritten only when their text changes. docs/rules-pages.md explains the whole.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from durak.record import Record, load_examples  # noqa: E402 - after the path set-up
from web.examples.frames import board_labels, record_frames  # noqa: E402
from web.shared.i18n import LANGS, LANGUAGE_NAMES, t, translate_comment  # noqa: E402

GAMES = ("podkidnoy", "perevodnoy", "prostoy")
#: Which page shows each worked example (../shared/DESIGN.md, "Rules pages and examples").
EXAMPLE_PAGES = {
    "podkidnoy-limit-take": "podkidnoy",
    "podkidnoy-limit-stop": "podkidnoy",
    "trump-six-exchange": "podkidnoy",
    "first-defence-five": "podkidnoy",
    "throw-in-priority": "podkidnoy",
    "podkidnoy-cheat-caught": "podkidnoy",
    "prostoy-partial-defence": "prostoy",
    "perevodnoy-transfer": "perevodnoy",
    "perevodnoy-transfer-refused": "perevodnoy",
}
SOURCES = Path("rules/src")
EXAMPLES = Path("rules/examples")
OUTPUT = Path("rules")
FRAMES = Path("rules/frames")
RENDERER = Path("scripts/render_examples.mjs")
#: The table's SVG sprite (suits and icons) is copied from index.html, its one source.
SPRITE = re.compile(r'<svg class="sprite".*?</svg>', re.S)

_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')
_HEADING = re.compile(r"<h1>(.*?)</h1>", re.S)
_SECTION = re.compile(r'<section id="([a-z0-9-]+)"( class="[^"]*")?>\s*<h2>(.*?)</h2>', re.S)
_EXAMPLE = re.compile(r'<example id="([a-z0-9-]+)"></example>')
_PLAY = re.compile(r'<a data-play="([^"]*)"')
_HREF = re.compile(r'\bhref="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


class BuildError(Exception):
    """A source or record that cannot make a page, with the file and the reason."""


# ---------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class Source:
    """One page's prose: its title, description, heading, lead and the body with its sections."""

    lang: str
    game: str
    title: str
    description: str
    heading: str
    lead: str  # what comes between the <h1> and the first section
    body: str
    sections: tuple[tuple[str, str, bool], ...]  # (id, heading text, numbered)
    examples: tuple[str, ...]


def read_source(path: Path, lang: str, game: str) -> Source:
    text = path.read_text(encoding="utf-8")

    def one(pattern: re.Pattern[str], what: str) -> re.Match[str]:
        found = pattern.search(text)
        if not found:
            raise BuildError(f"{path}: no {what}")
        return found

    title = one(_TITLE, "<title>")
    description = one(_DESCRIPTION, '<meta name="description">')
    heading = one(_HEADING, "<h1>")
    rest = text[heading.end():]
    first_section = _SECTION.search(rest)
    if not first_section:
        raise BuildError(f"{path}: no <section id=...> with an <h2>")
    lead, body = rest[:first_section.start()].strip(), rest[first_section.start():].strip()
    sections = tuple((m[1], _TAG.sub("", m[3]).strip(), "faq" not in (m[2] or "")) for m in _SECTION.finditer(body))
    return Source(lang, game, title[1].strip(), description[1], heading[1].strip(), lead, body, sections,
                  tuple(_EXAMPLE.findall(body)))


def read_sources(root: Path) -> dict[tuple[str, str], Source]:
    """Every page's source, checked against the others (same sections everywhere, examples where they belong)."""
    sources: dict[tuple[str, str], Source] = {}
    for lang in LANGS:
        for game in GAMES:
            path = root / SOURCES / lang / f"{game}.html"
            if not path.is_file():
                raise BuildError(f"{path.relative_to(root)} is missing: every language has a page for every game")
            sources[lang, game] = read_source(path, lang, game)
    for game in GAMES:
        expected = sorted(i for i, page in EXAMPLE_PAGES.items() if page == game)
        first = sources[LANGS[0], game]
        for lang in LANGS:
            source = sources[lang, game]
            if [s[0] for s in source.sections] != [s[0] for s in first.sections]:
                raise BuildError(f"rules/src/{lang}/{game}.html: its sections differ from rules/src/{LANGS[0]}/"
                                 f"{game}.html's (the language switch keeps the reader's section)")
            if sorted(source.examples) != expected:
                raise BuildError(f"rules/src/{lang}/{game}.html shows the examples {sorted(source.examples)}, "
                                 f"not {expected}")
    return sources


# ---------------------------------------------------------------------------- labels and frames
def labels(lang: str) -> dict[str, Any]:
    """The words web/examples/stepper.js needs on a rules page: the board's, plus try it's and the odds' controls."""
    return board_labels(lang, "example", "try", "back", "odds", "actions", "trying", "engine_loading",
                        "engine_failed", "odds_wait", "odds_none", "odds_for", "odds_value")


def example_data(example_id: str, record: Record, lang: str) -> dict[str, Any]:
    """{id, title, names, frames} of one example in one language: the engine replays the record."""
    names, frames = record_frames(record, lang)
    return {"id": example_id, "title": translate_comment(lang, record.title or example_id), "names": names,
            "frames": frames}


# ---------------------------------------------------------------------------- rendering
def render_widgets(root: Path, jobs: list[dict[str, Any]]) -> dict[str, str]:
    """{key: the example widget's HTML at its step}, drawn by web/examples/stepper.js in Node."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is needed to draw the examples' first frames (web/examples/stepper.js): "
                         "run `make setup`")
    run = subprocess.run([node, str(root / RENDERER)], input=json.dumps({"jobs": jobs}), capture_output=True,
                         text=True, encoding="utf-8", check=False)
    if run.returncode != 0:
        raise BuildError(f"{RENDERER} failed:\n{run.stderr}")
    html: dict[str, str] = json.loads(run.stdout)["html"]
    return html


def _script_json(data: object) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def play_link(game: str, lang: str, options: str = "") -> str:
    query = "&".join(part for part in (f"variant={game}", options, f"lang={lang}") if part)
    return f"../../index.html?{query}"


def _brand(href: str) -> str:
    # named by its label: on a phone the word is hidden and the suit alone is shown (web/examples/rules.css)
    return (f'<a class="rules-brand" href="{escape(href)}" aria-label="Durak"><svg class="brand-suit" '
            'aria-hidden="true"><use href="#suit-S"/></svg><span>Durak</span></a>')


def _nav_games(lang: str, current: str | None, prefix: str) -> str:
    items = []
    for game in GAMES:
        here = ' aria-current="page"' if game == current else ""
        items.append(f'<li><a href="{prefix}{game}.html"{here}>{escape(t(lang, f"variant_{game}"))}</a></li>')
    return f'<nav class="rules-games" aria-label="{escape(t(lang, "rules_games"))}"><ul>{"".join(items)}</ul></nav>'


def _nav_langs(lang: str, page: str) -> str:
    items = []
    for other in LANGS:
        here = ' aria-current="page"' if other == lang else ""
        items.append(f'<li><a href="../{other}/{page}" hreflang="{other}" lang="{other}" data-lang-switch{here}>'
                     f'{escape(LANGUAGE_NAMES[other])}</a></li>')
    return f'<nav class="rules-langs" aria-label="{escape(t(lang, "language"))}"><ul>{"".join(items)}</ul></nav>'


def page_body(source: Source, widgets: Mapping[str, str]) -> str:
    """The prose with its sections numbered, its examples drawn and its play links pointed at the table."""
    number = 0

    def section(match: re.Match[str]) -> str:
        nonlocal number
        ident, cls, heading = match[1], match[2] or "", match[3]
        if "faq" in cls:
            return f'<section id="{ident}"{cls}>\n<h2>{heading}</h2>'
        number += 1
        return f'<section id="{ident}"{cls}>\n<h2><span class="sec-num">{number}</span> {heading}</h2>'

    body = _SECTION.sub(section, source.body)
    body = _EXAMPLE.sub(lambda m: widgets[m[1]], body)
    def play(match: re.Match[str]) -> str:
        # the source's attribute is HTML ("a=1&amp;b=2"): read it as the browser would before the link is written
        return f'<a class="play-option" href="{escape(play_link(source.game, source.lang, unescape(match[1])))}"'

    return _PLAY.sub(play, body)


def game_page(source: Source, widgets: Mapping[str, str], data: Mapping[str, Any], sprite: str) -> str:
    lang, game = source.lang, source.game
    page = f"{game}.html"
    toc = "".join(f'<li><a href="#{ident}">{escape(text)}</a></li>' for ident, text, _ in source.sections)
    alternates = "".join(f'<link rel="alternate" hreflang="{other}" href="../{other}/{page}">' for other in LANGS)
    play = escape(play_link(game, lang))
    table = f"../../index.html?lang={lang}"
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light">
<meta name="theme-color" content="#0d4d32">
<title>{escape(source.title)}</title>
<meta name="description" content="{escape(source.description)}">
{alternates}
<link rel="icon" href="../../web/offline/icons/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="../../web/offline/manifest.webmanifest">
<link rel="stylesheet" href="../../web/table/style.css">
<link rel="stylesheet" href="../../web/shared/cards.css">
<link rel="stylesheet" href="../../web/examples/rules.css">
<link rel="modulepreload" href="../../web/examples/stepper.js">
</head>
<body class="rules-page" data-state="loading">
{sprite}
<a class="skip" href="#rules-main">{escape(t(lang, "rules_skip"))}</a>
<header class="rules-bar">
{_brand(table)}
{_nav_games(lang, game, "")}
{_nav_langs(lang, page)}
</header>
<main id="rules-main" class="rules-main">
<article class="rules-article">
<header class="rules-head">
<p class="rules-kicker"><a href="../index.html">{escape(t(lang, "rules_title"))}</a></p>
<h1>{source.heading}</h1>
{source.lead}
<p class="rules-actions">
<a class="btn primary" href="{play}" data-testid="play-link">{escape(t(lang, "rules_play"))}</a>
<a class="btn ghost" href="{escape(table)}" data-testid="table-link">{escape(t(lang, "rules_back"))}</a>
</p>
</header>
<nav class="rules-toc" aria-labelledby="toc-title">
<h2 id="toc-title">{escape(t(lang, "rules_contents"))}</h2><ol>{toc}</ol>
</nav>
{page_body(source, widgets)}
</article>
</main>
<footer class="rules-footer">
<p><a class="btn primary" href="{play}">{escape(t(lang, "rules_play"))}</a></p>
{_nav_games(lang, game, "")}
<p><a href="../index.html">{escape(t(lang, "rules_index"))}</a> ·
<a href="{escape(table)}">{escape(t(lang, "rules_back"))}</a></p>
<p class="credits"><a href="../../LICENSE">{escape(t(lang, "credits_licence"))}</a> ·
<a href="../../web/vendor/pyodide/LICENSE.txt">Pyodide (MPL-2.0)</a> ·
<a href="../../web/vendor/pyscript/LICENSE.txt">PyScript (Apache-2.0)</a></p>
</footer>
<script type="application/json" id="rules-data">{_script_json(data)}</script>
<script type="module" src="../../web/examples/rules.js"></script>
<script src="../../web/shared/locale/strings.js"></script>
<script type="module" src="../../web/offline/pwa.js"></script>
</body>
</html>
"""


def index_page(root: Path, sources: Mapping[tuple[str, str], Source], sprite: str) -> str:
    """rules/index.html: the three games in every language (each block in its own lang)."""
    blocks = []
    for lang in LANGS:
        intro = (root / SOURCES / lang / "index.html").read_text(encoding="utf-8").strip()
        cards = "".join(
            f'<li class="game-card"><a href="{lang}/{game}.html"><strong>{escape(t(lang, f"variant_{game}"))}</strong>'
            f'<span>{escape(sources[lang, game].description)}</span></a></li>' for game in GAMES)
        blocks.append(f'<section class="rules-lang" lang="{lang}" id="{lang}" aria-labelledby="{lang}-title">'
                      f'<h2 id="{lang}-title">{escape(LANGUAGE_NAMES[lang])}</h2>{intro}'
                      f'<ul class="game-cards">{cards}</ul>'
                      f'<p><a class="btn ghost" href="../index.html?lang={lang}">'
                      f'{escape(t(lang, "rules_back"))}</a></p>'
                      f"</section>")
    first = LANGS[0]
    jumps = "".join(f'<li><a href="#{lang}" lang="{lang}">{escape(LANGUAGE_NAMES[lang])}</a></li>' for lang in LANGS)
    title = " · ".join(f'<span lang="{lang}">{escape(t(lang, "rules_title"))}</span>' for lang in LANGS)
    return f"""<!doctype html>
<html lang="{first}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light">
<meta name="theme-color" content="#0d4d32">
<title>{escape(" · ".join(t(lang, "rules_title") for lang in LANGS))}</title>
<meta name="description" content="{escape(t(first, "rules_index_description"))}">
<link rel="icon" href="../web/offline/icons/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="../web/offline/manifest.webmanifest">
<link rel="stylesheet" href="../web/table/style.css">
<link rel="stylesheet" href="../web/shared/cards.css">
<link rel="stylesheet" href="../web/examples/rules.css">
</head>
<body class="rules-page rules-index" data-state="ready">
{sprite}
<header class="rules-bar">
{_brand("../index.html")}
<nav class="rules-langs" aria-label="{escape(" · ".join(t(lang, "language") for lang in LANGS))}"><ul>{jumps}</ul></nav>
</header>
<main id="rules-main" class="rules-main">
<h1 class="rules-index-title">{title}</h1>
{"".join(blocks)}
</main>
<script src="../web/shared/locale/strings.js"></script>
<script type="module" src="../web/offline/pwa.js"></script>
</body>
</html>
"""


# ---------------------------------------------------------------------------- the build
def pages(root: Path = ROOT) -> dict[Path, str]:
    """Every file the build writes, by path under root, with its text."""
    sources = read_sources(root)
    records = load_examples(root / EXAMPLES)
    unknown = sorted(set(records) - set(EXAMPLE_PAGES))
    missing = sorted(set(EXAMPLE_PAGES) - set(records))
    if unknown or missing:
        raise BuildError(f"{EXAMPLES}: records {missing} are missing, {unknown} have no page")
    sprite_match = SPRITE.search((root / "index.html").read_text(encoding="utf-8"))
    if not sprite_match:
        raise BuildError("index.html has no <svg class=\"sprite\">: the cards' suits come from it")
    sprite = sprite_match[0]
    out: dict[Path, str] = {}
    page_data: dict[str, dict[str, Any]] = {}
    jobs: list[dict[str, Any]] = []
    for lang in LANGS:
        words = labels(lang)
        page_data[lang] = {"labels": words, "examples": {}}
        for example_id, record in records.items():
            data = example_data(example_id, record, lang)
            page_data[lang]["examples"][example_id] = data
            jobs.append({"key": f"{lang}/{example_id}", "example": data, "labels": words, "step": 0})
            out[FRAMES / lang / f"{example_id}.json"] = json.dumps({"labels": words, "example": data},
                                                                   ensure_ascii=False, indent=1) + "\n"
    widgets = render_widgets(root, jobs)
    for (lang, game), source in sources.items():
        ids = source.examples
        mine = {i: widgets[f"{lang}/{i}"] for i in ids}
        data = {"labels": page_data[lang]["labels"], "examples": {i: page_data[lang]["examples"][i] for i in ids}}
        out[OUTPUT / lang / f"{game}.html"] = game_page(source, mine, data, sprite)
    out[OUTPUT / "index.html"] = index_page(root, sources, sprite)
    check_links(root, out)
    return out


def check_links(root: Path, out: Mapping[Path, str]) -> None:
    """Every href of the built pages names a file of the site (or one this build writes)."""
    for path, text in out.items():
        if path.suffix != ".html":
            continue
        for href in _HREF.findall(text):
            target = href.split("#")[0].split("?")[0]
            if not target or target.startswith(("http:", "https:", "mailto:")):
                if target:
                    raise BuildError(f"{path}: links off the site ({href}): the pages work offline")
                continue
            relative = Path(os.path.normpath(path.parent / target))
            if relative.parts[:1] == ("..",):
                raise BuildError(f"{path}: the link {href!r} leaves the site")
            if not (root / relative).exists() and relative not in out:
                raise BuildError(f"{path}: broken link {href!r}")


#: The compressed copies scripts/compress.py keeps beside each page: its files, not this build's.
COMPRESSED_COPIES = (".br", ".gz")


def built_files(root: Path = ROOT) -> Iterator[Path]:
    """The files an earlier build wrote (to remove those no source makes any more)."""
    for lang_dir in (root / OUTPUT).iterdir() if (root / OUTPUT).is_dir() else ():
        if lang_dir.is_dir() and lang_dir.name not in ("src", "examples"):
            yield from (p for p in lang_dir.rglob("*") if p.is_file() and p.suffix not in COMPRESSED_COPIES)
    index = root / OUTPUT / "index.html"
    if index.is_file():
        yield index


def build(root: Path = ROOT, *, check: bool = False) -> list[Path]:
    """Write every page whose text changed (nothing with ``check``); return the paths that changed."""
    wanted = pages(root)
    changed = [path for path, text in wanted.items()
               if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text]
    stale = [path.relative_to(root) for path in built_files(root) if path.relative_to(root) not in wanted]
    if check:
        return changed + stale
    for path in changed:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(wanted[path], encoding="utf-8")
        partial.replace(target)
    for path in stale:
        (root / path).unlink()
    return changed + stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the rules pages (rules/) from rules/src and rules/examples.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is stale")
    args = parser.parse_args(argv)
    try:
        changed = build(args.root, check=args.check)
    except (BuildError, ValueError, OSError) as error:
        print(f"build_rules.py: {error}", file=sys.stderr)
        return 1
    pages_count = len(LANGS) * len(GAMES) + 1
    if args.check:
        print(f"rules/: {'stale' if changed else 'up to date'} ({pages_count} pages)")
        return 1 if changed else 0
    print(f"rules/: {len(changed)} files written ({pages_count} pages, {len(EXAMPLE_PAGES)} examples)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
