"""The table as HTML strings: a pure function of a player's view, the legal actions and the UI state.

``screen(scene)`` returns the markup of each page region plus the state of the fixed buttons; the
browser binding writes a region only when its text changed. Nothing here reads the DOM or imports
the browser, so the same code runs under CPython in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak.cards import parse_card
from durak.events import Event
from durak.messages import Message
from durak.narrate import narrate
from web.shared.i18n import capitalised, card_label, card_symbol, cards_symbols, rank_label, say, suit_name, t, tn
from web.shared.markup import escape
from web.table.moves import NO_PICK, TABLE_ZONE, TRANSFER_ZONE, Menu, Pick

SUIT_ORDER = "SHDC"
RED = {"H", "D"}
MAX_BACKS = 8
_LIT = ' data-target="true" tabindex="0" role="button"'


@dataclass
class Scene:
    """Everything one frame of the table depends on."""

    view: dict[str, Any]
    lang: str = "en"
    names: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # "human" | "easy" | "normal" | "hard" per seat
    menu: Menu | None = None  # the viewer's legal actions when the viewer is to act
    pick: Pick = NO_PICK
    thinking: int | None = None  # seat of an AI that is thinking
    fresh: frozenset[str] = frozenset()  # cards that just arrived on the table (animated)
    hint: tuple[str, Message] | None = None  # (action text, coded reason)
    covered: bool = False  # pass-and-play: hand hidden until the next player taps
    log: list[dict[str, Any]] = field(default_factory=list)
    series: dict[str, Any] | None = None  # {"losses": [...], "first_out": [...], "games": n}
    message: Message | None = None  # a one-line notice (a refused action, ...), said in ``lang``
    you: int | None = None  # the one local human's seat (messages say "you"); None in pass-and-play
    statuses: list[str] = field(default_factory=list)  # online tables: "connected" | "away" | "ai" per seat
    said: dict[int, str] = field(default_factory=dict)  # the last quick message of each seat
    timer: dict[str, Any] | None = None  # {"seat", "seconds"}: whose turn clock runs
    deal_check: str | None = None  # a friend's page at the end: "verified" | "mismatch"
    guest: bool = False  # a friend's page: the host deals the next game
    stale: bool = False  # the host is out of reach: this position may be out of date
    # cheat mode: the table cards the viewer may accuse, whether they are choosing one, the last accusation's
    # outcome (web/table/host.py's accusation_outcome) and whether a bout is about to end
    accusations: list[str] = field(default_factory=list)
    accusing: bool = False
    accusation: dict[str, Any] | None = None
    closing: bool = False

    @property
    def cheating(self) -> bool:
        return bool(self.view.get("rules", {}).get("cheating"))


# ---------------------------------------------------------------------------- cards
def _rank(card: str) -> int:
    text = card[:-1].upper()
    return {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}.get(text) or int(text)


def hand_order(cards: list[str], trump: str) -> list[str]:
    """Own hand order: by suit, trumps last, then by rank."""
    return sorted(cards, key=lambda c: (c[-1] == trump, SUIT_ORDER.index(c[-1]), _rank(c)))


def _suit_svg(suit: str, cls: str = "sym") -> str:
    return f'<svg class="{cls}" aria-hidden="true"><use href="#suit-{suit}"/></svg>'


def card_face(card: str, lang: str) -> str:
    """The inside of a face-up card: two corner indices and the pips or the court letter."""
    suit = card[-1].upper()
    rank = _rank(card)
    label = escape(rank_label(lang, card))
    corner = f'<span class="rk">{label}</span>{_suit_svg(suit)}'
    # The top-left index is the card's only text, so its name can hold all it shows (WCAG 2.5.3); the
    # court letter and the bottom-right index repeat it from a data-rk attribute, drawn by the CSS.
    drawn = f'<span class="rk" data-rk="{label}"></span>{_suit_svg(suit)}'
    if rank <= 10:
        middle = f'<span class="pips" data-n="{rank}" data-suit="{suit}"></span>'  # drawn by web/shared/cards.css
    elif rank == 14:
        middle = f'<span class="ace" data-face="A{suit}">{_suit_svg(suit, "big")}</span>'
    else:
        # data-face: the picture web/shared/cards.css lays over the letter once the deck's art has loaded
        middle = (f'<span class="court" data-face="{"JQK"[rank - 11]}{suit}" aria-hidden="true">'
                  f'<span class="court-letter" data-rk="{label}"></span>{_suit_svg(suit, "court-sym")}</span>')
    return (f'<span class="corner tl">{corner}</span>{middle}'
            f'<span class="corner br" aria-hidden="true">{drawn}</span>')


def card_html(card: str, lang: str, *, tag: str = "div", cls: str = "", attrs: str = "") -> str:
    """A face-up card; its accessible name starts with what it shows ("7♥, seven of hearts": WCAG 2.5.3)."""
    suit = card[-1].upper()
    colour = "red" if suit in RED else "black"
    name = escape(card_label(lang, card))
    extra = f" {cls}" if cls else ""
    # a lit target brings its own role (a button) and may bring its own name ("Accuse 7♣, ...")
    role = "" if tag == "button" or "role=" in attrs else ' role="img"'
    label = "" if "aria-label=" in attrs else f' aria-label="{name}"'
    # suit-x: the four-colour deck's ink for diamonds and clubs (web/shared/cards.css)
    return (f'<{tag} class="card {colour} suit-{suit.lower()}{extra}"{role}{label} {attrs}>'
            f"{card_face(card, lang)}</{tag}>")


def back_html(cls: str = "") -> str:
    return f'<div class="card back{" " + cls if cls else ""}" aria-hidden="true"></div>'


# ---------------------------------------------------------------------------- seats
def _count_text(lang: str, n: int) -> str:
    return tn(lang, "cards_count", n)


def _level_text(lang: str, kind: str) -> str:
    return t(lang, f"level_{kind}") if kind in ("easy", "normal", "hard") else ""


def _marks(scene: Scene, seat: int) -> str:
    view, lang = scene.view, scene.lang
    out = []
    if (not view["active"][seat] and view.get("result") is None) or seat in view.get("out_order", []):
        out.append(f'<span class="mark out">{escape(t(lang, "mark_out"))}</span>')
    if view.get("attacker") == seat:
        out.append(f'<span class="mark attacker"><svg aria-hidden="true"><use href="#icon-sword"/></svg>'
                   f'{escape(t(lang, "mark_attacker"))}</span>')
    if view.get("defender") == seat:
        out.append(f'<span class="mark defender"><svg aria-hidden="true"><use href="#icon-shield"/></svg>'
                   f'{escape(t(lang, "mark_defender"))}</span>')
    if scene.thinking == seat:
        out.append(f'<span class="mark thinking"><span class="dots" aria-hidden="true"><i></i><i></i><i></i>'
                   f'</span>{escape(t(lang, "mark_thinking"))}</span>')
    elif view.get("to_act") == seat:
        out.append(f'<span class="mark turn">{escape(t(lang, "mark_turn"))}</span>')
    if view.get("taking") and view.get("defender") == seat:
        out.append(f'<span class="mark taking">{escape(t(lang, "btn_take"))}</span>')
    return "".join(out) + _net_marks(scene, seat)


def _net_marks(scene: Scene, seat: int) -> str:
    """Online tables: a seat that is away or played by the AI, its turn clock, its last quick message."""
    lang = scene.lang
    out = []
    status = scene.statuses[seat] if seat < len(scene.statuses) else ""
    if status in ("away", "ai") and scene.kinds[seat:seat + 1] != ["human"]:
        out.append(f'<span class="mark net-status" data-status="{status}">{escape(t(lang, "status_" + status))}</span>')
    timer = scene.timer
    if timer and timer.get("seat") == seat and scene.view.get("to_act") == seat:
        seconds = int(timer.get("seconds", 0))
        name = scene.names[seat] if seat < len(scene.names) else ""
        out.append(f'<span class="turn-clock" role="timer" style="--clock:{seconds}s" '
                   f'aria-label="{escape(t(lang, "timer_left", name=name, n=seconds))}"><i></i></span>')
    quick = scene.said.get(seat)
    if quick:
        name = scene.names[seat] if seat < len(scene.names) else ""
        text = t(lang, f"quick_{quick}")
        out.append(f'<span class="said" role="status" aria-label="{escape(t(lang, "said", name=name, text=text))}">'
                   f"{escape(text)}</span>")
    return "".join(out)


def _seat_attrs(scene: Scene, seat: int) -> str:
    view = scene.view
    attrs = [f'data-seat="{seat}"']
    if view.get("to_act") == seat:
        attrs.append('data-turn="true"')
    if scene.thinking == seat:
        attrs.append('data-thinking="true"')
    if view.get("attacker") == seat:
        attrs.append('data-role="attacker"')
    elif view.get("defender") == seat:
        attrs.append('data-role="defender"')
    if not view["active"][seat]:
        attrs.append('data-out="true"')
    teams = view.get("teams")
    if teams:
        attrs.append(f'data-team="{teams[seat]}"')
    if seat < len(scene.statuses):
        attrs.append(f'data-seat-status="{escape(scene.statuses[seat])}"')
    return " ".join(attrs)


def _team_badge(scene: Scene, seat: int) -> str:
    teams = scene.view.get("teams")
    if not teams:
        return ""
    label = escape(t(scene.lang, "team", n=teams[seat] + 1))
    return f'<span class="team-badge" data-team="{teams[seat]}">{label}</span>'


def seat_order(view: dict[str, Any]) -> list[int]:
    """Opponents from the viewer's left, clockwise: the order they sit across the top of the table."""
    n, me = view["players"], view["seat"]
    return [(me + i) % n for i in range(1, n)]


def opponents_html(scene: Scene) -> str:
    view, lang = scene.view, scene.lang
    order = seat_order(view)
    parts = []
    for seat in order:
        count = view["hand_sizes"][seat]
        shown = min(count, MAX_BACKS)
        backs = "".join(back_html() for _ in range(shown))
        name = escape(scene.names[seat] if seat < len(scene.names) else str(seat))
        level = _level_text(lang, scene.kinds[seat]) if seat < len(scene.kinds) else ""
        level_html = f'<span class="seat-level">{escape(level)}</span>' if level else ""
        label = escape(f"{scene.names[seat] if seat < len(scene.names) else seat}: {_count_text(lang, count)}")
        parts.append(
            f'<section class="seat" {_seat_attrs(scene, seat)} aria-label="{label}">'
            f'<div class="seat-backs" data-count="{count}" style="--n:{max(shown, 1)}">{backs}'
            f'<span class="count-badge" aria-hidden="true">{count}</span></div>'
            f'<div class="seat-info"><span class="seat-name">{name}</span>{level_html}{_team_badge(scene, seat)}</div>'
            f'<div class="seat-marks">{_marks(scene, seat)}</div></section>'
        )
    return "".join(parts)


def me_html(scene: Scene) -> str:
    view = scene.view
    seat = view["seat"]
    name = escape(scene.names[seat] if seat < len(scene.names) else "")
    return (f'<div class="me" {_seat_attrs(scene, seat)}><span class="seat-name">{name}</span>'
            f'{_team_badge(scene, seat)}<span class="seat-marks">{_marks(scene, seat)}</span></div>')


# ---------------------------------------------------------------------------- centre
def deck_html(scene: Scene) -> str:
    view, lang = scene.view, scene.lang
    talon = view["talon"]
    trump = view["trump"]
    trump_card = view.get("trump_card")
    parts = []
    label = tn(lang, "talon", talon) if talon else t(lang, "talon_empty")
    if view.get("trump_exposed") and trump_card and talon:
        title = escape(t(lang, "trump_card", card=card_label(lang, trump_card)))
        parts.append(card_html(trump_card, lang, cls="trump-card",
                               attrs=f'data-trump-card="{trump_card}" title="{title}"'))
    if talon:
        layers = min(4, 1 + (talon - 1) // 6)
        backs = "".join(back_html(f"layer l{i}") for i in range(layers))
        parts.append(f'<div class="stack">{backs}<span class="count-badge">{talon}</span></div>')
    else:
        parts.append('<div class="stack empty"></div>')
    suit = escape(suit_name(lang, trump))
    trump_text = escape(t(lang, "trump", suit=suit))
    badge = (f'<div class="trump-badge {"red" if trump in RED else "black"}" data-trump="{trump}">'
             f'{_suit_svg(trump)}<span>{trump_text}</span></div>')
    return (f'<div class="talon" role="img" aria-label="{escape(label)}" data-talon="{talon}">{"".join(parts)}</div>'
            f"{badge}")


def discard_html(scene: Scene) -> str:
    lang = scene.lang
    n = len(scene.view.get("discard", []))
    label = tn(lang, "discard", n) if n else t(lang, "discard_empty")
    layers = min(5, (n + 5) // 6)
    backs = "".join(back_html(f"layer d{i}") for i in range(layers))
    badge = f'<span class="count-badge">{n}</span>' if n else ""
    return f'<div class="discard-pile" role="img" aria-label="{escape(label)}" data-count="{n}">{backs}{badge}</div>'


def table_html(scene: Scene) -> str:
    view, lang = scene.view, scene.lang
    menu = scene.menu
    targets = menu.targets(scene.pick) if menu else set()
    hint_targets = _hint_targets(scene)
    accusable = set(scene.accusations) if scene.accusing else set()
    parts = []
    for attack, defence in view["table"]:
        key = f"attack:{attack}"
        attrs = [f'data-attack="{attack}"']
        cls = ["attack"]
        if defence:
            attrs.append(f'data-beaten-by="{defence}"')
        if attack in accusable:
            attrs.append(_accuse_attrs(attack, lang))
        elif key in targets:
            attrs.append('data-target="true" tabindex="0" role="button"')
        if key in hint_targets:
            attrs.append('data-hint="true"')
        if attack in scene.fresh:
            cls.append("fresh")
        a_html = card_html(attack, lang, cls=" ".join(cls), attrs=" ".join(attrs))
        d_html = ""
        if defence:
            d_cls = "defence fresh" if defence in scene.fresh else "defence"
            d_attrs = f'data-defence="{defence}"' + (f" {_accuse_attrs(defence, lang)}" if defence in accusable else "")
            d_html = card_html(defence, lang, cls=d_cls, attrs=d_attrs)
        parts.append(f'<div class="pair{" beaten" if defence else ""}">{a_html}{d_html}</div>')
    if menu is not None and not scene.covered:
        can_attack = any(k == "attack" for k, _ in menu.actions)
        if can_attack:
            lit = TABLE_ZONE in targets
            hinted = ' data-hint="true"' if TABLE_ZONE in hint_targets else ""
            label = escape(_zone_label(scene))
            parts.append(f'<div class="zone" data-drop="table"{_LIT if lit else ""}{hinted} '
                         f'aria-label="{label}"><span>{label}</span></div>')
        if menu.transfers:
            lit = TRANSFER_ZONE in targets
            nxt = _next_defender_name(scene)
            label = escape(t(lang, "drop_transfer", name=nxt))
            parts.append(f'<div class="zone transfer" data-drop="transfer"{_LIT if lit else ""} '
                         f'aria-label="{label}"><svg aria-hidden="true"><use href="#icon-arrow"/></svg>'
                         f'<span>{label}</span></div>')
    return "".join(parts)


def _accuse_attrs(card: str, lang: str) -> str:
    """A table card the viewer may name: a lit target whose click accuses it."""
    label = escape(t(lang, "accuse_card", card=card_label(lang, card)))
    return f'data-accuse="{card}" data-target="true" tabindex="0" role="button" aria-label="{label}"'


def _zone_label(scene: Scene) -> str:
    menu = scene.menu
    lang = scene.lang
    if menu and scene.pick.selected:
        return tn(lang, "btn_play_n", len(scene.pick.selected)) if len(scene.pick.selected) > 1 else \
            f"{t(lang, 'drop_attack')} {card_symbol(lang, scene.pick.selected[0])}"
    return t(lang, "drop_attack")


def _next_defender_name(scene: Scene) -> str:
    view = scene.view
    n = view["players"]
    seat = view["seat"]
    teams = view.get("teams")
    for step in range(1, n):
        other = (seat + step) % n
        if view["active"][other] and (not teams or teams[other] != teams[seat]):
            return scene.names[other] if other < len(scene.names) else str(other)
    return ""


# ---------------------------------------------------------------------------- hand
def _hint_targets(scene: Scene) -> set[str]:
    if not scene.hint:
        return set()
    kind, *cards = scene.hint[0].split()
    kind = kind.lower()
    cards = [c.upper() for c in cards]
    if kind == "attack":
        return {TABLE_ZONE, *(f"hand:{c}" for c in cards)}
    if kind == "defend":
        return {f"attack:{cards[0]}", f"hand:{cards[1]}"}
    if kind == "transfer":
        return {TRANSFER_ZONE, f"hand:{cards[0]}"}
    return {f"button:{kind}"}


def hand_html(scene: Scene) -> str:
    view, lang = scene.view, scene.lang
    if scene.covered:
        return ""
    cards = hand_order(list(view["hand"]), view["trump"])
    menu = scene.menu
    pick = scene.pick
    targets = menu.targets(pick) if menu else set()
    hint_targets = _hint_targets(scene)
    n = len(cards)
    parts = []
    for card in cards:
        playable = bool(menu and menu.marked(card, pick))
        clickable = bool(menu and menu.playable(card, pick))  # cheat mode: a cheat goes down too, unmarked
        attrs = [f'data-card="{card}"', f'data-playable="{"true" if playable else "false"}"', 'type="button"']
        cls = []
        if not clickable:
            attrs.append('aria-disabled="true"')
        if card in pick.selected or card == pick.armed:
            attrs.append('data-selected="true" aria-pressed="true"')
        if f"hand:{card}" in targets:
            attrs.append('data-target="true"')
        if f"hand:{card}" in hint_targets:
            attrs.append('data-hint="true"')
        if menu and clickable:
            attrs.append('draggable="false"')
        if card[-1] == view["trump"]:
            cls.append("trump")
        parts.append(card_html(card, lang, tag="button", cls=" ".join(cls), attrs=" ".join(attrs)))
    live = "true" if menu else "false"
    return f'<div class="hand-cards" data-live="{live}" style="--n:{max(n, 1)}">{"".join(parts)}</div>'


# ---------------------------------------------------------------------------- text
def status_text(scene: Scene) -> str:
    view, lang, menu, pick = scene.view, scene.lang, scene.menu, scene.pick
    names = scene.names
    if view.get("result") is not None:
        return t(lang, "status_game_over")
    to_act = view.get("to_act")
    who = names[to_act] if to_act is not None and to_act < len(names) else ""
    if scene.stale:
        return t(lang, "net_lost")
    if scene.covered:
        return t(lang, "status_covered", name=who)
    if scene.accusing:
        return t(lang, "status_accuse")
    if scene.closing and scene.accusations:
        return t(lang, "status_closing")
    if scene.thinking is not None:
        return t(lang, "status_thinking", name=names[scene.thinking])
    if menu is None:
        return t(lang, "status_waiting", name=who)
    if pick.transfer:
        return t(lang, "status_select_transfer")
    if pick.armed:
        return t(lang, "status_select_target", card=card_symbol(lang, pick.armed))
    if pick.selected:
        return t(lang, "status_select_set", cards=cards_symbols(lang, pick.selected))
    seat = view["seat"]
    defending = any(k in ("defend", "take") for k, _ in menu.actions)
    if view.get("defender") == seat and not view.get("taking") and defending:
        if view["variant"] == "prostoy":
            return t(lang, "status_your_defence_prostoy")
        if menu.transfers:
            return t(lang, "status_your_defence_transfer")
        return t(lang, "status_your_defence")
    if not view["table"]:
        if view["variant"] == "prostoy":
            return t(lang, "status_your_attack_prostoy")
        return t(lang, "status_your_attack")
    if view.get("taking"):
        d = view.get("defender")
        return t(lang, "status_your_throw_taking", name=names[d] if d is not None else "")
    return t(lang, "status_your_throw")


def log_line(entry: dict[str, Any], lang: str, names: list[str]) -> str:
    """One line of the recent-plays list: a narrated event (durak/narrate.py) said in ``lang``."""
    if "code" not in entry:
        return ""  # a line saved by a version before coded messages
    return capitalised(say(lang, entry, names))


def log_html(scene: Scene) -> str:
    items = [log_line(e, scene.lang, scene.names) for e in scene.log[-6:]]
    return "".join(f"<li>{escape(line)}</li>" for line in items if line)


def accusation_html(scene: Scene) -> str:
    """Cheat mode: the last accusation's outcome, for everyone (``[data-testid=accusation]``), until the
    next bout ends."""
    outcome = scene.accusation
    if not outcome:
        return ""
    event = Event(outcome["outcome"], outcome["accuser"], (parse_card(outcome["card"]),), outcome["target"])
    message = narrate(event, scene.you)
    text = capitalised(say(scene.lang, message, scene.names, me=scene.you)) if message else ""
    return (f'<span class="accusation" data-testid="accusation" data-outcome="{outcome["outcome"]}" '
            f'data-card="{outcome["card"]}">{escape(text)}</span>')


def hint_text(scene: Scene) -> str:
    if scene.message:
        return capitalised(say(scene.lang, scene.message, scene.names, me=scene.you))
    if scene.hint:
        return t(scene.lang, "hint_prefix", reason=say(scene.lang, scene.hint[1], scene.names))
    return ""


# ---------------------------------------------------------------------------- overlays
def game_over_html(scene: Scene) -> str:
    view, lang, names = scene.view, scene.lang, scene.names
    result = view.get("result")
    if not result:
        return ""
    me = view["seat"]
    humans = [i for i, k in enumerate(scene.kinds) if k == "human"]
    if result.get("draw"):
        headline = t(lang, "game_over_draw")
        attr = 'data-draw="true"'
    else:
        durak = result.get("durak")
        losers = result.get("losers") or ([durak] if durak is not None else [])
        if view.get("teams") and len(losers) > 1:
            team = view["teams"][losers[0]]
            headline = t(lang, "game_over_team", n=team + 1, names=", ".join(names[s] for s in losers))
        elif durak == me and len(humans) == 1:
            headline = t(lang, "game_over_durak_you")
        else:
            headline = t(lang, "game_over_durak", name=names[durak] if durak is not None else "?")
        attr = f'data-durak="{durak if durak is not None else losers[0] if losers else ""}"'
        if len(humans) == 1 and me not in losers:
            headline += " " + t(lang, "game_over_you_win")
    order = "".join(f"<li>{escape(names[s])}</li>" for s in result.get("out_order", []))
    series = scene.series or {}
    rows = ""
    losses = series.get("losses") or [0] * view["players"]
    firsts = series.get("first_out") or [0] * view["players"]
    for seat in range(view["players"]):
        rows += (f'<tr data-seat="{seat}"><th scope="row">{escape(names[seat])}</th>'
                 f"<td>{losses[seat]}</td><td>{firsts[seat]}</td></tr>")
    table = (f'<table class="series"><caption>{escape(t(lang, "series"))} — '
             f'{escape(t(lang, "series_games", n=series.get("games", 1)))}</caption>'
             f'<thead><tr><th></th><th scope="col">{escape(t(lang, "series_losses"))}</th>'
             f'<th scope="col">{escape(t(lang, "series_first_out"))}</th></tr></thead><tbody>{rows}</tbody></table>')
    return (
        f'<div class="panel" data-testid="game-over" {attr} role="dialog" aria-modal="true" '
        f'aria-labelledby="game-over-title">'
        f'<h2 id="game-over-title">{escape(t(lang, "game_over_title"))}</h2>'
        f'<p class="headline">{escape(headline)}</p>'
        f'<div class="results"><div><h3>{escape(t(lang, "exit_order"))}</h3><ol class="exit-order">{order}</ol></div>'
        f"{table}</div>"
        f"{_deal_check_html(scene)}{_game_over_buttons(scene)}</div>"
    )


def _game_over_buttons(scene: Scene) -> str:
    lang = scene.lang
    if scene.guest:
        return f'<p class="net-wait">{escape(t(lang, "guest_next_game"))}</p>'
    return (f'<div class="panel-buttons"><button type="button" class="btn primary" data-action="play-again">'
            f'{escape(t(lang, "btn_play_again"))}</button>'
            f'<button type="button" class="btn" data-action="review">{escape(t(lang, "review.btn_open"))}</button>'
        f'<button type="button" class="btn" data-action="history">{escape(t(lang, "history.btn_open"))}</button>'
            f'<button type="button" class="btn" data-action="settings">{escape(t(lang, "btn_settings"))}</button>'
            "</div>")


def _deal_check_html(scene: Scene) -> str:
    """A friend's page: whether the revealed seed replays to what this seat was shown, and what that means."""
    if scene.deal_check not in ("verified", "mismatch"):
        return ""
    lang = scene.lang
    return (f'<div class="deal-check" data-testid="deal-check" data-result="{scene.deal_check}" role="status">'
            f'<p class="deal-result">{escape(t(lang, "deal_" + scene.deal_check))}</p>'
            f'<p class="net-text small">{escape(t(lang, "deal_note"))}</p></div>')


def cover_html(scene: Scene) -> str:
    if not scene.covered:
        return ""
    to_act = scene.view.get("to_act")
    seat = to_act if to_act is not None else scene.view["seat"]
    name = scene.names[seat] if seat < len(scene.names) else ""
    lang = scene.lang
    return (
        f'<div class="panel" data-testid="cover" data-seat="{seat}" role="dialog" aria-modal="true" '
        f'aria-labelledby="cover-title"><h2 id="cover-title">{escape(t(lang, "cover_title", name=name))}</h2>'
        f'<p>{escape(t(lang, "cover_text", name=name))}</p>'
        f'<button type="button" class="btn primary" data-action="reveal">{escape(t(lang, "btn_reveal"))}</button></div>'
    )


# ---------------------------------------------------------------------------- buttons
BUTTONS = ("take", "pass", "transfer", "exchange", "hint", "play", "cancel", "accuse")


def buttons(scene: Scene) -> dict[str, dict[str, Any]]:
    """For each fixed button: enabled, hidden, label, hinted."""
    view, lang, menu, pick = scene.view, scene.lang, scene.menu, scene.pick
    live = menu is not None and not scene.covered
    hint_targets = _hint_targets(scene)
    rules = view.get("rules", {})
    exchange_rule = rules.get("trump_six_exchange")
    if exchange_rule is None:
        exchange_rule = view["variant"] == "prostoy"
    state: dict[str, dict[str, Any]] = {}

    def put(action: str, enabled: bool, label: str, hidden: bool = False) -> None:
        state[action] = {"enabled": bool(enabled and not hidden), "label": label, "hidden": hidden,
                         "hinted": f"button:{action}" in hint_targets}

    has = (lambda kind: live and menu.has(kind)) if menu else (lambda kind: False)
    beaten_some = any(d for _, d in view["table"])
    take_label = t(lang, "btn_take_rest") if view["variant"] == "prostoy" and beaten_some else t(lang, "btn_take")
    put("take", has("take"), take_label)
    if view.get("taking"):
        pass_label = t(lang, "btn_let_take")
    elif view["table"] and all(d for _, d in view["table"]):
        pass_label = t(lang, "btn_done")
    else:
        pass_label = t(lang, "btn_pass")
    put("pass", has("pass"), pass_label)
    put("transfer", has("transfer"), t(lang, "btn_transfer"), hidden=view["variant"] != "perevodnoy")
    put("exchange", has("exchange"), t(lang, "btn_exchange"), hidden=not exchange_rule)
    put("hint", live and bool(menu and menu.actions), t(lang, "btn_hint"))
    set_text = menu.set_action(pick.selected) if (live and menu and pick.selected) else None
    n = len(pick.selected)
    play_label = tn(lang, "btn_play_n", n) if n > 1 else (
        f"{t(lang, 'drop_attack')} {card_symbol(lang, pick.selected[0])}" if n == 1 else t(lang, "btn_play"))
    put("play", bool(set_text), play_label, hidden=not pick.selected)
    put("cancel", live and not pick.empty, t(lang, "btn_cancel"), hidden=pick.empty)
    accuse_label = t(lang, "btn_accuse_stop") if scene.accusing else t(lang, "btn_accuse")
    put("accuse", bool(scene.accusations) and not scene.covered and not scene.stale, accuse_label,
        hidden=not scene.cheating)
    return state


def screen(scene: Scene) -> dict[str, Any]:
    """Every region's markup and the buttons' state for this frame."""
    return {
        "opponents": opponents_html(scene),
        "me": me_html(scene),
        "deck": deck_html(scene),
        "discard": discard_html(scene),
        "table": table_html(scene),
        "hand": hand_html(scene),
        "status": escape(status_text(scene)),
        "hint": escape(hint_text(scene)) or accusation_html(scene),
        "log": log_html(scene),
        "game_over": game_over_html(scene),
        "cover": cover_html(scene),
        "buttons": buttons(scene),
    }
