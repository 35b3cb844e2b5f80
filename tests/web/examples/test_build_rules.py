"""The rules pages' builder (scripts/build_rules.py) in CPython: the frames it writes are the engine's state at
every step, every example sits on its game's page in every language, the pages are well formed and their
links stay on the site, and a broken source is refused with the file and the reason."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from durak import Game
from durak.cards import CARDS
from durak.record import Record, load_examples
from tests.browser.helpers import build_rules
from web.shared.i18n import LANGS, card_label, translate_comment
from web.table.render import card_face

ROOT = Path(__file__).resolve().parents[3]
RECORDS: dict[str, Record] = load_examples(ROOT / "rules" / "examples")
VOID = {"meta", "link", "br", "img", "input", "use", "path", "circle", "source", "hr"}


@pytest.fixture(scope="module")
def built() -> dict[Path, str]:
    pages: dict[Path, str] = build_rules.pages(ROOT)
    return pages


def page_data(text: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="rules-data">(.*?)</script>', text, re.S)
    assert found, "no rules-data"
    data: dict[str, object] = json.loads(found[1])
    return data


def replay(record: Record) -> list[Game]:
    """The game at every step, replayed here with the engine's own moves (not the builder's code)."""
    game = record.start(Game)
    games = [game.copy()]
    for move in record.moves:
        game.apply(move.seat, move.action)
        games.append(game.copy())
    return games


def test_every_page_of_every_language_and_game_is_built(built: dict[Path, str]) -> None:
    expected = {Path("rules/index.html")}
    for lang in LANGS:
        expected |= {Path(f"rules/{lang}/{game}.html") for game in build_rules.GAMES}
        expected |= {Path(f"rules/frames/{lang}/{i}.json") for i in build_rules.EXAMPLE_PAGES}
    assert set(built) == expected


@pytest.mark.parametrize("example_id", sorted(RECORDS))
def test_the_frames_are_the_engine_state_at_every_step(built: dict[Path, str], example_id: str) -> None:
    record = RECORDS[example_id]
    games = replay(record)
    for lang in LANGS:
        data = json.loads(built[Path(f"rules/frames/{lang}/{example_id}.json")])["example"]
        frames = data["frames"]
        assert len(frames) == len(record.moves) + 1 == len(games)
        for step, (shown, game) in enumerate(zip(frames, games, strict=True)):
            where = f"{lang} {example_id} step {step}"
            assert [sorted(hand) for hand in shown["hands"]] == \
                [sorted(str(c) for c in game.hand(s)) for s in range(game.players)], where
            assert shown["table"] == [[str(a), None if d is None else str(d)] for a, d in game.table], where
            assert shown["talon"] == len(game.talon), where
            assert shown["discard"] == len(game.discard), where
            assert shown["trump"] == game.trump, where
            assert (shown["attacker"], shown["defender"], shown["to_act"]) == \
                (game.attacker, game.defender, game.to_act), where
            assert Game.from_position(shown["position"]).to_dict()["hands"] == game.to_dict()["hands"], where
            assert shown["comment"] == translate_comment(lang, record.comments[step]), where
            assert bool(shown["said"]) == (step > 0), where  # every move is told, the start is not


def test_every_example_is_on_its_game_page_in_every_language_at_step_zero(built: dict[Path, str]) -> None:
    for example_id, game_name in build_rules.EXAMPLE_PAGES.items():
        steps = len(RECORDS[example_id].moves) + 1
        for lang in LANGS:
            text = built[Path(f"rules/{lang}/{game_name}.html")]
            tags = re.findall(rf'<figure class="example" id="{example_id}" data-example="{example_id}"[^>]*>', text)
            assert len(tags) == 1, (lang, example_id)
            assert f'data-step="0" data-steps="{steps}"' in tags[0]
            assert example_id in page_data(text)["examples"]  # type: ignore[operator]
            others = [g for g in build_rules.GAMES if g != game_name]
            assert all(f'data-example="{example_id}"' not in built[Path(f"rules/{lang}/{g}.html")] for g in others)


def test_the_static_first_frame_shows_every_hand_open(built: dict[Path, str]) -> None:
    for example_id, game_name in build_rules.EXAMPLE_PAGES.items():
        start = RECORDS[example_id].start(Game)
        text = built[Path(f"rules/en/{game_name}.html")]
        figure = re.search(rf'<figure class="example" id="{example_id}".*?</figure>', text, re.S)
        assert figure
        for seat in range(start.players):
            section = re.search(rf'<section class="ex-seat" data-seat="{seat}".*?</section>', figure[0], re.S)
            assert section, (example_id, seat)
            shown = re.findall(r'data-card="([0-9JQKA]+[SHDC])"', section[0])
            assert sorted(shown) == sorted(str(c) for c in start.hand(seat)), (example_id, seat)


class Balance(HTMLParser):
    """Fails on a closing tag that does not close the open element, and on elements left open."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> at line {self.getpos()[0]} closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_are_well_formed(built: dict[Path, str], lang: str) -> None:
    for path, text in built.items():
        if path.suffix != ".html" or (path.parts[1] != lang and path.name != "index.html"):
            continue
        parser = Balance()
        parser.feed(text)
        assert parser.errors == [], path
        assert parser.stack == [], path
        assert len(re.findall(r"<h1[ >]", text)) == 1, path


def test_every_link_and_resource_stays_on_the_site_and_exists(built: dict[Path, str]) -> None:
    for path, text in built.items():
        if path.suffix != ".html":
            continue
        for url in re.findall(r'\b(?:href|src|config)="([^"]*)"', text):
            assert not re.match(r"[a-z]+:", url), (path, url)
            target = url.split("#")[0].split("?")[0]
            if not target:
                continue
            resolved = (ROOT / path.parent / target).resolve()
            assert ROOT in resolved.parents, (path, url)
            relative = resolved.relative_to(ROOT)
            assert resolved.exists() or relative in built, (path, url)


def test_every_play_link_carries_its_options_as_the_table_reads_them(built: dict[Path, str]) -> None:
    """A source writes ``data-play="teams=2v2&amp;players=4"`` (HTML): the link must ask for both options,
    not for an ``amp;players`` the table ignores."""
    found = {}
    for path, text in built.items():
        for href in re.findall(r'<a class="play-option" href="([^"]*)"', text):
            query = parse_qsl(urlsplit(unescape(href)).query, strict_parsing=True)
            assert all(re.fullmatch(r"[a-z_]+", key) for key, _ in query), (path, href)
            found[path, tuple(key for key, _ in query)] = dict(query)
    for lang in LANGS:
        page = Path(f"rules/{lang}/podkidnoy.html")
        assert found[page, ("variant", "cheating", "players", "lang")] == {
            "variant": "podkidnoy", "cheating": "on", "players": "3", "lang": lang}
        assert found[page, ("variant", "teams", "players", "lang")]["players"] == "4"


def test_the_sections_and_the_language_switch_agree_across_languages(built: dict[Path, str]) -> None:
    for game in build_rules.GAMES:
        ids = {lang: re.findall(r'<section id="([a-z0-9-]+)"', built[Path(f"rules/{lang}/{game}.html")])
               for lang in LANGS}
        assert all(found == ids[LANGS[0]] for found in ids.values()), game
        for lang in LANGS:
            text = built[Path(f"rules/{lang}/{game}.html")]
            switch = re.findall(r'<a href="\.\./([a-z]+)/([a-z]+)\.html" hreflang', text)
            assert switch == [(other, game) for other in LANGS]
            assert f'href="../../index.html?variant={game}&amp;lang={lang}"' in text  # play this game


def test_every_comment_and_title_is_translated() -> None:
    for lang in LANGS:
        if lang == "en":
            continue
        for example_id, record in RECORDS.items():
            for english in [record.title or "", *record.comments]:
                assert translate_comment(lang, english) != english, (lang, example_id, english)


def test_the_stepper_draws_and_names_cards_as_the_table_does() -> None:
    """web/examples/stepper.js's cardFace and web/table/render.py's card_face write the same markup for every card,
    and its cardLabel gives web/shared/i18n.py's card_label."""
    cards = [str(card) for card in CARDS]
    for lang in LANGS:
        labels = build_rules.labels(lang)
        run = subprocess.run(["node", str(ROOT / "scripts" / "render_examples.mjs")], capture_output=True, text=True,
                             input=json.dumps({"faces": {"labels": labels, "cards": cards}}), check=True)
        drawn = json.loads(run.stdout)
        assert drawn["faces"] == {card: card_face(card, lang) for card in cards}
        assert drawn["names"] == {card: card_label(lang, card) for card in cards}


def copy_site(tmp_path: Path) -> Path:
    """The site with the rules pages' sources copied (to break them) and everything else linked."""
    (tmp_path / "rules").mkdir()
    shutil.copytree(ROOT / "rules" / "src", tmp_path / "rules" / "src")
    shutil.copytree(ROOT / "rules" / "examples", tmp_path / "rules" / "examples")
    for entry in ROOT.iterdir():
        if entry.name != "rules" and not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def test_a_copy_of_the_site_builds_and_a_second_build_changes_nothing(tmp_path: Path) -> None:
    site = copy_site(tmp_path)
    first = build_rules.build(site)
    assert Path("rules/en/podkidnoy.html") in first
    assert build_rules.build(site) == []
    assert build_rules.build(site, check=True) == []


def test_a_build_leaves_the_compressed_copies_beside_its_pages_alone(tmp_path: Path) -> None:
    """scripts/compress.py keeps .br/.gz copies beside each page; a build that took them for stale pages
    would delete them, and every `make setup` would compress them all again."""
    site = copy_site(tmp_path)
    build_rules.build(site)
    copies = [site / "rules/en/podkidnoy.html.br", site / "rules/fr/prostoy.html.gz"]
    for copy in copies:
        copy.write_bytes(b"compressed")
    assert build_rules.build(site) == []
    assert all(copy.read_bytes() == b"compressed" for copy in copies)


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda s: s.replace('<example id="throw-in-priority"></example>', ""), "shows the examples"),
    (lambda s: s.replace('<section id="drawing">', '<section id="draw">'), "sections differ"),
    (lambda s: s.replace('href="perevodnoy.html"', 'href="nowhere.html"'), "broken link"),
    (lambda s: s.replace('href="perevodnoy.html"', 'href="https://example.org/"'), "off the site"),
])
def test_a_broken_source_is_refused_with_the_file_and_the_reason(tmp_path: Path, edit: object, reason: str) -> None:
    site = copy_site(tmp_path)
    source = site / "rules" / "src" / LANGS[-1] / "podkidnoy.html"
    source.write_text(edit(source.read_text(encoding="utf-8")), encoding="utf-8")  # type: ignore[operator]
    with pytest.raises(build_rules.BuildError, match=reason):
        build_rules.build(site)
    assert not (site / "rules" / "en").exists()  # nothing half-built
