"""Dou Dizhu players: a rule-based agent and a determinized Monte Carlo search.

Both bid from a hand-strength count by default; the search agent can instead bid
on the hand's expected score as landlord, estimated by Rust playouts of sampled
deals (``bidding="search"``). In card play the rule agent plans its hand
into combinations, leads the lowest planned group, answers with the response that
keeps its plan cheapest, saves bombs and the rocket for when an opponent is close to
going out, and as a farmer never beats its partner. The search agent deals the
unseen cards at random to the other two seats many times, tries each candidate move
in each deal and finishes it with fast Rust playouts of the rule policy (or, with
``shedding=True``, of the shedding policy), and plays the move with the best mean
score. Neither reads hidden state.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardkit._core import doudizhu_landlord_playouts
from cardkit._validate import (
    check_count,
    check_legal_actions,
    check_real,
    check_seed,
    check_text,
)
from cardkit.agents._climbing import ClimbingSearch, choose, view_of
from cardkit.api import Action, Observation
from cardkit.errors import RuleOptionError, shown
from cardkit.games._base import check_choice

__all__ = [
    "BIDDINGS",
    "BID_THRESHOLDS",
    "DouDizhuRuleAgent",
    "DouDizhuSearchAgent",
    "bid_strength",
    "landlord_estimate",
]

#: The search agent's bidding styles: the point count, or playouts of sampled deals.
BIDDINGS = ("points", "search")
#: Default least expected landlord score per unit of stake to bid 1, 2 and 3
#: (tuned by benches/bidding.py against the point count).
BID_THRESHOLDS = (-0.5, 0.0, 0.5)

GAME = "doudizhu"
_VALUES = {"R": 4, "B": 3, "2": 2, "A": 1}


def bid_strength(hand_ranks: str) -> int:
    """Points of a hand for bidding: R 4, B 3, each 2 two, each A one, each bomb 4."""
    check_text("hand_ranks", hand_ranks)
    points = sum(_VALUES.get(r, 0) for r in hand_ranks)
    bombs = sum(1 for r in set(hand_ranks) if hand_ranks.count(r) == 4)
    return points + 4 * bombs


def landlord_estimate(hand_ranks: str, samples: int, seed: int) -> tuple[float, float]:
    """The win rate and the mean score at bid 1 of a 17-card hand as landlord.

    ``samples`` deals of the 37 unseen cards into the two other hands and the
    bottom cards (which the hand takes), each played out in Rust by the rule
    policy for every seat; the score counts the landlord's double stake and every
    doubling (bombs, rocket, spring), so it ranges from about -2 to +2 and beyond.
    Deterministic given ``seed``."""
    check_text("hand_ranks", hand_ranks)
    samples = check_count("samples", samples, 1, 1_000_000)
    wins, score = doudizhu_landlord_playouts(hand_ranks, samples, check_seed("seed", seed) or 0)
    return wins / samples, score / samples


def _check_thresholds(value: object) -> tuple[float, float, float]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 3:
        raise RuleOptionError(f"bid_thresholds must be three numbers, got {shown(value)}")
    low, mid, high = (check_real("bid_thresholds", v, -1e6, 1e6) for v in value)
    if not low <= mid <= high:
        raise RuleOptionError(f"bid_thresholds must not decrease, got {shown(value)}")
    return low, mid, high


def _bid_level(want: int, observation: Observation, legal_actions: Sequence[Action]) -> Action:
    """``bid want`` when it is above the current bid and listed, else pass."""
    if want > int(observation["bid"]):
        for action in legal_actions:
            if action == f"bid {want}":
                return action
    return choose(None, legal_actions)


def _bid(observation: Observation, legal_actions: Sequence[Action]) -> Action:
    strength = bid_strength(str(observation["hand_ranks"]))
    want = 3 if strength >= 11 else 2 if strength >= 8 else 1 if strength >= 6 else 0
    return _bid_level(want, observation, legal_actions)


class DouDizhuRuleAgent:
    """Plans the hand, keeps bombs, cooperates as a farmer (see the module doc)."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Bid by hand strength; in play, the Rust rule policy's move."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "bid":
            return _bid(observation, legal_actions)
        return choose(view_of(GAME, observation).rule_move(), legal_actions)


class DouDizhuSearchAgent(ClimbingSearch):
    """Determinized Monte Carlo search over rule playouts (seeded, so games replay).

    ``samples`` deals of the unseen cards are tried for every candidate move.
    With ``endgame`` > 0, a sampled deal with at most that many cards left in all
    hands is solved exactly (alpha-beta with a transposition table, every hand
    known in that sample) instead of played out, each solve capped at
    ``endgame_nodes`` nodes (past that, the sample is played out as without it).
    ``halving=True`` spends the same playouts by successive halving of the
    candidate moves (see :class:`~cardkit.agents._climbing.ClimbingSearch`).
    ``evidence=True`` deals the unseen cards to fit the passes so far: a pass on an
    opponent's play makes the hands the rule policy would have answered with less
    likely. Off by default: it costs some 15% more time per move and showed no gain
    overall (docs/doudizhu.md). ``evidence="landlord"`` fits the passes only when the
    agent is the landlord, where they helped; as a farmer it deals uniformly, since
    fitting the passes cost the farmers. ``shedding=True`` finishes the samples with
    the shedding policy (Zheng Shangyou's, unchanged) instead of the rule policy:
    it leads long groups (pairs, triples, runs, airplanes) before low singles and
    answers with a bomb when that keeps its plan as cheap. Off by default; with
    ``halving=True, evidence="landlord"`` it makes the strongest search so far
    (docs/doudizhu.md).

    ``bidding="points"`` (default) bids like the rule agent. ``bidding="search"``
    estimates the hand's mean score as landlord at bid 1, ``e``, from
    ``bid_samples`` playouts (:func:`landlord_estimate`): the expected score of
    bidding ``b`` is ``b * e``, so the seat bids the highest level ``b`` whose
    threshold ``bid_thresholds[b - 1]`` ``e`` reaches (and that is above the
    current bid), else passes. The default thresholds sit below zero because a
    pass is worth less than nothing: a rival takes the deal and the seat defends
    as a farmer; lower bids keep marginal hands to stakes a stronger hand may
    still outbid. Tuned against the point count (docs/doudizhu.md).
    """

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 32,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
        bidding: str = "points",
        bid_samples: int = 256,
        bid_thresholds: Sequence[float] = BID_THRESHOLDS,
        halving: bool = False,
        evidence: bool | str = False,
        shedding: bool = False,
    ) -> None:
        landlord_only = isinstance(evidence, str) and evidence == "landlord"
        if not landlord_only and not isinstance(evidence, bool):
            raise RuleOptionError(f"evidence must be a bool or 'landlord', got {shown(evidence)}")
        super().__init__(
            seed, samples, endgame, endgame_nodes, halving, evidence is not False, shedding
        )
        self._landlord_evidence = landlord_only
        self.bidding = check_choice("bidding", bidding, BIDDINGS)
        self.bid_samples = check_count("bid_samples", bid_samples, 1, 1_000_000)
        self.bid_thresholds = _check_thresholds(bid_thresholds)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Bid by hand strength or by playouts; in play, the move with the best
        sampled mean score."""
        check_legal_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation["phase"] == "bid":
            if self.bidding == "points":
                return _bid(observation, legal_actions)
            return self._search_bid(observation, legal_actions)
        return self._search(GAME, observation, legal_actions)

    def _fits_passes(self, observation: Observation) -> bool:
        """``evidence`` on every move, or with ``"landlord"`` on the landlord's."""
        if self._landlord_evidence:
            return bool(observation.get("landlord") == observation["seat"])
        return self.evidence

    def _search_bid(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        hand = str(observation["hand_ranks"])
        _, score = landlord_estimate(hand, self.bid_samples, self._rng.getrandbits(64))
        want = sum(1 for t in self.bid_thresholds if score >= t)
        return _bid_level(want, observation, legal_actions)
