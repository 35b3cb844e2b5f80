"""French and English text for the table: labels, messages, card names, the rules summary.

Pure Python (no browser import) so tests can check that both catalogues are complete.
``t(lang, key, **values)`` formats a message; a key missing from a catalogue is a bug the tests catch.
"""

from __future__ import annotations

LANGS = ("en", "fr")
DEFAULT_LANG = "en"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_RANK_WORDS = {
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
           10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"},
    "fr": {2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit", 9: "neuf",
           10: "dix", 11: "valet", 12: "dame", 13: "roi", 14: "as"},
}
_SUIT_WORDS = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
}
_RANK_BY_TEXT = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}

CATALOGUES: dict[str, dict[str, str]] = {
    "en": {
        "title": "Durak",
        "tagline": "The card game where nobody wins — one player loses",
        "loading": "Shuffling the cards…",
        "loading_python": "Starting Python…",
        "load_failed": "The game engine could not load. Reload the page to try again.",
        "language": "Language",
        "speed": "Speed",
        "speed_slow": "Slow",
        "speed_normal": "Normal",
        "speed_fast": "Fast",
        "speed_instant": "Instant",
        "btn_new_game": "New game",
        "btn_take": "Take",
        "btn_take_rest": "Pick up the rest",
        "btn_pass": "Pass",
        "btn_done": "Done",
        "btn_let_take": "Let them take",
        "btn_transfer": "Transfer",
        "btn_exchange": "Swap trump six",
        "btn_hint": "Hint",
        "btn_play": "Play selected",
        "btn_play_n": "Play {n} cards",
        "btn_cancel": "Cancel",
        "btn_start": "Deal",
        "btn_close": "Close",
        "btn_play_again": "Play again",
        "btn_settings": "Change rules",
        "btn_reveal": "Show my hand",
        "btn_dismiss": "OK",
        "actions": "Actions",
        "hand": "Your hand",
        "hand_of": "Hand of {name}",
        "table": "Table",
        "talon": "Talon: {n} cards",
        "talon_empty": "The talon is empty",
        "trump": "Trump: {suit}",
        "trump_card": "Trump card: {card}",
        "discard": "Discard pile: {n} cards",
        "discard_empty": "Discard pile: empty",
        "log": "Recent plays",
        "cards_count": "{n} cards",
        "card_count_one": "1 card",
        "seat_you": "You",
        "seat_bot": "Bot {n}",
        "seat_player": "Player {n}",
        "level_easy": "easy",
        "level_normal": "normal",
        "level_hard": "hard",
        "human": "Human (this device)",
        "mark_attacker": "Attacker",
        "mark_defender": "Defender",
        "mark_turn": "To play",
        "mark_thinking": "Thinking…",
        "mark_out": "Out",
        "mark_dealer": "Dealer",
        "team": "Team {n}",
        "drop_attack": "Play here",
        "drop_transfer": "Transfer to {name}",
        "limit": "Attack limit: {n}",
        "taking": "{name} is taking",
        "status_your_attack": "Your turn: attack with one card or several of a rank.",
        "status_your_attack_prostoy": "Your turn: choose 1, 3 or 5 cards (pairs + a free card), then play them.",
        "status_your_throw": "You may throw in a card of a rank on the table, or pass.",
        "status_your_throw_taking": "{name} takes: throw in more cards of these ranks, or let them take.",
        "status_your_defence": "Your turn: beat every attack card, or take.",
        "status_your_defence_transfer": "Your turn: beat, transfer with a card of the same rank, or take.",
        "status_your_defence_prostoy": "Beat the cards you can, then pick up the rest.",
        "status_select_target": "{card}: choose where to play it (highlighted).",
        "status_select_set": "Selected {cards}. Add cards or play the set.",
        "status_select_transfer": "Choose the card to transfer with.",
        "status_waiting": "{name} to play…",
        "status_thinking": "{name} is thinking…",
        "status_game_over": "Game over.",
        "status_covered": "Pass the device to {name}.",
        "cover_title": "{name}'s turn",
        "cover_text": "Pass the device to {name}. The hand stays hidden until they tap the button.",
        "hint_none": "No hint now: it is not your turn.",
        "hint_prefix": "Hint: {reason}",
        "log_attack": "{name} attacks with {cards}",
        "log_throw": "{name} throws in {cards}",
        "log_defend": "{name} beats {attack} with {defence}",
        "log_transfer": "{name} transfers with {cards} to {target}",
        "log_take": "{name} takes",
        "log_pass": "{name} passes",
        "log_exchange": "{name} swaps the trump six for {card}",
        "log_pickup": "{name} picks up {n} cards",
        "log_pickup_one": "{name} picks up 1 card",
        "log_discard": "Beaten: {n} cards to the discard pile",
        "log_out": "{name} is out",
        "log_new_game": "New deal. Trump: {suit}. {name} attacks first.",
        "log_attack_you": "You attack with {cards}",
        "log_throw_you": "You throw in {cards}",
        "log_defend_you": "You beat {attack} with {defence}",
        "log_transfer_you": "You transfer with {cards} to {target}",
        "log_take_you": "You take",
        "log_pass_you": "You pass",
        "log_exchange_you": "You swap the trump six for {card}",
        "log_pickup_you": "You pick up {n} cards",
        "log_pickup_one_you": "You pick up 1 card",
        "log_out_you": "You are out",
        "log_new_game_you": "New deal. Trump: {suit}. You attack first.",
        "game_over_title": "Game over",
        "game_over_durak_you": "You are the durak!",
        "game_over_durak": "{name} is the durak.",
        "game_over_draw": "A draw: the last cards went out together.",
        "game_over_team": "Team {n} loses: {names}.",
        "game_over_you_win": "Well played: you got rid of your cards.",
        "exit_order": "Exit order",
        "series": "Series",
        "series_games": "Games played: {n}",
        "series_losses": "Losses",
        "series_first_out": "First out",
        "place": "{n}.",
        "new_game_title": "New game",
        "game": "Game",
        "variant_podkidnoy": "Podkidnoy (throw-in)",
        "variant_perevodnoy": "Perevodnoy (transfer)",
        "variant_prostoy": "Prostoy (simple)",
        "players": "Players",
        "deck": "Deck",
        "deck_n": "{n} cards",
        "throw_in": "Throw-ins",
        "throw_in_neighbours": "Defender's neighbours",
        "throw_in_everyone": "Everyone",
        "first_defence_limit": "First defence",
        "first_defence_6": "Up to 6 cards",
        "first_defence_5": "Up to 5 cards",
        "exchange": "Trump-six exchange",
        "exchange_default": "Variant default",
        "exchange_on": "On",
        "exchange_off": "Off",
        "teams": "Teams",
        "teams_none": "Everyone for themself",
        "seats": "Opponents",
        "seat_n": "Seat {n}",
        "seed": "Deal number (optional)",
        "rules_summary": "Rules in short",
        "err_deck_players": "{players} players need {cards} cards for their hands: "
                            "a {deck}-card deck allows at most {most} players.",
        "err_teams_players": "Teams {teams} need exactly {need} players.",
        "err_prostoy_teams": "Prostoy is every player for themself: it has no teams.",
        "err_prostoy_throw_in": "Prostoy has no throw-ins, so the throw-in option does not apply.",
        "err_prostoy_first_defence": "Prostoy has no throw-ins, so the first-defence limit does not apply.",
        "err_rules": "These rules cannot be played: {reason}",
        "err_url": "Some link settings were ignored: {items}",
        "save_set_aside": "The saved game could not be read (damaged or from an older version). "
                          "It was set aside and a new game starts.",
        "illegal": "Not allowed: {reason}",
        "rank_name_11": "J",
        "rank_name_12": "Q",
        "rank_name_13": "K",
        "rank_name_14": "A",
        "summary_podkidnoy": (
            "36 cards, 6 each; the card under the talon sets the trump. The attacker plays a card; the "
            "defender beats it with a higher card of the same suit or with a trump, or takes. While "
            "everything is beaten, attackers may throw in cards of ranks already on the table (at most 6, "
            "and never more than the defender holds). Beaten cards are discarded and the defender attacks "
            "next; after a take the defender is skipped. Hands are refilled to 6 while the talon lasts. "
            "The last player holding cards is the durak."
        ),
        "summary_perevodnoy": (
            "Like Podkidnoy, plus the transfer: while no attack card is beaten, the defender may add a "
            "card of the same rank and pass the whole attack to the next player, who must hold enough "
            "cards to answer it. The last player holding cards is the durak."
        ),
        "summary_prostoy": (
            "5 cards each, no throw-ins. The attacker lays down 1 card, 3 cards (a pair and a free card) "
            "or 5 cards (two pairs and a free card), then refills. The defender beats what he can: beaten "
            "cards are discarded, he picks up only the rest and loses his turn if he picked up anything. "
            "The holder of the trump six may swap it for the trump card. The last player holding cards "
            "is the durak."
        ),
    },
    "fr": {
        "title": "Durak",
        "tagline": "Le jeu de cartes sans gagnant — seulement un perdant",
        "loading": "On bat les cartes…",
        "loading_python": "Démarrage de Python…",
        "load_failed": "Le moteur du jeu n'a pas pu se charger. Rechargez la page pour réessayer.",
        "language": "Langue",
        "speed": "Vitesse",
        "speed_slow": "Lente",
        "speed_normal": "Normale",
        "speed_fast": "Rapide",
        "speed_instant": "Instantanée",
        "btn_new_game": "Nouvelle partie",
        "btn_take": "Ramasser",
        "btn_take_rest": "Ramasser le reste",
        "btn_pass": "Passer",
        "btn_done": "Terminé",
        "btn_let_take": "Laisser ramasser",
        "btn_transfer": "Transférer",
        "btn_exchange": "Échanger le six d'atout",
        "btn_hint": "Indice",
        "btn_play": "Jouer la sélection",
        "btn_play_n": "Jouer {n} cartes",
        "btn_cancel": "Annuler",
        "btn_start": "Distribuer",
        "btn_close": "Fermer",
        "btn_play_again": "Rejouer",
        "btn_settings": "Changer les règles",
        "btn_reveal": "Voir ma main",
        "btn_dismiss": "OK",
        "actions": "Actions",
        "hand": "Votre main",
        "hand_of": "Main de {name}",
        "table": "Table",
        "talon": "Talon : {n} cartes",
        "talon_empty": "Le talon est vide",
        "trump": "Atout : {suit}",
        "trump_card": "Carte d'atout : {card}",
        "discard": "Défausse : {n} cartes",
        "discard_empty": "Défausse : vide",
        "log": "Derniers coups",
        "cards_count": "{n} cartes",
        "card_count_one": "1 carte",
        "seat_you": "Vous",
        "seat_bot": "Robot {n}",
        "seat_player": "Joueur {n}",
        "level_easy": "facile",
        "level_normal": "normal",
        "level_hard": "difficile",
        "human": "Humain (cet appareil)",
        "mark_attacker": "Attaquant",
        "mark_defender": "Défenseur",
        "mark_turn": "À jouer",
        "mark_thinking": "Réfléchit…",
        "mark_out": "Sorti",
        "mark_dealer": "Donneur",
        "team": "Équipe {n}",
        "drop_attack": "Jouer ici",
        "drop_transfer": "Transférer à {name}",
        "limit": "Limite d'attaque : {n}",
        "taking": "{name} ramasse",
        "status_your_attack": "À vous : attaquez avec une carte ou plusieurs de même valeur.",
        "status_your_attack_prostoy": "À vous : choisissez 1, 3 ou 5 cartes (paires + une carte libre), "
                                      "puis jouez-les.",
        "status_your_throw": "Vous pouvez relancer une carte d'une valeur présente sur la table, ou passer.",
        "status_your_throw_taking": "{name} ramasse : relancez des cartes de ces valeurs, ou laissez ramasser.",
        "status_your_defence": "À vous : battez chaque carte d'attaque, ou ramassez.",
        "status_your_defence_transfer": "À vous : battez, transférez avec une carte de même valeur, ou ramassez.",
        "status_your_defence_prostoy": "Battez les cartes que vous pouvez, puis ramassez le reste.",
        "status_select_target": "{card} : choisissez où la jouer (en surbrillance).",
        "status_select_set": "Sélection : {cards}. Ajoutez des cartes ou jouez la série.",
        "status_select_transfer": "Choisissez la carte avec laquelle transférer.",
        "status_waiting": "{name} doit jouer…",
        "status_thinking": "{name} réfléchit…",
        "status_game_over": "Partie terminée.",
        "status_covered": "Passez l'appareil à {name}.",
        "cover_title": "Au tour de {name}",
        "cover_text": "Passez l'appareil à {name}. La main reste cachée jusqu'à ce qu'il ou elle touche le "
                      "bouton.",
        "hint_none": "Pas d'indice : ce n'est pas votre tour.",
        "hint_prefix": "Indice : {reason}",
        "log_attack": "{name} attaque avec {cards}",
        "log_throw": "{name} relance {cards}",
        "log_defend": "{name} bat {attack} avec {defence}",
        "log_transfer": "{name} transfère avec {cards} à {target}",
        "log_take": "{name} ramasse",
        "log_pass": "{name} passe",
        "log_exchange": "{name} échange le six d'atout contre {card}",
        "log_pickup": "{name} ramasse {n} cartes",
        "log_pickup_one": "{name} ramasse 1 carte",
        "log_discard": "Battu : {n} cartes à la défausse",
        "log_out": "{name} est sorti",
        "log_new_game": "Nouvelle donne. Atout : {suit}. {name} attaque en premier.",
        "log_attack_you": "Vous attaquez avec {cards}",
        "log_throw_you": "Vous relancez {cards}",
        "log_defend_you": "Vous battez {attack} avec {defence}",
        "log_transfer_you": "Vous transférez avec {cards} à {target}",
        "log_take_you": "Vous ramassez",
        "log_pass_you": "Vous passez",
        "log_exchange_you": "Vous échangez le six d'atout contre {card}",
        "log_pickup_you": "Vous ramassez {n} cartes",
        "log_pickup_one_you": "Vous ramassez 1 carte",
        "log_out_you": "Vous êtes sorti",
        "log_new_game_you": "Nouvelle donne. Atout : {suit}. Vous attaquez en premier.",
        "game_over_title": "Partie terminée",
        "game_over_durak_you": "Vous êtes le durak !",
        "game_over_durak": "{name} est le durak.",
        "game_over_draw": "Match nul : les dernières cartes sont sorties ensemble.",
        "game_over_team": "L'équipe {n} perd : {names}.",
        "game_over_you_win": "Bien joué : vous vous êtes débarrassé de vos cartes.",
        "exit_order": "Ordre de sortie",
        "series": "Série",
        "series_games": "Parties jouées : {n}",
        "series_losses": "Défaites",
        "series_first_out": "Premier sorti",
        "place": "{n}.",
        "new_game_title": "Nouvelle partie",
        "game": "Jeu",
        "variant_podkidnoy": "Podkidnoy (relance)",
        "variant_perevodnoy": "Perevodnoy (transfert)",
        "variant_prostoy": "Prostoy (simple)",
        "players": "Joueurs",
        "deck": "Jeu de cartes",
        "deck_n": "{n} cartes",
        "throw_in": "Relances",
        "throw_in_neighbours": "Voisins du défenseur",
        "throw_in_everyone": "Tout le monde",
        "first_defence_limit": "Première défense",
        "first_defence_6": "Jusqu'à 6 cartes",
        "first_defence_5": "Jusqu'à 5 cartes",
        "exchange": "Échange du six d'atout",
        "exchange_default": "Selon le jeu",
        "exchange_on": "Oui",
        "exchange_off": "Non",
        "teams": "Équipes",
        "teams_none": "Chacun pour soi",
        "seats": "Adversaires",
        "seat_n": "Place {n}",
        "seed": "Numéro de donne (facultatif)",
        "rules_summary": "Les règles en bref",
        "err_deck_players": "{players} joueurs ont besoin de {cards} cartes pour leurs mains : "
                            "un jeu de {deck} cartes permet au plus {most} joueurs.",
        "err_teams_players": "Les équipes {teams} demandent exactement {need} joueurs.",
        "err_prostoy_teams": "Au Prostoy, chacun joue pour soi : pas d'équipes.",
        "err_prostoy_throw_in": "Le Prostoy n'a pas de relances : l'option des relances ne s'applique pas.",
        "err_prostoy_first_defence": "Le Prostoy n'a pas de relances : la limite de première défense ne "
                                     "s'applique pas.",
        "err_rules": "Ces règles ne sont pas jouables : {reason}",
        "err_url": "Certains réglages du lien ont été ignorés : {items}",
        "save_set_aside": "La partie enregistrée n'a pas pu être lue (abîmée ou d'une ancienne version). "
                          "Elle a été mise de côté et une nouvelle partie commence.",
        "illegal": "Impossible : {reason}",
        "rank_name_11": "V",
        "rank_name_12": "D",
        "rank_name_13": "R",
        "rank_name_14": "A",
        "summary_podkidnoy": (
            "36 cartes, 6 chacun ; la carte sous le talon donne l'atout. L'attaquant joue une carte ; le "
            "défenseur la bat avec une carte plus forte de la même couleur ou avec un atout, ou ramasse. "
            "Tant que tout est battu, les attaquants peuvent relancer des cartes de valeurs déjà sur la "
            "table (6 au plus, jamais plus que les cartes du défenseur). Les cartes battues vont à la "
            "défausse et le défenseur attaque ensuite ; s'il ramasse, il passe son tour. On complète sa "
            "main à 6 tant qu'il reste des cartes au talon. Le dernier à garder des cartes est le durak."
        ),
        "summary_perevodnoy": (
            "Comme le Podkidnoy, avec le transfert : tant qu'aucune carte d'attaque n'est battue, le "
            "défenseur peut ajouter une carte de même valeur et passer toute l'attaque au joueur suivant, "
            "qui doit avoir assez de cartes pour y répondre. Le dernier à garder des cartes est le durak."
        ),
        "summary_prostoy": (
            "5 cartes chacun, pas de relance. L'attaquant pose 1 carte, 3 cartes (une paire et une carte "
            "libre) ou 5 cartes (deux paires et une carte libre), puis complète sa main. Le défenseur bat "
            "ce qu'il peut : les cartes battues vont à la défausse, il ne ramasse que le reste et perd son "
            "tour s'il a ramassé. Le détenteur du six d'atout peut l'échanger contre la carte d'atout. Le "
            "dernier à garder des cartes est le durak."
        ),
    },
}


def pick_lang(candidates: list[str] | tuple[str, ...]) -> str:
    """The first supported language among browser preferences such as ``["fr-CA", "en-US"]``."""
    for candidate in candidates:
        code = str(candidate).lower().split("-")[0].split("_")[0]
        if code in LANGS:
            return code
    return DEFAULT_LANG


def t(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English if the language is unknown), with ``values`` filled in."""
    catalogue = CATALOGUES.get(lang, CATALOGUES[DEFAULT_LANG])
    text = catalogue[key]
    return text.format(**values) if values else text


def _rank_of(card: str) -> int:
    text = card[:-1].upper()
    return _RANK_BY_TEXT.get(text) or int(text)


def rank_label(lang: str, card: str) -> str:
    """The corner index of a card: ``10``, ``Q`` (``D`` for dame in French)."""
    rank = _rank_of(card)
    return t(lang, f"rank_name_{rank}") if rank > 10 else str(rank)


def card_symbol(lang: str, card: str) -> str:
    """Short visible form for messages: ``Q♥`` / ``D♥``."""
    return rank_label(lang, card) + SUIT_SYMBOLS[card[-1].upper()]


def cards_symbols(lang: str, cards: list[str] | tuple[str, ...]) -> str:
    return " ".join(card_symbol(lang, c) for c in cards)


def card_name(lang: str, card: str) -> str:
    """Spoken name for screen readers: ``queen of hearts`` / ``dame de cœur``."""
    lang = lang if lang in LANGS else DEFAULT_LANG
    rank = _RANK_WORDS[lang][_rank_of(card)]
    suit = _SUIT_WORDS[lang][card[-1].upper()]
    if lang == "fr":
        return f"{rank} de {suit}"
    return f"{rank} of {suit}"


def suit_name(lang: str, suit: str) -> str:
    lang = lang if lang in LANGS else DEFAULT_LANG
    return _SUIT_WORDS[lang][suit.upper()]
