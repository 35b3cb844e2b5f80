#!/usr/bin/env python3
"""Compile the gettext catalogues web/shared/locale/<lang>.po into what the page reads (docs/i18n.md).

    python scripts/build_catalogues.py [--root DIR] [--check] [--extract]

One .po file per language is the only list of languages: adding web/shared/locale/xx.po adds a language to
the table, its language menu, the loading text, the service worker's update notice and the manifest.
From each catalogue this writes, when the bytes differ:

- web/shared/locale/<lang>.mo (git-ignored), which Python's standard ``gettext`` reads in CPython and in
  Pyodide alike (scripts/build_zip.py packs them into web/modules.zip beside web/shared/i18n.py);
- web/shared/locale/strings.js (git-ignored): the languages with their own names, the few messages the
  page's JavaScript shows before Python runs or without it (JS_KEYS), and the table page's static
  words (``page``), as ``window.DURAK_I18N``: a Russian reader sees Russian from the first frame;
- the ``name_localized`` / ``description_localized`` members of web/offline/manifest.webmanifest.

Babel reads the .po files and writes the .mo files; their header dates are fixed so the same
catalogues give the same bytes (the archive and the service worker's version stay deterministic).

The worked examples' titles and comments (rules/examples/*.durak) are translated in the same catalogues
with msgctxt "example" and the English itself as msgid: ``example_texts`` lists them, ``--extract``
adds each one a catalogue lacks, untranslated, for a translator to fill in (a test demands them all).
``make setup`` runs this through scripts/build_zip.py; tests/conftest.py runs it before a test run.
"""

from __future__ import annotations

import argparse
import datetime
import gettext
import io
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from web.shared.compass import COMPASS  # noqa: E402  (data only: the catalogues are not needed)

LOCALE = Path("web/shared/locale")
STRINGS_JS = LOCALE / "strings.js"
MANIFEST = Path("web/offline/manifest.webmanifest")
SOURCE_LANG = "en"
EXAMPLES = Path("rules/examples")
EXAMPLE_CONTEXT = "example"  # msgctxt of the worked examples' texts (web/shared/i18n.py reads them with pgettext)
#: Messages the page's JavaScript needs: the loading screen (index.html), the update notice (web/offline/pwa.js)
#: and the embed page (web/embed/embed-frame.js).
JS_KEYS = ("language", "loading", "loading_python", "loading_dealing", "load_failed",
           "update_available", "update_reload", "update_later",
           "embed_open_full", "embed_bad_options", "embed_unknown_example", "embed_bad_link", "embed_engine_failed")
#: The table page whose static words (data-i18n, data-i18n-label) strings.js carries, so that a reader sees
#: them in the page's language from the first frame, not only once Python has run.
TABLE_PAGE = Path("index.html")
SPEEDS = ("slow", "normal", "fast", "instant")  # the options of index.html's speed menu
DECKS = (24, 36, 52)  # the options of its dialog's deck menu
VARIANTS = ("podkidnoy", "perevodnoy", "prostoy")
FIXED_DATE = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)


def po_files(root: Path = ROOT) -> dict[str, Path]:
    """{language code: its .po file}, sorted by code: the one list of languages."""
    return {path.stem: path for path in sorted((root / LOCALE).glob("*.po"))}


def read_catalogue(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=path.stem)


def mo_bytes(catalogue: Catalog) -> bytes:
    """The compiled catalogue; fuzzy and untranslated messages are left out (the lookup falls back)."""
    catalogue.creation_date = FIXED_DATE
    catalogue.revision_date = FIXED_DATE
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    return buffer.getvalue()


def text_of(catalogue: Catalog, key: str) -> str:
    message = catalogue.get(key)
    if message is None or not isinstance(message.string, str) or not message.string:
        raise SystemExit(f"build_catalogues: {catalogue.locale}: no message {key!r}")
    return message.string


def static_keys(root: Path = ROOT) -> tuple[str, ...]:
    """The messages the table page's static HTML names, sorted."""
    html = (root / TABLE_PAGE).read_text(encoding="utf-8")
    return tuple(sorted(set(re.findall(r'data-i18n(?:-label)?="([^"]+)"', html))))


def static_words(catalogue: Catalog, source: Catalog, keys: tuple[str, ...]) -> dict[str, Any]:
    """The table page's static words in one language: its data-i18n messages, the speed menu's options
    ("Speed: Normal") and the document's title, as web/table/table.js's applyLang writes them. An untranslated
    message is the source language's, as web/shared/i18n.py falls back at run time."""
    def text(key: str) -> str:
        message = catalogue.get(key)
        return message.string if message is not None and isinstance(message.string, str) and message.string \
            else text_of(source, key)
    plural = gettext.GNUTranslations(io.BytesIO(mo_bytes(catalogue)))
    return {
        "words": {key: text(key) for key in keys},
        "speeds": {name: text("speed_option").replace("{speed}", text(f"speed_{name}")) for name in SPEEDS},
        "title": f"{text('title')} — {text('tagline')}",
        # the new-game dialog before Python runs (web/table/table.js): deck sizes, seat rows, rules summaries
        "decks": {str(n): plural.ngettext("deck_n", "deck_n", n).format(n=n) for n in DECKS},
        # the seat rows' names, by number of players: the compass points after the reader's (South)
        "compass": {str(n): [text(f"compass.{point}") for point in COMPASS[n]] for n in COMPASS},
        "kinds": {"friend": text("seat_kind_friend"), "human": text("human"),
                  **{level: text(f"level_{level}").capitalize() for level in ("easy", "normal", "hard")}},
        "summaries": {variant: text(f"summary_{variant}") for variant in VARIANTS},
        "deal_when_ready": text("deal_when_ready"),
        "welcome_players": text("welcome_players"),  # the first visit's game, under "Play" (index.html)
    }


def strings_js(catalogues: dict[str, Catalog], root: Path = ROOT) -> str:
    keys = static_keys(root)
    data = {
        "default": SOURCE_LANG,
        "languages": [{"code": lang, "name": text_of(catalogue, "language_name")}
                      for lang, catalogue in catalogues.items()],
        "text": {lang: {key: text_of(catalogue, key) for key in JS_KEYS} for lang, catalogue in catalogues.items()},
        "page": {lang: static_words(catalogue, catalogues[SOURCE_LANG], keys)
                 for lang, catalogue in catalogues.items()},
    }
    return ("// Made by scripts/build_catalogues.py from web/shared/locale/*.po: do not edit.\n"
            f"window.DURAK_I18N = {_json_lines(data, 2)};\n")


def manifest_text(current: str, catalogues: dict[str, Catalog]) -> str:
    """The web manifest with its name and description in every language (the English ones at the top)."""
    manifest = json.loads(current)
    source = catalogues[SOURCE_LANG]
    manifest["name"] = text_of(source, "manifest_name")
    manifest["description"] = text_of(source, "manifest_description")
    others = {lang: catalogue for lang, catalogue in catalogues.items() if lang != SOURCE_LANG}
    manifest["description_localized"] = {lang: text_of(c, "manifest_description") for lang, c in others.items()}
    manifest["name_localized"] = {lang: text_of(c, "manifest_name") for lang, c in others.items()}
    return _json_lines(manifest, 2) + "\n"


def _json_lines(data: dict[str, Any], depth: int) -> str:
    """JSON with one member per line down to ``depth`` levels and lists of objects one item a line:
    short diffs, still readable."""
    def dump(value: Any, level: int) -> str:
        pad = "  " * level
        if isinstance(value, dict) and level < depth and value:
            members = [f"{pad}  {json.dumps(k)}: {dump(v, level + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(members) + f"\n{pad}}}"
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            items = [f"{pad}  {json.dumps(item, ensure_ascii=False)}" for item in value]
            return "[\n" + ",\n".join(items) + f"\n{pad}]"
        return json.dumps(value, ensure_ascii=False)
    return dump(data, 0)


def outputs(root: Path = ROOT) -> dict[Path, bytes]:
    """Every file this build writes, relative to root, with its bytes."""
    catalogues = {lang: read_catalogue(path) for lang, path in po_files(root).items()}
    if SOURCE_LANG not in catalogues:
        raise SystemExit(f"build_catalogues: {LOCALE / (SOURCE_LANG + '.po')} is missing")
    files = {LOCALE / f"{lang}.mo": mo_bytes(catalogue) for lang, catalogue in catalogues.items()}
    files[STRINGS_JS] = strings_js(catalogues, root).encode()
    manifest = (root / MANIFEST).read_text(encoding="utf-8")
    files[MANIFEST] = manifest_text(manifest, catalogues).encode()
    return files


def stale_mo(root: Path, languages: Iterable[str]) -> list[Path]:
    """.mo files whose .po is gone."""
    keep = set(languages)
    return [path for path in sorted((root / LOCALE).glob("*.mo")) if path.stem not in keep]


def build(root: Path = ROOT, *, check: bool = False) -> list[Path]:
    """Write every output whose bytes differ (unless ``check``); return the paths that changed (or would)."""
    changed: list[Path] = []
    for relative, data in outputs(root).items():
        target = root / relative
        if target.is_file() and target.read_bytes() == data:
            continue
        changed.append(relative)
        if not check:
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(data)
            partial.replace(target)
    for path in stale_mo(root, po_files(root)):
        changed.append(path.relative_to(root))
        if not check:
            path.unlink()
    return changed


def example_texts(root: Path = ROOT) -> list[str]:
    """Every title and comment of the worked examples, in the order they appear, each once."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from durak.record import load_examples

    texts: dict[str, None] = {}
    for record in load_examples(root / EXAMPLES).values():
        for text in [record.title or "", *record.comments]:
            if text:
                texts[text] = None
    return list(texts)


def untranslated_examples(root: Path = ROOT) -> dict[str, list[str]]:
    """{language: the example texts its catalogue does not translate}, for every language but English."""
    texts = example_texts(root)
    missing: dict[str, list[str]] = {}
    for lang, path in po_files(root).items():
        if lang == SOURCE_LANG:
            continue
        catalogue = read_catalogue(path)
        lacking = [text for text in texts if not _translated(catalogue, text)]
        if lacking:
            missing[lang] = lacking
    return missing


def _translated(catalogue: Catalog, english: str) -> bool:
    message = catalogue.get(english, context=EXAMPLE_CONTEXT)
    return message is not None and isinstance(message.string, str) and bool(message.string) and not message.fuzzy


def extract(root: Path = ROOT) -> dict[str, int]:
    """Append to each catalogue the example texts it lacks, untranslated; {language: how many}."""
    added: dict[str, int] = {}
    for lang, texts in untranslated_examples(root).items():
        path = po_files(root)[lang]
        catalogue = read_catalogue(path)
        new = [text for text in texts if catalogue.get(text, context=EXAMPLE_CONTEXT) is None]
        if new:
            entries = "".join(f'\nmsgctxt "{EXAMPLE_CONTEXT}"\nmsgid {_quoted(text)}\nmsgstr ""\n' for text in new)
            path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + entries, encoding="utf-8")
            added[lang] = len(new)
    return added


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compile web/shared/locale/*.po for the page.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if an output is stale")
    parser.add_argument("--extract", action="store_true",
                        help="add the worked examples' untranslated titles and comments to each catalogue")
    args = parser.parse_args(argv)
    if args.extract:
        print(f"example texts added: {extract(args.root) or 'none'}")
    changed = build(args.root, check=args.check)
    languages = ", ".join(po_files(args.root))
    if args.check:
        print(f"catalogues ({languages}): {'stale: ' + ', '.join(map(str, changed)) if changed else 'up to date'}")
        return 1 if changed else 0
    print(f"catalogues ({languages}): {'written: ' + ', '.join(map(str, changed)) if changed else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
