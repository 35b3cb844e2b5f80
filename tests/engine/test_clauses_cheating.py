"""RULES.md §7 — cheat mode: cheats, accusations, their outcome, and an unchanged game when the option is off."""

from __future__ import annotations

import random

import pytest

from durak import Game, IllegalAction, Rules
from durak.record import parse_rules, rules_text

from .positions import legal, play, position


def cheat_position(hands: list[str], **options) -> Game:
    return position(hands, cheating=True, **options)


def cheats(game: Game) -> set[str]:
    seat = game.to_act
    assert seat is not None
    return {str(a) for a in game.cheats(seat)}


def accusations(game: Game, seat: int) -> set[str]:
    return {str(a) for a in game.accusations(seat)}


def refused_unchanged(game: Game, seat: int, action: str, code: str) -> IllegalAction:
    """``action`` is refused with ``illegal.<code>`` and the game is exactly as before."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as caught:
        game.apply(seat, action)
    assert caught.value.code == f"illegal.{code}", caught.value
    assert game.to_dict() == before
    return caught.value


# ----------------------------------------------------------------------------- the option
@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "prostoy"])
def test_option_cheating_off_by_default_on_in_any_variant(variant):
    assert Rules(variant=variant).cheating is False
    assert Rules(variant=variant, players=4, cheating=True).cheating is True


@pytest.mark.parametrize("teams", ["2v2", "3v3", "2v2v2"])
def test_option_cheating_with_teams(teams):
    rules = Rules(players=4 if teams == "2v2" else 6, teams=teams, cheating=True)
    assert parse_rules(rules_text(rules)) == rules
    assert rules_text(rules).endswith(f"/{teams}/cheating")


def test_option_cheating_must_be_true_or_false():
    with pytest.raises(ValueError, match="cheating must be true or false"):
        Rules(cheating="yes")  # type: ignore[arg-type]


def test_option_off_leaves_rules_saves_and_tokens_as_they_were():
    assert Rules(cheating=False) == Rules()
    assert "cheating" not in Rules().to_dict()
    assert Rules.from_dict({"cheating": True}).cheating is True
    assert rules_text(Rules()) == "podkidnoy/2p/36"
    game = Game.new(Rules(), seed=3)
    assert "cheats" not in game.to_dict() and "table_by" not in game.view(0)
    assert game.cheats(game.to_act) == [] and game.accusations(0) == []


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "prostoy"])
def test_option_on_changes_nothing_while_nobody_cheats_or_accuses(variant):
    """Same seed and moves: the same legal lists, events and state; only the cheat bookkeeping is added."""
    for seed in range(15):
        honest = Game.new(Rules(variant=variant, players=3), seed=seed)
        cheating = Game.new(Rules(variant=variant, players=3, cheating=True), seed=seed)
        rng = random.Random(seed)
        while honest.result is None:
            seat = honest.to_act
            assert cheating.legal_actions(seat) == honest.legal_actions(seat)
            action = rng.choice(honest.legal_actions(seat))
            assert cheating.apply(seat, action) == honest.apply(seat, action)
        one, two = honest.to_dict(), cheating.to_dict()
        del two["cheats"], two["table_by"], two["rules"]["cheating"]
        assert one == two


# ----------------------------------------------------------------------------- a cheat
def test_cheat_defence_with_a_card_of_another_suit():
    game = cheat_position(["8S 9C", "7H 10C JD"], trump="D")
    play(game, "attack 8S")
    assert {"defend 8S 7H", "defend 8S 10C"} <= cheats(game)
    assert "defend 8S 7H" not in legal(game)
    game.apply(1, "defend 8S 7H")
    assert game.table == [(game.attacks[0], game.defences[0])] and str(game.defences[0]) == "7H"


def test_cheat_defence_with_a_lower_card_of_the_suit():
    game = cheat_position(["8S 9C", "7S 10C"], trump="D")
    play(game, "attack 8S", "defend 8S 7S")
    assert game.to_act == 0  # all beaten, as far as the table is concerned: the attacker throws in or passes


def test_cheat_defence_with_a_plain_card_on_a_trump():
    game = cheat_position(["8D 9C", "AS 10C"], trump="D")
    play(game, "attack 8D")
    assert "defend 8D AS" in cheats(game)
    assert "defend 8D AS" not in legal(game)
    play(game, "defend 8D AS")


def test_cheat_defence_lists_only_cards_that_do_not_beat():
    game = cheat_position(["8S 9C", "9S 7H JD"], trump="D")
    play(game, "attack 8S")
    assert cheats(game) == {"defend 8S 7H"}  # 9S and JD beat 8S: those are legal, not cheats


def test_cheat_throw_in_of_a_rank_not_on_the_table():
    game = cheat_position(["8S 9C KH", "9S 10C JD QD"], trump="D")
    play(game, "attack 8S", "defend 8S 9S")
    assert cheats(game) == {"attack KH"}  # 9C's rank is on the table: a legal throw-in
    assert legal(game) == {"attack 9C", "pass"}
    play(game, "attack KH")
    assert game.to_act == 1 and str(game.attacks[-1]) == "KH"


def test_cheat_throw_in_to_a_defender_who_takes():
    game = cheat_position(["8S KH", "7C 10C JC"], trump="D")
    play(game, "attack 8S", "take")
    assert cheats(game) == {"attack KH"}
    play(game, "attack KH", "pass")
    assert {str(c) for c in game.hand(1)} == {"7C", "10C", "JC", "8S", "KH"}


def test_cheat_transfer_with_another_rank():
    game = cheat_position(["8S 9C", "7H 8D", "10S JS QS"], variant="perevodnoy", trump="D")
    play(game, "attack 8S")
    assert "transfer 8D" in legal(game) and "transfer 7H" in cheats(game)
    play(game, "transfer 7H")
    assert game.defender == 2 and game.attacker == 1


def test_cheat_accepted_only_in_cheat_mode_with_the_same_refusal_as_before():
    plain = position(["8S 9C", "7H 10C"], trump="D")
    cheat = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(plain, "attack 8S")
    play(cheat, "attack 8S")
    with pytest.raises(IllegalAction) as refused:
        plain.apply(1, "defend 8S 7H")
    assert refused.value.code == "illegal.beat_rule"
    assert str(refused.value) == ("cannot beat 8♠ with 7♥: a non-trump is beaten by a higher card of its suit or "
                                  "by any trump")
    assert plain.cheats(1) == []
    cheat.apply(1, "defend 8S 7H")


def test_cheat_nothing_to_cheat_at_an_opening():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    assert cheats(game) == set()


def test_cheats_are_listed_only_for_the_seat_to_act():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    assert game.cheats(0) == [] and game.cheats(1)


# ----------------------------------------------------------------------------- still impossible
def test_still_impossible_a_card_one_does_not_hold():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    refused_unchanged(game, 1, "defend 8S 6H", "not_holding")


def test_still_impossible_out_of_turn():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    refused_unchanged(game, 0, "attack 9C", "not_your_turn")


def test_still_impossible_passing_the_throw_in_limit():
    game = cheat_position(["8S 9C KH", "9S"], trump="D")  # the defender holds one card: one attack card at most
    play(game, "attack 8S", "defend 8S 9S")
    assert cheats(game) == set()
    refused_unchanged(game, 0, "attack KH", "limit_reached")


def test_still_impossible_a_transfer_the_next_defender_could_not_answer():
    game = cheat_position(["8S 9C", "7H 8D", "10S"], variant="perevodnoy", trump="D")
    play(game, "attack 8S")
    assert not {a for a in cheats(game) if a.startswith("transfer")}
    refused_unchanged(game, 1, "transfer 7H", "transfer_too_many")


# ----------------------------------------------------------------------------- an accusation
def test_accusation_any_table_card_but_ones_own():
    game = cheat_position(["8S 8C 9D", "9S 6H 7C", "JC QC KC"], trump="D")
    play(game, "attack 8S", "defend 8S 9S")
    assert accusations(game, 0) == {"accuse 9S"}
    assert accusations(game, 1) == {"accuse 8S"}
    assert accusations(game, 2) == {"accuse 8S", "accuse 9S"}
    refused_unchanged(game, 0, "accuse 8S", "accuse_own")


def test_accusation_out_of_turn_by_any_seat_it_lists():
    game = cheat_position(["8S 9C", "7H 10C", "JC QC KC"], trump="D")
    play(game, "attack 8S", "defend 8S 7H")
    assert game.to_act == 0
    events = game.apply(2, "accuse 7H")  # seat 2 is not to act
    assert events[0].kind == "caught"


def test_accusation_only_while_the_card_is_on_the_table():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D", talon="6C 6S")
    play(game, "attack 8S", "defend 8S 7H", "pass")  # the bout ends: beaten
    assert accusations(game, 0) == set()
    refused_unchanged(game, 0, "accuse 7H", "accuse_not_on_table")


def test_accusation_refused_when_cheating_is_off():
    game = position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    assert game.accusations(1) == []
    error = refused_unchanged(game, 1, "accuse 8S", "accuse_off")
    assert str(error) == "cannot accuse 8♠: cheat mode is off, so there are no cheats to name"


def test_accusation_refused_for_a_card_not_on_the_table_or_after_the_game():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    error = refused_unchanged(game, 1, "accuse 9C", "accuse_not_on_table")
    assert error.params == {"action": "accuse 9C", "card": "9C"}
    refused_unchanged(game, 1, "accuse 2C", "accuse_not_on_table")  # not even in a 36-card deck


def test_accusation_refused_for_a_seat_that_is_out():
    game = cheat_position(["8S", "9S 10C", "JC QC KC"], trump="D")
    play(game, "attack 8S", "defend 8S 9S", "pass", "pass")  # seat 0 is out
    assert not game.active[0]
    play(game, "attack 10C", "take")
    assert game.accusations(0) == []
    refused_unchanged(game, 0, "accuse 10C", "accuse_out")


def test_accusation_refused_for_a_bad_seat():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    refused_unchanged(game, 5, "accuse 8S", "no_seat")
    assert game.accusations(5) == [] and game.accusations("1") == []  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- right
def test_right_the_cheating_defender_takes_the_table_as_after_a_take():
    game = cheat_position(["8S 8C 9D", "7H 10C JS", "JC QC KC"], trump="D", talon="6S 6C 6H")
    play(game, "attack 8S", "defend 8S 7H")
    events = game.apply(0, "accuse 7H")
    assert (events[0].kind, events[0].player, events[0].target) == ("caught", 0, 1)
    assert (events[1].kind, events[1].player) == ("pickup", 1)
    assert {str(c) for c in events[1].cards} == {"8S", "7H"}
    assert game.attacks == [] and game.attacker == 2 and game.defender == 0  # the player after the cheater
    assert len(game.hand(1)) == 4 and {"8S", "7H"} <= {str(c) for c in game.known[1]}


def test_right_the_cheating_attacker_takes_the_table_and_the_player_after_him_attacks():
    game = cheat_position(["8S KH 9D", "9S 10C JD", "JC QC KC"], trump="D", talon="6S 6C 6H 7S")
    play(game, "attack 8S", "defend 8S 9S", "attack KH")  # KH: no king on the table
    events = game.apply(1, "accuse KH")
    assert (events[0].kind, events[0].player, events[0].target) == ("caught", 1, 0)
    assert events[1].player == 0 and {str(c) for c in events[1].cards} == {"8S", "9S", "KH"}
    assert game.attacker == 1 and game.defender == 2


def test_right_the_taker_draws_last_from_the_opener_clockwise():
    game = cheat_position(["8S KH 9D", "9S 10C JD", "JC QC KC"], trump="D",
                          talon="6S 6C 6H 7S AS AC 7C 7D 10S 10H")
    play(game, "attack 8S", "defend 8S 9S", "attack KH")
    events = game.apply(2, "accuse KH")
    draws = [(e.player, e.size) for e in events if e.kind == "draw"]
    assert draws == [(1, 4), (2, 3), (0, 2)]  # the defender in his clockwise turn, the cheater (now 4 cards) last
    assert [e.kind for e in events] == ["caught", "pickup", "draw", "draw", "draw", "round"]


def test_right_a_cheater_whose_hand_emptied_is_not_out():
    game = cheat_position(["8S 9C", "7H", "JC QC"], trump="D")  # no talon: an empty hand leaves at the bout's end
    play(game, "attack 8S", "defend 8S 7H")  # seat 1 cheats with its last card
    assert game.emptied == [1]
    game.apply(0, "accuse 7H")
    assert game.active == [True, True, True] and len(game.hand(1)) == 2 and game.emptied == []
    assert game.attacker == 2 and game.defender == 0


def test_right_an_accuser_whose_hand_is_empty_goes_out_when_the_bout_ends():
    game = cheat_position(["8S", "7H 10C", "JC QC"], trump="D")
    play(game, "attack 8S", "defend 8S 7H")  # seat 0 played its last card and the talon is empty
    game.apply(0, "accuse 7H")
    assert game.active == [False, True, True] and game.out_order == [0]
    assert game.attacker == 2 and game.defender == 1


def test_wrong_when_the_table_is_taken_others_may_go_out_and_the_game_end():
    game = cheat_position(["8S", "9S KH"], trump="D")
    play(game, "attack 8S", "defend 8S 9S")  # seat 0's hand is empty, the talon too
    events = game.apply(1, "accuse 8S")  # a fair card: seat 1 takes the table, seat 0 goes out
    assert events[0].kind == "wrong"
    assert game.result is not None and game.result.durak == 1 and game.result.out_order == [0]


def test_right_in_prostoy_the_cheater_takes_every_table_card():
    game = cheat_position(["8S 8C 9H", "7H 10C JS"], variant="prostoy", trump="D", talon="6S 6C 6H 7S AS AC")
    play(game, "attack 8S 8C 9H")
    assert len(game.hand(0)) == 5  # Prostoy's attacker refilled at once
    play(game, "defend 8S 7H")
    events = game.apply(0, "accuse 7H")
    assert events[0].kind == "caught" and events[1].player == 1 and len(events[1].cards) == 4
    assert game.attacker == 0 and game.defender == 1  # heads-up: the player after the cheater is seat 0


def test_right_with_teams_the_next_attacker_follows_the_cheater():
    game = cheat_position(["8S 9D", "7H 10C", "JC QC", "KC AC"], trump="D", teams="2v2")
    play(game, "attack 8S", "defend 8S 7H")
    game.apply(2, "accuse 7H")
    assert game.attacker == 2 and game.defender == 3


# ----------------------------------------------------------------------------- wrong
def test_wrong_the_accuser_takes_the_table_with_the_same_effect():
    game = cheat_position(["8S 8C 9D", "9S 10C JS", "JC QC KC"], trump="D", talon="6S 6C 6H")
    play(game, "attack 8S", "defend 8S 9S")
    events = game.apply(2, "accuse 9S")
    assert (events[0].kind, events[0].player, events[0].target) == ("wrong", 2, 1)
    assert events[1].kind == "pickup" and events[1].player == 2
    assert len(game.hand(2)) == 5 and game.attacker == 0 and game.defender == 1


def test_wrong_when_the_accuser_was_the_defender():
    game = cheat_position(["8S 9C", "9S 10C"], trump="D", talon="6S 6C 6H")
    play(game, "attack 8S")
    events = game.apply(1, "accuse 8S")
    assert events[0].kind == "wrong" and events[1].player == 1
    assert game.attacker == 0 and game.defender == 1  # as after a take heads-up: the same attacker again


# ----------------------------------------------------------------------------- stands, records, views
def test_a_cheat_nobody_names_before_the_bout_ends_stands():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D", talon="6S 6C 6H")
    play(game, "attack 8S", "defend 8S 7H", "pass")
    assert {str(c) for c in game.discard} >= {"8S", "7H"}
    assert game.cheated == frozenset() and game.accusations(0) == []


def test_cheats_and_accusations_go_into_the_record_and_replay():
    game = Game.new(Rules(players=3, cheating=True), seed=5)
    seat = game.to_act
    opening = min(game.legal_actions(seat))
    game.apply(seat, opening)
    defender = game.to_act
    cheat = game.cheats(defender)[0]
    game.apply(defender, cheat)
    accuser = next(s for s in range(3) if s not in (defender,) and game.accusations(s))
    game.apply(accuser, f"accuse {cheat.cards[1]}")
    text = game.record()
    assert '[Rules "podkidnoy/3p/36/cheating"]' in text
    assert f"3. s{accuser} accuse {cheat.cards[1]}" in text
    assert Game.from_record(text).to_dict() == game.to_dict()


def test_positions_and_saves_keep_who_played_and_which_card_is_a_cheat():
    game = cheat_position(["8S 9C KH", "7H 10C JD QD", "JC QC KC"], trump="D")
    play(game, "attack 8S", "defend 8S 7H")
    text = game.position()
    assert " by=0:1 cheats=7H " in text
    again = Game.from_position(text)
    assert again.to_dict() | {"history": []} == game.to_dict() | {"history": []}
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
    assert again.apply(0, "accuse 7H")[0].kind == "caught"


def test_positions_without_cheat_mode_refuse_cheat_fields():
    game = position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    text = game.position().replace("table=8S", "table=8S by=0")
    with pytest.raises(ValueError, match="only a cheat-mode game"):
        Game.from_position(text)


def test_views_never_mark_a_cheat():
    fair = cheat_position(["8S 9C", "9S 10C"], trump="D")
    cheat = cheat_position(["8S 9C", "7S 10C"], trump="D")
    play(fair, "attack 8S", "defend 8S 9S")
    play(cheat, "attack 8S", "defend 8S 7S")
    for seat in (0, 1):
        one, two = fair.view(seat), cheat.view(seat)
        assert set(one) == set(two) and one["table_by"] == two["table_by"] == [[0, 1]]
        rest = {key: value for key, value in two.items() if key not in ("table", "history", "hand")}
        assert "cheats" not in two and "7S" not in str(rest)
    assert "cheats" not in cheat.public_view()


def test_explanations_name_the_accusation():
    game = cheat_position(["8S 9C", "7H 10C"], trump="D")
    play(game, "attack 8S")
    error = refused_unchanged(game, 0, "accuse 8S", "accuse_own")
    assert str(error) == "cannot accuse 8♠: seat 0 played 8♠: nobody may accuse their own card"
    assert error.params == {"action": "accuse 8S", "seat": 0, "card": "8S"}
