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
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardkit._core import Card, deck
from cardkit._validate import check_agent_seed, check_count, check_legal_actions, check_real
from cardkit.api import Action, Observation
from cardkit.errors import InvalidCardError
from cardkit.poker import Range, equity, evaluate_batch

from ._trickview import check_time_per_move, search_values

__all__ = ["CallingStationAgent", "EquityAgent", "RangeAgent", "starting_hand_score"]

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


def _last_to_act(observation: Observation, seat: int, live: list[int]) -> bool:
    """Whether ``seat`` acts last after the flop among ``live``: the live seat nearest
    the button counter-clockwise (the button itself when it is live)."""
    n = len(observation["stacks"])
    button: int = observation["button"]

    def distance(s: int) -> int:
        return (s - button - 1) % n

    return all(distance(seat) > distance(s) for s in live)


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
        in_position = _last_to_act(observation, seat, live)
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


# -- RangeAgent ------------------------------------------------------------------------

#: The 1326 starting hands as card-index pairs (higher card first), the axis of every
#: range weight vector below.
_COMBOS = np.array([(j, i) for i in range(52) for j in range(i + 1, 52)], dtype=np.uint8)
_COMBO_TEXT = [f"{_DECK[j]}{_DECK[i]}" for j, i in _COMBOS.tolist()]
#: Each combo's pre-flop strength: the Chen-like score, with the rank sum breaking ties.
_PREFLOP_VALUE = np.array(
    [
        starting_hand_score(_DECK[j], _DECK[i]) * 64 + _DECK[j].rank_index + _DECK[i].rank_index
        for j, i in _COMBOS.tolist()
    ]
)
_RANK = (_COMBOS // 4).astype(np.int64)
_SUIT = (_COMBOS % 4).astype(np.int64)

#: The share of all hands a player opens with (first raise pre-flop) by how many
#: players still act after them: 1 behind is the small blind or heads-up button.
_OPEN_SHARE = (0.55, 0.45, 0.32, 0.25, 0.2, 0.17, 0.15)
#: Of its range so far, the share a player keeps when it re-raises pre-flop, bets
#: or raises after the flop.
_RERAISE_KEEP = 0.3
_BET_KEEP = 0.55
_RAISE_KEEP = 0.3
#: The weight left on the hands a bet or raise makes unlikely (bluffs happen).
_BLUFF_FLOOR = 0.12
#: A caller drops most of the bottom of its range (it would fold) and part of the top
#: (it would raise); a checker part of the top (it would bet).
_CALL_BOTTOM = 0.3
_CALL_TOP = 0.9
_CHECK_TOP = 0.85
#: Hands with a flush draw or an open-ended straight draw count at least this strong
#: when a range is narrowed on the flop or turn (drawing hands bet and call).
_DRAW_STRENGTH = 0.6
#: How much of its bet sizes a value bet uses, by the edge over a fair share
#: (``(equity - fair) / (1 - fair)``): above each edge the pot fraction.
_VALUE_SIZES = ((0.7, 1.0), (0.45, 0.75), (0.2, 0.5))
#: Out of position a value bet needs this much more edge.
_OOP_EDGE = 0.05
#: Pre-flop opening raise (in big blinds) and re-raise (times the raise faced).
_OPEN_BB = 2.5
_RERAISE_X = 3.0


def _percentiles(values: Any, weights: Any) -> Any:
    """Each combo's place in the weighted range (0 the weakest, 1 the strongest),
    ties sharing the middle of their block."""
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    cum = np.concatenate(([0.0], np.cumsum(weights[order])))
    total = cum[-1]
    if total <= 0:
        return np.full(len(values), 0.5)
    low = cum[np.searchsorted(ranked, values, "left")]
    high = cum[np.searchsorted(ranked, values, "right")]
    return (low + high) / (2 * total)


def _step(pct: Any, cut: float) -> Any:
    """A soft step from 0 below ``cut`` to 1 above it (about 5% of the range wide)."""
    return 1.0 / (1.0 + np.exp((cut - pct) / 0.03))


def _keep_top(pct: Any, keep: float, floor: float = _BLUFF_FLOOR) -> Any:
    """Weights that keep the strongest ``keep`` share of a range, ``floor`` elsewhere."""
    return floor + (1.0 - floor) * _step(pct, 1.0 - keep)


def _caller(pct: Any) -> Any:
    """Weights of a caller: mostly without the bottom (folds) and part of the top."""
    return (0.1 + 0.9 * _step(pct, _CALL_BOTTOM)) * (1.0 - 0.6 * _step(pct, _CALL_TOP))


def _checker(pct: Any) -> Any:
    """Weights of a checker: part of the top would have bet."""
    return 1.0 - 0.5 * _step(pct, _CHECK_TOP)


def _postflop_strength(board: list[int], live: Any) -> Any:
    """Each combo's strength on ``board`` (card indices): its hand rank, with flush
    draws and open-ended straight draws raised before the river (returned as
    percentiles of the live combos weighted equally, 0 for dead combos)."""
    rows = np.empty((len(_COMBOS), 2 + len(board)), dtype=np.uint8)
    rows[:, :2] = _COMBOS
    rows[:, 2:] = board
    rows[~live] = np.arange(2 + len(board), dtype=np.uint8) * 4  # any valid hand
    pct = _percentiles(evaluate_batch(rows, threads=1).astype(np.float64), live.astype(float))
    if len(board) < 5:
        pct = np.where(_draw_mask(board), np.maximum(pct, _DRAW_STRENGTH), pct)
    return np.where(live, pct, 0.0)


def _draw_mask(board: list[int]) -> Any:
    """Which combos make a flush draw (four of a suit, one or two in the hand) or an
    open-ended straight draw (four ranks in a row, not all on the board) on ``board``
    (card indices)."""
    suits = np.bincount(np.array(board) % 4, minlength=4)
    ranks = 0
    for c in board:
        ranks |= 1 << (c // 4 + 1)
    ranks |= (ranks >> 13) & 1  # the ace plays low too
    draw = np.zeros(len(_COMBOS), dtype=bool)
    for s in range(4):
        held = np.count_nonzero(np.equal(_SUIT, s), axis=1)
        draw |= (held > 0) & (held + suits[s] == 4)
    mask = ranks | (1 << (_RANK[:, 0] + 1)) | (1 << (_RANK[:, 1] + 1))
    mask |= np.where((_RANK == 12).any(axis=1), 1, 0)
    for low in range(1, 10):
        window = 0b1111 << low
        draw |= ((mask & window) == window) & ((ranks & window) != window)
    return draw


@dataclass
class _Step:
    """One action of the hand as the betting went: the street (0 pre-flop to 3
    river), the seat, the verb, how many bets or raises this street came before, and
    how many other players who can still bet had not acted since the last of them
    (for a first raise, the players left to act behind it: its position)."""

    street: int
    seat: int
    verb: str
    raises_before: int
    behind: int


def _replay_streets(observation: Observation) -> list[_Step]:
    """The hand's actions from the public record, each with its street (from the
    observation's ``board_at``), the bets and raises before it on that street and the
    players who could still act after it."""
    n = len(observation["stacks"])
    in_hand = observation["in_hand"]
    starts = observation["board_at"]
    chips = [observation["stacks"][s] + observation["committed"][s] for s in range(n)]
    bets = [0] * n
    small, big = observation["blinds"]
    for seat, blind in ((observation["small_blind"], small), (observation["big_blind"], big)):
        if seat is not None:
            paid = min(blind, chips[seat])
            bets[seat] += paid
            chips[seat] -= paid
    current = max(bets)
    folded: set[int] = set()
    acted: set[int] = set()
    street = 0
    raises = 1  # the big blind is the first bet pre-flop
    steps = []
    for index, (seat, text) in enumerate(observation["actions"]):
        while street < len(starts) and starts[street] <= index:
            street += 1
            bets = [0] * n
            current = raises = 0
            acted.clear()
        verb, *amount = str(text).split()
        can_act = [s for s in range(n) if in_hand[s] and s not in folded and chips[s] > 0]
        behind = sum(1 for s in can_act if s not in acted and s != seat)
        steps.append(_Step(street, seat, verb, raises, behind))
        if verb == "fold":
            folded.add(seat)
        elif verb == "call":
            paid = min(current - bets[seat], chips[seat])
            bets[seat] += paid
            chips[seat] -= paid
        elif verb in ("bet", "raise"):
            total = int(amount[0])
            chips[seat] -= total - bets[seat]
            bets[seat] = total
            current = max(current, total)
            raises += 1
            acted.clear()
        acted.add(seat)
    return steps


class RangeAgent:
    """Equity against each opponent's range, narrowed by their betting this hand.

    Each opponent starts with every starting hand; each action reweights that range
    (:meth:`ranges`): a first pre-flop raise keeps the hands of a position-dependent
    opening share (wider with fewer players behind), a re-raise, bet or raise keeps
    the strongest part of what was left (after the flop by hand rank on the board,
    draws counting as fairly strong), a call drops most of the bottom and part of the
    top, a check part of the top; hands a bet makes unlikely keep a small weight
    (bluffs). The agent's equity against these ranges comes from
    :func:`cardkit.poker.equity`: exact heads-up on the turn and river, else
    ``samples`` Monte Carlo deals (or, with ``time_per_move`` seconds, batches of
    16 until the time is spent, as the other search agents do).

    Decisions (docs/holdem.md, "AI players", lists every number):

    - pre-flop, unopened: raise to 2.5 big blinds with the top share of hands for the
      position (the opening shares above, a bit wider), else check or fold; facing a
      raise: re-raise to 3x with a large edge, call when equity beats the pot odds,
      fold otherwise;
    - after the flop, nothing to call: value-bet 1/2, 3/4 or a full pot as the edge
      over a fair share (``(equity - 1/players) / (1 - 1/players)``) grows, semi-bluff
      half pot with a draw (probability ``bluff``) and stab half pot heads-up (half
      of ``bluff``);
    - facing a bet: raise 3/4 pot with a large edge, call when equity beats the pot
      odds (a margin out of position, a bonus for draws), fold otherwise;
    - a bet that would leave less than a third of the pot behind goes all-in.

    Every random choice (bluffs, Monte Carlo seeds) comes from ``random.Random(seed)``,
    so with ``samples`` (not ``time_per_move``) games replay exactly. Only the
    observation is read: the agent's own cards, the board and the public actions.
    """

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 200,
        time_per_move: float | None = None,
        bluff: float = 0.35,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, 1_000_000)
        self.time_per_move = check_time_per_move(time_per_move)
        self.bluff = check_real("bluff", bluff, 0.0, 1.0)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose by equity against the narrowed ranges, pot odds and position."""
        check_legal_actions(legal_actions)
        hole = [Card(c) for c in observation["hole"]]
        board = [Card(c) for c in observation["board"]]
        ranges = self.ranges(observation)
        live = sorted(ranges)
        equity = self.equity(hole, board, [ranges[s] for s in live])
        return self._decide(observation, legal_actions, hole, board, equity, live)

    def ranges(self, observation: Observation) -> dict[int, Any]:
        """Each live opponent's range (by seat) as a numpy array of 1326 weights, one
        per starting hand: the pairs of card indices ``lo < hi`` ordered by ``lo``,
        then ``hi``. Narrowed by the opponent's actions this hand; hands holding this
        seat's or the board's cards weigh 0."""
        seat = observation["seat"]
        n = len(observation["stacks"])
        dead = {Card(c).index for c in (*observation["hole"], *observation["board"])}
        live = ~np.isin(_COMBOS, list(dead)).any(axis=1)
        board = [Card(c).index for c in observation["board"]]
        weights = {
            s: live.astype(np.float64)
            for s in range(n)
            if s != seat and observation["in_hand"][s] and not observation["folded"][s]
        }
        strengths: dict[int, Any] = {}
        for step in _replay_streets(observation):
            w = weights.get(step.seat)
            if w is None or step.verb == "fold":
                continue
            if step.street == 0:
                pct = _percentiles(_PREFLOP_VALUE, w)
            else:
                if step.street not in strengths:
                    strengths[step.street] = _postflop_strength(board[: 2 + step.street], live)
                pct = _percentiles(strengths[step.street], w)
            w *= self._reweight(step, pct)
            if w.sum() < 1e-9:  # never seen a range this thin: fall back to all hands
                w[:] = live
        return weights

    @staticmethod
    def _reweight(step: _Step, pct: Any) -> Any:
        if step.verb in ("bet", "raise"):
            if step.street == 0:
                if step.raises_before == 1:  # the big blind counts as the first bet
                    share = _OPEN_SHARE[min(max(step.behind, 1), len(_OPEN_SHARE)) - 1]
                    return _keep_top(pct, share, floor=0.02)
                return _keep_top(pct, _RERAISE_KEEP, floor=0.03)
            return _keep_top(pct, _BET_KEEP if step.raises_before == 0 else _RAISE_KEEP)
        if step.verb == "call":
            return _caller(pct)
        return _checker(pct)

    def equity(self, hole: list[Card], board: list[Card], ranges: list[Any]) -> float:
        """This seat's share of the pot with ``hole`` on ``board`` against one
        opponent per weight vector of ``ranges`` (as :meth:`ranges` gives): exact
        heads-up on the turn and river, else Monte Carlo with seeds drawn from this
        agent's generator (``samples`` deals, or batches for ``time_per_move``)."""
        # The equity engine takes at most ten players: keep the narrowest ranges.
        ranges = sorted(ranges, key=lambda w: float(w.sum()))[: _MAX_EQUITY_PLAYERS - 1]
        players: list[Range | list[Card]] = [hole]
        players.extend(_weighted_range(w) for w in ranges)
        if len(players) == 2 and len(board) >= 4:
            return equity(players, board, exact=True).players[0].equity

        def sample(samples: int, seed: int) -> list[float]:
            result = equity(players, board, exact=False, samples=samples, seed=seed, threads=1)
            return [result.players[0].equity]

        return search_values(sample, self.samples, self.time_per_move, self._rng)[0]

    def _decide(
        self,
        observation: Observation,
        legal: Sequence[Action],
        hole: list[Card],
        board: list[Card],
        equity: float,
        live: list[int],
    ) -> Action:
        by_kind: dict[str, Action] = {}
        for a in legal:
            by_kind.setdefault(a.kind, a)
        verb = "bet" if "bet" in by_kind else "raise"
        bounds = observation["bet_range"] if verb in by_kind else None
        to_call = observation["to_call"]
        pot = observation["pot"]
        seat = observation["seat"]
        fair = 1.0 / (len(live) + 1)
        edge = (equity - fair) / (1.0 - fair)
        in_position = _last_to_act(observation, seat, live)
        passive = by_kind.get("check") or by_kind.get("fold") or legal[0]

        def sized(fraction: float) -> Action | None:
            """A bet or raise of ``fraction`` of the pot after calling, all-in when
            that would leave less than a third of the new pot behind."""
            if bounds is None:
                return None
            low, high = bounds
            current = max(observation["bets"])
            target = current + int(fraction * (pot + to_call))
            if high - target < (pot + 2 * target) / 3:
                target = high
            return Action(f"{verb} {min(max(target, low), high)}")

        if not board:
            return self._preflop(observation, by_kind, hole, equity, edge, sized, passive)
        draw = len(board) < 5 and _has_draw(hole, board)
        if to_call == 0:
            for floor, fraction in _VALUE_SIZES:
                if edge > floor + (0.0 if in_position else _OOP_EDGE):
                    return sized(fraction) or passive
            if draw and self._rng.random() < self.bluff:
                return sized(0.5) or passive
            if len(live) == 1 and self._rng.random() < self.bluff / 2:
                return sized(0.5) or passive
            return passive
        if edge > 0.55 + 0.05 * (len(live) - 1):
            return sized(0.75) or by_kind.get("call") or passive
        pot_odds = to_call / (pot + to_call)
        margin = (0.0 if in_position else 0.03) + 0.02 * (len(live) - 1) - (0.05 if draw else 0)
        if equity >= pot_odds + margin:
            return by_kind.get("call") or passive
        return passive

    def _preflop(
        self,
        observation: Observation,
        by_kind: dict[str, Action],
        hole: list[Card],
        equity: float,
        edge: float,
        sized: Any,
        passive: Action,
    ) -> Action:
        big = observation["blinds"][1]
        current = max(observation["bets"])
        to_call = observation["to_call"]
        bounds = observation["bet_range"] if "raise" in by_kind else None
        if current <= big:
            # Unopened: raise the top share of hands for the players behind.
            behind = sum(
                1
                for s in range(len(observation["stacks"]))
                if observation["in_hand"][s]
                and not observation["folded"][s]
                and s != observation["seat"]
                and not any(actor == s for actor, _ in observation["actions"])
            )
            share = _OPEN_SHARE[min(max(behind, 1), len(_OPEN_SHARE)) - 1] + 0.05
            pct = float(_PREFLOP_PCT[_combo_index(hole)])
            if pct >= 1.0 - share and bounds is not None:
                low, high = bounds
                return Action(f"raise {min(max(int(_OPEN_BB * big), low), high)}")
            if to_call == 0:
                return passive
            pot_odds = to_call / (observation["pot"] + to_call)
            return by_kind.get("call") if equity > pot_odds + 0.1 else passive  # type: ignore[return-value]
        if edge > 0.3 and bounds is not None:
            low, high = bounds
            target = int(_RERAISE_X * current)
            if high - target < target:
                target = high
            return Action(f"raise {min(max(target, low), high)}")
        pot_odds = to_call / (observation["pot"] + to_call)
        if equity >= pot_odds + 0.02:
            return by_kind.get("call") or passive
        return passive


#: Each combo's place among all 1326 starting hands (0 the weakest, 1 the strongest).
_PREFLOP_PCT = _percentiles(_PREFLOP_VALUE, np.ones(len(_COMBOS)))


def _combo_index(hole: list[Card]) -> int:
    """The index into ``_COMBOS`` of two hole cards."""
    hi, lo = max(hole[0].index, hole[1].index), min(hole[0].index, hole[1].index)
    # Combos are listed by the lower card, then the higher: (j, i) for i < j.
    return 51 * lo - lo * (lo - 1) // 2 + (hi - lo - 1)


def _has_draw(hole: list[Card], board: list[Card]) -> bool:
    """Whether ``hole`` makes a flush draw or an open-ended straight draw on ``board``."""
    return bool(_draw_mask([c.index for c in board])[_combo_index(hole)])


def _weighted_range(weights: Any) -> Range:
    """A :class:`Range` of the combos with weight, scaled so the heaviest weighs 1."""
    top = float(weights.max())
    tokens = [
        f"{_COMBO_TEXT[k]}:{w / top:.3f}" for k, w in enumerate(weights.tolist()) if w > top * 1e-3
    ]
    return Range(", ".join(tokens))
