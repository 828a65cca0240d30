"""Guandan players: a rule-based agent.

It sheds its lowest cards first, keeps bombs and wilds for when an opponent is about
to go out, lets its partner's plays stand unless it can go out itself, and returns
its weakest card. Readings and comparisons come from the engine
(``cardkit._core.guandan_parse``); it reads only its observation.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from cardkit._core import Card, GuandanPlay, guandan_parse, guandan_strength
from cardkit._validate import check_legal_actions
from cardkit.api import Action, Observation
from cardkit.games.guandan import PASS

__all__ = ["GuandanRuleAgent"]

#: An opponent holding at most this many cards is about to go out: the agent then
#: spends wilds and bombs to stop it.
DANGER = 6
_NATURAL = "23456789TJQKA"
_RUNS = frozenset(("straight", "pair_run", "plate", "straight_flush"))
_JOKER_CARD = {"B": "BJ", "R": "RJ"}


@functools.lru_cache(maxsize=15 * 13)
def _rank_strength(rank: str, level: str) -> int:
    """The engine's strength of a rank at ``level`` (any suit of it)."""
    return guandan_strength(_JOKER_CARD.get(rank, rank + "s"), level)


def _low_key(play: GuandanPlay, level: str) -> tuple[int, int]:
    """Weakest first: runs by the natural place of their top, groups by strength;
    at equal rank the play that sheds more cards first."""
    if play.type in _RUNS:
        rank = _NATURAL.index(play.main_rank)
    else:
        rank = _rank_strength(play.main_rank, level)
    return rank, -play.size


def _bomb_key(play: GuandanPlay, level: str) -> tuple[int, int]:
    """The bomb ladder: 4 and 5 cards, the straight flush, 6 .. 10 cards, four jokers."""
    if play.type == "joker_bomb":
        return 9, 0
    if play.type == "straight_flush":
        return 2, _NATURAL.index(play.main_rank)
    step = play.size - 4 if play.size <= 5 else play.size - 3
    return step, _rank_strength(play.main_rank, level)


class GuandanRuleAgent:
    """Lowest cards first, bombs and wilds kept back, partner's plays left standing."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule policy's move (see the module doc)."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        level = observation["level"]
        if observation["phase"] == "return":
            return min(
                legal_actions,
                key=lambda a: guandan_strength(Card(a.args[0]), level),
            )
        return self._play(observation, legal_actions, level)

    def _play(self, obs: Observation, legal: Sequence[Action], level: str) -> Action:
        seat = obs["seat"]
        hand = obs["hand"]
        plays = {a: guandan_parse(a.text[5:], level) for a in legal if a != "pass"}
        out = [a for a, p in plays.items() if p.size == len(hand)]
        if out:
            return out[0]
        table = obs["table"]
        if table is not None and table["seat"] == (seat + 2) % 4:
            # The partner's play stands (it leads again if nobody beats it).
            return PASS
        counts = obs["card_counts"]
        danger = any(0 < counts[(seat + k) % 4] <= DANGER for k in (1, 3))
        # Ranks held four times or more are bombs: ordinary plays leave them whole.
        naturals = Counter(c[0] for c in hand if c != level + "h")
        bombs = {r for r, n in naturals.items() if n >= 4}
        plain = [
            a
            for a, p in plays.items()
            if not p.is_bomb and not p.wilds and not set(p.naturals) & bombs
        ]
        if plain:
            return min(plain, key=lambda a: _low_key(plays[a], level))
        if table is not None and not danger:
            return PASS
        ordinary = [a for a, p in plays.items() if not p.is_bomb]
        if ordinary:
            return min(ordinary, key=lambda a: (plays[a].wilds, _low_key(plays[a], level)))
        return min(plays, key=lambda a: _bomb_key(plays[a], level))
