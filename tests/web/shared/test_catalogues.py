"""The gettext catalogues (web/shared/locale/*.po): complete in every language, plural forms right, one list of
languages found from the files, a deterministic build."""

from __future__ import annotations

import re
import shutil
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from tests.browser.helpers import load_file
from web.shared import i18n
from web.shared.i18n import LANGS, card_label, t, tn, translate_comment

ROOT = Path(__file__).resolve().parents[3]
LOCALE = Path("web") / "shared" / "locale"
build_catalogues = load_file("durak_build_catalogues", ROOT / "scripts" / "build_catalogues.py")
PO = build_catalogues.po_files(ROOT)
CATALOGUES = {lang: build_catalogues.read_catalogue(path) for lang, path in PO.items()}
ENGLISH = CATALOGUES["en"]
COUNTS = (0, 1, 2, 5, 11, 21, 22, 25, 111)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def _keys(catalogue: Catalog) -> set[tuple[str, str | None]]:
    return {(message.id if isinstance(message.id, str) else message.id[0], message.context)
            for message in catalogue if message.id}


def test_the_languages_are_the_catalogue_files() -> None:
    assert tuple(PO) == LANGS
    assert {"en", "fr"} <= set(LANGS)
    assert i18n.LANGUAGE_NAMES["en"] == "English" and i18n.LANGUAGE_NAMES["fr"] == "Français"


@pytest.mark.parametrize("lang", [lang for lang in PO if lang != "en"])
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    catalogue = CATALOGUES[lang]
    assert catalogue.num_plurals >= 1
    missing = sorted(_keys(ENGLISH) - _keys(catalogue))
    assert not missing, f"{lang}.po lacks {missing}"
    extra = sorted(key for key in _keys(catalogue) - _keys(ENGLISH) if key[1] != i18n.EXAMPLE_CONTEXT)
    assert not extra, f"{lang}.po has messages English does not: {extra}"
    for message in catalogue:
        if not message.id:
            continue
        assert not message.fuzzy, (lang, message.id)
        forms = _forms(message)
        english = ENGLISH.get(message.id, context=message.context)
        if message.pluralizable:
            assert len(forms) == catalogue.num_plurals, (lang, message.id)
        for form in forms:
            assert form.strip(), (lang, message.id)
            if english is not None:
                assert _fields(form) == _fields(_forms(english)[-1]), (lang, message.id, form)


def test_english_is_complete_and_plural_entries_are_plural_everywhere() -> None:
    for message in ENGLISH:
        if message.id:
            assert all(form.strip() for form in _forms(message)), message.id
            for lang, catalogue in CATALOGUES.items():
                other = catalogue.get(message.id, context=message.context)
                assert other is None or other.pluralizable == message.pluralizable, (lang, message.id)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 cards", "1 card", "2 cards", "5 cards", "11 cards", "21 cards", "22 cards", "25 cards", "111 cards"]),
    ("fr", ["0 carte", "1 carte", "2 cartes", "5 cartes", "11 cartes", "21 cartes", "22 cartes", "25 cartes",
            "111 cartes"]),
    ("ru", ["0 карт", "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт", "111 карт"]),
])
def test_plural_forms_for_counts_of_cards(lang: str, expected: list[str]) -> None:
    assert [tn(lang, "cards_count", n) for n in COUNTS] == expected


def test_no_hand_rolled_singular_and_plural_pairs_are_left() -> None:
    pairs = [message.id for message in ENGLISH if isinstance(message.id, str) and re.search(r"_one\b", message.id)]
    assert not pairs
    sources = [*(ROOT / "web").glob("*.py"), *(ROOT / "durak").rglob("*.py")]
    for path in sources:
        assert not re.search(r'"[a-z_]+_one(_you)?"', path.read_text(encoding="utf-8")), path


def test_russian_card_names_are_nouns_with_the_suit_in_the_genitive() -> None:
    assert [card_label("ru", card) for card in ("QH", "10S", "6D", "AC", "JH", "7H")] == [
        "Д♥, дама червей", "10♠, десятка пик", "6♦, шестёрка бубен", "Т♣, туз треф", "В♥, валет червей",
        "7♥, семёрка червей"]
    assert t("ru", "trump", suit=i18n.suit_name("ru", "H")) == "Козырь: черви"
    assert tn("ru", "talon", 21) == "Колода: 21 карта" and tn("ru", "btn_play_n", 3) == "Сыграть 3 карты"
    assert i18n.LANGUAGE_NAMES["ru"] == "Русский"


#: A space before French high punctuation that a line may break at: ";", "!" and "?" take a narrow
#: no-break space (U+202F), ":" a no-break space (U+00A0), so that none starts a line.
BREAKABLE_BEFORE_PUNCTUATION = re.compile(r"[ \t\n][;:!?]")


def test_french_high_punctuation_never_starts_a_line() -> None:
    found = [text for message in CATALOGUES["fr"] if message.id for text in _forms(message)
             if BREAKABLE_BEFORE_PUNCTUATION.search(text)]
    sources = sorted((ROOT / "rules" / "src" / "fr").glob("*.html"))
    assert sources, "the French rules pages' sources moved"
    found += [f"{path.name}: {line.strip()}" for path in sources for line in path.read_text().splitlines()
              if BREAKABLE_BEFORE_PUNCTUATION.search(line) or line.lstrip()[:1] in (";", ":", "!", "?")]
    assert not found, found[:5]


def test_a_missing_parameter_or_key_fails() -> None:
    with pytest.raises(KeyError):
        t("en", "hand_of")
    with pytest.raises(KeyError):
        t("fr", "no_such_key")
    with pytest.raises(KeyError):
        tn("fr", "log_pickup", 3)


def test_unknown_languages_read_english() -> None:
    assert t("xx", "btn_take") == t("en", "btn_take")
    assert card_label("en", "7H") == "7♥, seven of hearts"
    assert card_label("fr", "QH") == "D♥, dame de cœur"


def _site_copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / LOCALE, tmp_path / LOCALE,
                    ignore=shutil.ignore_patterns("*.mo", "*.js"))
    (tmp_path / "web" / "offline").mkdir()
    manifest = Path("web") / "offline" / "manifest.webmanifest"
    shutil.copy(ROOT / manifest, tmp_path / manifest)
    shutil.copy(ROOT / "index.html", tmp_path / "index.html")  # its static words go into strings.js
    return tmp_path


def _write_po(path: Path, lang: str, text: str) -> None:
    path.write_text(text.replace('"Language: fr\\n"', f'"Language: {lang}\\n"'), encoding="utf-8")


def test_a_new_language_is_one_new_po_file(tmp_path: Path) -> None:
    root = _site_copy(tmp_path)
    french = (root / LOCALE / "fr.po").read_text(encoding="utf-8")
    _write_po(root / LOCALE / "xx.po", "xx", french.replace('msgstr "Ramasser"', 'msgstr "Xx-take"'))
    build_catalogues.build(root)
    loaded = i18n.load(root / LOCALE)
    assert "xx" in loaded and loaded["xx"].gettext("btn_take") == "Xx-take"
    strings = (root / LOCALE / "strings.js").read_text(encoding="utf-8")
    assert '{"code": "xx", "name": "Français"}' in strings
    manifest = (root / "web" / "offline" / "manifest.webmanifest").read_text(encoding="utf-8")
    assert '"xx": "Durak — le jeu de cartes russe"' in manifest
    (root / LOCALE / "xx.po").unlink()
    build_catalogues.build(root)
    assert not (root / LOCALE / "xx.mo").exists()


def test_an_untranslated_message_falls_back_to_english_at_run_time(tmp_path: Path) -> None:
    root = _site_copy(tmp_path)
    french = (root / LOCALE / "fr.po").read_text(encoding="utf-8")
    _write_po(root / LOCALE / "fr.po", "fr", french.replace('msgstr "Ramasser"', 'msgstr ""'))
    build_catalogues.build(root)
    loaded = i18n.load(root / LOCALE)
    assert loaded["fr"].gettext("btn_take") == "Take"
    assert loaded["fr"].gettext("btn_pass") == "Passer"


def test_example_comments_are_translated_by_context(tmp_path: Path) -> None:
    root = _site_copy(tmp_path)
    french = (root / LOCALE / "fr.po").read_text(encoding="utf-8")
    french += '\nmsgctxt "example"\nmsgid "The defender takes."\nmsgstr "Le défenseur ramasse."\n'
    _write_po(root / LOCALE / "fr.po", "fr", french)
    build_catalogues.build(root)
    loaded = i18n.load(root / LOCALE)
    assert loaded["fr"].pgettext(i18n.EXAMPLE_CONTEXT, "The defender takes.") == "Le défenseur ramasse."
    assert loaded["fr"].gettext("btn_pass") == "Passer"  # a context keeps comments apart from keys
    assert translate_comment("en", "The defender takes.") == "The defender takes."


def test_the_build_is_deterministic_and_current() -> None:
    first = build_catalogues.outputs(ROOT)
    assert build_catalogues.outputs(ROOT) == first
    assert build_catalogues.build(ROOT, check=True) == []  # tests/conftest.py built them; the manifest is current
    assert set(first) >= {Path("web/shared/locale") / f"{lang}.mo" for lang in LANGS}


def test_every_worked_example_text_is_translated_in_every_language() -> None:
    texts = build_catalogues.example_texts(ROOT)
    assert len(texts) >= 40  # eight examples: titles and a comment on every step
    assert build_catalogues.untranslated_examples(ROOT) == {}
    for lang in LANGS:
        if lang != "en":
            assert all(translate_comment(lang, text) != text for text in texts), lang


def test_extract_adds_the_example_texts_a_catalogue_lacks(tmp_path: Path) -> None:
    root = _site_copy(tmp_path)
    shutil.copytree(ROOT / "rules" / "examples", root / "rules" / "examples")
    russian = root / LOCALE / "ru.po"
    kept = [part for part in russian.read_text(encoding="utf-8").split("\n\n") if 'msgctxt "example"' not in part]
    russian.write_text("\n\n".join(kept), encoding="utf-8")
    texts = build_catalogues.example_texts(root)
    assert build_catalogues.untranslated_examples(root) == {"ru": texts}
    assert build_catalogues.extract(root) == {"ru": len(texts)}
    assert build_catalogues.extract(root) == {}  # added once; still to be translated
    assert build_catalogues.untranslated_examples(root) == {"ru": texts}
    assert build_catalogues.read_catalogue(russian).get(texts[0], context="example") is not None
