"""The table's text in every language, from the gettext catalogues web/shared/locale/<lang>.mo.

The catalogues are the .po files in web/shared/locale/, compiled by scripts/build_catalogues.py (``make setup``;
tests/conftest.py before a test run) and packed into web/modules.zip beside this module, so the same
standard ``gettext`` reads them in CPython and in Pyodide. The languages are the catalogues found: a new
language is a new .po file. msgid is the key the code uses (``btn_new_game``); docs/i18n.md says more.

``t(lang, key, **values)`` formats a message, ``tn(lang, key, n, **values)`` picks the plural form of the
language for ``n``. A key missing in a language falls back to English; a key missing in English is a
bug and raises ``KeyError``, as does a message whose placeholder was not given.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from pathlib import Path

from web.shared.compass import COMPASS

LOCALE_DIR = Path(__file__).resolve().with_name("locale")
DEFAULT_LANG = "en"
#: msgctxt of the worked examples' comments (msgid: the English comment itself).
EXAMPLE_CONTEXT = "example"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_BY_TEXT = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}


class _Strict(gettext.NullTranslations):
    """The end of every fallback chain: an unknown key is a bug, not a message."""

    def gettext(self, message: str) -> str:
        raise KeyError(f"no message {message!r} in the catalogues")

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        raise KeyError(f"no message {msgid1!r} in the catalogues")


def load(folder: Path) -> dict[str, gettext.GNUTranslations]:
    """Every catalogue (.mo) in ``folder`` by language, each falling back to English, English to an error."""
    found: dict[str, gettext.GNUTranslations] = {}
    for path in sorted(folder.glob("*.mo")):
        with path.open("rb") as handle:
            found[path.stem] = gettext.GNUTranslations(handle)
    if DEFAULT_LANG not in found:
        raise RuntimeError(f"no {DEFAULT_LANG}.mo in {folder}: run `make setup` (scripts/build_catalogues.py)")
    strict = _Strict()
    found[DEFAULT_LANG].add_fallback(strict)
    for lang, translation in found.items():
        if lang != DEFAULT_LANG:
            translation.add_fallback(found[DEFAULT_LANG])
    return found


_TRANSLATIONS = load(LOCALE_DIR)
#: The languages of the table, sorted by code: one per catalogue.
LANGS: tuple[str, ...] = tuple(_TRANSLATIONS)


def _translation(lang: str) -> gettext.GNUTranslations:
    return _TRANSLATIONS.get(lang) or _TRANSLATIONS[DEFAULT_LANG]


def t(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English if the language is unknown), with ``values`` filled in."""
    return _translation(lang).gettext(key).format(**values)


def tn(lang: str, key: str, n: int, **values: object) -> str:
    """The plural message ``key`` in the form ``lang`` uses for ``n`` ("1 карта", "3 карты", "5 карт")."""
    return _translation(lang).ngettext(key, key, n).format(n=n, **values)


def translate_comment(lang: str, english: str) -> str:
    """A worked example's comment in ``lang``; the English itself where no translation exists."""
    return _translation(lang).pgettext(EXAMPLE_CONTEXT, english)


#: Each language's name in its own language ("Русский"), for the language menus.
LANGUAGE_NAMES: dict[str, str] = {lang: t(lang, "language_name") for lang in LANGS}


class _Messages(Mapping[str, str]):
    """One language's messages by key (singular form of plural ones): what tests compare pages with."""

    def __init__(self, lang: str) -> None:
        catalogue: dict[object, str] = _TRANSLATIONS[lang]._catalog  # type: ignore[attr-defined]
        self._texts = {key: text for key, text in catalogue.items() if isinstance(key, str) and key}
        self._texts.update((key[0], text) for key, text in catalogue.items() if isinstance(key, tuple) and key[1] == 0)

    def __getitem__(self, key: str) -> str:
        return self._texts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


CATALOGUES: dict[str, Mapping[str, str]] = {lang: _Messages(lang) for lang in LANGS}


def pick_lang(candidates: list[str] | tuple[str, ...]) -> str:
    """The first supported language among browser preferences such as ``["ru-RU", "en-US"]``."""
    for candidate in candidates:
        code = str(candidate).lower().split("-")[0].split("_")[0]
        if code in LANGS:
            return code
    return DEFAULT_LANG


def _rank_of(card: str) -> int:
    text = card[:-1].upper()
    return _RANK_BY_TEXT.get(text) or int(text)


def rank_label(lang: str, card: str) -> str:
    """The corner index of a card: ``10``, ``Q`` (``D`` for dame in French, ``Д`` for дама in Russian)."""
    rank = _rank_of(card)
    return t(lang, f"rank_name_{rank}") if rank > 10 else str(rank)


def card_symbol(lang: str, card: str) -> str:
    """Short visible form for messages: ``Q♥`` / ``D♥`` / ``Д♥``."""
    return rank_label(lang, card) + SUIT_SYMBOLS[card[-1].upper()]


def cards_symbols(lang: str, cards: list[str] | tuple[str, ...]) -> str:
    return " ".join(card_symbol(lang, c) for c in cards)


def card_name(lang: str, card: str) -> str:
    """Spoken name: ``queen of hearts`` / ``dame de cœur`` / ``дама червей``."""
    suit = card[-1].upper()
    return t(lang, "card_name", rank=t(lang, f"rank_word_{_rank_of(card)}"), suit=t(lang, f"card_suit_{suit}"))


def card_label(lang: str, card: str) -> str:
    """A card's accessible name: the visible text first, then the spoken name (WCAG 2.5.3 label in name):
    ``7♥, seven of hearts``."""
    return t(lang, "card_label", symbol=card_symbol(lang, card), name=card_name(lang, card))


def suit_name(lang: str, suit: str) -> str:
    """The suit on its own, as in "Trump: hearts" / "Козырь: черви"."""
    return t(lang, f"suit_{suit.upper()}")


# ---------------------------------------------------------------------------- coded messages
#: How a message's params are shown, by name (durak/messages.py's convention): seats by their names,
#: cards by their symbols in the language, ranks by their corner index, a refused action in words, a
#: trump suit (``trump``) by its symbol and name.
def compass_name(lang: str, players: int, seat: int, south: int = 0) -> str:
    """A seat named as a card table names it: its compass point seen from ``south``, "West", "Nord-Est"."""
    offset = (seat - south) % players
    points = COMPASS.get(players)
    if points is None:  # more players than the compass has points: numbered from 1
        return t(lang, "seat_player", n=seat + 1)
    return t(lang, "compass." + ("south" if offset == 0 else points[offset - 1]))


def seat_names(lang: str, players: int, you: int | None = None) -> list[str]:
    """Every seat's name: "You" for ``you``, the others by their compass point seen from there; without
    ``you`` (a worked example, a record from elsewhere) by compass point, seat 0 in the South."""
    return [t(lang, "seat_you") if seat == you else compass_name(lang, players, seat, you or 0)
            for seat in range(players)]


SEAT_PARAMS = frozenset({"seat", "target", "to_act", "player"})
CARD_PARAMS = frozenset({"card", "attack", "defence", "six"})
RANK_PARAMS = frozenset({"rank"})
HINT_PROOFS = ("win", "draw", "loss")


def rank_text(lang: str, rank: int) -> str:
    """A rank (2..14) as its corner index: ``10``, ``Q`` / ``D`` / ``Д``."""
    return t(lang, f"rank_name_{rank}") if rank > 10 else str(rank)


def action_text(lang: str, notation: str) -> str:
    """An action in words: ``defend 8H 9H`` -> "beat 8♥ with 9♥" / "побить 8♥ картой 9♥"."""
    kind, *cards = notation.split()
    if kind == "defend":
        return t(lang, "action.defend", attack=card_symbol(lang, cards[0]), defence=card_symbol(lang, cards[1]))
    return t(lang, f"action.{kind}", cards=cards_symbols(lang, cards))


def _param(lang: str, name: str, value: object, names: list[str] | None) -> object:
    if name in SEAT_PARAMS and isinstance(value, int):
        return names[value] if names and 0 <= value < len(names) else t(lang, "seat_ref", n=value)
    if name in CARD_PARAMS and isinstance(value, str):
        return card_symbol(lang, value)
    if name == "cards" and isinstance(value, list):
        return cards_symbols(lang, [str(c) for c in value])
    if name == "trump" and isinstance(value, str):
        return f"{SUIT_SYMBOLS[value]} {suit_name(lang, value)}"
    if name in RANK_PARAMS and isinstance(value, int):
        return rank_text(lang, value)
    if name == "action" and isinstance(value, str):
        return action_text(lang, value)
    if name == "cause" and isinstance(value, list) and len(value) == 2:
        return say(lang, {"code": value[0], "params": value[1]}, names)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return value


def _addressed(code: str) -> bool:
    """Whether the catalogues say ``code`` to its seat too (``<code>_you``: "you do not hold 6♠")."""
    try:
        _TRANSLATIONS[DEFAULT_LANG].gettext(f"{code}_you")  # English ends in _Strict: a missing key raises
    except KeyError:
        return False
    return True


def say(lang: str, message: object, names: list[str] | None = None, *, me: int | None = None) -> str:
    """A coded message (a ``durak.messages.Message`` or its ``to_dict()``) in ``lang``, from the catalogue:
    the code is the msgid, a param ``n`` picks the plural form, the rest are shown by name (see above).
    ``names`` are the seats' names at this table; without them a seat reads "seat 2". ``me``: the seat
    of the one player this page speaks to; a message whose ``seat`` it is takes the form said to them,
    if it has one (a refusal: "you do not hold 6♠", never "You does not hold 6♠")."""
    data = message.to_dict() if hasattr(message, "to_dict") else message
    if not isinstance(data, Mapping):
        raise TypeError(f"not a message: {message!r}")
    code = str(data["code"])
    params: Mapping[str, object] = data.get("params") or {}
    if me is not None and params.get("seat") == me and _addressed(code):
        code = f"{code}_you"
    values = {name: _param(lang, name, value, names) for name, value in params.items()}
    count = params.get("n")
    if isinstance(count, int):
        del values["n"]
        text = tn(lang, code, count, **values)
    else:
        text = t(lang, code, **values)
    if code.startswith("hint."):
        text += _hint_suffix(lang, params)
    return text


def _hint_suffix(lang: str, params: Mapping[str, object]) -> str:
    """A hint's estimate ("win chance 63%") or, for a proven endgame, its proof ("won: every defence loses")."""
    proven = params.get("proven")
    if proven in HINT_PROOFS:
        return t(lang, f"hint_proven_{proven}")
    percent = params.get("percent")
    if isinstance(percent, int):
        return t(lang, "hint_chance", percent=percent)
    return ""


def capitalised(text: str) -> str:
    """A message that starts a line: its first letter in capitals ("cannot beat" -> "Cannot beat")."""
    return text[:1].upper() + text[1:]
