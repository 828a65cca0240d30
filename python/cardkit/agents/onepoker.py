"""One Poker players: a signal-reading agent (``SignalAgent``).

The agent sees only its observation: its own two cards (or its locked card and
the one it keeps), both players' public UP/DOWN counts, the chips and the bet.

- Locking: each of its cards is scored by the chance to beat the opponent's locked
  card, whose group is inferred from the opponent's UP/DOWN counts (two UP cards
  mean an UP card is locked; a mixed hand locks its UP card more often than not),
  with the 2-beats-A rule; the card kept for the next deal is worth a fraction of
  its chance against an unknown card, so a strong card is not spent on a hand the
  other card already wins.
- Betting: the same win chance, against the pot odds of a call; it bets and raises
  for value when well ahead, sizes up when nearly sure, and bluffs rarely (seeded).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardkit._core import Card
from cardkit._validate import check_agent_seed, check_count, check_legal_actions, check_real
from cardkit.api import Action, Observation
from cardkit.errors import InvalidCardError
from cardkit.games.onepoker import compare_cards

__all__ = ["SignalAgent", "win_chance"]

_UP_RANKS = "89TJQKA"
_DOWN_RANKS = "234567"
#: How often a player holding one UP and one DOWN card locks the UP one (a guess
#: at typical play; the agent does not learn it).
_MIXED_LOCKS_UP = 0.65
#: Worth of the kept card, relative to the card played now.
_KEEP_WEIGHT = 0.35


def _chance_vs(card: Card, ranks: str) -> float:
    """Win chance (ties count half) of ``card`` against a uniform rank of ``ranks``."""
    total = 0.0
    for r in ranks:
        cmp = compare_cards(card, Card(r + "c"))
        total += 1.0 if cmp > 0 else 0.5 if cmp == 0 else 0.0
    return total / len(ranks)


def win_chance(card: Card, opponent_up: int) -> float:
    """Chance that ``card`` beats the opponent's locked card (ties half), given how
    many of the opponent's two cards are UP."""
    if not isinstance(card, Card):
        raise InvalidCardError(f"win_chance needs a Card, got {card!r}")
    check_count("opponent_up", opponent_up, 0, 2)
    up = _chance_vs(card, _UP_RANKS)
    down = _chance_vs(card, _DOWN_RANKS)
    if opponent_up >= 2:
        return up
    if opponent_up == 0:
        return down
    return _MIXED_LOCKS_UP * up + (1 - _MIXED_LOCKS_UP) * down


class SignalAgent:
    """Locks by the UP/DOWN signals and the 2-beats-A rule; bets by win chance."""

    def __init__(self, seed: int | None = None, bluff: float = 0.08) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.bluff = check_real("bluff", bluff, 0.0, 1.0)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Lock the better card for now-plus-later, then bet by win chance."""
        check_legal_actions(legal_actions)
        seat = observation["seat"]
        opponent_up = observation["signals"][1 - seat]["up"]
        if legal_actions[0].kind == "lock":
            return self._lock(observation, legal_actions, opponent_up)
        locked = observation["locked"]
        chance = win_chance(Card(locked), opponent_up)
        return self._bet(observation, legal_actions, chance)

    def _lock(self, observation: Observation, legal: Sequence[Action], opponent_up: int) -> Action:
        cards = [Card(c) for c in observation["hand"]]

        def value(i: int) -> float:
            play, keep = cards[i], cards[1 - i]
            later = 0.5 * (_chance_vs(keep, _UP_RANKS) + _chance_vs(keep, _DOWN_RANKS))
            return win_chance(play, opponent_up) + _KEEP_WEIGHT * later

        best = cards[max(range(len(cards)), key=value)]
        return next(a for a in legal if a.args[0] == str(best))

    def _bet(self, observation: Observation, legal: Sequence[Action], chance: float) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        raises = by_kind.get("bet", []) + by_kind.get("raise", [])
        to_call = observation["to_call"]
        pot = observation["pot"]
        if raises and (chance > 0.8 or (chance < 0.25 and self._rng.random() < self.bluff)):
            # Nearly sure: the biggest listed size; otherwise the smallest.
            return raises[-1] if chance > 0.9 else raises[min(1, len(raises) - 1)]
        if raises and chance > 0.65:
            return raises[0]
        if to_call == 0:
            return by_kind["check"][0]
        pot_odds = to_call / (pot + to_call)
        if chance >= pot_odds:
            return by_kind["call"][0]
        return by_kind["fold"][0]
