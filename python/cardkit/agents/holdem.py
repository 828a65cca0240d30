"""Texas Hold'em players: ``EquityAgent`` and the ``CallingStationAgent`` baseline.

``EquityAgent`` reads only its observation. At each decision it estimates its
equity (win chance, ties shared) with the Rust Monte Carlo
(:func:`cardkit.poker.equity`) against every live opponent, each holding a hand
from a plausible range: any two cards for a player who only called or checked, and
only hands in the top part of a starting-hand ranking for one who bet or raised
this hand (tighter the more they raised). It then plays by pot odds and position:

- facing a bet it calls when equity beats the pot odds (with a margin that shrinks
  in position), raises for value when equity is well above its fair share, and
  folds otherwise;
- with nothing to call it bets for value when ahead of its fair share (more often
  in position, last to act), sized half pot or pot by strength, and checks
  otherwise.

Every random choice comes from ``random.Random(seed)``, so games replay exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardkit._core import Card, deck
from cardkit._validate import check_agent_seed, check_count, check_legal_actions
from cardkit.api import Action, Observation
from cardkit.errors import InvalidCardError
from cardkit.poker import Range, equity

__all__ = ["CallingStationAgent", "EquityAgent", "starting_hand_score"]

_DECK = deck("standard52")
#: The share of starting hands a player who bet or raised once, twice, three or
#: more times this hand is assumed to hold.
_RAISER_RANGE = (0.45, 0.25, 0.12)


def starting_hand_score(a: Card, b: Card) -> float:
    """A simple pre-flop strength (Chen-like): high cards, pairs, suitedness and
    connectedness; about 0 for 7-2 offsuit up to 20 for aces."""
    if not isinstance(a, Card) or not isinstance(b, Card):
        raise InvalidCardError(f"starting_hand_score needs two Cards, got {a!r}, {b!r}")
    hi, lo = max(a.rank_index, b.rank_index), min(a.rank_index, b.rank_index)
    top = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2)
    if hi == lo:
        return max(top * 2, 5.0)
    score = top
    if a.suit == b.suit:
        score += 2
    gap = hi - lo - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and hi < 10:
        score += 1
    return score


#: Scores of all 1326 starting hands, sorted: thresholds for "top x%" ranges.
_SCORES = sorted(
    (starting_hand_score(_DECK[i], _DECK[j]) for i in range(52) for j in range(i + 1, 52)),
    reverse=True,
)


def _threshold(top_fraction: float) -> float:
    index = min(int(top_fraction * len(_SCORES)), len(_SCORES) - 1)
    return _SCORES[index]


def _top_range(top_fraction: float) -> Range:
    """The starting hands (``AA``, ``AKs``, ``AKo`` ...) that score at least the
    ``top_fraction`` threshold: a raiser's plausible holdings."""
    floor = _threshold(top_fraction)
    ranks = "23456789TJQKA"
    classes = []
    for hi in range(12, -1, -1):
        for lo in range(hi, -1, -1):
            if hi == lo:
                pair = starting_hand_score(_DECK[4 * hi], _DECK[4 * hi + 1])
                if pair >= floor:
                    classes.append(ranks[hi] * 2)
                continue
            # Suits c, d: index = rank * 4 + suit, so +0/+0 is suited, +0/+1 offsuit.
            if starting_hand_score(_DECK[4 * hi], _DECK[4 * lo]) >= floor:
                classes.append(f"{ranks[hi]}{ranks[lo]}s")
            if starting_hand_score(_DECK[4 * hi], _DECK[4 * lo + 1]) >= floor:
                classes.append(f"{ranks[hi]}{ranks[lo]}o")
    return Range(", ".join(classes))


#: The plausible ranges of a player who bet or raised once, twice, three or more times.
_RAISER_RANGES = tuple(_top_range(f) for f in _RAISER_RANGE)
#: A player who only checked or called may hold any two cards.
_ANY_TWO = Range("random")
#: Players (hero included) the equity engine compares at once.
_MAX_EQUITY_PLAYERS = 10


class CallingStationAgent:
    """Never folds and never raises: checks when it can, otherwise calls.

    Works for any betting game (in One Poker it locks the first listed card).
    """

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """``check`` or ``call`` when listed, else the first legal action."""
        check_legal_actions(legal_actions)
        for a in legal_actions:
            if a.kind in ("check", "call"):
                return a
        return legal_actions[0]


class EquityAgent:
    """Monte Carlo equity against plausible ranges, played by pot odds and position.

    ``samples`` is the number of Monte Carlo deals per decision.
    """

    def __init__(self, seed: int | None = None, samples: int = 150) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, 1_000_000)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose by equity, pot odds and position."""
        check_legal_actions(legal_actions)
        seat = observation["seat"]
        hole = [Card(c) for c in observation["hole"]]
        board = [Card(c) for c in observation["board"]]
        n = len(observation["stacks"])
        live = [
            s
            for s in range(n)
            if observation["in_hand"][s] and not observation["folded"][s] and s != seat
        ]
        raises = {s: 0 for s in live}
        for actor, text in observation["actions"]:
            if actor in raises and text.split()[0] in ("bet", "raise"):
                raises[actor] += 1
        equity = self.equity(hole, board, [raises[s] for s in live])
        fair = 1.0 / (len(live) + 1)
        in_position = self._last_to_act(observation, seat, live)
        return self._decide(observation, legal_actions, equity, fair, in_position)

    def equity(self, hole: list[Card], board: list[Card], opponent_raises: list[int]) -> float:
        """Monte Carlo equity of ``hole`` on ``board`` against one opponent per entry
        of ``opponent_raises`` (how often each bet or raised this hand), each holding
        a hand from its plausible range; sampled by the Rust :func:`cardkit.poker.equity`
        with a seed drawn from this agent's generator, so decisions replay."""
        # The equity engine takes at most ten players: keep the opponents who raised
        # most, whose ranges are the strongest (the rest barely move the estimate).
        strongest = sorted(opponent_raises, reverse=True)[: _MAX_EQUITY_PLAYERS - 1]
        players: list[Range | list[Card]] = [hole]
        players.extend(_RAISER_RANGES[min(r, 3) - 1] if r else _ANY_TWO for r in strongest)
        result = equity(
            players,
            board,
            exact=False,
            samples=self.samples,
            seed=self._rng.getrandbits(64),
            threads=1,
        )
        return result.players[0].equity

    @staticmethod
    def _last_to_act(observation: Observation, seat: int, live: list[int]) -> bool:
        """Whether ``seat`` acts last after the flop: the live seat nearest the button
        counter-clockwise (the button itself when it is live)."""
        n = len(observation["stacks"])
        button: int = observation["button"]

        def distance(s: int) -> int:
            return (s - button - 1) % n

        return all(distance(seat) > distance(s) for s in live)

    def _decide(
        self,
        observation: Observation,
        legal: Sequence[Action],
        equity: float,
        fair: float,
        in_position: bool,
    ) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        sizes = by_kind.get("bet", []) + by_kind.get("raise", [])
        to_call = observation["to_call"]
        pot = observation["pot"]
        edge = 0.03 if in_position else 0.07
        strong = equity > min(0.9, fair * 1.6 + (0.0 if in_position else 0.05))
        if sizes and strong:
            # Strong: pot-sized when far ahead, else the middle listed size.
            return sizes[-2] if equity > 0.75 and len(sizes) > 2 else sizes[len(sizes) // 2]
        if to_call == 0:
            if sizes and equity > fair * 1.25 - (0.05 if in_position else 0.0):
                return sizes[0]
            return by_kind["check"][0]
        pot_odds = to_call / (pot + to_call)
        if equity >= pot_odds + edge:
            return by_kind["call"][0]
        return by_kind["fold"][0]
