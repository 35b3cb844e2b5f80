"""Fair deal: the host commits to each online game's seed before the first card and reveals it at the end.

The commitment is SHA-256 of a 128-bit random salt followed by the 128-bit random seed (16 bytes each,
big-endian), so a guest cannot find the seed from it, and the host cannot change the deck once the
commitment is out. At the end each guest checks the hash, replays rules + seed + the public action list,
and compares every hand it was shown, and the final position, with the replay.

What it does not prevent: the host's own device holds the whole game, so a host running a modified page
can look at hidden cards, or try many seeds before committing to one it likes; and players can still
tell each other their cards. What it proves: the deck was fixed before the deal, and every move the host
applied was legal under the agreed rules.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from durak import Game, Rules

SEED_BITS = 128


def new_seed() -> tuple[bytes, int]:
    """(salt, seed): 128 random bits each, from the system's secure generator."""
    return secrets.token_bytes(SEED_BITS // 8), secrets.randbits(SEED_BITS)


def commitment(salt: bytes, seed: int) -> str:
    return hashlib.sha256(salt + seed.to_bytes(SEED_BITS // 8, "big")).hexdigest()


def reveal_message(game_index: int, salt: bytes, game: Game, first_game: bool) -> dict[str, Any]:
    assert game.seed is not None
    return {"t": "reveal", "game": game_index, "salt": salt.hex(), "seed": format(game.seed, "x"),
            "dealer": game.dealer, "first_game": first_game}


def verify(commit: str, reveal: dict[str, Any], seat: int, hands_seen: dict[int, list[str]],
           final_view: dict[str, Any]) -> bool:
    """True when the revealed seed matches the commitment and replaying it gives every hand ``seat`` was
    shown (by number of actions played) and the final position it was shown."""
    try:
        salt = bytes.fromhex(str(reveal["salt"]))
        seed = int(str(reveal["seed"]), 16)
        if len(salt) != SEED_BITS // 8 or not 0 <= seed < 2**SEED_BITS or commitment(salt, seed) != commit:
            return False
        rules = Rules.from_dict(final_view["rules"])
        game = Game.new(rules, seed=seed, dealer=int(reveal["dealer"]), first_game=bool(reveal["first_game"]))
        history = final_view["history"]
        for index in range(len(history) + 1):
            shown = hands_seen.get(index)
            if shown is not None and sorted(shown) != sorted(game.view(seat)["hand"]):
                return False
            if index < len(history):
                player, action = history[index]
                game.apply(int(player), str(action))
        return game.view(seat) == final_view
    except (KeyError, TypeError, ValueError):
        return False
