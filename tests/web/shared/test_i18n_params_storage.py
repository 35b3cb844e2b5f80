"""The table's pure-Python parts in CPython: text catalogues, URL parameters, saves."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from web.shared import storage
from web.shared.i18n import CATALOGUES, card_name, card_symbol, pick_lang, t
from web.table.params import Settings, parse_query, problems, to_query

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("durak_build_zip", ROOT / "scripts" / "build_zip.py")
assert _spec is not None and _spec.loader is not None
build_zip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_zip)


def test_every_key_the_code_uses_exists() -> None:
    used: set[str] = set()
    for path in [*(ROOT / "web").glob("*.py"), ROOT / "index.html"]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\btn?\([^,()]+, "([a-z0-9_.]+)"\s*[,)]', text))
        used |= set(re.findall(r'data-i18n(?:-label)?="([a-z0-9_]+)"', text))
    assert used, "no keys found"
    missing = sorted(k for k in used if k not in CATALOGUES["en"])
    assert not missing


@pytest.mark.parametrize(("lang", "card", "name"), [
    ("en", "QH", "queen of hearts"), ("fr", "QH", "dame de cœur"), ("en", "10S", "ten of spades"),
    ("fr", "AC", "as de trèfle"), ("fr", "JD", "valet de carreau"), ("en", "6C", "six of clubs"),
])
def test_card_names_for_screen_readers(lang: str, card: str, name: str) -> None:
    assert card_name(lang, card) == name


def test_card_symbols_follow_the_language() -> None:
    assert card_symbol("en", "QH") == "Q♥"
    assert card_symbol("fr", "QH") == "D♥"
    assert card_symbol("fr", "KS") == "R♠"


def test_language_comes_from_browser_preferences() -> None:
    assert pick_lang(["fr-CA", "en-US"]) == "fr"
    assert pick_lang(["de-DE", "en-GB"]) == "en"
    assert pick_lang(["de"]) == "en"
    assert pick_lang(["ru-RU", "en-US"]) == "ru"


def test_url_parameters_open_a_game() -> None:
    parsed = parse_query("?variant=podkidnoy&players=2&level=hard&seed=42&lang=fr&speed=instant")
    assert parsed.settings == Settings(variant="podkidnoy", players=2, seats=("human", "hard"), seed=42)
    assert (parsed.lang, parsed.speed, parsed.ignored) == ("fr", "instant", [])
    parsed = parse_query("deck=52&players=4&throw_in=everyone&first_defence_limit=5&exchange=on&teams=2v2")
    s = parsed.settings
    assert s is not None
    chosen = (s.deck, s.players, s.throw_in, s.first_defence_limit, s.exchange, s.teams)
    assert chosen == (52, 4, "everyone", 5, True, "2v2")
    assert s.seats == ("human", "normal", "normal", "normal")


def test_url_seats_choose_humans_and_levels() -> None:
    s = parse_query("players=3&seats=human,easy").settings
    assert s is not None and s.seats == ("human", "human", "easy")
    assert s.humans == [0, 1]


def test_bad_url_values_are_listed_not_fatal() -> None:
    parsed = parse_query("players=many&variant=chess&lang=de&speed=warp&seed=x")
    assert parsed.settings == Settings()
    assert sorted(parsed.ignored) == sorted(["players=many", "variant=chess", "lang=de", "speed=warp", "seed=x"])


def test_no_game_keys_means_no_game() -> None:
    assert parse_query("?lang=fr&speed=fast").settings is None
    assert parse_query("").settings is None


def test_to_query_round_trips() -> None:
    s = Settings(variant="perevodnoy", players=4, deck=52, throw_in="everyone", exchange=False, teams="2v2",
                 seats=("human", "easy", "human", "hard"), seed=9)
    assert parse_query(to_query(s)).settings == s


@pytest.mark.parametrize(("settings", "key"), [
    (Settings(players=6, deck=24, seats=("human",) * 6), "err_deck_players"),
    (Settings(players=3, teams="2v2", seats=("human",) * 3), "err_teams_players"),
    (Settings(variant="prostoy", players=4, teams="2v2", seats=("human",) * 4), "err_prostoy_teams"),
    (Settings(variant="prostoy", throw_in="everyone"), "err_prostoy_throw_in"),
    (Settings(variant="prostoy", first_defence_limit=5), "err_prostoy_first_defence"),
])
def test_unplayable_settings_are_explained_in_both_languages(settings: Settings, key: str) -> None:
    from durak import Rules, RulesError

    found = problems(settings)
    assert found and found[0][0] == key
    assert t("fr", key, **found[0][1]) != t("en", key, **found[0][1])
    with pytest.raises(RulesError):
        Rules(**settings.rules_kwargs())


def test_playable_settings_have_no_problem() -> None:
    for variant in ("podkidnoy", "perevodnoy", "prostoy"):
        for players in range(2, 7):
            s = Settings(variant=variant, players=players, seats=("human",) * players)
            assert problems(s) == []


def test_save_round_trip_and_set_aside() -> None:
    store = storage.MemoryStore()
    assert storage.load(store, lambda d: d) == (None, False)
    storage.save(store, {"x": 1})
    restored, set_aside = storage.load(store, lambda d: d["x"])
    assert (restored, set_aside) == (1, False)
    store.set(storage.SAVE_KEY, "{not json")
    assert storage.load(store, lambda d: d) == (None, True)
    assert store.get(storage.SET_ASIDE_KEY) == "{not json"
    assert store.get(storage.SAVE_KEY) is None
    store.set(storage.SAVE_KEY, json.dumps({"version": 0}))
    assert storage.load(store, lambda d: d) == (None, True)


def test_the_two_archives_hold_every_module() -> None:
    """web/modules.zip, which the engine worker unpacks and imports whole at boot, and web/features.zip, which
    it loads on first use, hold between them every durak/ and web/ module but the command-line-only cli.py
    and arena.py; the features' (friends, review, examples, embed) are in web/features.zip alone."""
    left_out = {ROOT / path for path in build_zip.COMMAND_LINE_ONLY}
    assert {ROOT / "durak" / "cli.py", ROOT / "durak" / "arena.py"} == left_out
    modules = [p for p in (ROOT / "durak").rglob("*.py") if "__pycache__" not in p.parts and p not in left_out]
    modules += [p for p in (ROOT / "web").rglob("*.py") if not {"__pycache__", "vendor"} & set(p.parts)]
    expected = {path.relative_to(ROOT).as_posix() for path in modules}
    packed: dict[str, bytes] = {}
    for features in (False, True):
        with zipfile.ZipFile(io.BytesIO(build_zip.archive_bytes(ROOT, features=features))) as archive:
            names = archive.namelist()
            assert all(build_zip.is_feature(Path(name).with_suffix(".py")) == features
                       for name in names if name.endswith(".pyc"))
            packed |= {name: archive.read(name) for name in names}
    feature_modules = [name for name in packed if name.endswith(".pyc")
                       and build_zip.is_feature(Path(name).with_suffix(".py"))]
    assert {name.split("/")[1] for name in feature_modules} == {"review.pyc", "friends", "review", "examples",
                                                                "embed"}
    # each as its bytecode alone, where its source was, for the vendored Pyodide's Python (`make setup`
    # installed it): no source goes over the wire
    assert not [name for name in packed if name.endswith(".py")]
    compiled = {name: data for name, data in packed.items() if name.endswith(".pyc")}
    assert sorted(compiled) == sorted(name.removesuffix(".py") + ".pyc" for name in expected)
    for name, data in compiled.items():
        flags = int.from_bytes(data[4:8], "little")
        assert flags == 0b01, f"{name}: not an unchecked-hash .pyc (PEP 552), flags {flags:#b}"


def test_no_packed_module_imports_pyscript_when_imported() -> None:
    """The engine worker imports every module of web/modules.zip and has no PyScript: a module-level
    `import pyscript` there would break its boot."""
    import ast

    def module_level_imports(tree: ast.AST) -> list[str]:
        found: list[str] = []
        for node in ast.iter_child_nodes(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue  # runs only when called
            if isinstance(node, ast.Import):
                found += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append(node.module)
            found += module_level_imports(node)
        return found

    importing = [path.as_posix() for path in build_zip.module_files(ROOT)
                 if any(name.split(".")[0] == "pyscript" for name in module_level_imports(
                     ast.parse((ROOT / path).read_text(encoding="utf-8"))))]
    assert not importing, importing


def test_the_new_game_dialog_has_a_control_for_every_option_a_link_can_set() -> None:
    """"Change rules" must not drop what a link chose: each game key of a URL is a control of the dialog."""
    from web.table.params import GAME_KEYS

    html = (ROOT / "index.html").read_text(encoding="utf-8")
    dialog = html[html.index('<dialog id="new-game"'):html.index("</dialog>")]
    controls = set(re.findall(r'name="([a-z_]+)"', dialog))
    view_port = (ROOT / "web" / "table" / "table.js").read_text(encoding="utf-8")
    for key in GAME_KEYS:
        if key in ("level", "seats"):  # one select per opponent seat, made by table.js
            assert 'id="ng-seats"' in dialog and "ng-seat-${seat}" in view_port
        else:
            assert key in controls, key
            assert re.search(rf'field\("{key}"\)|name="{key}"', view_port), key  # table.js reads it
    assert 'id="ng-lang"' in dialog  # and the language, kept while the dialog stays open
